/** The contact link (the help page and the privacy notice are in help-page-messages.ts): user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). */
/** The "Contact your school" link (on the first screen: kept apart from the help page's long texts). */
export const CONTACT_MSG = {
  contactSchool: 'Contact your school',
  contactSubject: (school: string) => `School photos: ${school}`,
} as const;

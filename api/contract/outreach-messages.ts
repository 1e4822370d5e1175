/** Consent and the PWA's subscription screens (the API's answers and e-mails are in outreach-api-messages.ts): user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). */
import { offer, offerOpen, subscribedAs, subscribedAsPhone } from './outreach-offer-messages';
/**
 * The consent a guardian gives when subscribing (docs/outreach.md, "Consent"). The version is
 * stored with each guardian: change the text, change the version.
 */
export const CONSENT = {
  /** 2026-12-08: one text for both ways of reaching a guardian, SMS and e-mail (docs/outreach.md, "Consent"). */
  version: '2026-12-08',
  offer,
  text: "I am this child's parent or guardian, and I agree that the studio keeps my mobile number or e-mail address and which child or school I follow, to send me an SMS or e-mail when photos are online and before ordering closes. Each of these messages has a link to stop them.",
  marketing: 'Also send me offers and new products from the studio (optional)',
} as const;

/** The PWA's screens for subscribing, confirming, unsubscribing and the staff's messages page. */
export const OUTREACH_SCREEN_MSG = {
  // Parents' screens: the gallery's offer (the first download) says only OUTREACH_OFFER_MSG.
  offerOpen,
  subscribedAs,
  subscribedAsPhone,
  emailLabel: 'E-mail address',
  subscribe: 'Subscribe',
  subscribing: 'Subscribing...',
  checkEmailTitle: 'Check your e-mail',
  checkEmailSentTo: (email: string) => `We sent the link to ${email}. Not there? Look in your spam folder.`,
  subscribeAgain: 'Use another address',
  failed: 'That did not work just now. Please try again.',
  rateLimited: 'Too many tries. Please wait a few minutes and try again.',
  confirmedTitle: 'Your e-mail address is confirmed',
  confirmedWhat: "You'll get an e-mail when the photos are online and a few reminders before ordering closes, at most one a day.",
  confirmedUnsubscribe: 'Each of these e-mails has a link to unsubscribe in one click.',
  invalidTitle: 'This link is invalid or has expired',
  invalidWhat: 'Subscribe again from the gallery to get a new link.',
  linkInvalid: 'This link is not valid. Open it again from our latest e-mail.',
  backToGallery: 'Back to the gallery',
  home: 'Go to the home page',
  unsubscribing: 'Unsubscribing...',
  unsubscribedTitle: "You're unsubscribed",
  unsubscribedFor: (email: string) => `${email} gets no more e-mails about photos, reminders or offers.`,
  orderEmailsStill: 'E-mails about your orders (confirmations, download links) still arrive.',
  tryAgain: 'Try Again',
  restoreHeading: 'Your saved cart',
  restoring: 'Bringing back your cart...',
  restoredTitle: 'Your cart is back',
  restoredLines: (count: number) => `${count} ${count === 1 ? 'item is' : 'items are'} back in your cart.`,
  droppedLines: (count: number) => `${count} could not come back (photo withdrawn or product no longer sold).`,
  nothingRestored: 'Nothing in this cart can be ordered any more.',
  restoreExpired: 'This cart link has expired, or its order was placed.',
  offer,
} as const;

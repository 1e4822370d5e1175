/**
 * What the gallery's offer says before the form is asked for (pwa/src/features/outreach/subscribe-offer.tsx):
 * a parent's first visit carries this file, and not outreach-messages.ts, whose `CONSENT` and
 * `OUTREACH_SCREEN_MSG` take these words from here (docs/performance.md, "Texts on the first screens").
 */
export const offer = 'Tell me when photos are online and before ordering closes';
export const offerOpen = 'Get SMS or e-mails';
export const subscribedAs = (email: string) => `E-mails about these photos go to ${email}.`;
export const subscribedAsPhone = (phone: string) => `SMS about these photos go to ${phone}.`;
export const OUTREACH_OFFER_MSG = { offer, offerOpen, subscribedAs, subscribedAsPhone } as const;

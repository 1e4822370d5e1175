/**
 * The season by SMS (docs/sms.md, "The season by SMS"; "Opting out"): the words of the SMS a
 * guardian's confirmed phone gets, the opt-out page and the staff's preview of what the SMS cost.
 * Each SMS must fit one GSM-7 segment with its two short links, so the wording is short; the
 * composer (api/src/sms/season-sms.ts) shortens the names, never the message.
 */

/** The SMS texts. `link` and `stop` are the short links (`{PUBLIC_URL}/s/{token}`). */
export const SEASON_SMS_MSG = {
  /** The opt-out at the end of every non-transactional SMS. */
  stop: (stop: string) => `Stop SMS: ${stop}`,
  photosOnlineChild: (child: string, school: string, link: string) => `Photos of ${child} (${school}) are online: ${link}`,
  photosOnlineSchool: (school: string, link: string) => `${school} photos are online: ${link}`,
  photosOnline: (link: string) => `School photos are online: ${link}`,
  orderBy: (date: string) => `Order by ${date}.`,
  closingChild: (child: string, school: string, date: string, link: string) => `Photos of ${child} (${school}): ordering closes ${date}. ${link}`,
  closingSchool: (school: string, date: string, link: string) => `${school} photos: ordering closes ${date}. ${link}`,
  closing: (date: string, link: string) => `School photos: ordering closes ${date}. ${link}`,
  cart: (school: string, link: string) => `Your photos from ${school} are still in your cart: ${link}`,
  cartNoSchool: (link: string) => `Your photos are still in your cart: ${link}`,
  unpaid: (orderId: string, school: string, total: string, link: string) => `Order ${orderId} (${school}, ${total}) is unpaid. Pay: ${link}`,
  unpaidNoSchool: (orderId: string, total: string, link: string) => `Order ${orderId} (${total}) is unpaid. Pay: ${link}`,
} as const;

/** The opt-out page of an SMS's "Stop SMS" link and its API (GET changes nothing; the button POSTs). */
export const SMS_STOP_MSG = {
  title: 'Stop SMS',
  prompt: (phone: string) => `Stop the SMS we send to ${phone} about school photos, reminders and carts? Our e-mails about them stop too.`,
  button: 'Stop these SMS',
  stopping: 'Stopping…',
  loading: 'Opening…',
  stopped: (phone: string) => `Done. We will not send SMS about photos, reminders or carts to ${phone} again, nor e-mails about them, unless you subscribe again.`,
  alreadyStopped: (phone: string) => `${phone} already gets no SMS about photos, reminders or carts.`,
  orderSmsStill: 'If you place an order, we still send its confirmation and download link.',
  linkInvalid: 'This link is not valid. Please use the link in the most recent SMS from us.',
  failed: 'Something went wrong. Please try again.',
  tryAgain: 'Try again',
  home: 'Go to the shop',
} as const;

/** The staff preview's SMS column (docs/sms.md, "The season by SMS"). */
export const SMS_PREVIEW_MSG = {
  heading: 'SMS',
  recipients: (n: number) => (n === 1 ? '1 phone' : `${n} phones`),
  segments: (n: number, encoding: string) => (n === 1 ? `1 SMS (${encoding})` : `${n} SMS each (${encoding}): longer than one SMS`),
  cost: (pula: string) => `About ${pula}`,
  costLabel: 'Estimated cost',
  text: 'SMS text',
  noSms: 'No SMS: no confirmed phone follows this',
  skipped: 'Phones left out',
  /** The sample SMS shown before any recipient exists (links stand in). */
  sampleChild: 'your child',
} as const;

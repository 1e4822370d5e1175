/**
 * Transactional SMS of an order (docs/sms.md, "Transactional SMS"): the words of the one SMS an
 * order with a `customerPhone` gets once paid, when its bank transfer is awaited and when that
 * transfer expires. Each must fit one GSM-7 segment with its short link: `fitSms` picks the longest
 * wording that does, and writes names in their closest GSM-7 letters.
 */
import { SMS_MAX_UNITS, smsSegments, toGsm7 } from './sms-text';

/** The wordings of each SMS, longest first; `link` is the short link (`{PUBLIC_URL}/s/{token}`). */
export const ORDER_SMS_MSG = {
  paid: (shop: string, orderId: string, downloads: boolean, link: string) => [
    `${shop}: thank you, order ${orderId} is paid. Your order${downloads ? ' and downloads' : ''}: ${link}`,
    `${shop}: order ${orderId} is paid. Your order${downloads ? ' and downloads' : ''}: ${link}`,
    `Order ${orderId} is paid: ${link}`,
  ],
  transferAwaiting: (shop: string, orderId: string, total: string, deadline: string | null, link: string) => [
    `${shop}: pay ${total} for order ${orderId} by bank transfer, reference ${orderId}${deadline ? `, by ${deadline}` : ''}. Bank details: ${link}`,
    `${shop}: order ${orderId}, pay ${total}, reference ${orderId}${deadline ? `, by ${deadline}` : ''}: ${link}`,
    `Order ${orderId}: pay by bank transfer: ${link}`,
  ],
  transferExpired: (shop: string, orderId: string, days: number, link: string) => [
    `${shop}: your bank transfer for order ${orderId} did not reach us within ${days} days, so the order is not paid. Pay again: ${link}`,
    `${shop}: the bank transfer for order ${orderId} expired unpaid. Pay again: ${link}`,
    `Order ${orderId} is not paid. Pay again: ${link}`,
  ],
} as const;

/** The checkout form's phone field (the PWA): what the number is used for. */
export const ORDER_PHONE_MSG = {
  label: 'Mobile number (optional)',
  hint: 'For one SMS when your order is paid, with the link to your order and downloads.',
} as const;

/**
 * The first wording, in GSM-7, that fits one segment (SMS_MAX_UNITS); the last one, cut to fit
 * before its link, when none does (a very long PUBLIC_URL).
 */
export function fitSms(wordings: readonly string[]): string {
  const texts = wordings.map(toGsm7);
  const fits = texts.find((text) => smsSegments(text).segments === 1 && smsSegments(text).units <= SMS_MAX_UNITS);
  if (fits) return fits;
  const last = texts[texts.length - 1] ?? '';
  // Never cut inside the link: the link is the SMS's last word.
  const space = last.lastIndexOf(' ');
  const link = last.slice(space + 1);
  let head = last.slice(0, space);
  while (head.length > 0 && smsSegments(`${head} ${link}`).units > SMS_MAX_UNITS) head = head.slice(0, -1);
  return head.length > 0 ? `${head} ${link}` : link;
}

/** The shop's name as an SMS starts with it: GSM-7 letters, at most this many characters. */
export const SMS_SHOP_NAME_MAX = 20;
export const smsShopName = (businessName: string): string => toGsm7(businessName).trim().slice(0, SMS_SHOP_NAME_MAX).trim();

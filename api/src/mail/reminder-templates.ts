/**
 * The abandoned-cart and unpaid-order reminders (docs/outreach.md, "Abandoned carts and unpaid
 * orders"): pure functions like templates.ts. Both are non-transactional, so both end with the
 * one-click unsubscribe link (docs/outreach.md, "Unsubscribe in one click").
 */
import { CART_REMINDER_MSG } from '../../contract/messages';
import { formatPula } from '../../contract/money';
import { button, escapeHtml, layout, safeHref } from './html';
import type { EmailContent } from './templates';

export interface ReminderCartLine {
  photoName: string;
  productName: string;
  quantity: number;
}

export interface ReminderOrderLine extends ReminderCartLine {
  totalThebe: number;
}

function footer(unsubscribeUrl: string): { text: string; html: string } {
  return {
    text: `${CART_REMINDER_MSG.unsubscribe} ${unsubscribeUrl}`,
    html: `<p style="font-size:12px;color:#5b6470">${escapeHtml(CART_REMINDER_MSG.unsubscribe)} <a href="${safeHref(unsubscribeUrl)}">${escapeHtml(CART_REMINDER_MSG.unsubscribeLink)}</a></p>`,
  };
}

export function abandonedCartEmail(input: {
  businessName: string;
  schoolName: string;
  lines: readonly ReminderCartLine[];
  restoreUrl: string;
  linkDays: number;
  unsubscribeUrl: string;
}): EmailContent {
  const subject = CART_REMINDER_MSG.cartSubject;
  const intro = CART_REMINDER_MSG.cartIntro(input.schoolName);
  const lines = input.lines.map((line) => CART_REMINDER_MSG.cartLine(line.quantity, line.productName, line.photoName));
  const note = CART_REMINDER_MSG.cartLinkNote(input.linkDays);
  const end = footer(input.unsubscribeUrl);
  const text = [intro, '', ...lines.map((line) => `- ${line}`), '', `${CART_REMINDER_MSG.cartAction}: ${input.restoreUrl}`, '', note, '', input.businessName, '', end.text].join('\n');
  const html = layout(
    input.businessName,
    subject,
    `<p>${escapeHtml(intro)}</p>
<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>
${button(input.restoreUrl, CART_REMINDER_MSG.cartAction)}
<p>Or copy this link into your browser:<br><a href="${safeHref(input.restoreUrl)}">${escapeHtml(input.restoreUrl)}</a></p>
<p>${escapeHtml(note)}</p>
${end.html}`,
  );
  return { subject, text, html };
}

export function unpaidOrderEmail(input: {
  businessName: string;
  customerName: string;
  orderId: string;
  schoolName: string;
  totalThebe: number;
  lines: readonly ReminderOrderLine[];
  payUrl: string;
  unsubscribeUrl: string;
}): EmailContent {
  const subject = CART_REMINDER_MSG.unpaidSubject(input.orderId);
  const intro = CART_REMINDER_MSG.unpaidIntro(input.orderId, input.schoolName);
  const lines = input.lines.map((line) => `${CART_REMINDER_MSG.cartLine(line.quantity, line.productName, line.photoName)}: ${formatPula(line.totalThebe, 'thebe')}`);
  const total = CART_REMINDER_MSG.unpaidTotal(formatPula(input.totalThebe, 'thebe'));
  const end = footer(input.unsubscribeUrl);
  const text = [
    `Hello ${input.customerName},`,
    '',
    intro,
    '',
    ...lines.map((line) => `- ${line}`),
    total,
    '',
    `${CART_REMINDER_MSG.unpaidAction}: ${input.payUrl}`,
    '',
    CART_REMINDER_MSG.unpaidIgnore,
    '',
    input.businessName,
    '',
    end.text,
  ].join('\n');
  const html = layout(
    input.businessName,
    subject,
    `<p>Hello ${escapeHtml(input.customerName)},</p>
<p>${escapeHtml(intro)}</p>
<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>
<p><strong>${escapeHtml(total)}</strong></p>
${button(input.payUrl, CART_REMINDER_MSG.unpaidAction)}
<p>Or copy this link into your browser:<br><a href="${safeHref(input.payUrl)}">${escapeHtml(input.payUrl)}</a></p>
<p>${escapeHtml(CART_REMINDER_MSG.unpaidIgnore)}</p>
${end.html}`,
  );
  return { subject, text, html };
}

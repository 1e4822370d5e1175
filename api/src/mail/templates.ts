import { RESET_LINK_VALIDITY_MS } from '../../contract/constants';
import { formatPula } from '../../contract/money';
import { button, escapeHtml, layout, safeHref } from './html';

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/** Download links expire after 30 days and are re-issued from My Orders (docs/access.md#download-links-for-digital-copies). */
const DOWNLOAD_LINK_VALIDITY = '30 days';

function hoursText(ms: number): string {
  const hours = Math.round(ms / 3_600_000);
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

export function passwordResetEmail(input: { firstName: string; resetUrl: string; businessName: string }): EmailContent {
  const validity = hoursText(RESET_LINK_VALIDITY_MS);
  const subject = `Reset your ${input.businessName} password`;
  const text = [
    `Hello ${input.firstName},`,
    '',
    `We received a request to reset the password of your ${input.businessName} account. Open this link to choose a new password:`,
    '',
    input.resetUrl,
    '',
    `The link is valid for ${validity} and works once. If you did not ask for a new password, ignore this e-mail: your password stays as it is.`,
    '',
    input.businessName,
  ].join('\n');
  const html = layout(
    input.businessName,
    subject,
    `<p>Hello ${escapeHtml(input.firstName)},</p>
<p>We received a request to reset the password of your ${escapeHtml(input.businessName)} account.</p>
${button(input.resetUrl, 'Choose a new password')}
<p>Or copy this link into your browser:<br><a href="${safeHref(input.resetUrl)}">${escapeHtml(input.resetUrl)}</a></p>
<p>The link is valid for ${validity} and works once. If you did not ask for a new password, ignore this e-mail: your password stays as it is.</p>`,
  );
  return { subject, text, html };
}

export function accountCreatedEmail(input: { firstName: string; setPasswordUrl: string; businessName: string }): EmailContent {
  const validity = hoursText(RESET_LINK_VALIDITY_MS);
  const subject = `Your ${input.businessName} account: set your password`;
  const text = [
    `Hello ${input.firstName},`,
    '',
    `An account was created for you when you placed your order with ${input.businessName}. Set a password to see your orders and download your digital photos at any time:`,
    '',
    input.setPasswordUrl,
    '',
    `The link is valid for ${validity}. If it has expired, use "Forgot password" on the sign-in page to get a new one.`,
    '',
    input.businessName,
  ].join('\n');
  const html = layout(
    input.businessName,
    subject,
    `<p>Hello ${escapeHtml(input.firstName)},</p>
<p>An account was created for you when you placed your order with ${escapeHtml(input.businessName)}. Set a password to see your orders and download your digital photos at any time.</p>
${button(input.setPasswordUrl, 'Set your password')}
<p>Or copy this link into your browser:<br><a href="${safeHref(input.setPasswordUrl)}">${escapeHtml(input.setPasswordUrl)}</a></p>
<p>The link is valid for ${validity}. If it has expired, use “Forgot password” on the sign-in page to get a new one.</p>`,
  );
  return { subject, text, html };
}

export interface OrderConfirmationInput {
  businessName: string;
  order: {
    id: string | number;
    customerName: string;
    studentName: string;
    schoolName: string;
    albumName: string;
    /** Decimal string, e.g. "125.50". */
    totalAmount: string;
    items: { productName: string; photoName: string; quantity: number; totalPrice: string }[];
  };
  downloads: { photoName: string; url: string }[];
  ordersUrl: string;
}

export function orderConfirmationEmail(input: OrderConfirmationInput): EmailContent {
  const { order, businessName } = input;
  const total = formatPula(order.totalAmount);
  const subject = `Your ${businessName} order ${order.id} is confirmed`;
  const delivery = `Prints are delivered to ${order.schoolName}: there is no home delivery.`;
  const downloadNote = `Download links are valid for ${DOWNLOAD_LINK_VALIDITY}; you can get new links from My Orders.`;
  const details: [string, string][] = [
    ['Order', String(order.id)],
    ['Student', order.studentName],
    ['School', order.schoolName],
    ...(order.albumName ? [['Album', order.albumName] as [string, string]] : []),
  ];

  const text = [
    `Hello ${order.customerName},`,
    '',
    'Thank you for your order. We have received your payment.',
    '',
    ...details.map(([label, value]) => `${label}: ${value}`),
    '',
    'Items:',
    ...order.items.map((item) => `- ${item.quantity} x ${item.productName}, photo ${item.photoName}: ${formatPula(item.totalPrice)}`),
    '',
    `Total: ${total}`,
    '',
    delivery,
    ...(input.downloads.length > 0
      ? ['', 'Your digital downloads:', ...input.downloads.map((d) => `- ${d.photoName}: ${d.url}`), downloadNote]
      : []),
    '',
    `My Orders: ${input.ordersUrl}`,
    '',
    businessName,
  ].join('\n');

  const cell = 'padding:6px 8px;border-bottom:1px solid #d7dce1;text-align:left';
  const rows = order.items
    .map(
      (item) =>
        `<tr><td style="${cell}">${escapeHtml(item.productName)}<br><span style="color:#555">Photo ${escapeHtml(item.photoName)}</span></td>` +
        `<td style="${cell}">${escapeHtml(item.quantity)}</td><td style="${cell};text-align:right">${escapeHtml(formatPula(item.totalPrice))}</td></tr>`,
    )
    .join('\n');
  const downloadsHtml =
    input.downloads.length > 0
      ? `<h2 style="font-size:16px">Your digital downloads</h2>
<ul>${input.downloads.map((d) => `<li><a href="${safeHref(d.url)}">${escapeHtml(d.photoName)}</a></li>`).join('')}</ul>
<p>${escapeHtml(downloadNote)}</p>`
      : '';
  const html = layout(
    businessName,
    subject,
    `<p>Hello ${escapeHtml(order.customerName)},</p>
<p>Thank you for your order. We have received your payment.</p>
<p>${details.map(([label, value]) => `<strong>${label}:</strong> ${escapeHtml(value)}`).join('<br>')}</p>
<table style="width:100%;border-collapse:collapse">
<tr><th style="${cell}">Item</th><th style="${cell}">Qty</th><th style="${cell};text-align:right">Price</th></tr>
${rows}
<tr><td style="${cell}" colspan="2"><strong>Total</strong></td><td style="${cell};text-align:right"><strong>${escapeHtml(total)}</strong></td></tr>
</table>
<p>${escapeHtml(delivery)}</p>
${downloadsHtml}
${button(input.ordersUrl, 'View My Orders')}`,
  );
  return { subject, text, html };
}

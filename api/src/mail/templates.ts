import { RESET_LINK_VALIDITY_MS, SET_PASSWORD_LINK_VALIDITY_MS } from '../../contract/constants';
import { decimalToThebe, formatPula } from '../../contract/money';
import { ORDER_PACKAGE_MSG, PAYMENT_METHOD_MSG } from '../../contract/messages';
import { WITHDRAWN_MSG } from '../../contract/withdrawn-photos';
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
  if (hours >= 48 && hours % 24 === 0) return `${hours / 24} days`;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

/**
 * An e-mail whose point is one link: the greeting, why it came, the link as a button and as text,
 * how long it is valid. The intro and the note are given as text and as HTML (already escaped).
 */
function linkEmail(input: {
  businessName: string;
  firstName: string;
  subject: string;
  url: string;
  buttonLabel: string;
  intro: { text: string; html: string };
  note: { text: string; html: string };
}): EmailContent {
  const text = [`Hello ${input.firstName},`, '', input.intro.text, '', input.url, '', input.note.text, '', input.businessName].join('\n');
  const html = layout(
    input.businessName,
    input.subject,
    `<p>Hello ${escapeHtml(input.firstName)},</p>
<p>${input.intro.html}</p>
${button(input.url, input.buttonLabel)}
<p>Or copy this link into your browser:<br><a href="${safeHref(input.url)}">${escapeHtml(input.url)}</a></p>
<p>${input.note.html}</p>`,
  );
  return { subject: input.subject, text, html };
}

export function passwordResetEmail(input: { firstName: string; resetUrl: string; businessName: string }): EmailContent {
  const note = `The link is valid for ${hoursText(RESET_LINK_VALIDITY_MS)} and works once. If you did not ask for a new password, ignore this e-mail: your password stays as it is.`;
  return linkEmail({
    businessName: input.businessName,
    firstName: input.firstName,
    subject: `Reset your ${input.businessName} password`,
    url: input.resetUrl,
    buttonLabel: 'Choose a new password',
    intro: {
      text: `We received a request to reset the password of your ${input.businessName} account. Open this link to choose a new password:`,
      html: `We received a request to reset the password of your ${escapeHtml(input.businessName)} account.`,
    },
    note: { text: note, html: note },
  });
}

export function accountCreatedEmail(input: { firstName: string; setPasswordUrl: string; businessName: string }): EmailContent {
  const validity = hoursText(SET_PASSWORD_LINK_VALIDITY_MS);
  return linkEmail({
    businessName: input.businessName,
    firstName: input.firstName,
    subject: `Your ${input.businessName} account: set your password`,
    url: input.setPasswordUrl,
    buttonLabel: 'Set your password',
    intro: {
      text: `An account was created for you when you placed your order with ${input.businessName}. Set a password to see your orders and download your digital photos at any time:`,
      html: `An account was created for you when you placed your order with ${escapeHtml(input.businessName)}. Set a password to see your orders and download your digital photos at any time.`,
    },
    note: {
      text: `The link is valid for ${validity}. If it has expired, use "Forgot password" on the sign-in page to get a new one.`,
      html: `The link is valid for ${validity}. If it has expired, use “Forgot password” on the sign-in page to get a new one.`,
    },
  });
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
    /** Single-product lines. */
    items: { productName: string; photoName: string; quantity: number; totalPrice: string }[];
    /** Package lines, each with its contents (docs/packages-and-coupons.md, "Where packages and discounts show"). */
    packages: {
      name: string;
      quantity: number;
      totalPrice: string;
      /** What its contents cost as single products. */
      itemsValue: string;
      /** Named when the order is for more than one child. */
      child: string | null;
      contents: { productName: string; photoName: string; quantity: number }[];
      /** A package ordered before picture day without photos yet: "Photos to choose after picture day" (docs/prepaid.md). */
      note?: string | null;
    }[];
    /** Decimal strings; the discounts are shown (with the subtotal) when either applies. */
    subtotal: string;
    siblingDiscount: string;
    couponCode: string | null;
    couponDiscount: string;
  };
  downloads: { photoName: string; url: string }[];
  /** Lines whose photo was withdrawn when the payment came: named as not delivered, to be refunded. */
  notDelivered?: { productName: string; photoName: string; quantity: number }[];
  ordersUrl: string;
}

export function orderConfirmationEmail(input: OrderConfirmationInput): EmailContent {
  const { order, businessName } = input;
  const total = formatPula(order.totalAmount);
  const subject = `Your ${businessName} order ${order.id} is confirmed`;
  const delivery = `Prints are delivered to ${order.schoolName}: there is no home delivery.`;
  const downloadNote = `Download links are valid for ${DOWNLOAD_LINK_VALIDITY}; you can get new links from My Orders.`;
  const discounts = discountRows(order);
  const notDelivered = input.notDelivered ?? [];
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
    ...order.items.map((item) => `- ${item.quantity} x ${item.productName}, ${item.photoName}: ${formatPula(item.totalPrice)}`),
    ...order.packages.flatMap((pkg) => [
      `- ${pkg.quantity} x ${packageTitle(pkg)}: ${formatPula(pkg.totalPrice)}`,
      ...pkg.contents.map((line) => `    ${ORDER_PACKAGE_MSG.contentLine(line.quantity, line.productName, line.photoName)}`),
      ...(pkg.note ? [`    ${pkg.note}`] : []),
      ...(saving(pkg) > 0 ? [`    ${ORDER_PACKAGE_MSG.saved(formatPula(saving(pkg), 'thebe'))}`] : []),
    ]),
    '',
    ...discounts.map(([label, amount]) => `${label}: ${amount}`),
    `${ORDER_PACKAGE_MSG.total}: ${total}`,
    '',
    delivery,
    ...(notDelivered.length > 0
      ? ['', `${WITHDRAWN_MSG.notDeliveredTitle}:`, WITHDRAWN_MSG.notDeliveredIntro, ...notDelivered.map((line) => `- ${WITHDRAWN_MSG.notDeliveredLine(line.quantity, line.productName, line.photoName)}`)]
      : []),
    ...(input.downloads.length > 0
      ? ['', 'Your digital copies:', ...input.downloads.map((d) => `- ${d.photoName}: ${d.url}`), downloadNote]
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
        `<tr><td style="${cell}">${escapeHtml(item.productName)}<br><span style="color:#555">${escapeHtml(item.photoName)}</span></td>` +
        `<td style="${cell}">${escapeHtml(item.quantity)}</td><td style="${cell};text-align:right">${escapeHtml(formatPula(item.totalPrice))}</td></tr>`,
    )
    .join('\n');
  const muted = 'color:#555;font-size:13px';
  const packageRows = order.packages
    .map(
      (pkg) =>
        `<tr><td style="${cell}">${escapeHtml(packageTitle(pkg))}<br><span style="${muted}">${escapeHtml(ORDER_PACKAGE_MSG.contents)}: ` +
        `${pkg.contents.map((line) => escapeHtml(ORDER_PACKAGE_MSG.contentLine(line.quantity, line.productName, line.photoName))).join('<br>')}</span>` +
        `${pkg.note ? `<br><span style="${muted}">${escapeHtml(pkg.note)}</span>` : ''}` +
        `${saving(pkg) > 0 ? `<br><span style="${muted}">${escapeHtml(ORDER_PACKAGE_MSG.saved(formatPula(saving(pkg), 'thebe')))}</span>` : ''}</td>` +
        `<td style="${cell}">${escapeHtml(pkg.quantity)}</td><td style="${cell};text-align:right">${escapeHtml(formatPula(pkg.totalPrice))}</td></tr>`,
    )
    .join('\n');
  const discountHtml = discounts
    .map(([label, amount]) => `<tr><td style="${cell}" colspan="2">${escapeHtml(label)}</td><td style="${cell};text-align:right">${escapeHtml(amount)}</td></tr>`)
    .join('\n');
  const downloadsHtml =
    input.downloads.length > 0
      ? `<h2 style="font-size:16px">Your digital copies</h2>
<ul>${input.downloads.map((d) => `<li><a href="${safeHref(d.url)}">${escapeHtml(d.photoName)}</a></li>`).join('')}</ul>
<p>${escapeHtml(downloadNote)}</p>`
      : '';
  const notDeliveredHtml =
    notDelivered.length > 0
      ? `<h2 style="font-size:16px">${escapeHtml(WITHDRAWN_MSG.notDeliveredTitle)}</h2>
<p>${escapeHtml(WITHDRAWN_MSG.notDeliveredIntro)}</p>
<ul>${notDelivered.map((line) => `<li>${escapeHtml(WITHDRAWN_MSG.notDeliveredLine(line.quantity, line.productName, line.photoName))}</li>`).join('')}</ul>`
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
${packageRows}
${discountHtml}
<tr><td style="${cell}" colspan="2"><strong>${escapeHtml(ORDER_PACKAGE_MSG.total)}</strong></td><td style="${cell};text-align:right"><strong>${escapeHtml(total)}</strong></td></tr>
</table>
<p>${escapeHtml(delivery)}</p>
${notDeliveredHtml}
${downloadsHtml}
${button(input.ordersUrl, 'View My Orders')}`,
  );
  return { subject, text, html };
}

type ConfirmedOrder = OrderConfirmationInput['order'];

/** "Family Pack" or, in an order for several children, "Family Pack for Neo". */
const packageTitle = (pkg: ConfirmedOrder['packages'][number]): string => (pkg.child ? `${pkg.name} ${ORDER_PACKAGE_MSG.forChild(pkg.child)}` : pkg.name);

/** What the package saved against its contents as single products, in thebe (never negative). */
const saving = (pkg: ConfirmedOrder['packages'][number]): number => Math.max(0, (decimalToThebe(pkg.itemsValue) ?? 0) - (decimalToThebe(pkg.totalPrice) ?? 0));

/** Subtotal, sibling discount and coupon, in the order they apply, when the order has a discount; else nothing. */
function discountRows(order: ConfirmedOrder): [string, string][] {
  const sibling = decimalToThebe(order.siblingDiscount) ?? 0;
  const coupon = decimalToThebe(order.couponDiscount) ?? 0;
  if (sibling === 0 && coupon === 0 && order.couponCode === null) return [];
  return [
    [ORDER_PACKAGE_MSG.subtotal, formatPula(order.subtotal)],
    ...(sibling > 0 ? [[ORDER_PACKAGE_MSG.siblingDiscount, ORDER_PACKAGE_MSG.minus(formatPula(sibling, 'thebe'))] as [string, string]] : []),
    ...(order.couponCode !== null ? [[ORDER_PACKAGE_MSG.couponDiscount(order.couponCode), ORDER_PACKAGE_MSG.minus(formatPula(coupon, 'thebe'))] as [string, string]] : []),
  ];
}

/** An unconfirmed bank transfer expired (docs/payments.md, "Payments that settle later"): one e-mail, with a link to pay again. */
export function paymentExpiredEmail(input: { businessName: string; customerName: string; orderId: string; days: number; payAgainUrl: string }): EmailContent {
  const subject = PAYMENT_METHOD_MSG.expiredEmailSubject(input.orderId);
  const body = PAYMENT_METHOD_MSG.expiredEmailBody(input.orderId, input.days);
  const text = [`Hello ${input.customerName},`, '', body, '', `${PAYMENT_METHOD_MSG.expiredEmailAction}: ${input.payAgainUrl}`, '', input.businessName].join('\n');
  const html = layout(
    input.businessName,
    subject,
    `<p>Hello ${escapeHtml(input.customerName)},</p>
<p>${escapeHtml(body)}</p>
${button(input.payAgainUrl, PAYMENT_METHOD_MSG.expiredEmailAction)}
<p>Or copy this link into your browser:<br><a href="${safeHref(input.payAgainUrl)}">${escapeHtml(input.payAgainUrl)}</a></p>`,
  );
  return { subject, text, html };
}

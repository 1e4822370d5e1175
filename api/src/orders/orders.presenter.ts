import { thebeToDecimal } from '../../contract/money';
import type { AwaitingPayment, Order, OrderQuote, OrderSummary } from '../../contract/orders';
import { PAYMENT_METHOD_DEFINITIONS } from '../../contract/payment-methods';
import { familyPhotoNumber } from '../../contract/photo-names';
import { toIso } from '../db/knex';
import type { OrderItemRecord, OrderPackageRecord, OrderRecord } from './orders.repository';
import type { PricedOrder } from './pricing';

/** Whether the order is paid for good: paid and not cancelled since. */
export const isPaid = (order: Pick<OrderRecord, 'paymentStatus' | 'orderStatus'>): boolean =>
  order.paymentStatus === 'completed' && order.orderStatus !== 'cancelled';

/**
 * The line's photo was moved to another child, or back to the tray, after it was ordered: the
 * order's family no longer owns it and staff check and refund (docs/access.md, "Withdrawn photos").
 */
export const lineMovedAfterSale = (item: Pick<OrderItemRecord, 'photoId' | 'studentId' | 'photoNow'>): boolean =>
  item.photoId !== null && item.photoNow !== null && (item.photoNow.studentId !== item.studentId || item.photoNow.inTray);

/**
 * The line's photo is no longer shown to the order's family: gone, moved, withheld (a card, the
 * tray, waiting for review), do not publish, or its class back to draft. No image of it and no
 * download is served. A line erased at the family's request (no photo) is text, not withdrawn.
 */
export const lineWithdrawn = (item: Pick<OrderItemRecord, 'photoId' | 'studentId' | 'photoNow'>): boolean => {
  if (item.photoId === null) return false;
  const now = item.photoNow;
  return now === null || lineMovedAfterSale(item) || now.withheld || now.doNotPublish || !now.published;
};

/**
 * Who an order is shown to: staff see everything; the family (the order's customer, or the browser
 * that placed it) sees its order without the camera's file names; anyone else with the id only the
 * summary (docs/access.md, "Reading an order").
 */
export type OrderAudience = 'staff' | 'family';

/**
 * "Awaiting payment confirmation" (docs/payments.md, "Payments that settle later"): the order's
 * latest payment is of a method that settles later, the gateway received it (status 5) and it has
 * not settled; the order is neither paid nor cancelled. The bank transfer's reference is the order
 * number (PayWeb3's REFERENCE), its deadline when it expires.
 */
export function awaitingPaymentOf(order: Pick<OrderRecord, 'id' | 'paymentStatus' | 'orderStatus' | 'latestPayment'>): AwaitingPayment | null {
  const latest = order.latestPayment;
  if (!latest?.method || latest.status !== 'pending') return null;
  if (order.paymentStatus === 'completed' || order.orderStatus === 'cancelled') return null;
  const definition = PAYMENT_METHOD_DEFINITIONS[latest.method];
  if (!definition.settlesLater) return null;
  return { method: latest.method, reference: order.id, deadline: definition.expires && latest.expiresAt !== null ? toIso(latest.expiresAt) : null };
}

/** What someone with only the order's id sees: statuses and the total. */
export function presentOrderSummary(order: OrderRecord): OrderSummary {
  return {
    id: order.id,
    orderStatus: order.orderStatus,
    status: order.orderStatus,
    paymentStatus: order.paymentStatus,
    totalAmount: thebeToDecimal(order.totalThebe),
    testPayment: order.testPayment,
    awaitingPayment: awaitingPaymentOf(order),
    summary: true,
  };
}

/**
 * Whose a line is, as its reader may be told (docs/access.md, "Whose photo it is"): staff see every
 * child; the family only a child it held by code when it placed the order. Any other line shows no
 * child id and, as its name, the student name the parent typed, like every such line of the order,
 * so nothing tells which of them are of the same child.
 */
function lineChild(
  line: { studentId: number | null; childHeld: boolean },
  rosterName: string | null,
  order: Pick<OrderRecord, 'studentName'>,
  audience: OrderAudience,
): { studentId: number | null; studentName: string } {
  if (audience === 'staff' || line.childHeld) return { studentId: line.studentId, studentName: rosterName ?? order.studentName };
  return { studentId: null, studentName: order.studentName };
}

/** Allow-listed output of an order; download links only once it is paid. */
export function presentOrder(order: OrderRecord, downloadUrl: (orderId: string, itemId: number) => string, audience: OrderAudience): Order {
  const paid = isPaid(order);
  return {
    id: order.id,
    customerName: order.customerName,
    customerEmail: order.customerEmail,
    customerPhone: order.customerPhone,
    studentName: order.studentName,
    totalAmount: thebeToDecimal(order.totalThebe),
    orderStatus: order.orderStatus,
    status: order.orderStatus,
    paymentStatus: order.paymentStatus,
    paymentReference: order.paymentReference,
    notes: order.notes,
    createdAt: toIso(order.createdAt),
    school: { id: order.schoolId, name: order.schoolName },
    albumName: order.albumName,
    testPayment: order.testPayment,
    duplicatePayments: order.duplicatePayments,
    paidAfterCancel: order.paidAfterCancel,
    paidWithWithdrawn: order.paidWithWithdrawn,
    printBatchId: order.printBatchId,
    paymentMethod: order.paidMethod ?? order.latestPayment?.method ?? null,
    gatewayPayMethod: order.gatewayPayMethod,
    gatewayPayMethodDetail: order.gatewayPayMethodDetail,
    awaitingPayment: awaitingPaymentOf(order),
    paidAfterExpiry: order.paidAfterExpiry,
    movedPhotos: order.items.filter(lineMovedAfterSale).length,
    items: order.items.map((item) => presentItem(order, item, paid, downloadUrl, audience)),
    packages: order.packages.map((pkg) => ({
      id: pkg.id,
      packageId: pkg.packageId,
      name: pkg.name,
      quantity: pkg.quantity,
      unitPrice: thebeToDecimal(pkg.unitThebe),
      totalPrice: thebeToDecimal(pkg.totalThebe),
      itemsValue: thebeToDecimal(pkg.itemsValueThebe),
      ...lineChild(pkg, pkg.studentName, order, audience),
      ...packageChoice(order, pkg),
    })),
    subtotal: thebeToDecimal(order.subtotalThebe),
    siblingDiscount: thebeToDecimal(order.siblingDiscountThebe),
    couponCode: order.couponCode,
    couponDiscount: thebeToDecimal(order.couponDiscountThebe),
  };
}

/**
 * Where a package line's photos stand (docs/prepaid.md, "Choosing the photos"): chosen or not, by
 * whom, and, for a line ordered before picture day, the closing date they are due by.
 */
export function packageChoice(order: Pick<OrderRecord, 'items' | 'schoolClosingDate'>, pkg: OrderPackageRecord): Pick<Order['packages'][number], 'photosChosen' | 'posesChosenBy' | 'posesDue' | 'prepaid' | 'noPhotoAtClosing'> {
  const photosChosen = order.items.some((item) => item.orderPackageId === pkg.id);
  return {
    photosChosen,
    posesChosenBy: photosChosen ? (pkg.posesChosenBy ?? 'family') : null,
    posesDue: pkg.prepaid ? order.schoolClosingDate : null,
    prepaid: pkg.prepaid,
    noPhotoAtClosing: !photosChosen && pkg.noPhotoAt !== null,
  };
}

function presentItem(
  order: Pick<OrderRecord, 'id' | 'studentName'>,
  item: OrderItemRecord,
  paid: boolean,
  downloadUrl: (orderId: string, itemId: number) => string,
  audience: OrderAudience,
): Order['items'][number] {
  const digital = item.kind === 'digital';
  const withdrawn = lineWithdrawn(item);
  // Families never get the camera's file name (docs/access.md, "Reading an order"); a line erased
  // at the family's request keeps its removal text, which is no file name.
  const erasedText = item.photoId === null && item.photoOriginalName === null ? item.photoName : null;
  const staff = audience === 'staff';
  return {
    id: item.id,
    photoId: item.photoId,
    albumId: item.albumId,
    photoName: staff ? item.photoName : erasedText,
    photoOriginalNumber: item.photoOriginalNumber,
    photoOriginalName: staff ? item.photoOriginalName : null,
    photoFilename: item.photoFilename,
    photoNumber: familyPhotoNumber({ originalName: item.photoOriginalName, name: item.photoName }),
    // Staff read a name two children of the class share with the number (docs/access.md, "Two children with the same name").
    ...lineChild(item, audience === 'staff' ? (item.lineStudentLabel ?? item.lineStudentName) : item.lineStudentName, order, audience),
    // The wire calls the product's id `productType`.
    productType: item.productId,
    productName: item.productName,
    productDescription: item.productDescription,
    quantity: item.quantity,
    unitPrice: thebeToDecimal(item.unitThebe),
    totalPrice: thebeToDecimal(item.totalThebe),
    digital,
    downloadUrl: paid && digital && item.photoId !== null && !withdrawn ? downloadUrl(order.id, item.id) : null,
    withdrawn,
    movedAfterSale: lineMovedAfterSale(item),
    packageLineId: item.orderPackageId,
  };
}

/** The cart's quote (`POST /api/orders/quote`): each line as the server prices it, in the order sent, and the discounts. */
export function presentQuote(priced: PricedOrder): OrderQuote {
  return {
    lines: priced.quoted.map((quoted) =>
      quoted.kind === 'single'
        ? {
            packageId: null,
            productType: quoted.line.product.id,
            quantity: quoted.line.quantity,
            unitPrice: thebeToDecimal(quoted.line.unitThebe),
            totalPrice: thebeToDecimal(quoted.line.totalThebe),
            itemsValue: null,
            // Only a child the family holds by code (docs/access.md, "Whose photo it is").
            studentId: quoted.line.childHeld ? quoted.line.photo.studentId : null,
          }
        : {
            packageId: quoted.package.package.id,
            productType: null,
            quantity: quoted.package.quantity,
            unitPrice: thebeToDecimal(quoted.package.unitThebe),
            totalPrice: thebeToDecimal(quoted.package.totalThebe),
            itemsValue: thebeToDecimal(quoted.package.itemsValueThebe),
            studentId: quoted.package.childHeld ? quoted.package.studentId : null,
          },
    ),
    subtotal: thebeToDecimal(priced.subtotalThebe),
    siblingDiscount: thebeToDecimal(priced.siblingDiscountThebe),
    siblingPercent: priced.siblingPercent,
    couponCode: priced.coupon?.rule.code ?? null,
    couponDiscount: thebeToDecimal(priced.coupon?.discountThebe ?? 0),
    total: thebeToDecimal(priced.totalThebe),
  };
}

/** Order creation (with an idempotency key) and payment initiation (docs/payments.md). */
import type { Order, OrderQuote, PaymentInitiateResponse } from '@contract/orders';
import { thebeToDecimal } from '@contract/money';
import type { PaymentMethodId } from '@contract/payment-methods';
import { apiRequest } from '../../lib/api-client';
import { toThebe } from '../../lib/cart';
import type { CartLine } from '../../lib/storage';

export interface CheckoutDetails {
  customerName: string;
  customerEmail: string;
  customerPhone: string | null;
  studentName: string;
  notes: string | null;
}

/**
 * An order line as the server takes it: a single product unchanged, a package as
 * `{ packageId, photos, quantity, unitPrice, totalPrice }` (docs/packages-and-coupons.md, "Filling a package"),
 * a package paid before picture day as `{ packageId, studentId, photos: [], ... }`.
 */
function orderLine(line: CartLine) {
  const prices = { quantity: line.quantity, unitPrice: thebeToDecimal(toThebe(line.unitPrice)), totalPrice: thebeToDecimal(toThebe(line.totalPrice)) };
  // Paid before picture day (docs/packages-and-coupons.md, "Ordering before picture day"): the child, no photos yet.
  if (line.package && line.package.photos.length === 0) {
    return { packageId: line.package.packageId, packageName: line.productName, studentId: line.studentId ?? null, photos: [], ...prices };
  }
  if (line.package) {
    return {
      packageId: line.package.packageId,
      packageName: line.productName,
      photos: line.package.photos.map((photo) => ({ photoId: photo.photoId, albumId: photo.albumId })),
      ...prices,
    };
  }
  return {
    photoId: line.photoId,
    albumId: line.albumId,
    productType: line.productType,
    productName: line.productName,
    productDescription: line.productDescription,
    ...prices,
  };
}

/** What the cart adds up to before any discount. */
export const linesTotalThebe = (lines: readonly CartLine[]): number => lines.reduce((sum, line) => sum + toThebe(line.totalPrice), 0);

/**
 * The order: `totalAmount` is what the parent was shown to pay, the quote's total (after the
 * family discount and the coupon), else the lines' sum; the server refuses any other (409).
 */
export function orderBody(schoolId: number, lines: readonly CartLine[], details: CheckoutDetails, priced: { couponCode?: string | null; total?: string | null } = {}) {
  return {
    schoolId,
    ...details,
    totalAmount: priced.total ?? thebeToDecimal(linesTotalThebe(lines)),
    items: lines.map(orderLine),
    ...(priced.couponCode ? { couponCode: priced.couponCode } : {}),
  };
}

/** The request of `POST /api/orders/quote`: the same lines and coupon the order will carry. */
export const quoteBody = (schoolId: number, lines: readonly CartLine[], couponCode: string | null) => ({
  schoolId,
  items: lines.map(orderLine),
  ...(couponCode ? { couponCode } : {}),
});

/** The server's pricing of the cart (docs/packages-and-coupons.md, "The order of discounts"), before paying. */
export const quoteOrder = (body: ReturnType<typeof quoteBody>, signal?: AbortSignal) =>
  apiRequest<OrderQuote>('/api/orders/quote', { method: 'POST', body, auth: 'customer', signal });

export const createOrder = (body: ReturnType<typeof orderBody>, idempotencyKey: string) =>
  apiRequest<{ order: Order; customerCreated: boolean }>('/api/orders', {
    method: 'POST',
    body,
    auth: 'customer',
    headers: { 'Idempotency-Key': idempotencyKey },
  });

/**
 * The order as the browser has it: the whole order, or only its id and total (docs/access.md,
 * "Reading an order"), and the method the parent chose (docs/payments.md, "Choosing a method";
 * absent, the server takes the first enabled one).
 */
export const initiatePayment = (
  order: Pick<Order, 'id' | 'totalAmount'> & Partial<Pick<Order, 'customerName' | 'customerEmail' | 'customerPhone'>>,
  method?: PaymentMethodId,
) =>
  apiRequest<PaymentInitiateResponse>('/api/payment/initiate', {
    method: 'POST',
    auth: 'customer',
    body: {
      orderId: order.id,
      method,
      amount: order.totalAmount,
      customerName: order.customerName,
      customerEmail: order.customerEmail,
      customerPhone: order.customerPhone,
      returnUrl: `${window.location.origin}/order-confirmation/${order.id}`,
      notifyUrl: `${window.location.origin}/api/payment/notify`,
    },
  });

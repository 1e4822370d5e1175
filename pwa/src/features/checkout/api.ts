/** Order creation (with an idempotency key) and payment initiation (docs/payments.md). */
import type { Order, PaymentInitiateResponse } from '@contract/orders';
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

export function orderBody(schoolId: number, lines: readonly CartLine[], details: CheckoutDetails) {
  const total = lines.reduce((sum, line) => sum + toThebe(line.totalPrice), 0);
  return {
    schoolId,
    ...details,
    totalAmount: thebeToDecimal(total),
    items: lines.map((line) => ({
      photoId: line.photoId,
      albumId: line.albumId,
      productType: line.productType,
      productName: line.productName,
      productDescription: line.productDescription,
      quantity: line.quantity,
      unitPrice: thebeToDecimal(toThebe(line.unitPrice)),
      totalPrice: thebeToDecimal(toThebe(line.totalPrice)),
    })),
  };
}

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

/**
 * How an order was paid, for staff (docs/payments.md, "Payment methods"): the method the parent
 * chose and what the gateway reported (PayWeb3 `PAY_METHOD` and `PAY_METHOD_DETAIL`), on screen as
 * "Bank transfer · Gateway: BT (SID)" and in the CSV export as "Bank transfer (BT SID)".
 */
import { PAYMENT_METHOD_MSG } from '@contract/messages';
import { paymentMethodForPayMethod } from '@contract/payment-methods';
import type { Order } from '@contract/orders';

type Paid = Pick<Order, 'paymentMethod' | 'gatewayPayMethod' | 'gatewayPayMethodDetail'>;

const clean = (value: string | null): string => (value ?? '').trim();

/** "BT (SID)", "CC (Visa)", "EW"; null when the gateway has not reported a method. */
export function reportedMethod(order: Paid): string | null {
  const code = clean(order.gatewayPayMethod);
  if (!code) return null;
  const detail = clean(order.gatewayPayMethodDetail);
  return detail ? `${code} (${detail})` : code;
}

/** "Bank transfer · Gateway: BT (SID)"; null for an order no payment method is known for. */
export function staffPaymentMethod(order: Paid): string | null {
  const chosen = order.paymentMethod ? PAYMENT_METHOD_MSG.methods[order.paymentMethod].label : null;
  const reported = reportedMethod(order);
  if (!chosen && !reported) return null;
  const first = chosen ?? PAYMENT_METHOD_MSG.notChosen;
  return reported ? `${first} · ${PAYMENT_METHOD_MSG.staffReported}: ${reported}` : first;
}

/**
 * The CSV's "Payment Method": the chosen method's label (or, for a payment begun without a
 * choice, the method the gateway's code stands for) and the reported codes when known:
 * "Bank transfer (BT SID)", "Card (CC Visa)", "Mobile money (e-wallet)"; empty when unknown.
 */
export function csvPaymentMethod(order: Paid): string {
  const methodId = order.paymentMethod ?? paymentMethodForPayMethod(order.gatewayPayMethod);
  const label = methodId ? PAYMENT_METHOD_MSG.methods[methodId].label : '';
  const codes = [clean(order.gatewayPayMethod), clean(order.gatewayPayMethodDetail)].filter(Boolean).join(' ');
  if (!codes) return label;
  return label ? `${label} (${codes})` : codes;
}

/** Status badges (docs/statuses.md): fixed colours for known values, words not codes, neutral for the rest. */
import { ORDER_STATUS_LABELS, type OrderStatus } from '@contract/constants';
import { Badge, type BadgeTone } from '../../components/ui/badge';

const ORDER_TONES: Record<string, BadgeTone> = {
  pending: 'yellow',
  paid: 'blue',
  processing: 'purple',
  shipped: 'indigo',
  delivered: 'green',
  cancelled: 'red',
};
const PAYMENT_TONES: Record<string, BadgeTone> = { pending: 'yellow', completed: 'green', failed: 'red' };

export const words = (value: string) => value.replace(/_/g, ' ').replace(/^\w/, (first) => first.toUpperCase());

export const orderStatusLabel = (status: string) => ORDER_STATUS_LABELS[status as OrderStatus] ?? words(status);

export function OrderStatusBadge({ status }: { status: string }) {
  return <Badge tone={ORDER_TONES[status] ?? 'neutral'}>{orderStatusLabel(status)}</Badge>;
}

export function PaymentStatusBadge({ status }: { status: string }) {
  return <Badge tone={PAYMENT_TONES[status] ?? 'neutral'}>Payment {words(status).toLowerCase()}</Badge>;
}

/** A cancelled order waits for no payment: "Payment pending" beside "Cancelled" would say it does. */
export const showsPaymentBadge = (status: string, paymentStatus: string) => !(status === 'cancelled' && paymentStatus === 'pending');

/**
 * The badges of an order on a parent's screen: an unpaid order's status ("Pending Payment") says
 * what its payment badge says, so it is left out ("Payment failed" alone, never beside "Pending
 * Payment"); a cancelled order never paid shows "Cancelled" alone.
 */
export function OrderBadges({ status, paymentStatus }: { status: string; paymentStatus: string }) {
  return (
    <div className="row">
      {status === 'pending' ? null : <OrderStatusBadge status={status} />}
      {showsPaymentBadge(status, paymentStatus) ? <PaymentStatusBadge status={paymentStatus} /> : null}
    </div>
  );
}

/**
 * A payment by a method that settles later, received by the gateway but not yet confirmed
 * (docs/payments.md, "Payments that settle later"): what the parent must do. For a bank transfer,
 * the reference to quote and the deadline (Botswana time, like the app's other dates); for mobile
 * money, confirm on the phone.
 */
import { formatDate } from '@contract/format';
import { PAYMENT_METHOD_MSG } from '@contract/messages';
import type { AwaitingPayment } from '@contract/orders';

/** The instruction in one sentence. */
export function awaitingText(awaiting: AwaitingPayment): string {
  if (awaiting.method === 'bank_transfer') {
    return awaiting.deadline
      ? PAYMENT_METHOD_MSG.awaitingBankTransfer(awaiting.reference, formatDate(awaiting.deadline, 'dateTime'))
      : PAYMENT_METHOD_MSG.awaitingBankTransferOpen(awaiting.reference);
  }
  return PAYMENT_METHOD_MSG.awaitingEwallet;
}

/** The reference and the deadline as a list, for a bank transfer (nothing for other methods). */
export function AwaitingPaymentDetails({ awaiting }: { awaiting: AwaitingPayment }) {
  if (awaiting.method !== 'bank_transfer') return null;
  return (
    <dl className="details" style={{ margin: 'var(--space-2) 0 0' }}>
      <dt>{PAYMENT_METHOD_MSG.awaitingReference}</dt>
      <dd>
        <strong>{awaiting.reference}</strong>
      </dd>
      {awaiting.deadline ? (
        <>
          <dt>{PAYMENT_METHOD_MSG.awaitingDeadline}</dt>
          <dd>{formatDate(awaiting.deadline, 'dateTime')}</dd>
        </>
      ) : null}
    </dl>
  );
}

/**
 * A payment by a method that settles later, received by the gateway but not yet confirmed
 * (docs/payments.md, "Payments that settle later"): what the parent must do. For a bank transfer,
 * the reference to quote and the deadline (Botswana time, like the app's other dates); for mobile
 * money, confirm on the phone. A bank transfer also shows the shop's account (account name, bank,
 * number, branch code) from the server's configuration (docs/payments.md, "Paying by bank
 * transfer"); with none configured it points to the details PayGate's page showed.
 */
import { formatDate } from '@contract/format';
import { useQuery } from '@tanstack/react-query';
import { PAYMENT_METHOD_MSG } from '@contract/messages';
import type { AwaitingPayment } from '@contract/orders';
import { PARENT_CHECKOUT_MSG } from '@contract/parent-checkout';
import { paymentMethodsQuery } from '../../lib/payment-methods';

/** The instruction in one sentence. */
export function awaitingText(awaiting: AwaitingPayment): string {
  if (awaiting.method === 'bank_transfer') {
    return awaiting.deadline
      ? PAYMENT_METHOD_MSG.awaitingBankTransfer(awaiting.reference, formatDate(awaiting.deadline, 'dateTime'))
      : PAYMENT_METHOD_MSG.awaitingBankTransferOpen(awaiting.reference);
  }
  return PAYMENT_METHOD_MSG.awaitingEwallet;
}

/**
 * Everything needed to pay a bank transfer, as a list: the shop's account, the reference and the
 * deadline (nothing for other methods).
 */
export function AwaitingPaymentDetails({ awaiting }: { awaiting: AwaitingPayment }) {
  const methods = useQuery({ ...paymentMethodsQuery(), enabled: awaiting.method === 'bank_transfer' });
  if (awaiting.method !== 'bank_transfer') return null;
  // Unknown while the list loads (or a list kept from before accounts were listed): nothing said yet.
  const account = methods.data?.find((method) => method.id === 'bank_transfer')?.bankAccount;
  return (
    <>
      {account ? <p style={{ margin: 'var(--space-2) 0 0', fontWeight: 600 }}>{PARENT_CHECKOUT_MSG.bankDetailsTitle}</p> : null}
      <dl className="details" style={{ margin: 'var(--space-2) 0 0' }}>
        {account ? (
          <>
            <dt>{PARENT_CHECKOUT_MSG.bankAccountName}</dt>
            <dd>{account.accountName}</dd>
            <dt>{PARENT_CHECKOUT_MSG.bankName}</dt>
            <dd>{account.bankName}</dd>
            <dt>{PARENT_CHECKOUT_MSG.bankAccountNumber}</dt>
            <dd>
              <strong>{account.accountNumber}</strong>
            </dd>
            {account.branchCode ? (
              <>
                <dt>{PARENT_CHECKOUT_MSG.bankBranchCode}</dt>
                <dd>{account.branchCode}</dd>
              </>
            ) : null}
          </>
        ) : null}
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
      {account === null ? <p style={{ margin: 'var(--space-2) 0 0' }}>{PARENT_CHECKOUT_MSG.bankDetailsOnGateway}</p> : null}
    </>
  );
}

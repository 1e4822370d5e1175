import { formatDate } from '@contract/format';
import { formatPula } from '@contract/money';
import { HARDENING_MSG, PAYMENT_METHOD_MSG, REVIEW_MSG } from '@contract/messages';
import { REVIEW_SCREEN_MSG } from '@contract/staff-screen-messages';
import type { Order } from '@contract/orders';
import { Badge } from '../../../components/ui/badge';
import { Dialog } from '../../../components/ui/dialog';
import { PAYMENT_TONE, STATUS_TONE, statusLabel } from '../common/status';
import { itemPhotoLabel } from '@contract/photo-names';
import { staffPaymentMethod } from './payment-method';

/** Every item of an order: photo name, original number, product, quantity and price. */
export function OrderDetailDialog({ order, onClose }: { order: Order | null; onClose: () => void }) {
  const method = order ? staffPaymentMethod(order) : null;
  return (
    <Dialog open={order !== null} onOpenChange={(open) => !open && onClose()} title={order ? `Order #${order.id}` : 'Order'} size="lg">
      {order ? (
        <div className="stack">
          <div className="row">
            <Badge tone={STATUS_TONE[order.orderStatus]}>{statusLabel(order.orderStatus)}</Badge>
            <Badge tone={PAYMENT_TONE[order.paymentStatus] ?? 'neutral'}>Payment {order.paymentStatus}</Badge>
            {order.testPayment ? <Badge tone="purple">Test order (sandbox payment)</Badge> : null}
            {order.awaitingPayment && order.paymentStatus === 'pending' ? <Badge tone="yellow">{PAYMENT_METHOD_MSG.awaitingTitle}</Badge> : null}
          </div>
          {order.duplicatePayments > 0 ? (
            <div className="alert alert-danger" role="alert">
              <strong>{HARDENING_MSG.paidTwice(order.duplicatePayments)}</strong>
              <p style={{ margin: 0 }}>{HARDENING_MSG.paidTwiceHelp}</p>
            </div>
          ) : null}
          {order.paidAfterCancel > 0 ? (
            <div className="alert alert-danger" role="alert">
              <strong>{HARDENING_MSG.paidAfterCancel(order.paidAfterCancel)}</strong>
              <p style={{ margin: 0 }}>{HARDENING_MSG.paidAfterCancelHelp}</p>
            </div>
          ) : null}
          {order.paidAfterExpiry > 0 ? (
            <div className="alert alert-danger" role="alert">
              <strong>{PAYMENT_METHOD_MSG.paidAfterExpiry}</strong>
              <p style={{ margin: 0 }}>{PAYMENT_METHOD_MSG.paidAfterExpiryHelp}</p>
            </div>
          ) : null}
          {order.movedPhotos > 0 ? (
            <div className="alert alert-danger" role="alert">
              <strong>{REVIEW_MSG.soldMoved}</strong>
              <p style={{ margin: 0 }}>{REVIEW_MSG.soldMovedHelp}</p>
            </div>
          ) : null}
          <dl className="detail-grid">
            <dt>Customer</dt>
            <dd>{order.customerName}</dd>
            <dt>Email</dt>
            <dd>{order.customerEmail}</dd>
            {order.customerPhone ? (
              <>
                <dt>Phone</dt>
                <dd>{order.customerPhone}</dd>
              </>
            ) : null}
            <dt>Student</dt>
            <dd>{order.studentName}</dd>
            <dt>School</dt>
            <dd>
              {order.school.name}
              {order.albumName ? ` · ${order.albumName}` : ''}
            </dd>
            <dt>Date</dt>
            <dd>{formatDate(order.createdAt, 'dateTime')}</dd>
            {order.printBatchId !== null ? (
              <>
                <dt>Print batch</dt>
                <dd>Batch #{order.printBatchId}</dd>
              </>
            ) : null}
            {method ? (
              <>
                <dt>{PAYMENT_METHOD_MSG.staffTerm}</dt>
                <dd>{method}</dd>
              </>
            ) : null}
            {order.paymentReference ? (
              <>
                <dt>Payment reference</dt>
                <dd>{order.paymentReference}</dd>
              </>
            ) : null}
            {order.notes ? (
              <>
                <dt>Notes</dt>
                <dd>{order.notes}</dd>
              </>
            ) : null}
          </dl>
          <div className="table-wrap">
            <table className="staff-table">
              <caption className="sr-only">Items of order {order.id}</caption>
              <thead>
                <tr>
                  <th scope="col">Photo</th>
                  <th scope="col">Child</th>
                  <th scope="col">Original number</th>
                  <th scope="col">Product</th>
                  <th scope="col">Quantity</th>
                  <th scope="col">Unit price</th>
                  <th scope="col">Total</th>
                </tr>
              </thead>
              <tbody>
                {order.items.map((item) => (
                  <tr key={item.id} className={item.movedAfterSale ? 'row-moved' : undefined}>
                    <td>
                      {itemPhotoLabel(item)}
                      {item.movedAfterSale ? (
                        <Badge tone="red" className="line-flag">
                          {REVIEW_SCREEN_MSG.movedLine}
                        </Badge>
                      ) : item.withdrawn ? (
                        <Badge tone="neutral" className="line-flag">
                          {REVIEW_SCREEN_MSG.withdrawnLine}
                        </Badge>
                      ) : null}
                    </td>
                    <td>{item.studentName}</td>
                    <td>{item.photoOriginalNumber ?? '—'}</td>
                    <td>{item.productName}</td>
                    <td>{item.quantity}</td>
                    <td>{formatPula(item.unitPrice)}</td>
                    <td>{formatPula(item.totalPrice)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={6}>
                    Order total
                  </th>
                  <td>{formatPula(order.totalAmount)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}

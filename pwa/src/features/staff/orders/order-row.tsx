import { formatDate } from '@contract/format';
import { ORDER_ROW_ITEMS, ORDER_STATUSES, ORDER_STATUS_LABELS, type OrderStatus } from '@contract/constants';
import { formatPula } from '@contract/money';
import { HARDENING_MSG, PAYMENT_METHOD_MSG, REVIEW_MSG } from '@contract/messages';
import type { Order } from '@contract/orders';
import { orderEntries } from '@contract/order-lines';
import { prepaidStaffLabel } from '@contract/prepaid';
import { ORDER_PACKAGE_STAFF_MSG } from '@contract/staff-screen-messages';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/select';
import { PAYMENT_TONE } from '../common/status';
import { itemPhotoLabel } from '@contract/photo-names';
import { staffPaymentMethod } from './payment-method';
import { SOLD_PHOTO_MSG } from '@contract/withdrawn-photos';

export function OrderRow({ order, onView, onStatus, busy }: { order: Order; onView: () => void; onStatus: (status: OrderStatus) => void; busy: boolean }) {
  // A package counts as one line, shown with its name and how many items it holds.
  const entries = orderEntries(order);
  const more = entries.length - ORDER_ROW_ITEMS;
  const method = staffPaymentMethod(order);
  return (
    <li className="order-row card" aria-label={`Order ${order.id}`}>
      <div className="order-main">
        <div className="row">
          <strong>Order #{order.id}</strong>
          {order.testPayment ? <Badge tone="purple">Test order</Badge> : null}
          <Badge tone={PAYMENT_TONE[order.paymentStatus] ?? 'neutral'}>Payment {order.paymentStatus}</Badge>
          {order.duplicatePayments > 0 ? <Badge tone="red">{HARDENING_MSG.paidTwice(order.duplicatePayments)}</Badge> : null}
          {order.paidAfterCancel > 0 ? <Badge tone="red">{HARDENING_MSG.paidAfterCancel(order.paidAfterCancel)}</Badge> : null}
          {order.paidAfterExpiry > 0 ? <Badge tone="red">{PAYMENT_METHOD_MSG.paidAfterExpiry}</Badge> : null}
          {order.paidWithWithdrawn > 0 ? <Badge tone="red">{SOLD_PHOTO_MSG.paidWithWithdrawn(order.paidWithWithdrawn)}</Badge> : null}
          {order.awaitingPayment && order.paymentStatus === 'pending' ? <Badge tone="yellow">{PAYMENT_METHOD_MSG.awaitingTitle}</Badge> : null}
          {order.movedPhotos > 0 ? <Badge tone="red">{REVIEW_MSG.soldMoved}</Badge> : null}
          {order.printBatchId !== null ? <Badge tone="indigo">Batch #{order.printBatchId}</Badge> : null}
        </div>
        <div className="muted">
          {order.customerName} · {order.studentName} · {order.customerEmail}
        </div>
        <div className="muted">
          {order.school.name}
          {order.albumName ? ` · ${order.albumName}` : ''} · {formatDate(order.createdAt, 'short')}
        </div>
        {method ? <div className="muted">{method}</div> : null}
        <ul className="order-items">
          {entries.slice(0, ORDER_ROW_ITEMS).map((entry) =>
            entry.kind === 'item' ? (
              <li key={`item-${entry.item.id}`}>
                {entry.item.productName} × {entry.item.quantity} — {itemPhotoLabel(entry.item)}
                {entry.item.studentName !== order.studentName ? ` · ${entry.item.studentName}` : ''}
              </li>
            ) : (
              <li key={`package-${entry.pkg.id}`}>
                <Badge tone="indigo">{ORDER_PACKAGE_STAFF_MSG.packageBadge}</Badge> {entry.pkg.name} × {entry.pkg.quantity} — {ORDER_PACKAGE_STAFF_MSG.contentsCount(entry.contents.length)}
                {entry.pkg.studentName !== order.studentName ? ` · ${entry.pkg.studentName}` : ''}
                {prepaidStaffLabel(entry.pkg) !== null ? (
                  <>
                    {' '}
                    <Badge tone={entry.pkg.noPhotoAtClosing ? 'red' : 'yellow'}>{prepaidStaffLabel(entry.pkg)}</Badge>
                  </>
                ) : null}
              </li>
            ),
          )}
          {more > 0 ? <li className="muted">+{more} more item(s)</li> : null}
        </ul>
      </div>
      <div className="order-side">
        <strong className="order-total">{formatPula(order.totalAmount)}</strong>
        {Number(order.siblingDiscount) > 0 ? <span className="muted">{ORDER_PACKAGE_STAFF_MSG.siblingLine(formatPula(order.siblingDiscount))}</span> : null}
        {order.couponCode !== null ? <span className="muted">{ORDER_PACKAGE_STAFF_MSG.couponLine(order.couponCode, formatPula(order.couponDiscount))}</span> : null}
        <Select aria-label={`Status of order ${order.id}`} value={order.orderStatus} disabled={busy} onChange={(event) => onStatus(event.target.value as OrderStatus)}>
          {ORDER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {ORDER_STATUS_LABELS[status]}
            </option>
          ))}
        </Select>
        <Button variant="outline" size="sm" onClick={onView}>
          View Details
        </Button>
      </div>
    </li>
  );
}

import { formatDate } from '@contract/format';
import { formatPula } from '@contract/money';
import { HARDENING_MSG, PAYMENT_METHOD_MSG, REVIEW_MSG } from '@contract/messages';
import { Fragment } from 'react';
import { ORDER_PACKAGE_STAFF_MSG, REVIEW_SCREEN_MSG } from '@contract/staff-screen-messages';
import type { Order, OrderItem } from '@contract/orders';
import { hasDiscounts, orderEntries } from '@contract/order-lines';
import { prepaidStaffLabel } from '@contract/prepaid';
import { Badge } from '../../../components/ui/badge';
import { Dialog } from '../../../components/ui/dialog';
import { PAYMENT_TONE, STATUS_TONE, statusLabel } from '../common/status';
import { itemPhotoLabel } from '@contract/photo-names';
import { staffPaymentMethod } from './payment-method';
import { SOLD_PHOTO_MSG } from '@contract/withdrawn-photos';

/**
 * Every item of an order: photo name, original number, product, quantity and price; each package
 * as a row of its own followed by its contents, and the subtotal and discounts above the total
 * (docs/packages-and-coupons.md, "Where packages and discounts show").
 */
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
          {order.paidWithWithdrawn > 0 ? (
            <div className="alert alert-danger" role="alert">
              <strong>{SOLD_PHOTO_MSG.paidWithWithdrawn(order.paidWithWithdrawn)}</strong>
              <p style={{ margin: 0 }}>{SOLD_PHOTO_MSG.paidWithWithdrawnHelp}</p>
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
                {orderEntries(order).map((entry) =>
                  entry.kind === 'item' ? (
                    <ItemRow key={`item-${entry.item.id}`} item={entry.item} />
                  ) : (
                    <Fragment key={`package-${entry.pkg.id}`}>
                      <tr className="row-package">
                        <td>
                          <Badge tone="indigo">{ORDER_PACKAGE_STAFF_MSG.packageBadge}</Badge> {ORDER_PACKAGE_STAFF_MSG.contentsCount(entry.contents.length)}
                          {prepaidStaffLabel(entry.pkg) !== null ? (
                            <>
                              {' '}
                              <Badge tone={entry.pkg.noPhotoAtClosing ? 'red' : 'yellow'}>{prepaidStaffLabel(entry.pkg)}</Badge>
                            </>
                          ) : null}
                        </td>
                        <td>{entry.pkg.studentName}</td>
                        <td>—</td>
                        <th scope="row">{entry.pkg.name}</th>
                        <td>{entry.pkg.quantity}</td>
                        <td>{formatPula(entry.pkg.unitPrice)}</td>
                        <td>{formatPula(entry.pkg.totalPrice)}</td>
                      </tr>
                      {entry.contents.map((item) => (
                        <ItemRow key={`item-${item.id}`} item={item} packageName={entry.pkg.name} />
                      ))}
                    </Fragment>
                  ),
                )}
              </tbody>
              <tfoot>
                {hasDiscounts(order) ? (
                  <>
                    <tr>
                      <th scope="row" colSpan={6}>
                        {ORDER_PACKAGE_STAFF_MSG.subtotal}
                      </th>
                      <td>{formatPula(order.subtotal)}</td>
                    </tr>
                    {Number(order.siblingDiscount) > 0 ? (
                      <tr>
                        <th scope="row" colSpan={6}>
                          {ORDER_PACKAGE_STAFF_MSG.siblingDiscount}
                        </th>
                        <td>-{formatPula(order.siblingDiscount)}</td>
                      </tr>
                    ) : null}
                    {order.couponCode !== null ? (
                      <tr>
                        <th scope="row" colSpan={6}>
                          {ORDER_PACKAGE_STAFF_MSG.couponDiscount(order.couponCode)}
                        </th>
                        <td>-{formatPula(order.couponDiscount)}</td>
                      </tr>
                    ) : null}
                  </>
                ) : null}
                <tr>
                  <th scope="row" colSpan={6}>
                    {ORDER_PACKAGE_STAFF_MSG.orderTotal}
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

/** One item: a single product with its price, or a package's content, priced by its package. */
function ItemRow({ item, packageName }: { item: OrderItem; packageName?: string }) {
  return (
    <tr className={item.movedAfterSale ? 'row-moved' : packageName ? 'row-package-item' : undefined}>
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
      <td>
        {item.productName}
        {packageName ? <span className="muted" style={{ display: 'block', fontSize: '0.8125rem' }}>{ORDER_PACKAGE_STAFF_MSG.inPackage(packageName)}</span> : null}
      </td>
      <td>{item.quantity}</td>
      <td>{packageName ? ORDER_PACKAGE_STAFF_MSG.includedPrice : formatPula(item.unitPrice)}</td>
      <td>{packageName ? ORDER_PACKAGE_STAFF_MSG.includedPrice : formatPula(item.totalPrice)}</td>
    </tr>
  );
}

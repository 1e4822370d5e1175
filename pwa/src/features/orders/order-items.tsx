import type { ReactNode } from 'react';
import type { Order, OrderItem, OrderPackage } from '@contract/orders';
import { PREPAID_SCREENS_MSG } from '@contract/prepaid-screens';
import { decimalToThebe, formatPula } from '@contract/money';
import { ORDER_PACKAGE_MSG, REVIEW_MSG } from '@contract/messages';
import { hasDiscounts, orderEntries, packageChild } from '@contract/order-lines';
import { itemFamilyPhotoLabel } from '@contract/photo-names';
import { PARENT_CHECKOUT_MSG } from '@contract/parent-checkout';

type ShownOrder = Pick<Order, 'items' | 'packages' | 'studentName'>;

/**
 * The order's lines as the parent chose them (docs/packages-and-coupons.md, "Where packages and
 * discounts show"): single products with photo, quantity and line total, and each package with its
 * price and its contents; a paid digital copy, alone or in a package, gets its download link.
 * A withdrawn line (its photo was moved to another child, or is no longer shown to families) says
 * so, with neither the photo's name nor a download.
 */
export function OrderItems({ order, packageAction }: { order: ShownOrder; packageAction?: (pkg: OrderPackage) => ReactNode }) {
  return (
    <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {orderEntries(order).map((entry) =>
        entry.kind === 'item' ? (
          <SingleLine key={`item-${entry.item.id}`} item={entry.item} />
        ) : (
          <PackageLine key={`package-${entry.pkg.id}`} pkg={entry.pkg} contents={entry.contents} child={packageChild(entry.pkg, order)} action={packageAction?.(entry.pkg)} />
        ),
      )}
    </ul>
  );
}

/**
 * Where a package ordered before picture day stands (docs/packages-and-coupons.md, "Ordering
 * before picture day"): photos still to choose, chosen by the family, chosen by the studio, or none
 * of the child at the closing date (the studio arranges a retake or a refund).
 */
function prepaidStatus(pkg: OrderPackage): string | null {
  if (!pkg.prepaid) return null;
  if (!pkg.photosChosen) return pkg.noPhotoAtClosing ? PREPAID_SCREENS_MSG.noPhotoAtClosing(pkg.studentName) : PREPAID_SCREENS_MSG.photosLater;
  return pkg.posesChosenBy === 'studio' ? PREPAID_SCREENS_MSG.chosenByStudio : PREPAID_SCREENS_MSG.chosenByFamily;
}

const muted = { display: 'block', fontSize: '0.875rem' } as const;

function SingleLine({ item }: { item: OrderItem }) {
  return item.withdrawn ? (
    <li className="cart-line order-line-withdrawn">
      <div className="grow">
        <strong>{item.productName || item.productType}</strong>
        <span className="muted" style={muted}>
          <strong>{REVIEW_MSG.photoWithdrawn}</strong> · Qty: {item.quantity}
        </span>
        <span className="muted" style={muted}>
          {REVIEW_MSG.photoWithdrawnHelp}
        </span>
      </div>
      <span>{formatPula(item.totalPrice)}</span>
    </li>
  ) : (
    <li className="cart-line">
      <div className="grow">
        <strong>{item.productName || item.productType}</strong>
        <span className="muted" style={muted}>
          Photo: {itemFamilyPhotoLabel(item)} · Qty: {item.quantity}
        </span>
        <DownloadLink item={item} />
      </div>
      <span>{formatPula(item.totalPrice)}</span>
    </li>
  );
}

function DownloadLink({ item }: { item: OrderItem }) {
  return item.digital && item.downloadUrl ? (
    <a href={item.downloadUrl} download style={{ display: 'block' }}>
      Download {itemFamilyPhotoLabel(item)}
    </a>
  ) : null;
}

/** A package: its name (and child, in an order for several), quantity, what it saved, then its contents. */
function PackageLine({ pkg, contents, child, action }: { pkg: OrderPackage; contents: OrderItem[]; child: string | null; action?: ReactNode }) {
  const saved = Math.max(0, (decimalToThebe(pkg.itemsValue) ?? 0) - (decimalToThebe(pkg.totalPrice) ?? 0));
  const title = child ? `${pkg.name} ${ORDER_PACKAGE_MSG.forChild(child)}` : pkg.name;
  const status = prepaidStatus(pkg);
  return (
    <li className="cart-line order-package" aria-label={title}>
      <div className="grow">
        <strong>{title}</strong>
        <span className="muted" style={muted}>
          Qty: {pkg.quantity}
          {contents.length > 0 ? ` · ${PARENT_CHECKOUT_MSG.packageItems(contents.length)}` : ''}
          {saved > 0 ? ` · ${ORDER_PACKAGE_MSG.saved(formatPula(saved, 'thebe'))}` : ''}
        </span>
        {status ? <strong style={muted}>{status}</strong> : null}
        {action}
        {contents.length === 0 ? null : (
          <span className="muted" style={muted}>
            {ORDER_PACKAGE_MSG.contents}:
          </span>
        )}
        {/* A package paid before picture day has no contents until its photos are chosen. */}
        {contents.length === 0 ? null : (
          <ul aria-label={`${ORDER_PACKAGE_MSG.contents}: ${pkg.name}`} style={{ margin: 0, paddingLeft: 'var(--space-4)', fontSize: '0.875rem' }}>
            {contents.map((item) => (
              <li key={item.id} className={item.withdrawn ? 'order-line-withdrawn' : undefined}>
                {item.withdrawn ? (
                  <>
                    {item.quantity} x {item.productName} · <strong>{REVIEW_MSG.photoWithdrawn}</strong>
                  </>
                ) : (
                  <>
                    {ORDER_PACKAGE_MSG.contentLine(item.quantity, item.productName, itemFamilyPhotoLabel(item))}
                    <DownloadLink item={item} />
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      <span>{formatPula(pkg.totalPrice)}</span>
    </li>
  );
}

/**
 * The subtotal and the discounts in the order they apply (sibling discount, then the coupon), shown
 * above the order's total when it has any (with the total itself when asked); nothing otherwise.
 */
export function OrderDiscounts({ order, withTotal = false }: { order: Pick<Order, 'subtotal' | 'siblingDiscount' | 'couponCode' | 'couponDiscount' | 'totalAmount'>; withTotal?: boolean }) {
  if (!hasDiscounts(order)) return null;
  return (
    <dl className="order-discounts" aria-label="Discounts">
      <div className="row between">
        <dt>{ORDER_PACKAGE_MSG.subtotal}</dt>
        <dd style={{ margin: 0 }}>{formatPula(order.subtotal)}</dd>
      </div>
      {Number(order.siblingDiscount) > 0 ? (
        <div className="row between">
          <dt>{ORDER_PACKAGE_MSG.siblingDiscount}</dt>
          <dd style={{ margin: 0 }}>{ORDER_PACKAGE_MSG.minus(formatPula(order.siblingDiscount))}</dd>
        </div>
      ) : null}
      {order.couponCode !== null ? (
        <div className="row between">
          <dt>{ORDER_PACKAGE_MSG.couponDiscount(order.couponCode)}</dt>
          <dd style={{ margin: 0 }}>{ORDER_PACKAGE_MSG.minus(formatPula(order.couponDiscount))}</dd>
        </div>
      ) : null}
      {withTotal ? (
        <div className="row between total-row">
          <dt>{ORDER_PACKAGE_MSG.total}</dt>
          <dd style={{ margin: 0 }}>{formatPula(order.totalAmount)}</dd>
        </div>
      ) : null}
    </dl>
  );
}

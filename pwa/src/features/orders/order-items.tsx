import type { OrderItem } from '@contract/orders';
import { formatPula } from '@contract/money';
import { REVIEW_MSG } from '@contract/messages';
import { itemFamilyPhotoLabel } from '@contract/photo-names';

/**
 * Items with product, photo, quantity and line total; a paid digital copy gets its download link.
 * A withdrawn line (its photo was moved to another child, or is no longer shown to families) says
 * so, with neither the photo's name nor a download.
 */
export function OrderItems({ items }: { items: readonly OrderItem[] }) {
  return (
    <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((item) =>
        item.withdrawn ? (
          <li key={item.id} className="cart-line order-line-withdrawn">
            <div className="grow">
              <strong>{item.productName || item.productType}</strong>
              <span className="muted" style={{ display: 'block', fontSize: '0.875rem' }}>
                <strong>{REVIEW_MSG.photoWithdrawn}</strong> · Qty: {item.quantity}
              </span>
              <span className="muted" style={{ display: 'block', fontSize: '0.875rem' }}>
                {REVIEW_MSG.photoWithdrawnHelp}
              </span>
            </div>
            <span>{formatPula(item.totalPrice)}</span>
          </li>
        ) : (
          <li key={item.id} className="cart-line">
            <div className="grow">
              <strong>{item.productName || item.productType}</strong>
              <span className="muted" style={{ display: 'block', fontSize: '0.875rem' }}>
                Photo: {itemFamilyPhotoLabel(item)} · Qty: {item.quantity}
              </span>
              {item.digital && item.downloadUrl ? (
                <a href={item.downloadUrl} download>
                  Download {itemFamilyPhotoLabel(item)}
                </a>
              ) : null}
            </div>
            <span>{formatPula(item.totalPrice)}</span>
          </li>
        ),
      )}
    </ul>
  );
}

import type { OrderItem } from '@contract/orders';
import { formatPula } from '@contract/money';
import { itemPhotoLabel } from '../../lib/photo-label';

/** Items with product, photo, quantity and line total; a paid digital copy gets its download link. */
export function OrderItems({ items }: { items: readonly OrderItem[] }) {
  return (
    <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((item) => (
        <li key={item.id} className="cart-line">
          <div className="grow">
            <strong>{item.productName || item.productType}</strong>
            <span className="muted" style={{ display: 'block', fontSize: '0.875rem' }}>
              Photo: {itemPhotoLabel(item)} · Qty: {item.quantity}
            </span>
            {item.digital && item.downloadUrl ? (
              <a href={item.downloadUrl} download>
                Download {itemPhotoLabel(item)}
              </a>
            ) : null}
          </div>
          <span>{formatPula(item.totalPrice)}</span>
        </li>
      ))}
    </ul>
  );
}

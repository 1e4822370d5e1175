import { formatPula } from '@contract/money';
import { Button } from '../../components/ui/button';
import { Card, CardBody } from '../../components/ui/card';
import { cartTotal, toThebe } from '../../lib/cart';
import type { CartLine } from '../../lib/storage';

/** 'Selected Photos (n)': the cart under the photo grid; checkout is the header's cart button. */
export function SelectedPhotos({ lines, onRemove }: { lines: readonly CartLine[]; onRemove: (id: string) => void }) {
  if (lines.length === 0) return null;
  return (
    <Card style={{ marginTop: 'var(--space-6)' }}>
      <CardBody>
        <h2>Selected Photos ({lines.length})</h2>
        <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {lines.map((line) => (
            <li className="cart-line" key={line.id}>
              <img className="protected" src={line.photoPreview} alt="" width={56} height={56} loading="lazy" draggable={false} />
              <div className="grow">
                <strong>{line.productName}</strong>
                <span className="muted" style={{ display: 'block', fontSize: '0.875rem' }}>
                  {line.photoName} · Qty {line.quantity}
                </span>
              </div>
              <span>{formatPula(toThebe(line.totalPrice), 'thebe')}</span>
              <Button variant="ghost" size="sm" onClick={() => onRemove(line.id)} aria-label={`Remove ${line.productName} for ${line.photoName}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
        <div className="total-row">
          <span>Total</span>
          <span>{formatPula(toThebe(cartTotal(lines)), 'thebe')}</span>
        </div>
        <p className="muted" style={{ marginTop: 'var(--space-3)', marginBottom: 0 }}>
          To check out, use the cart button at the top of the page.
        </p>
      </CardBody>
    </Card>
  );
}

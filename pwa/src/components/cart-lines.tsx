import { QUANTITY_MAX, QUANTITY_MIN } from '@contract/constants';
import { formatPula } from '@contract/money';
import { PACKAGE_GALLERY_MSG } from '@contract/package-gallery-messages';
import { Button } from './ui/button';
import { Select } from './ui/select';
import { cartTotal, toThebe } from '../lib/cart';
import { isPrepaidLine, type CartLine } from '../lib/storage';

/** Cart lines with Remove and the total: the gallery's 'Selected Photos' panel and the checkout summary. */
export interface CartLinesProps {
  lines: readonly CartLine[];
  onRemove: (id: string) => void;
  disabled?: boolean;
  /** A warning under a line, by line id (a product no longer sold). */
  notes?: ReadonlyMap<string, string>;
  /** When given, each line's quantity can be changed (1 to 10) in place. */
  onQuantity?: (id: string, quantity: number) => void;
  /** The total row is left out (the checkout shows the server's priced summary instead). */
  hideTotal?: boolean;
}

const QUANTITIES = Array.from({ length: QUANTITY_MAX - QUANTITY_MIN + 1 }, (_, index) => QUANTITY_MIN + index);

export function CartLines({ lines, onRemove, disabled, notes, onQuantity, hideTotal = false }: CartLinesProps) {
  return (
    <>
      <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {lines.map((line) => (
          <li className="cart-line" key={line.id}>
            {isPrepaidLine(line) ? (
              // Paid before picture day: no photo yet (docs/packages-and-coupons.md, "Ordering before picture day").
              <span className="cart-line-placeholder" aria-hidden="true" />
            ) : (
              <img src={line.photoPreview} alt="" width={56} height={56} loading="lazy" draggable={false} className="protected" />
            )}
            <div className="grow">
              <strong>{line.productName}</strong>
              {line.package ? (
                // A package shows what it holds and the photos chosen for it (docs/packages-and-coupons.md, "Filling a package").
                <span style={{ display: 'block', fontSize: '0.875rem' }}>
                  {PACKAGE_GALLERY_MSG.includes}: {line.productDescription}
                </span>
              ) : null}
              <span className="muted" style={{ display: 'block', fontSize: '0.875rem' }}>
                {line.package && !isPrepaidLine(line) ? PACKAGE_GALLERY_MSG.packagePhotos(line.photoName) : line.photoName} · {onQuantity ? null : `${line.quantity} × `}
                {formatPula(toThebe(line.unitPrice), 'thebe')}
              </span>
              {onQuantity ? (
                <Select
                  className="qty-select"
                  aria-label={`Quantity of ${line.productName} for ${line.photoName}`}
                  value={line.quantity}
                  disabled={disabled}
                  onChange={(event) => onQuantity(line.id, Number(event.target.value))}
                >
                  {QUANTITIES.map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </Select>
              ) : null}
              {notes?.get(line.id) ? (
                <span className="field-error" style={{ display: 'block' }}>
                  {notes.get(line.id)}
                </span>
              ) : null}
            </div>
            <span>{formatPula(toThebe(line.totalPrice), 'thebe')}</span>
            <Button variant="ghost" size="sm" disabled={disabled} onClick={() => onRemove(line.id)} aria-label={`Remove ${line.productName} for ${line.photoName}`}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
      {hideTotal ? null : (
        <div className="total-row">
          <span>Total</span>
          <span>{formatPula(toThebe(cartTotal(lines)), 'thebe')}</span>
        </div>
      )}
    </>
  );
}

/**
 * A cart line checked against the school's current products: the server prices every order and
 * refuses a cart whose prices differ (docs/money-and-pricing.md#cart-price-mismatch), so the
 * checkout re-prices the cart from the same products before the parent places the order.
 */
import type { ProductKind } from '@contract/constants';
import { lineTotal, toThebe } from './cart';
import type { CartLine } from './storage';

export interface CurrentProduct {
  id: string;
  name: string;
  description: string;
  /** Pula. */
  price: number;
  /** After the closing date only digital products are sold (docs/money-and-pricing.md, "Print and digital products"). */
  kind: ProductKind;
}

export interface PriceChange {
  lineId: string;
  productName: string;
  /** Pula: what the cart said, and what the school charges now. */
  from: number;
  to: number;
}

export type Unavailable = 'gone' | 'closed';

export interface Repriced {
  /** The lines with the current names and prices (the same objects where nothing changed). */
  lines: CartLine[];
  changes: PriceChange[];
  /** Lines whose product is no longer sold, by line id. */
  unavailable: Map<string, Unavailable>;
}

export function repriceLines(lines: readonly CartLine[], products: readonly CurrentProduct[], closed: boolean): Repriced {
  const byId = new Map(products.map((product) => [product.id, product]));
  const changes: PriceChange[] = [];
  const unavailable = new Map<string, Unavailable>();
  const next = lines.map((line) => {
    const product = byId.get(line.productType);
    if (!product) {
      unavailable.set(line.id, 'gone');
      return line;
    }
    if (closed && product.kind !== 'digital') unavailable.set(line.id, 'closed');
    const samePrice = toThebe(product.price) === toThebe(line.unitPrice) && toThebe(line.totalPrice) === toThebe(lineTotal(product.price, line.quantity));
    if (samePrice && product.name === line.productName && product.description === line.productDescription) return line;
    if (!samePrice) changes.push({ lineId: line.id, productName: product.name, from: line.unitPrice, to: product.price });
    return { ...line, productName: product.name, productDescription: product.description, unitPrice: product.price, totalPrice: lineTotal(product.price, line.quantity) };
  });
  return { lines: next, changes, unavailable };
}

/** Changes already shown keep their first price: P40 → P45 then P45 → P50 reads P40 → P50. */
export function mergeChanges(shown: readonly PriceChange[], fresh: readonly PriceChange[]): PriceChange[] {
  const merged = new Map(shown.map((change) => [change.lineId, change]));
  for (const change of fresh) {
    const earlier = merged.get(change.lineId);
    merged.set(change.lineId, earlier ? { ...change, from: earlier.from } : change);
  }
  return [...merged.values()].filter((change) => toThebe(change.from) !== toThebe(change.to));
}

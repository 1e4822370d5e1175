/**
 * A cart brought back from a "still in your cart" link (docs/outreach.md, "Abandoned carts and
 * unpaid orders"), as the cart's own lines: new ids made as the gallery makes them, totals worked
 * out in thebe, the child's name kept for the order. A line this device's cart already holds (the
 * same photo and product) is not added twice: opening the link on the phone it came from changes
 * nothing.
 */
import type { RestoredCartLine } from '@contract/outreach';
import { lineTotal } from '../../lib/cart';
import { randomId } from '../../lib/random-id';
import type { CartLine } from '../../lib/storage';

export function restoredCartLines(items: readonly RestoredCartLine[], cart: readonly CartLine[]): CartLine[] {
  const held = new Set(cart.map((line) => `${line.photoId}:${line.productType}`));
  const added: CartLine[] = [];
  for (const item of items) {
    const key = `${item.photoId}:${item.productType}`;
    if (held.has(key)) continue;
    held.add(key);
    added.push({
      id: randomId(),
      photoId: item.photoId,
      albumId: item.albumId,
      photoName: item.photoName,
      photoPreview: item.photoPreview,
      productType: item.productType,
      productName: item.productName,
      productDescription: item.productDescription,
      unitPrice: item.unitPrice,
      quantity: item.quantity,
      totalPrice: lineTotal(item.unitPrice, item.quantity),
      schoolId: item.schoolId,
      schoolName: item.schoolName,
      ...(item.studentName ? { studentId: item.studentId, studentName: item.studentName } : {}),
    });
  }
  return added;
}

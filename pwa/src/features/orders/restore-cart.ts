/**
 * "Try Again" after a failed payment: the cart was emptied when the order was created, so the
 * order's items go back into it (same photos, products and quantities) before /checkout opens.
 */
import type { Order } from '@contract/orders';
import { dispatchCart, readCart } from '../../lib/cart';
import { randomId } from '../../lib/random-id';
import { buildCheckoutCart } from '../../lib/checkout-cart';
import { LOCAL_KEYS, writeJson } from '../../lib/storage';
import { itemPhotoLabel } from '../../lib/photo-label';

export function restoreCartFrom(order: Order): void {
  if (readCart().length > 0) return;
  const lines = order.items
    // A withdrawn photo is no longer this family's to order.
    .filter((item) => item.photoId !== null && item.albumId !== null && !item.withdrawn)
    .map((item) => ({
      id: randomId(),
      photoId: item.photoId ?? 0,
      albumId: item.albumId ?? 0,
      photoName: itemPhotoLabel(item),
      photoPreview: `/api/images/${item.photoId}/thumbnail`,
      productType: item.productType,
      productName: item.productName,
      productDescription: item.productDescription,
      unitPrice: Number(item.unitPrice),
      quantity: item.quantity,
      totalPrice: Number(item.totalPrice),
    }));
  if (lines.length === 0) return;
  writeJson(LOCAL_KEYS.currentSchool, { id: order.school.id, name: order.school.name });
  if (order.albumName) writeJson(LOCAL_KEYS.currentAlbum, { id: lines[0]?.albumId ?? 0, name: order.albumName });
  dispatchCart({ type: 'add', lines });
  buildCheckoutCart();
}

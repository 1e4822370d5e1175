/**
 * "Try Again" after a failed payment: the cart keeps an unpaid order's lines on the device that
 * placed it; on another device (or a cart emptied since) the order's items go back into it (same
 * photos, products and quantities). Either way the checkout then knows the unpaid order, offers to
 * pay it, and fills in its name, e-mail and student.
 */
import type { Order } from '@contract/orders';
import { dispatchCart, readCart } from '../../lib/cart';
import { randomId } from '../../lib/random-id';
import { buildCheckoutCart } from '../../lib/checkout-cart';
import { LOCAL_KEYS, writeJson } from '../../lib/storage';
import { itemFamilyPhotoLabel } from '@contract/photo-names';
import { cartSignature, readUnpaidOrders, rememberUnpaidOrder } from '../../lib/unpaid-order';

export function restoreCartFrom(order: Order): void {
  const known = readUnpaidOrders().find((entry) => entry.orderId === order.id);
  if (known && readCart().some((line) => known.lineIds.includes(line.id))) return;
  if (readCart().length > 0) return;
  const lines = order.items
    // A withdrawn photo is no longer this family's to order. A package's contents are not single
    // products (they carry no price of their own): they never come back as single lines.
    .filter((item) => item.photoId !== null && item.albumId !== null && !item.withdrawn && item.packageLineId === null)
    .map((item) => ({
      id: randomId(),
      photoId: item.photoId ?? 0,
      albumId: item.albumId ?? 0,
      photoName: itemFamilyPhotoLabel(item),
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
  const restored = lines.map((line) => ({ ...line, schoolId: order.school.id, schoolName: order.school.name }));
  dispatchCart({ type: 'add', lines: restored });
  buildCheckoutCart();
  rememberUnpaidOrder({
    orderId: order.id,
    schoolId: order.school.id,
    lineIds: restored.map((line) => line.id),
    signature: cartSignature(restored),
    key: known?.key ?? null,
    details: { customerName: order.customerName, customerEmail: order.customerEmail, customerPhone: order.customerPhone, studentName: order.studentName, notes: order.notes },
  });
}

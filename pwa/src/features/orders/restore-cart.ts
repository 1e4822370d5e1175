/**
 * "Try Again" after a failed payment: the cart keeps an unpaid order's lines on the device that
 * placed it; on another device (or a cart emptied since) the order's items go back into it (same
 * photos, products and quantities). Either way the checkout then knows the unpaid order, offers to
 * pay it, and fills in its name, e-mail and student.
 */
import type { Order } from '@contract/orders';
import { PACKAGE_MSG } from '@contract/messages';
import { PREPAID_SCREENS_MSG } from '@contract/prepaid-screens';
import type { CartLine } from '../../lib/storage';
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
  const lines: CartLine[] = order.items
    // A withdrawn photo is no longer this family's to order; a package's contents come back as the package.
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
  lines.push(...packageLinesOf(order));
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

/**
 * The order's packages as cart lines (docs/packages-and-coupons.md, "Filling a package"): each
 * with the photo of each piece of its contents, one photo when they all show the same one. A package no longer
 * in the price list, or holding a withdrawn photo, is left out.
 */
function packageLinesOf(order: Order): CartLine[] {
  const lines: CartLine[] = [];
  for (const pkg of order.packages) {
    const contents = order.items.filter((item) => item.packageLineId === pkg.id);
    // Paid for before picture day and not filled: back as the same line for the child, photos to choose later.
    if (pkg.prepaid && contents.length === 0 && pkg.packageId !== null && pkg.studentId !== null) {
      lines.push({
        id: randomId(),
        photoId: 0,
        albumId: 0,
        photoName: PREPAID_SCREENS_MSG.cartLine(pkg.studentName),
        photoPreview: '',
        productType: `package:${pkg.packageId}`,
        productName: pkg.name,
        productDescription: '',
        unitPrice: Number(pkg.unitPrice),
        quantity: pkg.quantity,
        totalPrice: Number(pkg.totalPrice),
        studentId: pkg.studentId,
        studentName: pkg.studentName,
        package: { packageId: pkg.packageId, contents: [], photos: [] },
      });
      continue;
    }
    if (pkg.packageId === null || contents.length === 0 || contents.some((item) => item.photoId === null || item.albumId === null || item.withdrawn)) continue;
    // A line per content row and photo: its pieces each take that photo, so the package comes back
    // filled one photo per piece (`packageSlots()`), rows of one product side by side made one again.
    const piecesOf = (item: (typeof contents)[number]) => Math.max(1, Math.round(item.quantity / pkg.quantity));
    const photos = contents.flatMap((item) => Array.from({ length: piecesOf(item) }, () => ({ photoId: item.photoId ?? 0, albumId: item.albumId ?? 0, photoName: itemFamilyPhotoLabel(item) })));
    const chosen = photos.every((photo) => photo.photoId === photos[0]?.photoId) ? photos.slice(0, 1) : photos;
    const rows: { productId: number; name: string; quantity: number }[] = [];
    for (const [index, item] of contents.entries()) {
      const last = rows.at(-1);
      if (last && index > 0 && contents[index - 1]?.productType === item.productType && contents[index - 1]?.photoId !== item.photoId) last.quantity += piecesOf(item);
      else rows.push({ productId: Number(item.productType), name: item.productName, quantity: piecesOf(item) });
    }
    const [first] = chosen;
    if (!first) continue;
    lines.push({
      id: randomId(),
      photoId: first.photoId,
      albumId: first.albumId,
      photoName: [...new Set(chosen.map((photo) => photo.photoName))].join(', '),
      photoPreview: `/api/images/${first.photoId}/thumbnail`,
      productType: `package:${pkg.packageId}`,
      productName: pkg.name,
      productDescription: rows.map((row) => PACKAGE_MSG.contentsItem(row.quantity, row.name)).join(', '),
      unitPrice: Number(pkg.unitPrice),
      quantity: pkg.quantity,
      totalPrice: Number(pkg.totalPrice),
      package: { packageId: pkg.packageId, contents: rows, photos: chosen },
    });
  }
  return lines;
}

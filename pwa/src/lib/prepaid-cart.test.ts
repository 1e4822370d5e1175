/**
 * A package paid before picture day is kept like every cart line (docs/packages-and-coupons.md,
 * "Ordering before picture day"): read back from local storage, mirrored to IndexedDB and restored
 * from it after a cleared storage, never sent to the server's cart mirror (no package line is).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { isPrepaidLine, LOCAL_KEYS, type CartLine } from './storage';
import { cartCount, dispatchCart, readCart } from './cart';
import { mirroredItems } from './cart-mirror';
import { db, loadCartLines } from './db';
import { hydrateLocalState } from './hydrate';

const prepaid: CartLine = {
  id: 'prepaid-1',
  photoId: 0,
  albumId: 9,
  photoName: 'Kagiso Dube: photos to choose after picture day',
  photoPreview: '',
  productType: 'package:7',
  productName: 'Family Pack',
  productDescription: '1 x 15x20 Print, 1 x Digital Copy',
  unitPrice: 45,
  quantity: 1,
  totalPrice: 45,
  schoolId: 2,
  schoolName: 'Acacia Primary',
  studentId: 41,
  studentName: 'Kagiso Dube',
  package: { packageId: 7, contents: [{ productId: 10, name: '15x20 Print', quantity: 1 }, { productId: 12, name: 'Digital Copy', quantity: 1 }], photos: [] },
};

beforeEach(async () => {
  await db.cartLines.clear();
  await db.meta.clear();
});

describe('a prepaid line in the cart', () => {
  it('is kept, mirrored to IndexedDB and restored from it after a cleared storage', async () => {
    dispatchCart({ type: 'add', lines: [prepaid] });
    expect(readCart()).toEqual([prepaid]);
    expect(isPrepaidLine(readCart()[0]!)).toBe(true);
    expect(cartCount(readCart())).toBe(2);
    await vi.waitFor(async () => expect(await loadCartLines()).toEqual([prepaid]));
    window.localStorage.removeItem(LOCAL_KEYS.cart);
    await hydrateLocalState();
    expect(readCart()).toEqual([prepaid]);
  });

  it('is not copied to the server cart mirror, and a filled package is not prepaid', () => {
    expect(mirroredItems([prepaid])).toEqual([]);
    expect(isPrepaidLine({ package: { ...prepaid.package!, photos: [{ photoId: 5, albumId: 9, photoName: 'Photo 5' }] } })).toBe(false);
    expect(isPrepaidLine({})).toBe(false);
  });
});

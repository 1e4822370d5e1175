import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CART_UPDATED_EVENT, LOCAL_KEYS, SESSION_KEYS, type CartLine } from './storage';
import { clearCartKeys, dispatchCart, readCart } from './cart';
import { addUnlockedClass, readUnlockedClasses } from './unlocked-classes';
import { db, getMeta, loadCartLines, loadUnlockedClasses } from './db';
import { readCartCoupon, saveCartCoupon } from './cart-coupon';
import { hydrateLocalState } from './hydrate';

const line = (id: string): CartLine => ({
  id,
  photoId: 7,
  albumId: 3,
  photoName: 'IMG_0007.JPG',
  photoPreview: '/api/images/7/thumbnail',
  productType: '12',
  productName: 'Digital Download',
  productDescription: 'Full-resolution file',
  unitPrice: 15,
  quantity: 1,
  totalPrice: 15,
});

beforeEach(async () => {
  await db.cartLines.clear();
  await db.unlockedClasses.clear();
  await db.meta.clear();
});

describe('the cart in local storage, mirrored to IndexedDB', () => {
  it('writes the cart key, broadcasts cartUpdated and mirrors the lines in order', async () => {
    const heard = vi.fn();
    window.addEventListener(CART_UPDATED_EVENT, heard);
    dispatchCart({ type: 'add', lines: [line('a'), line('b')] });
    dispatchCart({ type: 'remove', id: 'a' });
    window.removeEventListener(CART_UPDATED_EVENT, heard);

    expect(heard).toHaveBeenCalledTimes(2);
    expect(JSON.parse(window.localStorage.getItem(LOCAL_KEYS.cart) ?? '[]')).toHaveLength(1);
    await vi.waitFor(async () => expect((await loadCartLines()).map((item) => item.id)).toEqual(['b']));
  });

  it('restores the cart from IndexedDB when the key is gone (reload after cleared storage)', async () => {
    dispatchCart({ type: 'add', lines: [line('a'), line('b')] });
    await vi.waitFor(async () => expect(await loadCartLines()).toHaveLength(2));
    window.localStorage.removeItem(LOCAL_KEYS.cart);
    expect(readCart()).toEqual([]);

    await hydrateLocalState();
    expect(readCart().map((item) => item.id)).toEqual(['a', 'b']);
  });

  it('keeps the cart coupon in IndexedDB with it: back after cleared storage, gone with an emptied cart', async () => {
    dispatchCart({ type: 'add', lines: [line('a')] });
    saveCartCoupon(4, 'SPRING10');
    await vi.waitFor(async () => expect(await getMeta(LOCAL_KEYS.cartCoupon)).not.toBeNull());
    window.localStorage.removeItem(LOCAL_KEYS.cart);
    window.localStorage.removeItem(LOCAL_KEYS.cartCoupon);

    await hydrateLocalState();
    expect(readCartCoupon(4)).toBe('SPRING10');
    expect(readCartCoupon(5)).toBeNull();

    dispatchCart({ type: 'remove', id: 'a' });
    expect(readCartCoupon(4)).toBeNull();
    await vi.waitFor(async () => expect(await getMeta(LOCAL_KEYS.cartCoupon)).toBeNull());
  });

  it('clearing the cart keys clears the mirror too, so nothing comes back', async () => {
    window.localStorage.setItem(LOCAL_KEYS.currentSchool, JSON.stringify({ id: 1, name: 'Demo' }));
    dispatchCart({ type: 'add', lines: [line('a')] });
    clearCartKeys();
    await vi.waitFor(async () => expect(await loadCartLines()).toEqual([]));
    await hydrateLocalState();
    expect(readCart()).toEqual([]);
    expect(window.localStorage.getItem(LOCAL_KEYS.currentSchool)).toBeNull();
  });

  it('gives a staff session no cart back', async () => {
    await db.cartLines.bulkPut([{ ...line('a'), position: 0 }]);
    window.localStorage.setItem(LOCAL_KEYS.token, 'staff-token');
    window.localStorage.setItem(LOCAL_KEYS.user, JSON.stringify({ id: 1, role: 'admin' }));
    await hydrateLocalState();
    expect(readCart()).toEqual([]);
    expect(await loadCartLines()).toEqual([]);
  });
});

describe('unlocked classes in session storage, mirrored to IndexedDB', () => {
  it('survives a closed tab (session storage emptied)', async () => {
    addUnlockedClass(4);
    addUnlockedClass(9);
    addUnlockedClass(4);
    expect(JSON.parse(window.sessionStorage.getItem(SESSION_KEYS.authenticatedClasses) ?? '[]')).toEqual([4, 9]);
    await vi.waitFor(async () => expect((await loadUnlockedClasses()).sort()).toEqual([4, 9]));

    window.sessionStorage.clear();
    expect(readUnlockedClasses()).toEqual([]);
    await hydrateLocalState();
    expect(readUnlockedClasses().sort()).toEqual([4, 9]);
  });
});

/**
 * "Try Again" on a package order: the package comes back as the package, with the photo of each of
 * its items, and its contents never come back as single lines priced P0.00.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { readCart } from '../../lib/cart';
import { packageOrder } from '../../../test/order-fixture';
import { restoreCartFrom } from './restore-cart';

describe('restoreCartFrom with a package order', () => {
  beforeEach(() => localStorage.clear());

  it('puts back the single products and the package, never its contents as single lines', () => {
    restoreCartFrom(packageOrder({ orderStatus: 'pending', status: 'pending', paymentStatus: 'failed' }));
    const cart = readCart();
    expect(cart.map((line) => [line.productType, line.productName, line.quantity, line.unitPrice])).toEqual([
      ['5', 'Glossy Print', 1, 30],
      ['package:9', 'Family Pack', 1, 100],
    ]);
    expect(cart.some((line) => line.unitPrice === 0)).toBe(false);
    const restored = cart[1]?.package;
    expect(restored?.packageId).toBe(9);
    // The fixture's items all show photo 11: the package comes back filled with one photo for all.
    expect(restored?.photos.map((photo) => photo.photoId)).toEqual([11]);
    expect(restored?.contents.map((row) => [row.productId, row.quantity])).toEqual([
      [6, 1],
      [5, 2],
      [7, 1],
    ]);
  });
});

/**
 * "Try Again" on a package order: the package comes back as the package, with the photo of each of
 * its items, and its contents never come back as single lines priced P0.00.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { readCart } from '../../lib/cart';
import { packageOrder } from '../../../test/order-fixture';
import type { OrderItem } from '@contract/orders';
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

  it('puts back a package filled with a photo per piece: two prints of one product with two photos', () => {
    const order = packageOrder({ orderStatus: 'pending', status: 'pending', paymentStatus: 'failed' });
    const [single, large, , download] = order.items as [OrderItem, OrderItem, OrderItem, OrderItem];
    // The Family Pack's 2 x Glossy Print took photos 11 and 12, as two lines of one.
    const glossy = (id: number, photoId: number): OrderItem => ({ ...large, id, productType: '5', productName: 'Glossy Print', quantity: 1, photoId });
    restoreCartFrom({ ...order, items: [single, { ...large, photoId: 11 }, glossy(3, 11), glossy(5, 12), { ...download, photoId: 11 }] });
    const restored = readCart()[1]?.package;
    expect(restored?.photos.map((photo) => photo.photoId)).toEqual([11, 11, 12, 11]);
    expect(restored?.contents.map((row) => [row.productId, row.quantity])).toEqual([
      [6, 1],
      [5, 2],
      [7, 1],
    ]);
  });

  it('puts back a package paid before picture day as the same line for the child, photos to choose later', () => {
    restoreCartFrom(
      packageOrder({
        orderStatus: 'pending',
        status: 'pending',
        paymentStatus: 'failed',
        items: [],
        packages: [{ id: 50, packageId: 7, name: 'Family Pack', quantity: 1, unitPrice: '45.00', totalPrice: '45.00', itemsValue: '125.00', studentId: 41, studentName: 'Kagiso Dube', photosChosen: false, posesChosenBy: null, posesDue: '2099-12-31', prepaid: true, noPhotoAtClosing: false }],
      }),
    );
    expect(readCart()).toEqual([
      expect.objectContaining({ productType: 'package:7', productName: 'Family Pack', unitPrice: 45, quantity: 1, totalPrice: 45, studentId: 41, studentName: 'Kagiso Dube', package: { packageId: 7, contents: [], photos: [] } }),
    ]);
  });
});

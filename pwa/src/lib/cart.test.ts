import { describe, expect, it } from 'vitest';
import { cartCount, cartReducer, cartTotal, lineTotal } from './cart';
import type { CartLine } from './storage';

const line = (id: string, unitPrice: number, quantity: number): CartLine => ({
  id,
  photoId: 1,
  albumId: 2,
  photoName: 'IMG_0001.JPG',
  photoPreview: '/api/images/1/thumbnail',
  productType: 'print_10x15',
  productName: '10x15 Print',
  productDescription: 'No description available',
  unitPrice,
  quantity,
  totalPrice: lineTotal(unitPrice, quantity),
});

describe('cart reducer and totals', () => {
  it('appends, removes by id and clears', () => {
    const a = line('a', 25, 1);
    const b = line('b', 40, 2);
    const added = cartReducer([a], { type: 'add', lines: [b] });
    expect(added.map((item) => item.id)).toEqual(['a', 'b']);
    expect(cartReducer(added, { type: 'remove', id: 'a' }).map((item) => item.id)).toEqual(['b']);
    expect(cartReducer(added, { type: 'clear' })).toEqual([]);
    expect(cartCount(added)).toBe(2);
  });

  it('counts a package by its contents (a package of three products is 3 items)', () => {
    const pack: CartLine = {
      ...line('p', 100, 1),
      productType: 'package:7',
      productName: 'Family Pack',
      package: {
        packageId: 7,
        contents: [
          { productId: 1, name: '13x18 Print', quantity: 2 },
          { productId: 2, name: '10x15 Print', quantity: 1 },
          { productId: 3, name: 'Digital Copy', quantity: 1 },
        ],
        photos: [{ photoId: 1, albumId: 2, photoName: 'IMG_0001.JPG' }],
      },
    };
    expect(cartCount([pack])).toBe(3);
    expect(cartCount([line('a', 25, 2), pack])).toBe(4);
  });

  it('adds money in thebe so decimals never drift', () => {
    expect(lineTotal(0.1, 3)).toBe(0.3);
    expect(lineTotal(25, 10)).toBe(250);
    expect(cartTotal([line('a', 0.1, 1), line('b', 0.2, 1)])).toBe(0.3);
    expect(cartTotal([line('a', 12.35, 3), line('b', 40, 2)])).toBe(117.05);
    expect(cartTotal([])).toBe(0);
  });
});

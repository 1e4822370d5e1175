import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { thebeToDecimal } from '../../contract/money';
import { AppError } from '../http/errors';
import { priceOrder, fallbackProducts, type PhotoInfo, type Product } from './pricing';

const photo = (id: number, albumId = 1, schoolId = 1): PhotoInfo => ({
  id,
  albumId,
  schoolId,
  albumName: 'Class 1A',
  albumHasPassword: false,
  accessMode: 'school_password',
  studentId: null,
  doNotPublish: false,
  withheld: false,
  albumPublished: true,
  originalName: `IMG_${id}.JPG`,
  originalNumber: String(id),
  filename: `${id}.jpg`,
});

const products: Product[] = [
  { id: '11', name: 'Glossy Print', description: '', priceThebe: 3000, kind: 'print' },
  { id: '12', name: 'HD Download', description: '', priceThebe: 1750, kind: 'digital' },
  { id: '13', name: 'Canvas', description: '', priceThebe: 12000, kind: 'print' },
];
const photos = new Map([1, 2, 3, 4].map((id) => [id, photo(id)]));
const context = { schoolId: 1, products, packages: [], sibling: null, photos, closed: false, holds: () => true };

const amount = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }).map(thebeToDecimal),
  fc.double({ min: -10, max: 10_000, noNaN: true }),
  fc.constantFrom('0.01', '30', '30.0', '17.50', 'abc', '', '-5'),
);
const clientLine = fc.record({
  photoId: fc.constantFrom(1, 2, 3, 4),
  albumId: fc.constant(1),
  productType: fc.constantFrom('11', '12', '13'),
  quantity: fc.integer({ min: 1, max: 10 }),
  unitPrice: amount,
  totalPrice: amount,
});

describe('server-side pricing (docs/money-and-pricing.md)', () => {
  it('any client payload yields the server total or a refusal', () => {
    fc.assert(
      fc.property(fc.array(clientLine, { minLength: 1, maxLength: 8 }), amount, (items, totalAmount) => {
        const serverTotal = items.reduce((sum, item) => sum + products.find((p) => p.id === item.productType)!.priceThebe * item.quantity, 0);
        try {
          const result = priceOrder({ items, totalAmount }, context);
          expect(result.totalThebe).toBe(serverTotal);
          for (const [i, line] of result.lines.entries()) {
            expect(line.unitThebe).toBe(products.find((p) => p.id === items[i]!.productType)!.priceThebe);
            expect(line.totalThebe).toBe(line.unitThebe * items[i]!.quantity);
          }
        } catch (err) {
          expect(err).toBeInstanceOf(AppError);
          expect((err as AppError).status).toBe(409);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a payload with the server prices is accepted and totals exactly', () => {
    fc.assert(
      fc.property(fc.array(clientLine, { minLength: 1, maxLength: 8 }), (raw) => {
        const items = raw.map((item) => {
          const price = products.find((p) => p.id === item.productType)!.priceThebe;
          return { ...item, unitPrice: thebeToDecimal(price), totalPrice: thebeToDecimal(price * item.quantity) };
        });
        const total = items.reduce((sum, item) => sum + Number(item.totalPrice.replace('.', '')), 0);
        const result = priceOrder({ items, totalAmount: thebeToDecimal(total) }, context);
        expect(result.totalThebe).toBe(total);
      }),
    );
  });

  it('refuses photos of another school or class, unknown products and prints after closing', () => {
    const line = { photoId: 1, albumId: 1, productType: '11', quantity: 1, unitPrice: '30.00', totalPrice: '30.00' };
    const status = (fn: () => unknown) => {
      try {
        fn();
        return 0;
      } catch (err) {
        return (err as AppError).status;
      }
    };
    const foreign = new Map([[1, photo(1, 1, 2)]]);
    expect(status(() => priceOrder({ items: [line], totalAmount: '30.00' }, { ...context, photos: foreign }))).toBe(400);
    expect(status(() => priceOrder({ items: [{ ...line, albumId: 2 }], totalAmount: '30.00' }, context))).toBe(400);
    expect(status(() => priceOrder({ items: [{ ...line, productType: 'print_10x15' }], totalAmount: '30.00' }, context))).toBe(409);
    expect(status(() => priceOrder({ items: [line], totalAmount: '30.00' }, { ...context, closed: true }))).toBe(409);
    const digital = { ...line, productType: '12', unitPrice: '17.50', totalPrice: '17.50' };
    expect(priceOrder({ items: [digital], totalAmount: '17.50' }, { ...context, closed: true }).totalThebe).toBe(1750);
  });

  it('falls back to the spec products with their prices', () => {
    expect(fallbackProducts().map((p) => [p.id, p.priceThebe])).toEqual([
      ['print_10x15', 2500],
      ['print_15x20', 4000],
      ['digital', 1500],
      ['frame_small', 3500],
      ['frame_large', 5500],
      ['canvas_small', 8000],
      ['canvas_large', 12000],
    ]);
  });
});

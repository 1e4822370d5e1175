import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { thebeToDecimal } from '../../contract/money';
import { COUPON_MSG, ORDER_MSG, PACKAGE_MSG } from '../../contract/messages';
import type { OrderLineInput } from '../../contract/orders';
import type { CouponRule } from '../coupons/coupons.types';
import { AppError } from '../http/errors';
import { orderRequestHash } from './idempotency';
import { percentOf, priceOrder, quoteOrder, siblingDiscountOf, type PackageInfo, type PhotoInfo, type PricingContext, type Product } from './pricing';

/**
 * The worked examples of docs/packages-and-coupons.md ("Filling a package", "Family pricing", "The
 * order of discounts"): packages, the family discount, coupons of each kind, their combination and
 * the rounding, all in thebe.
 */

const print15: Product = { id: '21', name: '15x20 Print', description: '', priceThebe: 4000, kind: 'print' };
const print10: Product = { id: '22', name: '10x15 Print', description: '', priceThebe: 2500, kind: 'print' };
const digital: Product = { id: '23', name: 'Digital Copy', description: '', priceThebe: 1500, kind: 'digital' };
const hd: Product = { id: '24', name: 'HD Download', description: '', priceThebe: 1750, kind: 'digital' };
const products = [print15, print10, digital, hd];

/** 1 x 15x20, 2 x 10x15, 1 digital: worth P105.00, sold for P85.00, at most 2 different photos. */
const familyPack: PackageInfo = {
  id: 7,
  name: 'Family Pack',
  priceThebe: 8500,
  maxPoses: 2,
  items: [
    { product: print15, quantity: 1 },
    { product: print10, quantity: 2 },
    { product: digital, quantity: 1 },
  ],
};
const digitalPack: PackageInfo = { id: 8, name: 'Digital Pair', priceThebe: 2500, maxPoses: null, items: [{ product: digital, quantity: 1 }, { product: hd, quantity: 1 }] };
const onePose: PackageInfo = { ...familyPack, id: 9, name: 'Classic', maxPoses: 1 };

const photo = (id: number, studentId: number | null): PhotoInfo => ({
  id,
  albumId: 1,
  schoolId: 1,
  albumName: 'Class 1A',
  albumHasPassword: false,
  accessMode: 'school_password',
  studentId,
  doNotPublish: false,
  withheld: false,
  albumPublished: true,
  originalName: `IMG_${id}.JPG`,
  originalNumber: String(id),
  filename: `${id}.jpg`,
});
// Photos 1 and 2 are of child 101, 3 of child 102, 4 of child 103, 5 a group photo (no child).
const photos = new Map([photo(1, 101), photo(2, 101), photo(3, 102), photo(4, 103), photo(5, null), photo(6, 104)].map((p) => [p.id, p]));
// The family holds every child by code here; "Children the family does not hold" below does not.
const context: PricingContext = { schoolId: 1, products, packages: [familyPack, digitalPack, onePose], sibling: null, photos, closed: false, holds: () => true };

const single = (photoId: number, product: Product, quantity = 1): OrderLineInput => ({
  photoId,
  albumId: 1,
  productType: product.id,
  quantity,
  unitPrice: thebeToDecimal(product.priceThebe),
  totalPrice: thebeToDecimal(product.priceThebe * quantity),
});
const pack = (pkg: PackageInfo, photoIds: number[], quantity = 1): OrderLineInput => ({
  packageId: pkg.id,
  photos: photoIds.map((photoId) => ({ photoId, albumId: null })),
  quantity,
  unitPrice: thebeToDecimal(pkg.priceThebe),
  totalPrice: thebeToDecimal(pkg.priceThebe * quantity),
});

const coupon = (rule: Partial<CouponRule>): CouponRule => ({
  id: 1,
  code: 'SPRING',
  kind: 'percent',
  value: 10,
  minOrderThebe: null,
  excludesPackages: false,
  oncePer: 'order',
  ...rule,
});

function refusal(fn: () => unknown): { status: number; code: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: err.status, code: err.code ?? '', message: err.message };
  }
  throw new Error('expected a refusal');
}

/** The family of the examples: child 101's Family Pack, child 102's two 15x20 prints, child 103's digital copy, a group 10x15 print. */
const family = [pack(familyPack, [1, 2, 1]), single(3, print15, 2), single(4, digital), single(5, print10)];

describe('packages (docs/packages-and-coupons.md, "Filling a package")', () => {
  it('prices a package at its own price and expands its contents without prices', () => {
    const priced = quoteOrder([pack(familyPack, [1])], context);
    expect(priced.subtotalThebe).toBe(8500);
    expect(priced.totalThebe).toBe(8500);
    const [line] = priced.packages;
    expect(line).toMatchObject({ quantity: 1, unitThebe: 8500, totalThebe: 8500, itemsValueThebe: 10500, studentId: 101 });
    expect(line!.contents.map((c) => [c.product.name, c.photo.id, c.quantity, c.unitThebe, c.totalThebe, c.digital])).toEqual([
      ['15x20 Print', 1, 1, 0, 0, false],
      ['10x15 Print', 1, 2, 0, 0, false],
      ['Digital Copy', 1, 1, 0, 0, true],
    ]);
  });

  it('multiplies contents and value by the package quantity, and puts each chosen photo on its row', () => {
    const priced = quoteOrder([pack(familyPack, [1, 2, 1], 2)], context);
    const [line] = priced.packages;
    expect(line).toMatchObject({ unitThebe: 8500, totalThebe: 17000, itemsValueThebe: 21000 });
    expect(line!.contents.map((c) => [c.photo.id, c.quantity])).toEqual([
      [1, 2],
      [2, 4],
      [1, 2],
    ]);
    expect(priced.totalThebe).toBe(17000);
  });

  it('refuses a wrong count of photos, too many poses, two children, and an unknown package', () => {
    expect(refusal(() => quoteOrder([pack(familyPack, [1, 2])], context))).toEqual({ status: 400, code: 'PACKAGE_PHOTOS', message: PACKAGE_MSG.photosCount });
    expect(refusal(() => quoteOrder([pack(onePose, [1, 2, 1])], context))).toEqual({ status: 400, code: 'PACKAGE_POSES', message: PACKAGE_MSG.tooManyPoses(1) });
    expect(refusal(() => quoteOrder([pack(familyPack, [1, 3, 1])], context))).toEqual({ status: 400, code: 'PACKAGE_ONE_CHILD', message: PACKAGE_MSG.oneChild });
    // A group photo (no child) is not the same child as child 101's photo.
    expect(refusal(() => quoteOrder([pack(familyPack, [1, 5, 1])], context)).code).toBe('PACKAGE_ONE_CHILD');
    const gone = { ...pack(familyPack, [1]), packageId: 99, packageName: 'Old Pack' };
    expect(refusal(() => quoteOrder([gone], context))).toEqual({ status: 409, code: 'PACKAGE_UNAVAILABLE', message: PACKAGE_MSG.packageUnavailable('Old Pack') });
    expect(refusal(() => quoteOrder([{ ...pack(familyPack, [1]), photos: [{ photoId: 77, albumId: null }] }], context)).code).toBe('PHOTO_NOT_IN_SCHOOL');
    expect(refusal(() => quoteOrder([{ ...pack(familyPack, [1]), photos: [{ photoId: 1, albumId: 2 }] }], context)).code).toBe('PHOTO_NOT_IN_SCHOOL');
  });

  it('after the closing date sells a package only when it holds no print', () => {
    const closed = { ...context, closed: true };
    expect(refusal(() => quoteOrder([pack(familyPack, [1])], closed))).toEqual({ status: 409, code: 'PRINTS_CLOSED', message: ORDER_MSG.printsClosed('Family Pack') });
    expect(quoteOrder([pack(digitalPack, [4, 4])], closed).totalThebe).toBe(2500);
  });

  it('refuses a tampered package price like a tampered single price', () => {
    const good = pack(familyPack, [1]);
    expect(priceOrder({ items: [good], totalAmount: '85.00' }, context).totalThebe).toBe(8500);
    expect(refusal(() => priceOrder({ items: [{ ...good, unitPrice: '10.00', totalPrice: '10.00' }], totalAmount: '10.00' }, context)).code).toBe('PRICE_MISMATCH');
    expect(refusal(() => priceOrder({ items: [{ ...good, totalPrice: '10.00' }], totalAmount: '85.00' }, context)).code).toBe('PRICE_MISMATCH');
  });
});

describe('family pricing (docs/packages-and-coupons.md, "Family pricing")', () => {
  it('takes the percentage off the second and later children, the first being the one with the highest subtotal', () => {
    // 101: P85.00, 102: P80.00, 103: P15.00, group photo: P25.00. 20% off 102 and 103: (8000 + 1500) x 20% = 1900.
    const priced = quoteOrder(family, { ...context, sibling: { percent: 20, maxChildren: 3 } });
    expect(priced.subtotalThebe).toBe(20500);
    expect(priced.siblingDiscountThebe).toBe(1900);
    expect(priced.siblingPercent).toBe(20);
    expect(priced.totalThebe).toBe(18600);
    expect(priced.studentIds).toEqual([101, 102, 103]);
  });

  it('stops at maxChildren: children beyond it pay in full', () => {
    // Only the second child (102, P80.00) is discounted: 1600.
    expect(quoteOrder(family, { ...context, sibling: { percent: 20, maxChildren: 2 } }).siblingDiscountThebe).toBe(1600);
  });

  it('breaks ties by the lower student id, and never discounts lines without a child', () => {
    expect(siblingDiscountOf([{ studentId: 103, totalThebe: 4000 }, { studentId: 102, totalThebe: 4000 }, { studentId: null, totalThebe: 9000 }], { percent: 50, maxChildren: 2 })).toBe(2000);
    expect(siblingDiscountOf([{ studentId: 102, totalThebe: 4000 }, { studentId: 103, totalThebe: 3000 }], { percent: 50, maxChildren: 2 })).toBe(1500);
    // One child and group photos: no discount, and no percentage shown.
    const one = quoteOrder([single(1, print15), single(5, print15)], { ...context, sibling: { percent: 20, maxChildren: 3 } });
    expect(one.siblingDiscountThebe).toBe(0);
    expect(one.siblingPercent).toBeNull();
  });

  it('rounds half up, once over all discounted children', () => {
    // Two younger children with an HD Download each (P17.50): 15% of 3500 = 525; per child it would be 263 + 263.
    const lines = [single(1, print15), single(3, hd), single(4, hd)];
    expect(quoteOrder(lines, { ...context, sibling: { percent: 15, maxChildren: 3 } }).siblingDiscountThebe).toBe(525);
    // One younger child: 15% of 1750 = 262.5, rounded up to 263.
    expect(quoteOrder([single(1, print15), single(3, hd)], { ...context, sibling: { percent: 15, maxChildren: 3 } }).siblingDiscountThebe).toBe(263);
    expect(percentOf(1750, 15)).toBe(263);
    expect(percentOf(1749, 10)).toBe(175);
    expect(percentOf(1744, 10)).toBe(174);
  });
});

describe('children the family does not hold (docs/access.md, "Whose photo it is")', () => {
  // A school-password family holding only child 101 by code; 102, 103 and 104 are only photos to it.
  const heldOne: PricingContext = { ...context, sibling: { percent: 20, maxChildren: 3 }, holds: (studentId) => studentId === 101 };

  it('makes no child of them for the family discount, and names only the held child', () => {
    // 101 (P85.00) is the only child the family holds: nothing to discount.
    const priced = quoteOrder(family, heldOne);
    expect(priced.siblingDiscountThebe).toBe(0);
    expect(priced.siblingPercent).toBeNull();
    expect(priced.studentIds).toEqual([101]);
    expect(priced.lines.map((line) => line.childHeld)).toEqual([false, false, false]);
    expect(priced.packages.map((pkg) => [pkg.studentId, pkg.childHeld])).toEqual([[101, true]]);
    // Holding 101 and 103: 103's P15.00 is the second child's, 102's P80.00 pays in full like a group photo.
    expect(quoteOrder(family, { ...heldOne, holds: (studentId) => studentId === 101 || studentId === 103 }).siblingDiscountThebe).toBe(300);
  });

  it('fills a package with photos of children it does not hold without telling them apart', () => {
    const mixed = quoteOrder([pack(familyPack, [3, 4, 3])], heldOne);
    expect(mixed.packages[0]).toMatchObject({ studentId: null, childHeld: false });
    // A held child's photo with another still refuses: those are not all of the child it holds.
    expect(refusal(() => quoteOrder([pack(familyPack, [1, 3, 1])], heldOne)).code).toBe('PACKAGE_ONE_CHILD');
    // Staff (holding every child) are still told.
    expect(refusal(() => quoteOrder([pack(familyPack, [3, 4, 3])], context)).code).toBe('PACKAGE_ONE_CHILD');
  });
});

describe('coupons and the order of discounts (docs/packages-and-coupons.md, "The order of discounts")', () => {
  const sibling = { percent: 20, maxChildren: 3 };

  it('a percent coupon alone', () => {
    const priced = quoteOrder(family, context, coupon({ kind: 'percent', value: 10 }));
    expect(priced.coupon?.discountThebe).toBe(2050);
    expect(priced.totalThebe).toBe(18450);
  });

  it('an amount coupon alone', () => {
    const priced = quoteOrder(family, context, coupon({ kind: 'amount', value: 5000 }));
    expect(priced.coupon?.discountThebe).toBe(5000);
    expect(priced.totalThebe).toBe(15500);
  });

  it('the family discount first, then the coupon on what is left', () => {
    // 20500 - 1900 = 18600; 10% of it: 1860; total 16740.
    const percent = quoteOrder(family, { ...context, sibling }, coupon({ kind: 'percent', value: 10 }));
    expect([percent.subtotalThebe, percent.siblingDiscountThebe, percent.coupon?.discountThebe, percent.totalThebe]).toEqual([20500, 1900, 1860, 16740]);
    const amount = quoteOrder(family, { ...context, sibling }, coupon({ kind: 'amount', value: 5000 }));
    expect(amount.totalThebe).toBe(13600);
  });

  it('a coupon that excludes packages applies to the other lines less their own family discount', () => {
    // Eligible: 102's P80.00, 103's P15.00, the group P25.00 = 12000. Among them 102 is the first child,
    // 103 the second: 20% of 1500 = 300. Base 11700, 10%: 1170. Total 20500 - 1900 - 1170 = 17430.
    const priced = quoteOrder(family, { ...context, sibling }, coupon({ value: 10, excludesPackages: true }));
    expect(priced.coupon?.discountThebe).toBe(1170);
    expect(priced.totalThebe).toBe(17430);
    expect(refusal(() => quoteOrder([pack(familyPack, [1])], context, coupon({ excludesPackages: true })))).toEqual({
      status: 409,
      code: 'COUPON_NOT_APPLICABLE',
      message: COUPON_MSG.nothingEligible,
    });
  });

  it('checks the minimum order against the subtotal before any discount', () => {
    expect(refusal(() => quoteOrder(family, context, coupon({ minOrderThebe: 25000 })))).toEqual({ status: 409, code: 'COUPON_MINIMUM', message: COUPON_MSG.minimumOrder('P250.00') });
    // Exactly the minimum is enough, even though the family discount brings the total under it.
    expect(quoteOrder(family, { ...context, sibling }, coupon({ minOrderThebe: 20500 })).coupon?.discountThebe).toBe(1860);
  });

  it('rounds a percent coupon half up, once', () => {
    // 15% of P17.50 = 262.5: 263.
    expect(quoteOrder([single(3, hd)], context, coupon({ value: 15 })).coupon?.discountThebe).toBe(263);
  });

  it('never goes below zero', () => {
    const big = quoteOrder([single(5, print10)], context, coupon({ kind: 'amount', value: 50000 }));
    expect([big.coupon?.discountThebe, big.totalThebe]).toEqual([2500, 0]);
    const full = quoteOrder(family, { ...context, sibling }, coupon({ kind: 'percent', value: 100 }));
    expect([full.coupon?.discountThebe, full.totalThebe]).toEqual([18600, 0]);
    expect(priceOrder({ items: family, totalAmount: '0.00' }, { ...context, sibling }, coupon({ value: 100 })).totalThebe).toBe(0);
  });

  it('the client total must be the total after the discounts', () => {
    const withDiscounts = { ...context, sibling };
    const rule = coupon({ value: 10 });
    expect(priceOrder({ items: family, totalAmount: '167.40' }, withDiscounts, rule).totalThebe).toBe(16740);
    for (const totalAmount of ['205.00', '186.00', '167.39']) {
      expect(refusal(() => priceOrder({ items: family, totalAmount }, withDiscounts, rule)).code).toBe('PRICE_MISMATCH');
    }
  });

  it('any mix of lines, family discount and coupon adds up exactly and stays at or above zero', () => {
    const line = fc.oneof(
      fc.record({ photoId: fc.constantFrom(1, 2, 3, 4, 5, 6), product: fc.constantFrom(...products), quantity: fc.integer({ min: 1, max: 10 }) }).map((l) => single(l.photoId, l.product, l.quantity)),
      fc.record({ photoId: fc.constantFrom(1, 3, 4, 5, 6), quantity: fc.integer({ min: 1, max: 10 }) }).map((l) => pack(familyPack, [l.photoId], l.quantity)),
    );
    const siblingRule = fc.option(fc.record({ percent: fc.integer({ min: 1, max: 100 }), maxChildren: fc.integer({ min: 2, max: 20 }) }), { nil: null });
    const couponRule = fc.option(
      fc.oneof(
        fc.record({ kind: fc.constant('percent' as const), value: fc.integer({ min: 1, max: 100 }), excludesPackages: fc.boolean() }),
        fc.record({ kind: fc.constant('amount' as const), value: fc.integer({ min: 1, max: 100_000 }), excludesPackages: fc.boolean() }),
      ),
      { nil: null },
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), siblingRule, couponRule, (items, siblingDiscount, rule) => {
        try {
          const priced = quoteOrder(items, { ...context, sibling: siblingDiscount }, rule && coupon(rule));
          const couponThebe = priced.coupon?.discountThebe ?? 0;
          expect(priced.totalThebe).toBe(priced.subtotalThebe - priced.siblingDiscountThebe - couponThebe);
          expect(priced.totalThebe).toBeGreaterThanOrEqual(0);
          expect(priced.siblingDiscountThebe).toBeGreaterThanOrEqual(0);
          expect(couponThebe).toBeGreaterThanOrEqual(0);
          expect(Number.isInteger(priced.totalThebe)).toBe(true);
        } catch (err) {
          // Only a coupon with nothing to apply to may refuse these well-formed carts.
          expect((err as AppError).code).toBe('COUPON_NOT_APPLICABLE');
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('the idempotency key binds the new fields', () => {
  it('a different coupon or package line is a different request', () => {
    const base = { schoolId: 1, customerName: 'A', customerEmail: 'a@b.test', customerPhone: null, studentName: 'B', totalAmount: '85.00', notes: null };
    const one = orderRequestHash({ ...base, items: [pack(familyPack, [1])], couponCode: null }, null);
    expect(orderRequestHash({ ...base, items: [pack(familyPack, [1])], couponCode: 'SPRING' }, null)).not.toBe(one);
    expect(orderRequestHash({ ...base, items: [pack(familyPack, [2])], couponCode: null }, null)).not.toBe(one);
    expect(orderRequestHash({ ...base, items: [pack(familyPack, [1])], couponCode: null }, null)).toBe(one);
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allocateRevenue } from './allocate';
import { digitalPart, grantVisitor, publishOffset, reportDay, saleLinesOf, type SaleSource } from './reports-recording';

/** docs/reports.md, "Revenue of a line". */
describe('allocateRevenue', () => {
  it('gives each line its total when nothing was discounted', () => {
    expect(allocateRevenue(13750, [12000, 1750])).toEqual([12000, 1750]);
  });

  it('shares a discounted total in proportion, floors, and hands the leftover to the largest remainders', () => {
    // 9675 over 6000, 1750, 3000 (subtotal 10750): exact shares 5400, 1575, 2700.
    expect(allocateRevenue(9675, [6000, 1750, 3000])).toEqual([5400, 1575, 2700]);
    // 100 over three equal lines: 33.33 each, one thebe left, to the first (ties: the earlier line).
    expect(allocateRevenue(100, [1, 1, 1])).toEqual([34, 33, 33]);
    // 5 over 6 and 14 (of 20): 1.5 and 3.5 -> 1 and 3, equal remainders: the earlier line gets the thebe left.
    expect(allocateRevenue(5, [6, 14])).toEqual([2, 3]);
    // Remainders decide, not position: 7 over [1, 2] (of 3): 2.33, 4.67 -> 2, 5.
    expect(allocateRevenue(7, [1, 2])).toEqual([2, 5]);
  });

  it('gives every line 0 for a free order or lines worth nothing', () => {
    expect(allocateRevenue(0, [3000, 1750])).toEqual([0, 0]);
    expect(allocateRevenue(500, [0, 0])).toEqual([0, 0]);
    expect(allocateRevenue(0, [])).toEqual([]);
  });

  it('always adds up to the total, each share within a thebe of its exact part', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 30 }), fc.integer({ min: 0, max: 100 }), (lists, percent) => {
        const subtotal = lists.reduce((sum, list) => sum + list, 0);
        const total = Math.floor((subtotal * percent) / 100);
        const shares = allocateRevenue(total, lists);
        expect(shares).toHaveLength(lists.length);
        if (subtotal === 0) {
          // fast-check reads a returned value as the property's verdict: assert, return nothing.
          expect(shares.every((share) => share === 0)).toBe(true);
          return;
        }
        expect(shares.reduce((sum, share) => sum + share, 0)).toBe(total);
        shares.forEach((share, index) => {
          const exact = (total * (lists[index] ?? 0)) / subtotal;
          expect(share).toBeGreaterThanOrEqual(Math.floor(exact));
          expect(share).toBeLessThanOrEqual(Math.floor(exact) + 1);
        });
      }),
    );
  });
});

describe('sale lines of an order', () => {
  const at = Date.UTC(2026, 10, 30, 22, 30); // 1 December 2026, 00:30 in Gaborone
  const order: SaleSource = {
    orderId: 'ORD1',
    schoolId: 7,
    totalThebe: 8000,
    placedAt: at,
    singles: [
      { albumId: 3, studentId: 11, productId: '41', productName: 'Glossy Print', kind: 'print', quantity: 2, totalThebe: 6000 },
      { albumId: 4, studentId: null, productId: 'digital', productName: 'Digital Copy', kind: 'digital', quantity: 1, totalThebe: 1500 },
    ],
    packages: [
      { packageId: 9, name: 'Digital Pair', quantity: 1, totalThebe: 3000, studentId: 12, contents: [{ albumId: 5, kind: 'digital', totalThebe: 1750 }, { albumId: 5, kind: 'digital', totalThebe: 1750 }] },
      { packageId: null, name: 'Family Pack', quantity: 2, totalThebe: 1500, studentId: null, contents: [{ albumId: 5, kind: 'print', totalThebe: 3000 }, { albumId: 5, kind: 'digital', totalThebe: 1000 }] },
    ],
  };

  it('is each single line and each package line, keyed and classed, sharing the total', () => {
    const lines = saleLinesOf(order);
    expect(lines.map((line) => [line.albumId, line.studentId, line.itemKind, line.itemKey, line.itemName, line.digital, line.quantity, line.listThebe])).toEqual([
      [3, 11, 'print', 'product:41', 'Glossy Print', false, 2, 6000],
      [4, null, 'digital', 'product:digital', 'Digital Copy', true, 1, 1500],
      [5, 12, 'package', 'package:9', 'Digital Pair', true, 1, 3000],
      [5, null, 'package', 'package:name:Family Pack', 'Family Pack', false, 2, 1500],
    ]);
    // 8000 over 6000, 1500, 3000, 1500 (of 12000): 4000, 1000, 2000, 1000.
    expect(lines.map((line) => line.revenueThebe)).toEqual([4000, 1000, 2000, 1000]);
    // The digital part: all of a digital line and of an all-digital package; of the Family Pack, its
    // digital copy's share of its contents' single prices (1000 of 4000), not nothing.
    expect(lines.map((line) => line.digitalThebe)).toEqual([0, 1000, 2000, 250]);
    expect(lines.every((line) => line.placedDay === 20261201 && line.orderId === 'ORD1' && line.schoolId === 7)).toBe(true);
  });
});

describe('the digital part of a line', () => {
  it('is all of a digital line, none of a print line, and the share of a package that its digital contents have, rounded down', () => {
    expect(digitalPart(1000, null, true)).toBe(1000);
    expect(digitalPart(1000, null, false)).toBe(0);
    expect(digitalPart(1000, [], false)).toBe(0);
    expect(digitalPart(1001, [{ kind: 'print', totalThebe: 2000 }, { kind: 'digital', totalThebe: 1000 }], false)).toBe(333);
    expect(digitalPart(999, [{ kind: 'digital', totalThebe: 0 }, { kind: 'digital', totalThebe: 0 }], true)).toBe(999);
    // Contents without a price share by count.
    expect(digitalPart(1000, [{ kind: 'print', totalThebe: 0 }, { kind: 'digital', totalThebe: 0 }], false)).toBe(500);
  });
});

describe('days', () => {
  it('are Botswana calendar days', () => {
    expect(reportDay(Date.UTC(2026, 10, 30, 21, 59))).toBe(20261130);
    expect(reportDay(Date.UTC(2026, 10, 30, 22, 0))).toBe(20261201);
  });

  it('publish offset: calendar days from the publish day, never below 0, null without a publish time', () => {
    const published = Date.UTC(2026, 10, 30, 21, 0); // 30 Nov, 23:00 local
    expect(publishOffset(Date.UTC(2026, 10, 30, 22, 30), published)).toBe(1); // 1 Dec, 00:30 local
    expect(publishOffset(published + 60_000, published)).toBe(0);
    expect(publishOffset(published - 3 * 24 * 3600_000, published)).toBe(0);
    expect(publishOffset(published, null)).toBeNull();
  });
});

describe('a grant visitor key', () => {
  it('is stable for one entry, differs for another end or tag and under another secret, and is short', () => {
    const key = grantVisitor('a'.repeat(32));
    const entry = { tag: 'abc', exp: 1_800_000_000 };
    expect(key(entry)).toBe(key({ ...entry }));
    expect(key(entry)).not.toBe(key({ ...entry, exp: entry.exp + 1 }));
    expect(key(entry)).not.toBe(key({ ...entry, tag: 'abd' }));
    expect(grantVisitor('b'.repeat(32))(entry)).not.toBe(key(entry));
    expect(key(entry)).toMatch(/^g:[A-Za-z0-9_-]{22}$/);
  });
});

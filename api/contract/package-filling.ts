/**
 * Filling a package (docs/packages-and-coupons.md, "Filling a package"): which photo fills which
 * piece of a package's contents, shared by the server's pricing and the gallery's picker (its
 * texts are in package-picker.ts, so the gallery's first screen does not carry them).
 */

/** One photo's share of a content row: `photos[photo]` fills `count` of its pieces. */
export interface PackageSlot {
  photo: number;
  count: number;
}

/** How many pieces a package holds: the sum of its contents' quantities (2 x 13x18 is two). */
export const packagePieces = (items: readonly { quantity: number }[]): number => items.reduce((sum, item) => sum + item.quantity, 0);

/**
 * How `photoCount` photos fill a package's contents, per content row, or null when that count
 * fits none of the three ways: one photo for the whole package, one per content row (in the
 * order of its items), or one per piece (row by row, 2 x 13x18 taking two). When every row holds
 * one piece the last two are the same.
 */
export function packageSlots(items: readonly { quantity: number }[], photoCount: number): PackageSlot[][] | null {
  if (items.length === 0 || photoCount < 1) return null;
  if (photoCount === 1) return items.map((item) => [{ photo: 0, count: item.quantity }]);
  if (photoCount === items.length) return items.map((item, index) => [{ photo: index, count: item.quantity }]);
  if (photoCount !== packagePieces(items)) return null;
  let next = 0;
  return items.map((item) => Array.from({ length: item.quantity }, () => ({ photo: next++, count: 1 })));
}

/** The most photos a package line may carry: 20 content rows of at most 10 pieces. */
export const PACKAGE_PHOTOS_MAX = 200;

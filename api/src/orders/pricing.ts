import { DEFAULT_PRODUCT_DESCRIPTION, FALLBACK_PRODUCTS, type ProductKind } from '../../contract/constants';
import { decimalToThebe, formatPula } from '../../contract/money';
import { COUPON_MSG, ORDER_MSG, PACKAGE_MSG, STUDENT_MSG } from '../../contract/messages';
import { packageSlots, type PackageSlot } from '../../contract/package-filling';
import { isPackageLine, type OrderCreateInput, type OrderItemInput, type OrderLineInput, type PackageLineInput } from '../../contract/orders';
import type { SiblingDiscount } from '../../contract/price-lists';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { PREPAID_MSG } from '../../contract/prepaid';
import type { AccessMode } from '../../contract/student-codes';
import type { CouponRule } from '../coupons/coupons.types';

export interface Product {
  /** Price list item id as a string, or a built-in product id. */
  id: string;
  name: string;
  description: string;
  priceThebe: number;
  /** Print (goes to the lab) or digital (a download): the product's own setting, not its name. */
  kind: ProductKind;
}

export interface PhotoInfo {
  id: number;
  albumId: number;
  schoolId: number;
  albumName: string;
  albumHasPassword: boolean;
  accessMode: AccessMode;
  /** The child in the photo; null for a group photo. */
  studentId: number | null;
  /** The child is marked "do not publish": the photo is never sold. */
  doNotPublish: boolean;
  /** A card photo, one waiting in the unmatched tray or one waiting for review: never sold. */
  withheld: boolean;
  /** Its class is published: a draft's photos are never sold. */
  albumPublished: boolean;
  originalName: string;
  originalNumber: string | null;
  filename: string;
  /**
   * What an order line shows of the photo as it is now, read with it by the orders repository's
   * `photos()`: the order just placed is answered from it without being read back (`placed()`).
   * Absent on a PhotoInfo made elsewhere; the order is then read back.
   */
  now?: PhotoLineNow;
}

/** The photo as an order line reads it beside the line (orders.repository.ts, `LinePhotoNow` and the line's child). */
export interface PhotoLineNow {
  inTray: boolean;
  /** Its class is published, archived or not (an archived class still delivers what it sold). */
  published: boolean;
  /** The photo's child from the roster: name, number and class (null for a group photo). */
  studentName: string | null;
  studentNumber: string | null;
  studentAlbumId: number | null;
}

export interface PricedLine {
  photo: PhotoInfo;
  product: Product;
  quantity: number;
  unitThebe: number;
  totalThebe: number;
  digital: boolean;
  /** The family holds the photo's child by code (or staff place the order): false for a group photo. */
  childHeld: boolean;
}

/** A price list package as an order line reads it (docs/packages-and-coupons.md, "Packages"). */
export interface PackageInfo {
  id: number;
  name: string;
  priceThebe: number;
  maxPoses: number | null;
  /** Its contents: products of the same list, in list order. */
  items: { product: Product; quantity: number }[];
}

/**
 * A package line priced: `contents` are its items as order lines, one per item of the package and
 * photo chosen for it, quantity = pieces with that photo x package quantity, unit and total 0 (the
 * package carries the price).
 */
export interface PricedPackage {
  package: PackageInfo;
  quantity: number;
  unitThebe: number;
  totalThebe: number;
  /** The contents at single-product prices, times the quantity. */
  itemsValueThebe: number;
  /** The child whose photos fill it; null for group photos, a school without a roster, or photos of several children the family does not hold. */
  studentId: number | null;
  /** The family holds that child by code (or staff place the order). */
  childHeld: boolean;
  contents: PricedLine[];
  /** Ordered before picture day: no photos, no contents yet (docs/prepaid.md). */
  prepaid: boolean;
  /** A prepaid line's child's class (null for a line with photos: its contents name theirs). */
  albumId: number | null;
  albumName: string | null;
}

/** A child a prepaid package line names (docs/prepaid.md, "Ordering before picture day"). */
export interface PrepaidStudent {
  id: number;
  schoolId: number;
  albumId: number;
  albumName: string;
  doNotPublish: boolean;
}

export interface PricingContext {
  schoolId: number;
  products: readonly Product[];
  /** The price list's packages (none for a school selling the built-in products). */
  packages: readonly PackageInfo[];
  /** The price list's family discount, or null (docs/packages-and-coupons.md, "Family pricing"). */
  sibling: SiblingDiscount | null;
  photos: ReadonlyMap<number, PhotoInfo>;
  /** The school's closing date has passed: only digital products are sold. */
  closed: boolean;
  /**
   * Whether the family holds this child by code (every child when staff place the order): only
   * those children are named to it, make a child for the family discount or count for a
   * once-per-child coupon (docs/access.md, "Whose photo it is").
   */
  holds: (studentId: number) => boolean;
  /** The school's access mode: a package ordered before picture day needs codes (docs/prepaid.md). */
  accessMode?: AccessMode;
  /** The children prepaid package lines name, found by id (absent: none). */
  students?: ReadonlyMap<number, PrepaidStudent>;
  /** The school's closing date, for the refusal of a prepaid line once it has passed. */
  closingDate?: string | null;
}

/** One line of the order as sent, priced: a single product or a package. */
export type QuotedLine = { kind: 'single'; line: PricedLine } | { kind: 'package'; package: PricedPackage };

/** An order priced by the server (docs/packages-and-coupons.md, "The order of discounts"). */
export interface PricedOrder {
  /** Every line in the order it was sent. */
  quoted: QuotedLine[];
  /** The single-product lines. */
  lines: PricedLine[];
  /** The package lines with their contents. */
  packages: PricedPackage[];
  /** All lines before any discount. */
  subtotalThebe: number;
  siblingDiscountThebe: number;
  /** The family discount's percentage when it took something off, else null. */
  siblingPercent: number | null;
  coupon: { rule: CouponRule; discountThebe: number } | null;
  /** What is charged: subtotal - sibling discount - coupon discount, never below 0. */
  totalThebe: number;
  /** The children of the order the family holds by code (photos' students, singles and package contents), ascending. */
  studentIds: number[];
}

export const fallbackProducts = (): Product[] =>
  FALLBACK_PRODUCTS.map((p) => ({ id: p.id, name: p.name, description: DEFAULT_PRODUCT_DESCRIPTION, priceThebe: p.priceThebe, kind: p.kind }));

/** amount x percent / 100, halves rounded up, in integers: every percentage discount is rounded once, here. */
export function percentOf(amountThebe: number, percent: number): number {
  return Math.floor((amountThebe * percent + 50) / 100);
}

/** What a line counts for the family discount and the coupon: its child, its total, whether it is a package. */
interface DiscountLine {
  studentId: number | null;
  totalThebe: number;
  isPackage: boolean;
}

/** A line of a child the family does not hold counts as one without a child (docs/packages-and-coupons.md, "Family pricing"). */
const discountLine = (quoted: QuotedLine): DiscountLine =>
  quoted.kind === 'single'
    ? { studentId: quoted.line.childHeld ? quoted.line.photo.studentId : null, totalThebe: quoted.line.totalThebe, isPackage: false }
    : { studentId: quoted.package.childHeld ? quoted.package.studentId : null, totalThebe: quoted.package.totalThebe, isPackage: true };

/** The line's child when the family holds it, else null. */
const heldChild = (ctx: PricingContext, photo: PhotoInfo): number | null => (photo.studentId !== null && ctx.holds(photo.studentId) ? photo.studentId : null);

/**
 * The family discount on these lines (docs/packages-and-coupons.md, "Family pricing"): lines are
 * grouped by child (lines without a child are never discounted), children sorted by their subtotal
 * (highest first, ties by the lower student id); the first pays in full, the 2nd up to the
 * `maxChildren`th get `percent` off, later ones pay in full. Rounded once over all of them.
 */
export function siblingDiscountOf(lines: readonly { studentId: number | null; totalThebe: number }[], sibling: SiblingDiscount | null): number {
  if (!sibling) return 0;
  const byChild = new Map<number, number>();
  for (const line of lines) {
    if (line.studentId === null) continue;
    byChild.set(line.studentId, (byChild.get(line.studentId) ?? 0) + line.totalThebe);
  }
  const children = [...byChild].sort(([idA, totalA], [idB, totalB]) => totalB - totalA || idA - idB);
  const base = children.slice(1, sibling.maxChildren).reduce((sum, [, total]) => sum + total, 0);
  return percentOf(base, sibling.percent);
}

/**
 * The coupon's discount after the family discount (docs/packages-and-coupons.md, "The order of
 * discounts"): the minimum order is checked against the subtotal before any discount; the base is
 * the eligible lines (all, or all but packages) less the family discount those lines alone would
 * get; a percentage of it rounded once, or the amount up to the base. Never more than what is
 * left after the family discount, so the total never goes below zero.
 */
export function couponDiscountOf(
  lines: readonly DiscountLine[],
  sibling: SiblingDiscount | null,
  coupon: CouponRule,
  totals: { subtotalThebe: number; siblingDiscountThebe: number },
): number {
  if (coupon.minOrderThebe !== null && totals.subtotalThebe < coupon.minOrderThebe) {
    throw conflict(COUPON_MSG.minimumOrder(formatPula(coupon.minOrderThebe, 'thebe')), 'COUPON_MINIMUM');
  }
  const eligible = coupon.excludesPackages ? lines.filter((line) => !line.isPackage) : lines;
  const eligibleSubtotal = eligible.reduce((sum, line) => sum + line.totalThebe, 0);
  const base = Math.max(0, eligibleSubtotal - siblingDiscountOf(eligible, sibling));
  if (base === 0) throw conflict(COUPON_MSG.nothingEligible, 'COUPON_NOT_APPLICABLE');
  const discount = coupon.kind === 'percent' ? percentOf(base, coupon.value) : Math.min(coupon.value, base);
  return Math.min(discount, Math.max(0, totals.subtotalThebe - totals.siblingDiscountThebe));
}

function photoOf(ctx: PricingContext, photoId: number, albumId: number | null): PhotoInfo {
  const photo = ctx.photos.get(photoId);
  if (!photo || photo.schoolId !== ctx.schoolId || (albumId !== null && photo.albumId !== albumId)) {
    throw badRequest(ORDER_MSG.photoNotInSchool, undefined, 'PHOTO_NOT_IN_SCHOOL');
  }
  return photo;
}

function priceSingle(item: OrderItemInput, ctx: PricingContext, products: ReadonlyMap<string, Product>): { line: PricedLine; agrees: boolean } {
  const photo = photoOf(ctx, item.photoId, item.albumId);
  // The wire's `productType` on an order item is the product's id.
  const product = products.get(item.productType);
  if (!product) throw conflict(ORDER_MSG.productUnavailable(item.productName?.trim() || 'A product'), 'PRODUCT_UNAVAILABLE');
  const digital = product.kind === 'digital';
  if (ctx.closed && !digital) throw conflict(ORDER_MSG.printsClosed(product.name), 'PRINTS_CLOSED');
  const unitThebe = product.priceThebe;
  const totalThebe = unitThebe * item.quantity;
  const agrees = decimalToThebe(item.unitPrice) === unitThebe && decimalToThebe(item.totalPrice) === totalThebe;
  return { line: { photo, product, quantity: item.quantity, unitThebe, totalThebe, digital, childHeld: heldChild(ctx, photo) !== null }, agrees };
}

/**
 * A package's contents as order lines (docs/packages-and-coupons.md, "Filling a package"): one line
 * per content row and photo (2 x 13x18 filled with two photos is two lines of 1), quantity = pieces
 * with that photo x package quantity, unit and total 0 (the package carries the price).
 */
export function packageContents(pkg: PackageInfo, slots: PackageSlot[][], photos: readonly PhotoInfo[], quantity: number, held: (photo: PhotoInfo) => boolean): PricedLine[] {
  return pkg.items.flatMap((item, index) => {
    const pieces = new Map<number, { photo: PhotoInfo; count: number }>();
    for (const slot of slots[index] ?? []) {
      const photo = photos[slot.photo] ?? photos[0];
      if (!photo) continue;
      pieces.set(photo.id, { photo, count: (pieces.get(photo.id)?.count ?? 0) + slot.count });
    }
    return [...pieces.values()].map(({ photo, count }) => ({
      photo,
      product: item.product,
      quantity: count * quantity,
      unitThebe: 0,
      totalThebe: 0,
      digital: item.product.kind === 'digital',
      childHeld: held(photo),
    }));
  });
}

/**
 * A package line (docs/packages-and-coupons.md, "Filling a package"): one photo for all of its
 * contents, one per content row, or one per piece (`packageSlots()`), no more different photos
 * than its poses, all of one child, none of them a print after the closing date.
 */
function pricePackage(input: PackageLineInput, ctx: PricingContext, packages: ReadonlyMap<number, PackageInfo>): { pkg: PricedPackage; agrees: boolean } {
  const pkg = packages.get(input.packageId);
  if (!pkg) throw conflict(PACKAGE_MSG.packageUnavailable(input.packageName?.trim() || 'A package'), 'PACKAGE_UNAVAILABLE');
  if (input.photos.length === 0 && input.studentId !== undefined) return pricePrepaid(input, input.studentId, pkg, ctx);
  const slots = packageSlots(pkg.items, input.photos.length);
  if (!slots) throw badRequest(PACKAGE_MSG.photosCount, undefined, 'PACKAGE_PHOTOS');
  const photos = input.photos.map((chosen) => photoOf(ctx, chosen.photoId, chosen.albumId));
  const [firstPhoto] = photos;
  if (!firstPhoto) throw badRequest(PACKAGE_MSG.photosCount, undefined, 'PACKAGE_PHOTOS');
  const poses = new Set(photos.map((photo) => photo.id)).size;
  if (pkg.maxPoses !== null && poses > pkg.maxPoses) throw badRequest(PACKAGE_MSG.tooManyPoses(pkg.maxPoses), undefined, 'PACKAGE_POSES');
  // One child per package, as far as the family can tell: a child it does not hold counts like a
  // group photo, so a refusal never tells it that two photos are of different children
  // (docs/access.md, "Whose photo it is").
  const children = new Set(photos.map((photo) => heldChild(ctx, photo)));
  if (children.size > 1) throw badRequest(PACKAGE_MSG.oneChild, undefined, 'PACKAGE_ONE_CHILD');
  const students = new Set(photos.map((photo) => photo.studentId));
  const studentId = students.size === 1 ? firstPhoto.studentId : null;
  // A line naming its child: its photos must be that child's (docs/prepaid.md).
  if (input.studentId !== undefined && studentId !== input.studentId) throw badRequest(PREPAID_MSG.photosWithChild, undefined, 'PACKAGE_ONE_CHILD');
  if (ctx.closed && pkg.items.some((item) => item.product.kind !== 'digital')) throw conflict(ORDER_MSG.printsClosed(pkg.name), 'PRINTS_CLOSED');
  const quantity = input.quantity;
  const contents = packageContents(pkg, slots, photos, quantity, (photo) => heldChild(ctx, photo) !== null);
  const unitThebe = pkg.priceThebe;
  const totalThebe = unitThebe * quantity;
  const itemsValueThebe = pkg.items.reduce((sum, item) => sum + item.product.priceThebe * item.quantity, 0) * quantity;
  const agrees = decimalToThebe(input.unitPrice) === unitThebe && decimalToThebe(input.totalPrice) === totalThebe;
  return {
    pkg: { package: pkg, quantity, unitThebe, totalThebe, itemsValueThebe, studentId, childHeld: studentId !== null && ctx.holds(studentId), contents, prepaid: false, albumId: null, albumName: null },
    agrees,
  };
}

/**
 * A package ordered before picture day (docs/prepaid.md, "Ordering before picture day"): no photos,
 * the child it is for, priced like any package. Only in a school using codes, only for a child the
 * family holds by code (a child it does not hold is refused exactly as one that does not exist),
 * never after the closing date. Its contents are written when its photos are chosen.
 */
function pricePrepaid(input: PackageLineInput, studentId: number, pkg: PackageInfo, ctx: PricingContext): { pkg: PricedPackage; agrees: boolean } {
  if (ctx.accessMode !== 'student_codes') throw conflict(PREPAID_MSG.schoolWithoutCodes, 'PREPAID_NEEDS_CODES');
  const student = ctx.students?.get(studentId);
  if (!student || student.schoolId !== ctx.schoolId || !ctx.holds(studentId)) throw notFound(PREPAID_MSG.childNotHeld);
  if (student.doNotPublish) throw forbidden(STUDENT_MSG.photoNotAvailable, 'PHOTO_NOT_AVAILABLE');
  if (ctx.closed) throw conflict(PREPAID_MSG.choosingClosed(ctx.closingDate ?? ''), 'PREPAID_CLOSED');
  const quantity = input.quantity;
  const unitThebe = pkg.priceThebe;
  const totalThebe = unitThebe * quantity;
  const itemsValueThebe = pkg.items.reduce((sum, item) => sum + item.product.priceThebe * item.quantity, 0) * quantity;
  const agrees = decimalToThebe(input.unitPrice) === unitThebe && decimalToThebe(input.totalPrice) === totalThebe;
  return {
    pkg: { package: pkg, quantity, unitThebe, totalThebe, itemsValueThebe, studentId, childHeld: true, contents: [], prepaid: true, albumId: student.albumId, albumName: student.albumName },
    agrees,
  };
}

/**
 * Prices the lines and the discounts, every amount from the school's products, packages, family
 * discount and the coupon, never from the client. `clientAgrees` tells whether the client's line
 * prices were the server's.
 */
function price(items: readonly OrderLineInput[], ctx: PricingContext, coupon: CouponRule | null): PricedOrder & { clientAgrees: boolean } {
  const products = new Map(ctx.products.map((p) => [p.id, p]));
  const packages = new Map(ctx.packages.map((p) => [p.id, p]));
  const quoted: QuotedLine[] = [];
  let clientAgrees = true;
  for (const item of items) {
    if (isPackageLine(item)) {
      const { pkg, agrees } = pricePackage(item, ctx, packages);
      quoted.push({ kind: 'package', package: pkg });
      clientAgrees &&= agrees;
    } else {
      const { line, agrees } = priceSingle(item, ctx, products);
      quoted.push({ kind: 'single', line });
      clientAgrees &&= agrees;
    }
  }
  const lines = quoted.flatMap((q) => (q.kind === 'single' ? [q.line] : []));
  const pricedPackages = quoted.flatMap((q) => (q.kind === 'package' ? [q.package] : []));
  const discountLines = quoted.map(discountLine);
  const subtotalThebe = discountLines.reduce((sum, line) => sum + line.totalThebe, 0);
  const siblingDiscountThebe = Math.min(subtotalThebe, siblingDiscountOf(discountLines, ctx.sibling));
  const couponDiscountThebe = coupon ? couponDiscountOf(discountLines, ctx.sibling, coupon, { subtotalThebe, siblingDiscountThebe }) : 0;
  const studentIds = [
    ...new Set([
      ...[...lines, ...pricedPackages.flatMap((p) => p.contents)].flatMap((line) => (line.childHeld && line.photo.studentId !== null ? [line.photo.studentId] : [])),
      // A prepaid package's child counts for a once-per-child coupon like a photo's (docs/prepaid.md).
      ...pricedPackages.flatMap((p) => (p.prepaid && p.studentId !== null ? [p.studentId] : [])),
    ]),
  ].sort((a, b) => a - b);
  return {
    quoted,
    lines,
    packages: pricedPackages,
    subtotalThebe,
    siblingDiscountThebe,
    siblingPercent: siblingDiscountThebe > 0 && ctx.sibling ? ctx.sibling.percent : null,
    coupon: coupon ? { rule: coupon, discountThebe: couponDiscountThebe } : null,
    totalThebe: Math.max(0, subtotalThebe - siblingDiscountThebe - couponDiscountThebe),
    studentIds,
    clientAgrees,
  };
}

/**
 * What the cart shows before paying (`POST /api/orders/quote`): the order priced exactly as
 * `priceOrder` prices it, without comparing the client's prices (the quote is how the cart learns them).
 */
export function quoteOrder(items: readonly OrderLineInput[], ctx: PricingContext, coupon: CouponRule | null = null): PricedOrder {
  return price(items, ctx, coupon);
}

/**
 * Prices an order on the server (docs/money-and-pricing.md, docs/packages-and-coupons.md): every
 * line from the school's products and packages, then the family discount, then the coupon. The
 * client's unit and line prices and its total (after the discounts) must agree to the thebe, or the
 * parent is asked to review the cart (409 PRICE_MISMATCH): nothing is charged that the server did
 * not price.
 */
export function priceOrder(input: Pick<OrderCreateInput, 'items' | 'totalAmount'>, ctx: PricingContext, coupon: CouponRule | null = null): PricedOrder {
  const { clientAgrees, ...priced } = price(input.items, ctx, coupon);
  if (!clientAgrees || decimalToThebe(input.totalAmount) !== priced.totalThebe) throw conflict(ORDER_MSG.pricesChanged, 'PRICE_MISMATCH');
  return priced;
}

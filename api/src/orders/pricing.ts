import { DEFAULT_PRODUCT_DESCRIPTION, FALLBACK_PRODUCTS, type ProductKind } from '../../contract/constants';
import { decimalToThebe } from '../../contract/money';
import { ORDER_MSG } from '../../contract/messages';
import { isPackageLine, type OrderCreateInput, type OrderItemInput } from '../../contract/orders';
import { badRequest, conflict } from '../http/errors';
import type { AccessMode } from '../../contract/student-codes';

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
}

export interface PricedLine {
  photo: PhotoInfo;
  product: Product;
  quantity: number;
  unitThebe: number;
  totalThebe: number;
  digital: boolean;
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
 * A package line priced: `contents` are its items as order lines, one per item of the package with
 * the photo chosen for it, quantity = item quantity x package quantity, unit and total 0 (the
 * package carries the price).
 */
export interface PricedPackage {
  package: PackageInfo;
  quantity: number;
  unitThebe: number;
  totalThebe: number;
  /** The contents at single-product prices, times the quantity. */
  itemsValueThebe: number;
  /** The child whose photos fill it; null for group photos or a school without a roster. */
  studentId: number | null;
  contents: PricedLine[];
}

export interface PricingContext {
  schoolId: number;
  products: readonly Product[];
  photos: ReadonlyMap<number, PhotoInfo>;
  /** The school's closing date has passed: only digital products are sold. */
  closed: boolean;
}

export const fallbackProducts = (): Product[] =>
  FALLBACK_PRODUCTS.map((p) => ({ id: p.id, name: p.name, description: DEFAULT_PRODUCT_DESCRIPTION, priceThebe: p.priceThebe, kind: p.kind }));

/**
 * Prices an order on the server (docs/money-and-pricing.md): every line from the school's products, never from the
 * client. The client's own prices must agree to the thebe, or the parent is asked to review the
 * cart (409) — nothing is charged that the server did not price.
 */
export function priceOrder(input: Pick<OrderCreateInput, 'items' | 'totalAmount'>, ctx: PricingContext): { lines: PricedLine[]; totalThebe: number } {
  const products = new Map(ctx.products.map((p) => [p.id, p]));
  const lines: PricedLine[] = [];
  let pricesAgree = true;
  for (const line of input.items) {
    if (isPackageLine(line)) throw conflict(ORDER_MSG.pricesChanged, 'PRICE_MISMATCH');
    const item: OrderItemInput = line;
    const photo = ctx.photos.get(item.photoId);
    if (!photo || photo.schoolId !== ctx.schoolId || photo.albumId !== item.albumId) throw badRequest(ORDER_MSG.photoNotInSchool, undefined, 'PHOTO_NOT_IN_SCHOOL');
    // The wire's `productType` on an order item is the product's id.
    const productId = item.productType;
    const product = products.get(productId);
    if (!product) throw conflict(ORDER_MSG.productUnavailable(item.productName?.trim() || 'A product'), 'PRODUCT_UNAVAILABLE');
    const digital = product.kind === 'digital';
    if (ctx.closed && !digital) throw conflict(ORDER_MSG.printsClosed(product.name), 'PRINTS_CLOSED');
    const unitThebe = product.priceThebe;
    const totalThebe = unitThebe * item.quantity;
    if (decimalToThebe(item.unitPrice) !== unitThebe || decimalToThebe(item.totalPrice) !== totalThebe) pricesAgree = false;
    lines.push({ photo, product, quantity: item.quantity, unitThebe, totalThebe, digital });
  }
  const totalThebe = lines.reduce((sum, line) => sum + line.totalThebe, 0);
  if (!pricesAgree || decimalToThebe(input.totalAmount) !== totalThebe) throw conflict(ORDER_MSG.pricesChanged, 'PRICE_MISMATCH');
  return { lines, totalThebe };
}

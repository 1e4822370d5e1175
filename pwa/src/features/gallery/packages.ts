/**
 * A price list's packages as the gallery offers them, and the cart line a filled package becomes
 * (docs/packages-and-coupons.md, "Packages" and "Filling a package"). The server prices and checks
 * every package line again; these rules only spare the parent a refused order.
 */
import type { Package, PriceList } from '@contract/price-lists';
import type { GalleryPhoto as Photo } from '@contract/photos';
import { familyPhotoLabel } from '@contract/photo-names';
import { PACKAGE_GALLERY_MSG } from '@contract/package-gallery-messages';
import { packageSlots } from '@contract/package-filling';
import { lineTotal } from '../../lib/cart';
import { randomId } from '../../lib/random-id';
import type { CurrentProduct } from '../../lib/reprice';
import type { CartLine, CartPackage } from '../../lib/storage';
import { thumbnailUrl } from './api';

/** A package's `productType` in the cart: never a price list item id (those are plain numbers). */
export const packageProductType = (packageId: number): string => `package:${packageId}`;

export interface OfferedPackage {
  id: number;
  name: string;
  description: string;
  /** Pula. */
  price: number;
  /** Thebe, from the server: what the contents cost as single products, less the price. */
  savingsThebe: number;
  contents: CartPackage['contents'];
  maxPoses: number | null;
  /** Holds a print: not sold after the closing date. */
  hasPrint: boolean;
}

const thebe = (decimal: string): number => Math.round(Number(decimal) * 100);

/** The first price list's packages (the one the gallery prices from), contents named by product. */
export function packagesFor(priceLists: readonly PriceList[] | undefined): OfferedPackage[] {
  const list = priceLists?.[0];
  if (!list) return [];
  const products = new Map(list.items.map((item) => [item.id, item]));
  return (list.packages ?? []).map((pkg: Package) => ({
    id: pkg.id,
    name: pkg.name,
    description: pkg.description,
    price: Number(pkg.price),
    savingsThebe: thebe(pkg.savings),
    contents: pkg.items.map((item) => ({ productId: item.productId, name: products.get(item.productId)?.productType ?? '', quantity: item.quantity })),
    maxPoses: pkg.maxPoses,
    hasPrint: pkg.items.some((item) => products.get(item.productId)?.kind !== 'digital'),
  }));
}

/** What a parent may order now: after the closing date only packages of downloads. */
export const orderablePackages = (packages: readonly OfferedPackage[], closed: boolean): OfferedPackage[] =>
  closed ? packages.filter((pkg) => !pkg.hasPrint) : [...packages];

/** "1 x 15x20 Print, 2 x 10x15 Print, 1 x Digital Copy". */
export const contentsText = (contents: CartPackage['contents']): string => contents.map((row) => PACKAGE_GALLERY_MSG.contentsItem(row.quantity, row.name)).join(', ');

/** The packages as products, for re-pricing the cart against the school's current list (lib/reprice.ts). */
export function packageProducts(priceLists: readonly PriceList[]): CurrentProduct[] {
  return packagesFor(priceLists).map((pkg) => ({
    id: packageProductType(pkg.id),
    name: pkg.name,
    description: contentsText(pkg.contents),
    price: pkg.price,
    kind: pkg.hasPrint ? 'print' : 'digital',
  }));
}

/**
 * Why these photos cannot fill the package, or null: the server's rules (one child per package,
 * at most `maxPoses` different photos) checked before the parent adds it.
 */
export function packagePhotosProblem(pkg: Pick<OfferedPackage, 'maxPoses'>, photos: readonly Pick<Photo, 'id' | 'studentId'>[]): string | null {
  const distinct = new Set(photos.map((photo) => photo.id));
  if (pkg.maxPoses !== null && distinct.size > pkg.maxPoses) return PACKAGE_GALLERY_MSG.tooManyPoses(pkg.maxPoses);
  const children = new Set(photos.map((photo) => photo.studentId ?? null));
  if (children.size > 1) return PACKAGE_GALLERY_MSG.oneChild;
  return null;
}

/**
 * The cart line of a filled package: one photo for all its contents, or one per content row or
 * per piece (`packageSlots()`). The
 * line's photo is the first one (its thumbnail in the cart); `child` names whose package it is in
 * the family gallery.
 */
export function packageCartLine(
  pkg: OfferedPackage,
  photos: readonly Photo[],
  school: { id: number; name: string },
  child?: { name: string },
): CartLine {
  const [first] = photos;
  if (!first || packageSlots(pkg.contents, photos.length) === null) throw new Error(PACKAGE_GALLERY_MSG.photosCount);
  return {
    id: randomId(),
    photoId: first.id,
    albumId: first.albumId,
    photoName: photos.map((photo) => familyPhotoLabel(photo)).filter((label, index, all) => all.indexOf(label) === index).join(', '),
    photoPreview: thumbnailUrl(first.id),
    productType: packageProductType(pkg.id),
    productName: pkg.name,
    productDescription: contentsText(pkg.contents),
    unitPrice: pkg.price,
    quantity: 1,
    totalPrice: lineTotal(pkg.price, 1),
    schoolId: school.id,
    schoolName: school.name,
    ...(child ? { studentId: first.studentId, studentName: child.name } : {}),
    package: {
      packageId: pkg.id,
      contents: pkg.contents,
      photos: photos.map((photo) => ({ photoId: photo.id, albumId: photo.albumId, photoName: familyPhotoLabel(photo) })),
    },
  };
}

/**
 * Package lines the school's current list can no longer take as they are: the package's contents
 * changed so that the photos chosen per item or per piece no longer match them (one photo for all
 * still fits).
 */
export function stalePackageLines(lines: readonly CartLine[], priceLists: readonly PriceList[]): string[] {
  const current = new Map(packagesFor(priceLists).map((pkg) => [pkg.id, pkg]));
  return lines
    .filter((line) => {
      const pkg = line.package ? current.get(line.package.packageId) : undefined;
      // A package paid before picture day has no photos yet: any contents take them later.
      return line.package !== undefined && line.package.photos.length > 0 && pkg !== undefined && packageSlots(pkg.contents, line.package.photos.length) === null;
    })
    .map((line) => line.id);
}

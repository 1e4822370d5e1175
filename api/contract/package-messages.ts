/** Packages (coupons and package lines of orders are in coupon-messages.ts): user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). */
import { added, choosePhotos, contentsItem, includes, oneChild, packagePhotos, packagesIntro, packagesTitle, photosCount, posesLimit, save, tooManyPoses } from './package-gallery-messages';
/**
 * Packages and the family discount (docs/packages-and-coupons.md): the price list's rules and what
 * a parent reads about them in the gallery and cart.
 */
export const PACKAGE_MSG = {
  packagesInvalid: 'Packages must be a list',
  tooManyPackages: 'A price list can have at most 50 packages',
  nameRequired: 'Package name is required',
  nameTooLong: 'Package name is too long',
  priceInvalid: 'Package price must be an amount in Pula with at most two decimals',
  itemsRequired: 'A package needs at least one product',
  tooManyItems: 'A package can hold at most 20 products',
  itemQuantity: 'Each product in a package needs a quantity from 1 to 10',
  itemProduct: 'Each product in a package must be one of this price list\'s products',
  productNotInList: (name: string) => `${name} is not a product of this price list`,
  maxPosesInvalid: 'Different photos allowed must be a whole number from 1 to 20',
  duplicateName: (name: string) => `Two packages are called ${name}`,
  siblingPercentInvalid: 'Sibling discount must be a whole percentage from 1 to 100',
  siblingMaxInvalid: 'Sibling discount needs the number of children it covers, from 2 to 20',
  /** Gallery and cart. */
  save,
  includes,
  choosePhotos,
  onePhotoForAll: 'Use one photo for all',
  posesLimit,
  addPackage: 'Add package to cart',
  /** Server answers for an order line. */
  packageUnavailable: (name: string) => `${name} is no longer offered for this school. Please review your cart.`,
  photosCount,
  tooManyPoses,
  oneChild,
  siblingLine: (percent: number) => `Sibling discount (${percent}% off from the second child)`,
  /** Price list editor (server answers). */
  maxPosesAboveItems: (count: number) => `Different photos allowed can be at most ${count}, the total quantity of the package's contents`,
  productAmbiguous: (name: string) => `Two products are called ${name}; give them different names to use one in a package`,
  /** Gallery and cart: the package cards and the fill dialog. */
  packagesTitle,
  packagesIntro,
  contentsItem,
  fillTitle: (name: string) => `Fill ${name}`,
  photoForAll: 'Photo for the whole package',
  noPhotos: 'Open a class to choose photos for a package.',
  photosOfChild: (name: string) => `Photos of ${name} and their class's group photos`,
  added,
  packagePhotos,
  printsClosed: 'Print ordering has closed: packages with prints can no longer be ordered',
} as const;

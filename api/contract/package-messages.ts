/** Packages, coupons and package lines of orders: user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). */
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
  save: (amount: string) => `Save ${amount}`,
  includes: 'Includes',
  choosePhotos: 'Choose photos',
  onePhotoForAll: 'Use one photo for all',
  posesLimit: (count: number) => (count === 1 ? 'Choose 1 photo for this package' : `Choose up to ${count} different photos`),
  addPackage: 'Add package to cart',
  /** Server answers for an order line. */
  packageUnavailable: (name: string) => `${name} is no longer offered for this school. Please review your cart.`,
  photosCount: 'Choose one photo for the whole package, or one for each print and download in it',
  tooManyPoses: (count: number) => `This package can be filled with at most ${count} different ${count === 1 ? 'photo' : 'photos'}`,
  oneChild: "A package's photos must all be of one child",
  siblingLine: (percent: number) => `Sibling discount (${percent}% off from the second child)`,
  /** Price list editor (server answers). */
  maxPosesAboveItems: (count: number) => `Different photos allowed can be at most ${count}, the total quantity of the package's contents`,
  productAmbiguous: (name: string) => `Two products are called ${name}; give them different names to use one in a package`,
  /** Gallery and cart: the package cards and the fill dialog. */
  packagesTitle: 'Packages',
  packagesIntro: 'Several prints and downloads together, for less than single products.',
  contentsItem: (quantity: number, name: string) => `${quantity} x ${name}`,
  fillTitle: (name: string) => `Fill ${name}`,
  photoForAll: 'Photo for the whole package',
  noPhotos: 'Open a class to choose photos for a package.',
  photosOfChild: (name: string) => `Photos of ${name} and their class's group photos`,
  added: (name: string) => `${name} was added to your cart`,
  packagePhotos: (photos: string) => `Photos: ${photos}`,
  printsClosed: 'Print ordering has closed: packages with prints can no longer be ordered',
} as const;

/** Coupons: the code a parent enters in the cart, and why one is refused (docs/packages-and-coupons.md, "Coupons"). */
export const COUPON_MSG = {
  codeLabel: 'Coupon code',
  apply: 'Apply',
  remove: 'Remove coupon',
  applied: (code: string) => `Coupon ${code} applied`,
  discountLine: (code: string) => `Coupon ${code}`,
  /** Refusals, on the quote and on the order. */
  notValid: 'This coupon code is not valid for this school',
  notStarted: (date: string) => `This coupon can be used from ${date}`,
  expired: 'This coupon has expired',
  usedUp: 'This coupon has been used up',
  alreadyUsed: 'This coupon has already been used for this family',
  minimumOrder: (amount: string) => `This coupon needs an order of at least ${amount}`,
  nothingEligible: 'This coupon does not apply to packages. Add single prints or downloads to use it.',
  /** Staff API. */
  codeRequired: 'Coupon code is required',
  codeFormat: 'A coupon code has 3 to 40 letters, digits or dashes',
  codeTaken: 'Another coupon already has this code',
  kindInvalid: 'Coupon type must be percent or amount',
  percentInvalid: 'A percent coupon takes off 1 to 100 percent',
  amountInvalid: 'Coupon amount must be an amount in Pula with at most two decimals, above zero',
  minimumInvalid: 'Minimum order must be an amount in Pula with at most two decimals',
  datesInvalid: 'The coupon must end on or after the day it starts',
  maxUsesInvalid: 'Total uses must be a whole number of at least 1',
  oncePerInvalid: 'One use per must be order, email or child',
  couponNotFound: 'Coupon not found',
  schoolNotFound: 'School not found',
  deleted: 'Coupon deleted',
  excludesPackagesInvalid: 'Excludes packages must be true or false',
  idInvalid: 'A valid coupon id is required',
  schoolIdInvalid: 'A valid school id is required',
  dateInvalid: 'Dates must be YYYY-MM-DD',
  /** Cart (the parent's side). */
  placeholder: 'e.g. SPRING10',
  removed: 'Coupon removed',
} as const;

/**
 * A placed order's packages and discounts as a parent reads them: the confirmation e-mail, My Orders
 * and the order confirmation page (docs/packages-and-coupons.md, "Where packages and discounts show").
 */
export const ORDER_PACKAGE_MSG = {
  subtotal: 'Subtotal',
  siblingDiscount: 'Sibling discount',
  couponDiscount: (code: string) => `Coupon ${code}`,
  total: 'Total',
  /** An amount taken off, shown beside the discount's name. */
  minus: (amount: string) => `-${amount}`,
  /** A package's child, named when the order is for more than one. */
  forChild: (name: string) => `for ${name}`,
  contents: 'Contains',
  /** What the package's contents cost as single products, against what was paid. */
  saved: (amount: string) => `You saved ${amount} against single prints`,
  /** One item of a package: "1 x 15x20 Print, Photo 423". */
  contentLine: (quantity: number, productName: string, photo: string) => `${quantity} x ${productName}, ${photo}`,
} as const;

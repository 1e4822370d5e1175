/** Coupons and package lines of placed orders: user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). Apart from package-messages.ts so a parent's gallery, which shows packages, never downloads these. */
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

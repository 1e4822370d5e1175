import { z } from 'zod';
import { ORDER_STATUSES, PAYMENT_STATUSES, QUANTITY_MAX, QUANTITY_MIN } from './constants';
import { MSG } from './messages';
import { email, id, optionalText, requiredText } from './fields';
import { paymentMethodIdSchema } from './payment-methods';
import { PACKAGE_MSG } from './messages';
import { PACKAGE_PHOTOS_MAX } from './package-filling';
import { couponCodeSchema } from './coupons';
import { optionalPhoneField } from './optional-phone';
import { PREPAID_MSG, prepaidPackageFields } from './prepaid';

/**
 * The parent's mobile number (docs/sms.md, "Transactional SMS"): optional; given, it must be a
 * mobile number, stored E.164, and gets one SMS when the order is paid. A landline or an
 * impossible number is a 400 naming `customerPhone`.
 */
const customerPhone = optionalPhoneField;

const QUANTITY_MESSAGE = `Quantity must be between ${QUANTITY_MIN} and ${QUANTITY_MAX}`;

/** A price the client believes in: "25.00", 25 or 25.5. Checked against the server's own. */
const clientAmount = z.union([z.string().trim().max(20), z.number()], { error: 'Prices must be amounts in Pula' });

export const orderItemInputSchema = z.object({
  photoId: id('Each item needs a photo'),
  albumId: id('Each item needs a class'),
  /** The price list item id, or a built-in product id (print_10x15 …). */
  productType: z.union([z.string().trim().min(1).max(120), z.number().int().positive()], { error: 'Each item needs a product' }).transform(String),
  productName: z.string().max(120).optional(),
  productDescription: z.string().max(500).optional(),
  quantity: z.union([z.number(), z.string().regex(/^\d+$/, QUANTITY_MESSAGE).transform(Number)], { error: QUANTITY_MESSAGE }).pipe(
    z.number().int(QUANTITY_MESSAGE).min(QUANTITY_MIN, QUANTITY_MESSAGE).max(QUANTITY_MAX, QUANTITY_MESSAGE),
  ),
  unitPrice: clientAmount,
  totalPrice: clientAmount,
});
export type OrderItemInput = z.output<typeof orderItemInputSchema>;

/**
 * A package line (docs/packages-and-coupons.md, "Filling a package"): the package and its photos,
 * one for the whole package, one per item of its contents, or one per piece of them (2 x 13x18
 * takes two), in the order of `items` in the price list (`packageSlots()`).
 */
export const packageLineInputSchema = z.object({
  packageId: id('Each package needs a package id'),
  photos: z
    .array(
      z.union([
        id('Each package photo needs a photo id').transform((photoId) => ({ photoId, albumId: null as number | null })),
        z.object({ photoId: id('Each package photo needs a photo id'), albumId: id('Each item needs a class').optional().transform((value) => value ?? null) }),
      ]),
      { error: PACKAGE_MSG.photosCount },
    )
    .max(PACKAGE_PHOTOS_MAX, PACKAGE_MSG.photosCount),
  /**
   * The child the package is for. Required with `photos: []`, a package ordered before picture day
   * (docs/prepaid.md): the family must hold that child by code in a school using codes. With
   * photos, optional: when given, the photos must be of that child.
   */
  studentId: id(PREPAID_MSG.needsChild).optional(),
  packageName: z.string().max(120).optional(),
  quantity: z
    .union([z.number(), z.string().regex(/^\d+$/, QUANTITY_MESSAGE).transform(Number)], { error: QUANTITY_MESSAGE })
    .pipe(z.number().int(QUANTITY_MESSAGE).min(QUANTITY_MIN, QUANTITY_MESSAGE).max(QUANTITY_MAX, QUANTITY_MESSAGE))
    .optional()
    .default(1),
  unitPrice: clientAmount,
  totalPrice: clientAmount,
}).superRefine((line, ctx) => {
  // No photos: a package ordered before picture day, which names its child; else one photo at least.
  if (line.photos.length === 0 && line.studentId === undefined) ctx.addIssue({ code: 'custom', message: PACKAGE_MSG.photosCount, path: ['photos'] });
});
export type PackageLineInput = z.output<typeof packageLineInputSchema>;

/** A package line ordered before picture day: no photos yet, the child named (docs/prepaid.md). */
export const isPrepaidLine = (line: PackageLineInput): boolean => line.photos.length === 0;

/** An order line: a single product (unchanged) or a package. */
export const orderLineInputSchema = z.union([packageLineInputSchema, orderItemInputSchema]);
export type OrderLineInput = z.output<typeof orderLineInputSchema>;
export const isPackageLine = (line: OrderLineInput): line is PackageLineInput => 'packageId' in line;

export const orderCreateSchema = z.object({
  schoolId: id('Choose a school'),
  customerName: requiredText(MSG.nameRequired, 150),
  customerEmail: email,
  customerPhone,
  studentName: requiredText(MSG.studentNameRequired, 150),
  /** What the parent was shown to pay: the lines less the discounts. A different total is 409 PRICE_MISMATCH. */
  totalAmount: clientAmount,
  items: z.array(orderLineInputSchema, { error: 'Your cart is empty' }).min(1, 'Your cart is empty').max(200, 'An order can have at most 200 items'),
  notes: optionalText(1000),
  /** A coupon the parent entered (any case); blank or absent: none. */
  couponCode: z
    .union([z.string(), z.null()])
    .optional()
    .transform((value) => (value ?? '').trim())
    .pipe(z.union([z.literal('').transform(() => null), couponCodeSchema])),
});
export type OrderCreateInput = z.output<typeof orderCreateSchema>;

/**
 * `POST /api/orders/quote`: what the cart shows before paying, priced by the server exactly as
 * `POST /api/orders` will price it (docs/packages-and-coupons.md, "The order of discounts").
 */
export const orderQuoteRequestSchema = orderCreateSchema.pick({ schoolId: true, items: true, couponCode: true });
export type OrderQuoteRequest = z.output<typeof orderQuoteRequestSchema>;

export const orderQuoteSchema = z.object({
  /** Each line as the server prices it, in the order sent: `totalPrice` before discounts. */
  lines: z.array(
    z.object({
      packageId: z.number().nullable(),
      productType: z.string().nullable(),
      quantity: z.number(),
      unitPrice: z.string(),
      totalPrice: z.string(),
      /** A package's contents as single products ("Save P X" is itemsValue - totalPrice); null for a single product. */
      itemsValue: z.string().nullable(),
      /** The line's child (null: a group photo, a school without a roster, or a child the asking family does not hold by code: docs/access.md, "Whose photo it is"). */
      studentId: z.number().nullable(),
    }),
  ),
  subtotal: z.string(),
  siblingDiscount: z.string(),
  /** The percentage, when the price list has a family discount and it applied. */
  siblingPercent: z.number().nullable(),
  couponCode: z.string().nullable(),
  couponDiscount: z.string(),
  /** What `totalAmount` of the order must be. */
  total: z.string(),
});
export type OrderQuote = z.infer<typeof orderQuoteSchema>;

/** The checkout form: the fields a parent types. */
export const checkoutFormSchema = orderCreateSchema.pick({ customerName: true, customerEmail: true, customerPhone: true, studentName: true, notes: true });

export const orderStatusUpdateSchema = z.object({
  orderStatus: z.enum(ORDER_STATUSES, { error: `Order status must be one of ${ORDER_STATUSES.join(', ')}` }),
});

export const orderItemSchema = z.object({
  id: z.number(),
  photoId: z.number().nullable(),
  albumId: z.number().nullable(),
  photoName: z.string().nullable(),
  photoOriginalNumber: z.string().nullable(),
  photoOriginalName: z.string().nullable(),
  photoFilename: z.string().nullable(),
  /**
   * The frame number families know the photo by ("Photo 423", `familyPhotoLabel`). A family's
   * answer carries this instead of the camera's file name: there `photoOriginalName` is null, and
   * `photoName` is null too unless the line was erased (then it is the removal text).
   */
  photoNumber: z.string().nullable(),
  /**
   * The child the line was for (null for a group photo, once the child was erased, or, to a family,
   * a child it did not hold by code when it placed the order: docs/access.md, "Whose photo it is").
   */
  studentId: z.number().nullable(),
  /**
   * Whose print it is: the name of the line's child (the photo's student when the order was
   * placed), else the order's student name, so a two-child order's lines are told apart. A family
   * is given the child's name only where it is given `studentId`.
   */
  studentName: z.string(),
  productType: z.string(),
  productName: z.string(),
  productDescription: z.string(),
  quantity: z.number(),
  unitPrice: z.string(),
  totalPrice: z.string(),
  /** A digital copy: delivered as a download once paid (docs/access.md, "Download links for digital copies"). */
  digital: z.boolean(),
  /** Signed link, 30 days; present only on paid orders, and only while the photo is still this family's. */
  downloadUrl: z.string().nullable(),
  /**
   * The photo is no longer this order's child's (moved to another child or to the tray), or no
   * longer shown to families (a card, do not publish, a draft class, waiting for review): no image
   * of it is served and its link does not work ("photo withdrawn").
   */
  withdrawn: z.boolean(),
  /** The photo was moved to another child (or the tray) after it was ordered: staff check and refund. */
  movedAfterSale: z.boolean(),
  /** The package line (`packages[].id`) this item is part of; its prices are then "0.00" (the package carries the price). */
  packageLineId: z.number().nullable(),
});
export type OrderItem = z.infer<typeof orderItemSchema>;

/** A package line of an order, as placed; its contents are the `items` whose `packageLineId` is its id. */
export const orderPackageSchema = z.object({
  id: z.number(),
  /** The price list package it was (null once that package is gone). */
  packageId: z.number().nullable(),
  name: z.string(),
  quantity: z.number(),
  unitPrice: z.string(),
  totalPrice: z.string(),
  /** What its contents cost as single products when ordered. */
  itemsValue: z.string(),
  /** As an item's `studentId`: to a family, only a child it held by code. */
  studentId: z.number().nullable(),
  /** Whose package it is: the child's name (to a family, only where it is given `studentId`), else the order's student name. */
  studentName: z.string(),
  /** Ordering before picture day (docs/prepaid.md): photosChosen, posesChosenBy, posesDue, prepaid, noPhotoAtClosing. */
  ...prepaidPackageFields,
});
export type OrderPackage = z.infer<typeof orderPackageSchema>;

/**
 * A payment by a method that settles later (bank transfer, e-wallet) that the gateway has received
 * but not confirmed (TRANSACTION_STATUS 5): the confirmation page shows "Awaiting payment
 * confirmation" and what the parent must do (docs/payments.md, "Payments that settle later").
 */
export const awaitingPaymentSchema = z.object({
  method: paymentMethodIdSchema,
  /** The reference the parent uses for a bank transfer: the order number. */
  reference: z.string(),
  /** ISO time after which an unconfirmed bank transfer expires; null for a method that does not expire. */
  deadline: z.string().nullable(),
});
export type AwaitingPayment = z.infer<typeof awaitingPaymentSchema>;

export const orderSchema = z.object({
  id: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  customerPhone: z.string().nullable(),
  studentName: z.string(),
  totalAmount: z.string(),
  orderStatus: z.enum(ORDER_STATUSES),
  /** The customer orders screen reads the order status as `status`. */
  status: z.enum(ORDER_STATUSES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  paymentReference: z.string().nullable(),
  notes: z.string().nullable(),
  createdAt: z.string(),
  school: z.object({ id: z.number(), name: z.string() }),
  albumName: z.string().nullable(),
  items: z.array(orderItemSchema),
  packages: z.array(orderPackageSchema),
  /** The lines before discounts (single products and packages); `totalAmount` is what is charged. */
  subtotal: z.string(),
  siblingDiscount: z.string(),
  couponCode: z.string().nullable(),
  couponDiscount: z.string(),
  /** Paid through the built-in sandbox gateway: no real money moved. */
  testPayment: z.boolean(),
  /** Approved payments beyond the first: the parent was charged that many extra times and is owed a refund for each. */
  duplicatePayments: z.number().int().min(0),
  /** Approved payments that arrived after the order was cancelled: "Paid after cancellation: refund" (docs/payments.md). */
  paidAfterCancel: z.number().int().min(0),
  /** Lines withdrawn when an approval paid the order anyway: "Paid for a withdrawn photo: refund it" (docs/payments.md). */
  paidWithWithdrawn: z.number().int().min(0),
  /** The print batch that took this order to the lab, or null. */
  printBatchId: z.number().nullable(),
  /**
   * How the order is paid: the method of the payment that paid it, else the one the parent chose for
   * the latest payment (null: none begun, or begun before methods existed).
   */
  paymentMethod: paymentMethodIdSchema.nullable(),
  /** What the gateway reported for it: PayWeb3 `PAY_METHOD` ("CC", "EW", "BT") and `PAY_METHOD_DETAIL` ("Visa", "SID"). */
  gatewayPayMethod: z.string().nullable(),
  gatewayPayMethodDetail: z.string().nullable(),
  awaitingPayment: awaitingPaymentSchema.nullable(),
  /** Approvals that arrived after the payment had expired: "Paid after expiry: check" (docs/payments.md). */
  paidAfterExpiry: z.number().int().min(0),
  /** Lines whose photo was moved to another child after the sale: "Sold to another family: check and refund". */
  movedPhotos: z.number().int().min(0),
});
export type Order = z.infer<typeof orderSchema>;

/**
 * `GET /api/orders/{id}` to a reader who is neither the order's customer (signed in) nor the
 * browser that placed it: only what the confirmation page needs before sign-in (docs/access.md,
 * "Reading an order"). No names, contact details, notes, lines or links.
 */
export const orderSummarySchema = z.object({
  id: z.string(),
  orderStatus: z.enum(ORDER_STATUSES),
  status: z.enum(ORDER_STATUSES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  totalAmount: z.string(),
  testPayment: z.boolean(),
  awaitingPayment: awaitingPaymentSchema.nullable(),
  /** Marks the short answer: sign in (or use the browser that placed the order) for the rest. */
  summary: z.literal(true),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

/** Whether an answer of `GET /api/orders/{id}` is the short one. */
export const isOrderSummary = (order: Order | OrderSummary): order is OrderSummary => 'summary' in order && order.summary === true;

export const orderCreateResponseSchema = z.object({ order: orderSchema, customerCreated: z.boolean() });

export const paymentInitiateSchema = z.object({
  orderId: z.string({ error: 'An order id is required' }).trim().min(1, 'An order id is required').max(16),
  /** One of the enabled methods (`GET /api/payment/methods`); absent: the first enabled one. A method not enabled is 400. */
  method: paymentMethodIdSchema.optional(),
});

export const paymentInitiateResponseSchema = z.object({
  success: z.boolean(),
  processUrl: z.string().optional(),
  payRequestId: z.string().optional(),
  checksum: z.string().optional(),
  redirectUrl: z.string().optional(),
  error: z.string().optional(),
});
export type PaymentInitiateResponse = z.infer<typeof paymentInitiateResponseSchema>;

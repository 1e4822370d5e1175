import { z } from 'zod';
import { decimalToThebe } from './money';
import { MSG } from './messages';
import { PRODUCT_KINDS, QUANTITY_MAX, type ProductKind } from './constants';
import { PACKAGE_MSG } from './messages';

/** One product row as the editor sends it (multipart products[i][...]). */
export const priceListRowSchema = z.object({
  name: z.string().optional().default(''),
  description: z.string().optional().default(''),
  price: z.union([z.string(), z.number()]).optional().default(''),
  existingImagePath: z.string().optional().default(''),
  /**
   * 'print' or 'digital'; left out or blank, the product keeps the kind it has, and a new one takes
   * it from its name (`kindFromName()`).
   */
  kind: z.string().optional().default(''),
  /** A print's size as staff write it ("10x15 cm"); ignored for a digital product. */
  size: z.string().optional().default(''),
});
export type PriceListRow = z.input<typeof priceListRowSchema>;

const rowWithPrice = z
  .object({
    name: z.string().trim().max(120, 'Product name is too long'),
    description: z.string().trim().max(500, 'Product description is too long'),
    price: z.string().trim(),
    existingImagePath: z.string().trim(),
    kind: z.string().trim(),
    size: z.string().trim().max(40, 'Print size is too long'),
    index: z.number(),
  })
  .transform((row, ctx) => {
    // Blank: not given (the specification's price list API has no kind); the service decides.
    const kind = row.kind === '' ? null : row.kind;
    if (kind !== null && !PRODUCT_KINDS.includes(kind as ProductKind)) {
      ctx.addIssue({ code: 'custom', message: `Kind of ${row.name} must be print or digital`, path: ['products', row.index, 'kind'] });
      return z.NEVER;
    }
    const priceThebe = decimalToThebe(row.price);
    if (priceThebe === null || priceThebe > 100_000_000) {
      ctx.addIssue({
        code: 'custom',
        message: `Price of ${row.name} must be an amount in Pula with at most two decimals`,
        path: ['products', row.index, 'price'],
      });
      return z.NEVER;
    }
    return { ...row, kind: kind as ProductKind | null, size: kind !== 'digital' && row.size !== '' ? row.size : null, priceThebe };
  });

/** Words in a product's name that make it a download when no kind is given (as migration 20261127130000 read names). */
export const DIGITAL_NAME_MARKERS = ['digital', 'download'] as const;

/**
 * The kind of a product sent without one (docs/money-and-pricing.md, "Print and digital
 * products"): digital when its name holds "digital" or "download" (any case), else a print.
 */
export const kindFromName = (name: string): ProductKind =>
  DIGITAL_NAME_MARKERS.some((marker) => name.toLowerCase().includes(marker)) ? 'digital' : 'print';

/**
 * One row of a package's contents as the editor sends it: a product of the same list named by its
 * id (an existing product) or by its name as sent in `products` (a new one has no id yet).
 */
export const packageItemInputSchema = z
  .object({
    productId: z.number().int().positive().optional(),
    productName: z.string().trim().min(1).max(120).optional(),
    quantity: z
      .union([z.number(), z.string().regex(/^\d+$/).transform(Number)], { error: PACKAGE_MSG.itemQuantity })
      .pipe(z.number().int(PACKAGE_MSG.itemQuantity).min(1, PACKAGE_MSG.itemQuantity).max(QUANTITY_MAX, PACKAGE_MSG.itemQuantity)),
  })
  .refine((item) => item.productId !== undefined || item.productName !== undefined, { message: PACKAGE_MSG.itemProduct });
export type PackageItemInput = z.output<typeof packageItemInputSchema>;

export const packageInputSchema = z.object({
  name: z.string({ error: PACKAGE_MSG.nameRequired }).trim().min(1, PACKAGE_MSG.nameRequired).max(120, PACKAGE_MSG.nameTooLong),
  description: z
    .union([z.string(), z.null()])
    .optional()
    .transform((value) => (value ?? '').trim().slice(0, 500)),
  price: z.union([z.string(), z.number()], { error: PACKAGE_MSG.priceInvalid }).transform((value, ctx) => {
    const thebe = decimalToThebe(value);
    if (thebe === null || thebe > 100_000_000) {
      ctx.addIssue({ code: 'custom', message: PACKAGE_MSG.priceInvalid });
      return z.NEVER;
    }
    return thebe;
  }),
  items: z.array(packageItemInputSchema, { error: PACKAGE_MSG.itemsRequired }).min(1, PACKAGE_MSG.itemsRequired).max(20, PACKAGE_MSG.tooManyItems),
  /** How many different photos may fill it; absent or null: as many as it has items. */
  maxPoses: z
    .union([z.number(), z.string(), z.null()])
    .optional()
    .transform((value) => (value === '' || value === null || value === undefined ? null : Number(value)))
    .pipe(z.union([z.null(), z.number().int(PACKAGE_MSG.maxPosesInvalid).min(1, PACKAGE_MSG.maxPosesInvalid).max(20, PACKAGE_MSG.maxPosesInvalid)])),
});
/** `price` is in thebe after parsing. */
export type PackageInput = z.output<typeof packageInputSchema>;

/**
 * The family discount (docs/packages-and-coupons.md, "Family pricing"): `percent` off the lines of
 * the second and later children of one order, up to `maxChildren` children in all. Absent or null: none.
 */
export const siblingDiscountInputSchema = z
  // An object (not a union with null) so a half-filled one names the field that is wrong.
  .object(
    {
      percent: z
        .union([z.number(), z.string().regex(/^\d+$/).transform(Number)], { error: PACKAGE_MSG.siblingPercentInvalid })
        .pipe(z.number().int(PACKAGE_MSG.siblingPercentInvalid).min(1, PACKAGE_MSG.siblingPercentInvalid).max(100, PACKAGE_MSG.siblingPercentInvalid)),
      maxChildren: z
        .union([z.number(), z.string().regex(/^\d+$/).transform(Number)], { error: PACKAGE_MSG.siblingMaxInvalid })
        .pipe(z.number().int(PACKAGE_MSG.siblingMaxInvalid).min(2, PACKAGE_MSG.siblingMaxInvalid).max(20, PACKAGE_MSG.siblingMaxInvalid)),
    },
    { error: PACKAGE_MSG.siblingPercentInvalid },
  )
  .nullable()
  .optional()
  .transform((value) => value ?? null);
export type SiblingDiscount = { percent: number; maxChildren: number };

/**
 * The price list editor's rule (docs/money-and-pricing.md, "Price lists"): a name is required, rows
 * lacking a name or a price are dropped, and at least one complete row must remain.
 */
export const priceListInputSchema = z
  .object({
    name: z.string({ error: MSG.priceListNameRequired }).trim().min(1, MSG.priceListNameRequired).max(120),
    description: z
      .union([z.string(), z.null()])
      .optional()
      .transform((value) => (value ?? '').trim().slice(0, 1000)),
    products: z.array(priceListRowSchema).default([]),
    /** The list's packages (docs/packages-and-coupons.md, "Packages"); the editor sends them as one JSON field. */
    packages: z.array(packageInputSchema, { error: PACKAGE_MSG.packagesInvalid }).max(50, PACKAGE_MSG.tooManyPackages).default([]),
    siblingDiscount: siblingDiscountInputSchema,
  })
  .transform((value, ctx) => {
    const complete = value.products
      .map((row, index) => ({
        name: String(row.name ?? '').trim(),
        description: String(row.description ?? '').trim(),
        price: String(row.price ?? '').trim(),
        existingImagePath: String(row.existingImagePath ?? '').trim(),
        kind: String(row.kind ?? '').trim(),
        size: String(row.size ?? '').trim(),
        index,
      }))
      .filter((row) => row.name !== '' && row.price !== '');
    if (complete.length === 0) {
      ctx.addIssue({ code: 'custom', message: MSG.priceListProductsRequired, path: ['products'] });
      return z.NEVER;
    }
    const products = [];
    for (const row of complete) {
      const parsed = rowWithPrice.safeParse(row);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
        return z.NEVER;
      }
      products.push(parsed.data);
    }
    return { name: value.name, description: value.description, products, packages: value.packages, siblingDiscount: value.siblingDiscount };
  });
export type PriceListInput = z.output<typeof priceListInputSchema>;

/** Where example product images are served; items carry this prefix plus the stored file name. */
export const EXAMPLE_IMAGE_URL_PREFIX = '/api/example-images/';

export const priceListItemSchema = z.object({
  id: z.number(),
  productType: z.string(),
  description: z.string(),
  price: z.string(),
  exampleImage: z.string().nullable(),
  /** Print (goes to the lab) or digital (a download): docs/money-and-pricing.md, "Print and digital products". */
  kind: z.enum(PRODUCT_KINDS),
  /** A print's size, or null. */
  size: z.string().nullable(),
});
export type PriceListItem = z.infer<typeof priceListItemSchema>;

export const packageItemSchema = z.object({
  /** A price list item of the same list (`items[].id`). */
  productId: z.number(),
  quantity: z.number().int(),
});

export const packageSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  /** The package's price, "120.00". */
  price: z.string(),
  items: z.array(packageItemSchema),
  /** How many different photos may fill it; null: one per item. */
  maxPoses: z.number().nullable(),
  /** What its contents cost as single products ("165.00"). */
  itemsValue: z.string(),
  /** itemsValue minus price, never below "0.00": the gallery's "Save P X". */
  savings: z.string(),
});
export type Package = z.infer<typeof packageSchema>;

export const priceListSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  items: z.array(priceListItemSchema),
  packages: z.array(packageSchema),
  siblingDiscount: z.object({ percent: z.number(), maxChildren: z.number() }).nullable(),
  createdAt: z.string(),
});
export type PriceList = z.infer<typeof priceListSchema>;

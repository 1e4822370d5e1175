import { z } from 'zod';
import { decimalToThebe } from './money';
import { MSG } from './messages';
import { PRODUCT_KINDS, type ProductKind } from './constants';

/** One product row as the editor sends it (multipart products[i][...]). */
export const priceListRowSchema = z.object({
  name: z.string().optional().default(''),
  description: z.string().optional().default(''),
  price: z.union([z.string(), z.number()]).optional().default(''),
  existingImagePath: z.string().optional().default(''),
  /** 'print' (the default) or 'digital'. */
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
    const kind = row.kind === '' ? 'print' : row.kind;
    if (!PRODUCT_KINDS.includes(kind as ProductKind)) {
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
    return { ...row, kind: kind as ProductKind, size: kind === 'print' && row.size !== '' ? row.size : null, priceThebe };
  });

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
    return { name: value.name, description: value.description, products };
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

export const priceListSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  items: z.array(priceListItemSchema),
  createdAt: z.string(),
});
export type PriceList = z.infer<typeof priceListSchema>;

import { z } from 'zod';
import { COUPON_MSG } from './messages';
import { decimalToThebe } from './money';

/**
 * Coupons (docs/packages-and-coupons.md, "Coupons"): staff create them for one school or all; a
 * parent enters the code in the cart and the server prices it. Codes are kept upper-case, so a
 * parent may type them in any case.
 */
export const COUPON_KINDS = ['percent', 'amount'] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];
/** One use per order (only `maxUses` limits it), per customer e-mail, or per child. */
export const COUPON_ONCE_PER = ['order', 'email', 'child'] as const;
export type CouponOncePer = (typeof COUPON_ONCE_PER)[number];

/** What a parent types: trimmed and upper-cased. */
export const couponCodeSchema = z
  .string({ error: COUPON_MSG.codeRequired })
  .trim()
  .toUpperCase()
  .pipe(z.string().min(1, COUPON_MSG.codeRequired).regex(/^[A-Z0-9][A-Z0-9-]{2,39}$/, COUPON_MSG.codeFormat));

/** Pula ("25.00" or 25) to thebe, or null for none; anything else is one issue with `message` (a union would say "Invalid input"). */
const optionalAmount = (message: string) =>
  z.union([z.null(), z.string(), z.number()], { error: message }).transform((value, ctx) => {
    if (value === null) return null;
    const thebe = decimalToThebe(value);
    if (thebe === null || thebe > 100_000_000) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return thebe;
  });

const optionalDay = z
  .union([z.string(), z.null()])
  .optional()
  .transform((value) => (value ?? '').trim())
  .pipe(z.union([z.literal('').transform(() => null), z.iso.date({ error: COUPON_MSG.dateInvalid })]));

/**
 * `POST /api/coupons` (and `PATCH`, where every field is optional). `value` is a whole percentage
 * for a percent coupon, an amount in Pula ("25.00") for an amount coupon; `minOrder` is in Pula.
 */
export const couponInputShape = {
  code: couponCodeSchema,
  /** null: every school. */
  schoolId: z.union([z.null(), z.number().int().positive()], { error: COUPON_MSG.schoolNotFound }).optional().transform((value) => value ?? null),
  kind: z.enum(COUPON_KINDS, { error: COUPON_MSG.kindInvalid }),
  value: z.union([z.string(), z.number()], { error: COUPON_MSG.amountInvalid }),
  minOrder: z
    .union([z.null(), z.literal(''), z.string(), z.number()])
    .optional()
    .transform((value) => (value === '' || value === undefined ? null : value))
    .pipe(optionalAmount(COUPON_MSG.minimumInvalid)),
  startsOn: optionalDay,
  endsOn: optionalDay,
  maxUses: z
    .union([z.null(), z.literal(''), z.number(), z.string().regex(/^\d+$/).transform(Number)], { error: COUPON_MSG.maxUsesInvalid })
    .optional()
    .transform((value) => (value === '' || value === undefined ? null : value))
    .pipe(z.number().int(COUPON_MSG.maxUsesInvalid).min(1, COUPON_MSG.maxUsesInvalid).max(1_000_000, COUPON_MSG.maxUsesInvalid).nullable()),
  oncePer: z.enum(COUPON_ONCE_PER, { error: COUPON_MSG.oncePerInvalid }).optional().default('order'),
  excludesPackages: z.boolean({ error: COUPON_MSG.excludesPackagesInvalid }).optional().default(false),
};

/**
 * A coupon's value to thebe or whole percent, and its dates in order; shared by create and edit
 * (edit checks the coupon as it will be after the change).
 */
export function checkCoupon(
  coupon: { kind: CouponKind; value: string | number; startsOn: string | null; endsOn: string | null },
  ctx: z.RefinementCtx,
): number | null {
  if (coupon.startsOn && coupon.endsOn && coupon.endsOn < coupon.startsOn) {
    ctx.addIssue({ code: 'custom', message: COUPON_MSG.datesInvalid, path: ['endsOn'] });
    return null;
  }
  if (coupon.kind === 'percent') {
    const percent = typeof coupon.value === 'number' ? coupon.value : /^\s*\d{1,3}\s*$/.test(coupon.value) ? Number(coupon.value) : NaN;
    if (!Number.isInteger(percent) || percent < 1 || percent > 100) {
      ctx.addIssue({ code: 'custom', message: COUPON_MSG.percentInvalid, path: ['value'] });
      return null;
    }
    return percent;
  }
  const thebe = decimalToThebe(coupon.value);
  if (thebe === null || thebe <= 0 || thebe > 100_000_000) {
    ctx.addIssue({ code: 'custom', message: COUPON_MSG.amountInvalid, path: ['value'] });
    return null;
  }
  return thebe;
}

export const couponCreateSchema = z.object(couponInputShape).transform((coupon, ctx) => {
  const value = checkCoupon(coupon, ctx);
  return value === null ? z.NEVER : { ...coupon, value };
});
/** `value` is whole percent or thebe; `minOrder` thebe. */
export type CouponCreateInput = z.output<typeof couponCreateSchema>;

/**
 * `PATCH /api/coupons/{id}`: the fields given change; the result is checked as a whole by the
 * service. `oncePer` and `excludesPackages` lose their defaults here: zod 4 applies a default
 * inside `.partial()`, so a PATCH without them would otherwise reset them to order / false.
 */
export const couponPatchSchema = z
  .object({
    ...couponInputShape,
    oncePer: z.enum(COUPON_ONCE_PER, { error: COUPON_MSG.oncePerInvalid }),
    excludesPackages: z.boolean({ error: COUPON_MSG.excludesPackagesInvalid }),
  })
  .partial();
export type CouponPatchInput = z.output<typeof couponPatchSchema>;

export const couponSchema = z.object({
  id: z.number(),
  code: z.string(),
  schoolId: z.number().nullable(),
  /** The school's name, or null for every school. */
  schoolName: z.string().nullable(),
  kind: z.enum(COUPON_KINDS),
  /** Whole percent ("10") or Pula ("25.00"), as staff typed it. */
  value: z.string(),
  minOrder: z.string().nullable(),
  startsOn: z.string().nullable(),
  endsOn: z.string().nullable(),
  maxUses: z.number().nullable(),
  oncePer: z.enum(COUPON_ONCE_PER),
  excludesPackages: z.boolean(),
  /** Paid orders that used it: what counts as a use. */
  usesPaid: z.number(),
  /** Unpaid orders holding a use until they are paid or cancelled. */
  usesHeld: z.number(),
  /** Active today (in its dates and not used up). */
  active: z.boolean(),
  createdAt: z.string(),
});
export type Coupon = z.infer<typeof couponSchema>;

/** `GET /api/coupons` (optionally `?schoolId=`) answers a plain array of coupons, like the school and price-list lists. */
export const couponListSchema = z.array(couponSchema);

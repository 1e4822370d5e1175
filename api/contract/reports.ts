import { z } from 'zod';
import { REPORT_MSG } from './messages';

/**
 * Season reports for staff (docs/reports.md): how each school and class is selling. Every amount
 * is integer thebe; the screen shows it as "P65.00". Dates are Botswana calendar days
 * (Africa/Gaborone), inclusive at both ends: a sale counts on the day it was paid, an unpaid order
 * on the day it was placed, a gallery visit on the day it happened.
 */

/** The longest range `GET /api/reports/sales` answers by day (by week: the same range in weeks). */
export const REPORT_MAX_DAYS = 732;
/** How many products or packages a row lists as its best sellers. */
export const REPORT_TOP_ITEMS = 5;
/** The sales tail: days 0 to REPORT_TAIL_DAYS - 1 after publishing, the rest folded into the last. */
export const REPORT_TAIL_DAYS = 60;

export const REPORT_PERIODS = ['day', 'week'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/** How "opened" is counted: children unlocked by their code, or gallery grants (an estimate) for a school password. */
export const REPORT_OPENED_BASES = ['children', 'grants'] as const;
export type ReportOpenedBasis = (typeof REPORT_OPENED_BASES)[number];

/** print: a print product; digital: a digital product; package: a package (its revenue counts as print when it holds a print). */
export const REPORT_ITEM_KINDS = ['print', 'digital', 'package'] as const;
export type ReportItemKind = (typeof REPORT_ITEM_KINDS)[number];

const day = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .pipe(z.iso.date({ error: message }));

const optionalDay = (message: string) =>
  z
    .preprocess((value) => (value === '' ? undefined : value), day(message).optional())
    .transform((value) => value ?? null);

const optionalId = (message: string) =>
  z
    .union([z.literal('').transform(() => undefined), z.string().regex(/^\d{1,9}$/, message).transform(Number), z.number().int()], { error: message })
    .optional()
    .transform((value) => value ?? null)
    .refine((value) => value === null || value > 0, message);

/** `from` and `to` (YYYY-MM-DD, both optional, inclusive); left out: the whole season. */
export const reportRangeShape = {
  from: optionalDay(REPORT_MSG.fromInvalid),
  to: optionalDay(REPORT_MSG.toInvalid),
};

const rangeInOrder = (value: { from: string | null; to: string | null }) => value.from === null || value.to === null || value.from <= value.to;

/** `GET /api/reports/schools?from=&to=` */
export const schoolsReportQuerySchema = z.object(reportRangeShape).refine(rangeInOrder, { message: REPORT_MSG.rangeReversed, path: ['to'] });
export type SchoolsReportQuery = z.infer<typeof schoolsReportQuerySchema>;

/** `GET /api/reports/sales?schoolId=&albumId=&from=&to=&by=day|week` (schoolId, albumId: optional filters). */
export const salesReportQuerySchema = z
  .object({
    ...reportRangeShape,
    schoolId: optionalId(REPORT_MSG.schoolIdInvalid),
    albumId: optionalId(REPORT_MSG.albumIdInvalid),
    by: z
      .union([z.literal('').transform(() => undefined), z.enum(REPORT_PERIODS)], { error: REPORT_MSG.periodInvalid })
      .optional()
      .transform((value) => value ?? 'day'),
  })
  .refine(rangeInOrder, { message: REPORT_MSG.rangeReversed, path: ['to'] });
export type SalesReportQuery = z.infer<typeof salesReportQuerySchema>;

/** One best seller: a product (by its id when the order was placed) or a package. */
export const reportTopItemSchema = z.object({
  /** `product:{id}` or `package:{id}`, stable across the rows of one answer. */
  key: z.string(),
  name: z.string(),
  kind: z.enum(REPORT_ITEM_KINDS),
  /** Units sold on paid orders (a package counts once per package, not per content). */
  quantity: z.number().int(),
  /** This item's share of what the paid orders were charged, after discounts (docs/reports.md, "Revenue of a line"). */
  revenueThebe: z.number().int(),
});
export type ReportTopItem = z.infer<typeof reportTopItemSchema>;

/** The figures of one row: a class, a school, or all schools together. */
export const reportFiguresSchema = z.object({
  /** Children on the roster (every child of the class's roster); null: no class of the row has a roster. */
  heads: z.number().int().nullable(),
  /** Families who opened the gallery in the range; see `openedBasis`. Null for a row mixing both bases (the all-schools total). */
  opened: z.number().int().nullable(),
  openedBasis: z.enum(REPORT_OPENED_BASES).nullable(),
  /** Paid orders with at least one line in this row (an order spanning two classes counts in each, once in its school). */
  paidOrders: z.number().int(),
  /** Distinct children on the lines of paid orders (lines of a child's photo or a child's package). */
  orderingChildren: z.number().int(),
  /** orderingChildren / heads, 0 to 1; null when heads is null or 0. */
  orderRate: z.number().nullable(),
  /** What paid orders were charged, shared out over their lines (docs/reports.md, "Revenue of a line"). */
  revenueThebe: z.number().int(),
  printRevenueThebe: z.number().int(),
  digitalRevenueThebe: z.number().int(),
  /** revenueThebe / paidOrders rounded half up; null without paid orders. */
  averageOrderThebe: z.number().int().nullable(),
  /** revenueThebe / heads rounded half up; null when heads is null or 0. */
  revenuePerHeadThebe: z.number().int().nullable(),
  topItems: z.array(reportTopItemSchema).max(REPORT_TOP_ITEMS),
  /** Orders waiting for payment (status pending, not paid), placed in the range, and what they would bring. */
  pendingOrders: z.number().int(),
  pendingThebe: z.number().int(),
  /** Orders flagged for a refund (paid twice, or paid after cancellation) and the amount owed back. */
  refundOrders: z.number().int(),
  refundThebe: z.number().int(),
  /**
   * Of revenueThebe: the packages ordered before picture day (docs/prepaid.md, "The books"),
   * counted, like every line, on the day the order was paid.
   */
  prepaidRevenueThebe: z.number().int(),
  /** Paid prepaid package lines whose photos nobody has chosen yet, now (not limited to the range). */
  packagesWaitingForPhotos: z.number().int(),
  /** Of those, lines flagged at the closing date because the child had no photo: a retake or a refund. */
  packagesWithoutPhoto: z.number().int(),
});
export type ReportFigures = z.infer<typeof reportFiguresSchema>;

export const classReportSchema = reportFiguresSchema.extend({
  albumId: z.number().int(),
  name: z.string(),
  /** draft | published | archived, as the class is now. */
  status: z.string(),
  /** When the class was published (epoch ms; else its first upload); null: nothing yet. */
  publishedAt: z.number().int().nullable(),
});
export type ClassReport = z.infer<typeof classReportSchema>;

export const schoolReportSchema = reportFiguresSchema.extend({
  schoolId: z.number().int(),
  name: z.string(),
  accessMode: z.string(),
  closingDate: z.string().nullable(),
  classes: z.array(classReportSchema),
});
export type SchoolReport = z.infer<typeof schoolReportSchema>;

export const schoolsReportSchema = z.object({
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** Epoch ms when the answer was computed. */
  generatedAt: z.number().int(),
  schools: z.array(schoolReportSchema),
  /** Every school together. */
  totals: reportFiguresSchema,
});
export type SchoolsReport = z.infer<typeof schoolsReportSchema>;

export const salesPeriodSchema = z.object({
  /** First day of the period (a Monday for weeks), YYYY-MM-DD. */
  start: z.string(),
  /** Last day of the period, YYYY-MM-DD (clipped to the range). */
  end: z.string(),
  orders: z.number().int(),
  revenueThebe: z.number().int(),
});
export type SalesPeriod = z.infer<typeof salesPeriodSchema>;

export const salesTailDaySchema = z.object({
  /** Days from the class's publish day to the day paid (0: the publish day); the last entry also holds every later day. */
  day: z.number().int(),
  revenueThebe: z.number().int(),
  /** This day's share of the revenue in the tail, 0 to 1. */
  share: z.number(),
  /** Share of days 0 up to this one. */
  cumulativeShare: z.number(),
});
export type SalesTailDay = z.infer<typeof salesTailDaySchema>;

export const salesReportSchema = z.object({
  schoolId: z.number().int().nullable(),
  albumId: z.number().int().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  by: z.enum(REPORT_PERIODS),
  /**
   * Every period from `from` (else the first day with a sale) to `to` (else the last day with a
   * sale), zeros included, oldest first; empty when nothing sold and no range was given.
   */
  periods: z.array(salesPeriodSchema),
  totals: z.object({ orders: z.number().int(), revenueThebe: z.number().int() }),
  /** Days 0 to REPORT_TAIL_DAYS - 1 after publishing (every entry present), for the sales in the range. */
  tail: z.array(salesTailDaySchema),
});
export type SalesReport = z.infer<typeof salesReportSchema>;

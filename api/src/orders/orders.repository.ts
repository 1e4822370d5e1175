import type { Knex } from 'knex';
import { childNamer } from '../../contract/same-names';
import { compareNames } from '../../contract/format';
import type { OrderStatus, PaymentStatus, ProductKind } from '../../contract/constants';
import { isPaymentMethodId, paymentMethodForPayMethod, type PaymentMethodId } from '../../contract/payment-methods';
import { runner, type Tx } from '../db/database';
import { now } from '../db/knex';
import type { PackageInfo, PhotoInfo, PrepaidStudent, PricedLine, PricedPackage, Product } from './pricing';
import type { AccessMode } from '../../contract/student-codes';
import type { SiblingDiscount } from '../../contract/price-lists';
import type { PosesChosenBy } from '../../contract/prepaid';
import { isPublished, isWithheld } from '../students/visibility';
import { OPEN_PAYMENT_STATES, whereMayStillBePaid, type PayableOrder } from '../payments/payments.repository';

/** An order line's photo as it is now, to tell whether it is still the ordering family's (docs/access.md, "Withdrawn photos"). */
export interface LinePhotoNow {
  studentId: number | null;
  inTray: boolean;
  /** A card, in the tray, or waiting for review. */
  withheld: boolean;
  doNotPublish: boolean;
  /** Its class is published. */
  published: boolean;
}

export interface OrderItemRecord {
  id: number;
  orderId: string;
  photoId: number | null;
  albumId: number | null;
  photoName: string | null;
  photoOriginalNumber: string | null;
  photoOriginalName: string | null;
  photoFilename: string | null;
  studentId: number | null;
  /** That child's name (from the roster), or null for a group photo or a child since erased. */
  lineStudentName: string | null;
  /**
   * That name with what tells the child apart when another child of the class has it ("Neo Kgosi
   * (12)", docs/access.md, "Two children with the same name"); else the name. Filled for staff lists.
   */
  lineStudentLabel?: string | null;
  lineStudentNumber?: string | null;
  lineStudentAlbumId?: number | null;
  /** The family held that child by code when it placed the order (docs/access.md, "Whose photo it is"). */
  childHeld: boolean;
  /** The product's id: a price list item id as a string, or a built-in product id (the wire's `productType`). */
  productId: string;
  productName: string;
  productDescription: string;
  /** The product's kind when the order was placed: a print goes to the lab, a digital copy is a download. */
  kind: ProductKind;
  quantity: number;
  unitThebe: number;
  totalThebe: number;
  /** The line's photo now; null when the line has no photo or the photo is gone. */
  photoNow: LinePhotoNow | null;
  /** The package line this item is part of (its prices are then 0: the package carries the price). */
  orderPackageId: number | null;
}

/** A package line of an order as placed (docs/packages-and-coupons.md); its contents are the items with its id. */
export interface OrderPackageRecord {
  id: number;
  orderId: string;
  /** The price list package it was; null once that package is gone. */
  packageId: number | null;
  name: string;
  quantity: number;
  unitThebe: number;
  totalThebe: number;
  /** What its contents cost as single products when the order was placed. */
  itemsValueThebe: number;
  studentId: number | null;
  /** That child's name from the roster (null: a group package, or the child was erased). */
  studentName: string | null;
  /** The family held that child by code when it placed the order. */
  childHeld: boolean;
  /** Ordered before picture day, without photos (docs/prepaid.md). */
  prepaid: boolean;
  /** Who chose its photos; null while nobody has (a line ordered with photos: 'family'). */
  posesChosenBy: PosesChosenBy | null;
  /** The child's class when a prepaid line was ordered (null for a line ordered with photos). */
  albumId: number | null;
  /** Epoch ms when the closing date's fill found no photo of the child: staff arrange a retake or refund. */
  noPhotoAt: number | null;
}

/** An order with its school's name, its print batch, whether a sandbox payment was made for it, and its lines. */
export interface OrderRecord {
  id: string;
  schoolId: number;
  schoolName: string;
  albumId: number | null;
  albumName: string | null;
  customerId: number | null;
  customerName: string;
  customerEmail: string;
  customerPhone: string | null;
  studentName: string;
  /** What is charged: subtotal less the discounts. */
  totalThebe: number;
  /** The lines before discounts (an order from before discounts existed: its total). */
  subtotalThebe: number;
  siblingDiscountThebe: number;
  couponId: number | null;
  couponCode: string | null;
  couponDiscountThebe: number;
  orderStatus: OrderStatus;
  paymentStatus: PaymentStatus;
  paymentReference: string | null;
  notes: string | null;
  /** What the order's Idempotency-Key was bound to (null without a key). */
  idempotencyHash: string | null;
  duplicatePayments: number;
  /** Approved payments that arrived after the order was cancelled: each is refunded (docs/payments.md, "Paid after cancellation"). */
  paidAfterCancel: number;
  /** Lines withdrawn when an approval paid the order anyway: staff refund them (docs/payments.md). */
  paidWithWithdrawn: number;
  /** Epoch ms. */
  createdAt: number;
  /** The school's closing date (YYYY-MM-DD), the day a prepaid package's photos are due (docs/prepaid.md). */
  schoolClosingDate: string | null;
  testPayment: boolean;
  printBatchId: number | null;
  /** Approvals that arrived after their payment had expired (docs/payments.md, "Paid after expiry"). */
  paidAfterExpiry: number;
  /** The order's latest payment, null before any (docs/payments.md, "Payment methods"). */
  latestPayment: { method: PaymentMethodId | null; status: string; expiresAt: number | null } | null;
  /** PAY_METHOD and PAY_METHOD_DETAIL the gateway reported: of the payment that paid, else of the latest. */
  gatewayPayMethod: string | null;
  gatewayPayMethodDetail: string | null;
  /**
   * The method of the payment that paid the order (the one chosen, else the one the gateway's
   * PAY_METHOD stands for); null while unpaid. A later payment tried another way does not change it.
   */
  paidMethod: PaymentMethodId | null;
  items: OrderItemRecord[];
  packages: OrderPackageRecord[];
}

interface OrderRow {
  id: string;
  school_id: number;
  album_id: number | null;
  album_name: string | null;
  customer_id: number | null;
  customer_name: string;
  customer_email: string;
  customer_phone: string | null;
  student_name: string;
  total_thebe: number;
  subtotal_thebe: number | null;
  sibling_discount_thebe: number | null;
  coupon_id: number | null;
  coupon_code: string | null;
  coupon_discount_thebe: number | null;
  order_status: OrderStatus;
  payment_status: PaymentStatus;
  payment_reference: string | null;
  notes: string | null;
  idempotency_key: string | null;
  idempotency_hash: string | null;
  duplicate_payments: number | null;
  paid_after_cancel: number | null;
  paid_with_withdrawn?: number | null;
  created_at: number;
  school_name: string;
  school_closing_date?: string | null;
  test_payment: number | null;
  print_batch_id: number | null;
  paid_after_expiry: number | null;
  lp_id: number | null;
  lp_method: string | null;
  lp_status: string | null;
  lp_expires_at: number | string | null;
  lp_pay_method: string | null;
  lp_pay_method_detail: string | null;
  pp_id: number | null;
  pp_pay_method: string | null;
  pp_pay_method_detail: string | null;
  pp_method: string | null;
}

interface OrderItemRow {
  id: number;
  order_id: string;
  photo_id: number | null;
  album_id: number | null;
  photo_name: string | null;
  photo_original_number: string | null;
  photo_original_name: string | null;
  photo_filename: string | null;
  student_id: number | null;
  product_type: string;
  product_name: string;
  product_description: string;
  kind: ProductKind;
  quantity: number;
  unit_thebe: number;
  total_thebe: number;
  order_package_id: number | null;
  child_held: number | boolean | null;
  now_id?: number | null;
  now_student_id?: number | null;
  now_kind?: string | null;
  now_in_tray?: number | boolean | null;
  now_pending_review?: number | boolean | null;
  now_dnp?: number | boolean | null;
  now_album_status?: string | null;
  now_album_publish_at?: number | string | null;
  line_student_name?: string | null;
  line_student_number?: string | null;
  line_student_album?: number | string | null;
}

/** The current state of a line's photo, read beside the line (joined as `ph`, `pst` and `pa`). */
const NOW_COLUMNS = {
  now_id: 'ph.id',
  now_student_id: 'ph.student_id',
  now_kind: 'ph.kind',
  now_in_tray: 'ph.in_tray',
  now_pending_review: 'ph.pending_review',
  now_dnp: 'pst.do_not_publish',
  now_album_status: 'pa.status',
  now_album_publish_at: 'pa.publish_at',
} as const;

/** The line's own child's name (order_items.student_id, joined as `ist`): whose print it is. */
const LINE_COLUMNS = { line_student_name: 'ist.name', line_student_number: 'ist.number', line_student_album: 'ist.album_id' } as const;

/**
 * Each line's child's name as staff lists show it: with the student number when another child of
 * that class has the same name (one query over the classes of these lines' children).
 */
async function labelSharedNames(db: Knex, items: OrderItemRecord[]): Promise<void> {
  const albumIds = [...new Set(items.flatMap((item) => (item.lineStudentAlbumId ? [item.lineStudentAlbumId] : [])))];
  if (albumIds.length === 0) return;
  const roster = (await db('students').whereIn('album_id', albumIds).select('album_id', 'name', 'number')) as { album_id: number | string; name: string; number: string | null }[];
  const byAlbum = new Map<number, { name: string; number: string | null }[]>();
  for (const row of roster) byAlbum.set(Number(row.album_id), [...(byAlbum.get(Number(row.album_id)) ?? []), row]);
  for (const item of items) {
    if (item.lineStudentName === null || !item.lineStudentAlbumId) continue;
    item.lineStudentLabel = childNamer(byAlbum.get(item.lineStudentAlbumId) ?? [])({ name: item.lineStudentName, number: item.lineStudentNumber ?? null });
  }
}

/** Joins a line's photo, its child and its class as they are now, and the line's own child, onto `order_items as i`. */
function joinPhotoNow<Q extends Knex.QueryBuilder>(query: Q): Q {
  return query
    .leftJoin('photos as ph', 'ph.id', 'i.photo_id')
    .leftJoin('students as pst', 'pst.id', 'ph.student_id')
    .leftJoin('albums as pa', 'pa.id', 'ph.album_id')
    .leftJoin('students as ist', 'ist.id', 'i.student_id') as Q;
}

function photoNowOf(row: OrderItemRow): LinePhotoNow | null {
  if (row.now_id === null || row.now_id === undefined) return null;
  const inTray = Boolean(Number(row.now_in_tray ?? 0));
  return {
    studentId: idOrNull(row.now_student_id),
    inTray,
    withheld: isWithheld({ kind: row.now_kind ?? 'photo', inTray, pendingReview: Boolean(Number(row.now_pending_review ?? 0)) }),
    doNotPublish: Boolean(Number(row.now_dnp ?? 0)),
    // An archived class stays deliverable to the orders that bought its photos (docs/access.md, "Archived classes").
    published: isPublished({ status: row.now_album_status ?? 'published', publishAt: row.now_album_publish_at === null || row.now_album_publish_at === undefined ? null : Number(row.now_album_publish_at) }),
  };
}

const ITEM_COLUMNS = [
  'id',
  'order_id',
  'photo_id',
  'album_id',
  'photo_name',
  'photo_original_number',
  'photo_original_name',
  'photo_filename',
  'student_id',
  'product_type',
  'product_name',
  'product_description',
  'kind',
  'quantity',
  'unit_thebe',
  'total_thebe',
  'order_package_id',
  'child_held',
] as const satisfies readonly (keyof OrderItemRow)[];

/** A line's columns read beside its order, each as `item_<column>` (joined as `i`, with joinPhotoNow). */
type PrefixedItemRow = Record<`item_${keyof OrderItemRow}`, unknown>;
const PREFIXED_ITEM_COLUMNS: Record<string, string> = Object.fromEntries([
  ...ITEM_COLUMNS.map((column) => [`item_${column}`, `i.${column}`]),
  ...Object.entries({ ...NOW_COLUMNS, ...LINE_COLUMNS }).map(([alias, column]) => [`item_${alias}`, column]),
]);

/** The lines of rows read with PREFIXED_ITEM_COLUMNS (an order without lines gives one row without a line). */
function prefixedItems(rows: readonly PrefixedItemRow[]): OrderItemRecord[] {
  return rows
    .filter((row) => row.item_id !== null && row.item_id !== undefined)
    .map((row) =>
      toItemRecord(Object.fromEntries([...ITEM_COLUMNS, ...Object.keys(NOW_COLUMNS), ...Object.keys(LINE_COLUMNS)].map((column) => [column, row[`item_${column as keyof OrderItemRow}`]])) as unknown as OrderItemRow),
    );
}

const idOrNull = (value: number | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

function toItemRecord(row: OrderItemRow): OrderItemRecord {
  return {
    id: Number(row.id),
    orderId: row.order_id,
    photoId: idOrNull(row.photo_id),
    albumId: idOrNull(row.album_id),
    photoName: row.photo_name,
    photoOriginalNumber: row.photo_original_number,
    photoOriginalName: row.photo_original_name,
    photoFilename: row.photo_filename,
    studentId: idOrNull(row.student_id),
    lineStudentName: row.line_student_name ?? null,
    lineStudentNumber: row.line_student_number ?? null,
    lineStudentAlbumId: row.line_student_album === null || row.line_student_album === undefined ? null : Number(row.line_student_album),
    childHeld: Boolean(Number(row.child_held ?? 0)),
    productId: row.product_type,
    productName: row.product_name,
    productDescription: row.product_description,
    kind: row.kind,
    quantity: Number(row.quantity),
    unitThebe: Number(row.unit_thebe),
    totalThebe: Number(row.total_thebe),
    photoNow: photoNowOf(row),
    orderPackageId: idOrNull(row.order_package_id),
  };
}

interface OrderPackageRow {
  id: number;
  order_id: string;
  package_id: number | null;
  name: string;
  quantity: number;
  unit_thebe: number;
  total_thebe: number;
  items_value_thebe: number;
  student_id: number | null;
  student_name: string | null;
  child_held: number | boolean | null;
  prepaid?: number | boolean | null;
  poses_chosen_by?: string | null;
  album_id?: number | null;
  no_photo_at?: number | string | null;
}

function toPackageRecord(row: OrderPackageRow): OrderPackageRecord {
  return {
    id: Number(row.id),
    orderId: row.order_id,
    packageId: idOrNull(row.package_id),
    name: row.name,
    quantity: Number(row.quantity),
    unitThebe: Number(row.unit_thebe),
    totalThebe: Number(row.total_thebe),
    itemsValueThebe: Number(row.items_value_thebe),
    studentId: idOrNull(row.student_id),
    studentName: row.student_name ?? null,
    childHeld: Boolean(Number(row.child_held ?? 0)),
    prepaid: Boolean(Number(row.prepaid ?? 0)),
    posesChosenBy: row.poses_chosen_by === 'family' || row.poses_chosen_by === 'studio' ? row.poses_chosen_by : Number(row.prepaid ?? 0) ? null : 'family',
    albumId: idOrNull(row.album_id),
    noPhotoAt: row.no_photo_at === null || row.no_photo_at === undefined ? null : Number(row.no_photo_at),
  };
}

/** The package lines of these orders, each with its child's name as it is now. */
async function packagesOf(db: Knex, orderIds: string[]): Promise<Map<string, OrderPackageRecord[]>> {
  const byOrder = new Map<string, OrderPackageRecord[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = (await db('order_packages as op')
    .leftJoin('students as st', 'st.id', 'op.student_id')
    .whereIn('op.order_id', orderIds)
    .orderBy('op.id')
    .select('op.*', 'st.name as student_name')) as OrderPackageRow[];
  for (const record of rows.map(toPackageRecord)) byOrder.set(record.orderId, [...(byOrder.get(record.orderId) ?? []), record]);
  return byOrder;
}

function toRecord(row: OrderRow, items: OrderItemRecord[], packages: OrderPackageRecord[]): OrderRecord {
  return {
    id: row.id,
    schoolId: Number(row.school_id),
    schoolName: row.school_name,
    albumId: idOrNull(row.album_id),
    albumName: row.album_name,
    customerId: idOrNull(row.customer_id),
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    customerPhone: row.customer_phone,
    studentName: row.student_name,
    totalThebe: Number(row.total_thebe),
    subtotalThebe: row.subtotal_thebe === null || row.subtotal_thebe === undefined ? Number(row.total_thebe) : Number(row.subtotal_thebe),
    siblingDiscountThebe: Number(row.sibling_discount_thebe ?? 0),
    couponId: idOrNull(row.coupon_id),
    couponCode: row.coupon_code ?? null,
    couponDiscountThebe: Number(row.coupon_discount_thebe ?? 0),
    orderStatus: row.order_status,
    paymentStatus: row.payment_status,
    paymentReference: row.payment_reference,
    notes: row.notes,
    idempotencyHash: row.idempotency_hash,
    duplicatePayments: Number(row.duplicate_payments ?? 0),
    paidAfterCancel: Number(row.paid_after_cancel ?? 0),
    paidWithWithdrawn: Number(row.paid_with_withdrawn ?? 0),
    createdAt: Number(row.created_at),
    schoolClosingDate: row.school_closing_date ?? null,
    testPayment: Number(row.test_payment ?? 0) === 1,
    printBatchId: idOrNull(row.print_batch_id),
    paidAfterExpiry: Number(row.paid_after_expiry ?? 0),
    latestPayment:
      row.lp_id === null || row.lp_id === undefined
        ? null
        : {
            method: row.lp_method !== null && isPaymentMethodId(row.lp_method) ? row.lp_method : null,
            status: row.lp_status ?? 'initiated',
            expiresAt: row.lp_expires_at === null || row.lp_expires_at === undefined ? null : Number(row.lp_expires_at),
          },
    gatewayPayMethod: (row.pp_id !== null && row.pp_id !== undefined ? row.pp_pay_method : row.lp_pay_method) ?? null,
    gatewayPayMethodDetail: (row.pp_id !== null && row.pp_id !== undefined ? row.pp_pay_method_detail : row.lp_pay_method_detail) ?? null,
    paidMethod:
      row.pp_id === null || row.pp_id === undefined
        ? null
        : row.pp_method !== null && isPaymentMethodId(row.pp_method)
          ? row.pp_method
          : paymentMethodForPayMethod(row.pp_pay_method),
    items,
    packages,
  };
}

/** The school an order is for, with what it sells (docs/packages-and-coupons.md). */
export interface OrderSchool {
  id: number;
  name: string;
  closingDate: string | null;
  /** How families open its galleries: ordering before picture day needs codes (docs/prepaid.md). */
  accessMode: AccessMode;
  priceListId: number | null;
  /** The price list's products in list order; none without a list. */
  products: Product[];
  /** The price list's packages in list order, each with its contents. */
  packages: PackageInfo[];
  sibling: SiblingDiscount | null;
}

export interface NewOrder {
  id: string;
  schoolId: number;
  customerId: number | null;
  customerName: string;
  customerEmail: string;
  customerPhone: string | null;
  studentName: string;
  notes: string | null;
  idempotencyKey: string | null;
  idempotencyHash: string | null;
  /** What is charged: subtotal less the discounts. */
  totalThebe: number;
  /** Single-product lines. */
  lines: PricedLine[];
  /** Package lines, with their contents. */
  packages: PricedPackage[];
  subtotalThebe: number;
  siblingDiscountThebe: number;
  coupon: { id: number; code: string; discountThebe: number } | null;
}

/** The order's class as stored with it: the one class of all its lines, else none, and their names. */
function orderClass(order: Pick<NewOrder, 'lines' | 'packages'>): { albumId: number | null; albumName: string | null } {
  const allLines = [...order.lines, ...order.packages.flatMap((pkg) => pkg.contents)];
  // A prepaid package's class is its child's (docs/prepaid.md).
  const classes = [
    ...allLines.map((line) => ({ id: line.photo.albumId, name: line.photo.albumName })),
    ...order.packages.flatMap((pkg) => (pkg.albumId !== null ? [{ id: pkg.albumId, name: pkg.albumName ?? '' }] : [])),
  ];
  const albumIds = [...new Set(classes.map((c) => c.id))];
  return { albumId: albumIds.length === 1 ? (albumIds[0] ?? null) : null, albumName: [...new Set(classes.map((c) => c.name))].join(', ').slice(0, 120) || null };
}

/** An order_items row of a priced line. */
const orderItemRow = (orderId: string, line: PricedLine, orderPackageId: number | null) => ({
  order_id: orderId,
  photo_id: line.photo.id,
  album_id: line.photo.albumId,
  photo_name: line.photo.originalName,
  photo_original_number: line.photo.originalNumber,
  photo_original_name: line.photo.originalName,
  photo_filename: line.photo.filename,
  student_id: line.photo.studentId,
  child_held: line.childHeld,
  // On an order line, product_type holds the product's id (see OrderItemRecord.productId).
  product_type: line.product.id,
  product_name: line.product.name,
  product_description: line.product.description,
  kind: line.product.kind,
  quantity: line.quantity,
  unit_thebe: line.unitThebe,
  total_thebe: line.totalThebe,
  order_package_id: orderPackageId,
});

/** A prepaid package line still without photos at the closing date, for the default fill (docs/prepaid.md). */
export interface UnfilledPrepaidLine {
  lineId: number;
  orderId: string;
  studentId: number | null;
  packageId: number | null;
  quantity: number;
  schoolId: number;
  closingDate: string;
}

/** Received payments (status 5, `pending`) that may still be approved (aliased `p`). */
const settling = (db: Knex | Knex.Transaction, at: number) =>
  whereMayStillBePaid(db('payments as p').select(db.raw('1')).where('p.status', 'pending'), at, 'p');

export function createOrdersRepository(knex: Knex) {
  /**
   * Orders with their school name, their print batch, whether a sandbox payment was made for them,
   * their latest payment (`lp`) and the first that completed (`pp`) for the method shown.
   */
  const baseQuery = (db: Knex) =>
    db('orders as o')
      .join('schools as s', 's.id', 'o.school_id')
      .leftJoin('print_batch_orders as pbo', 'pbo.order_id', 'o.id')
      .leftJoin('payments as lp', 'lp.id', db.raw('(select max(lp2.id) from payments lp2 where lp2.order_id = o.id)'))
      // The payment that paid: the first to complete (a late one, paid twice or after expiry, came after it).
      .leftJoin('payments as pp', 'pp.id', db.raw("(select pp2.id from payments pp2 where pp2.order_id = o.id and pp2.status = 'completed' order by pp2.updated_at, pp2.id limit 1)"))
      .select(
        'o.*',
        's.name as school_name',
        's.closing_date as school_closing_date',
        'pbo.batch_id as print_batch_id',
        'lp.id as lp_id',
        'lp.method as lp_method',
        'lp.status as lp_status',
        'lp.expires_at as lp_expires_at',
        'lp.pay_method as lp_pay_method',
        'lp.pay_method_detail as lp_pay_method_detail',
        'pp.id as pp_id',
        'pp.pay_method as pp_pay_method',
        'pp.pay_method_detail as pp_pay_method_detail',
        'pp.method as pp_method',
        db.raw("(select max(case when p.gateway = 'sandbox' then 1 else 0 end) from payments p where p.order_id = o.id) as test_payment"),
      );

  async function withItems(rows: OrderRow[], db: Knex = knex): Promise<OrderRecord[]> {
    if (rows.length === 0) return [];
    const items: OrderItemRow[] = await joinPhotoNow(db('order_items as i'))
      .whereIn(
        'i.order_id',
        rows.map((r) => r.id),
      )
      .orderBy('i.id')
      .select('i.*', NOW_COLUMNS, LINE_COLUMNS);
    const byOrder = new Map<string, OrderItemRecord[]>();
    const records = items.map(toItemRecord);
    await labelSharedNames(db, records);
    for (const item of records) byOrder.set(item.orderId, [...(byOrder.get(item.orderId) ?? []), item]);
    // Every order's package lines: a prepaid line has no contents until its photos are chosen (docs/prepaid.md).
    const packages = await packagesOf(db, rows.map((row) => row.id));
    return rows.map((order) => toRecord(order, byOrder.get(order.id) ?? [], packages.get(order.id) ?? []));
  }

  return {
    /**
     * The school an order is for, with its price list's products in list order (none without a
     * list), its packages with their contents, and its family discount: two queries, the second
     * only when the school has a price list.
     */
    async school(id: number): Promise<OrderSchool | undefined> {
      const rows = await knex('schools as s')
        .leftJoin('price_lists as pl', 'pl.id', 's.price_list_id')
        .leftJoin('price_list_items as i', 'i.price_list_id', 's.price_list_id')
        .where('s.id', id)
        .orderBy([{ column: 'i.position' }, { column: 'i.id' }])
        .select(
          's.id',
          's.name',
          's.closing_date',
          's.access_mode',
          's.price_list_id',
          'pl.sibling_percent',
          'pl.sibling_max_children',
          'i.id as item_id',
          'i.product_type',
          'i.description',
          'i.price_thebe',
          'i.kind',
        );
      const first = rows[0];
      if (!first) return undefined;
      const products: Product[] = rows
        .filter((r) => r.item_id !== null)
        // In a price list, product_type is the product's name; the item's id is what an order line names.
        .map((r) => ({ id: String(r.item_id), name: r.product_type, description: r.description, priceThebe: Number(r.price_thebe), kind: r.kind }));
      const priceListId = first.price_list_id === null ? null : Number(first.price_list_id);
      const packages: PackageInfo[] = [];
      if (priceListId !== null) {
        const contents = (await knex('price_list_packages as pk')
          .join('price_list_package_items as pi', 'pi.package_id', 'pk.id')
          .where('pk.price_list_id', priceListId)
          .orderBy([{ column: 'pk.position' }, { column: 'pk.id' }, { column: 'pi.position' }, { column: 'pi.id' }])
          .select('pk.id', 'pk.name', 'pk.price_thebe', 'pk.max_poses', 'pi.price_list_item_id', 'pi.quantity')) as {
          id: number;
          name: string;
          price_thebe: number | string;
          max_poses: number | null;
          price_list_item_id: number;
          quantity: number;
        }[];
        const byId = new Map(products.map((product) => [product.id, product]));
        for (const row of contents) {
          const product = byId.get(String(row.price_list_item_id));
          if (!product) continue;
          let pkg = packages.find((candidate) => candidate.id === Number(row.id));
          if (!pkg) {
            pkg = { id: Number(row.id), name: row.name, priceThebe: Number(row.price_thebe), maxPoses: row.max_poses === null ? null : Number(row.max_poses), items: [] };
            packages.push(pkg);
          }
          pkg.items.push({ product, quantity: Number(row.quantity) });
        }
      }
      return {
        id: Number(first.id),
        name: first.name,
        closingDate: first.closing_date,
        accessMode: first.access_mode,
        priceListId,
        products,
        packages,
        sibling:
          first.sibling_percent === null || first.sibling_max_children === null || first.sibling_percent === undefined
            ? null
            : { percent: Number(first.sibling_percent), maxChildren: Number(first.sibling_max_children) },
      };
    },

    async photos(ids: number[]): Promise<Map<number, PhotoInfo>> {
      const rows = await knex('photos as p')
        .join('albums as a', 'a.id', 'p.album_id')
        .join('schools as s', 's.id', 'a.school_id')
        .leftJoin('students as st', 'st.id', 'p.student_id')
        .whereIn('p.id', [...new Set(ids)])
        .select(
          'p.id',
          'p.album_id',
          'a.school_id',
          'a.name as album_name',
          'a.password_hash',
          's.access_mode',
          'p.student_id',
          'st.do_not_publish',
          'p.kind',
          'p.in_tray',
          'p.pending_review',
          'a.status as album_status',
          'a.publish_at as album_publish_at',
          'a.archived_at as album_archived_at',
          'p.original_name',
          'p.original_number',
          'p.filename',
          'st.name as student_name',
          'st.number as student_number',
          'st.album_id as student_album_id',
        );
      return new Map(
        rows.map((r) => [
          Number(r.id),
          {
            id: Number(r.id),
            albumId: Number(r.album_id),
            schoolId: Number(r.school_id),
            albumName: r.album_name,
            albumHasPassword: r.password_hash !== null,
            accessMode: r.access_mode,
            studentId: r.student_id === null ? null : Number(r.student_id),
            doNotPublish: Boolean(Number(r.do_not_publish ?? 0)),
            withheld: isWithheld({ kind: r.kind, inTray: Boolean(Number(r.in_tray ?? 0)), pendingReview: Boolean(Number(r.pending_review ?? 0)) }),
            albumPublished: isPublished({ status: r.album_status, publishAt: r.album_publish_at === null ? null : Number(r.album_publish_at), archivedAt: r.album_archived_at }),
            originalName: r.original_name,
            originalNumber: r.original_number,
            filename: r.filename,
            now: {
              inTray: Boolean(Number(r.in_tray ?? 0)),
              // As photoNowOf reads it: an archived class still delivers what it sold.
              published: isPublished({ status: r.album_status, publishAt: r.album_publish_at === null ? null : Number(r.album_publish_at) }),
              studentName: r.student_name ?? null,
              studentNumber: r.student_number ?? null,
              studentAlbumId: r.student_album_id === null || r.student_album_id === undefined ? null : Number(r.student_album_id),
            },
          },
        ]),
      );
    },

    /** The children prepaid package lines name, with their school and class (docs/prepaid.md). */
    async prepaidStudents(ids: number[]): Promise<Map<number, PrepaidStudent>> {
      if (ids.length === 0) return new Map();
      const rows = (await knex('students as st')
        .join('albums as a', 'a.id', 'st.album_id')
        .whereIn('st.id', [...new Set(ids)])
        .select('st.id', 'st.album_id', 'a.name as album_name', 'a.school_id', 'st.do_not_publish')) as { id: number; album_id: number; album_name: string; school_id: number; do_not_publish: number | boolean }[];
      return new Map(
        rows.map((row) => [
          Number(row.id),
          { id: Number(row.id), albumId: Number(row.album_id), albumName: row.album_name, schoolId: Number(row.school_id), doNotPublish: Boolean(Number(row.do_not_publish)) },
        ]),
      );
    },

    /** A paid line's photo: its files, and where it stands now (whose it is, whether families may see it). */
    async photoForDownload(photoId: number): Promise<{ storageKey: string; mimeType: string; filename: string; doNotPublish: boolean; now: LinePhotoNow } | undefined> {
      const row = (await knex('photos as ph')
        .leftJoin('students as pst', 'pst.id', 'ph.student_id')
        .join('albums as pa', 'pa.id', 'ph.album_id')
        .where('ph.id', photoId)
        .first('ph.storage_key', 'ph.mime_type', 'ph.filename', NOW_COLUMNS)) as (OrderItemRow & { storage_key: string; mime_type: string; filename: string }) | undefined;
      const now = row && photoNowOf(row);
      if (!row || !now) return undefined;
      // A card photo is never delivered, like a child who may not be published.
      return { storageKey: row.storage_key, mimeType: row.mime_type, filename: row.filename, doNotPublish: now.doNotPublish || row.now_kind === 'card', now };
    },

    /**
     * The order, its single-product lines, and each package line with its contents (items with
     * `order_package_id` and no price of their own): one insert per table, whatever the cart's size.
     * Answers the order's `created_at`, the day it was placed.
     */
    async insert(order: NewOrder, tx?: Tx): Promise<{ createdAt: number }> {
      const trx = runner(knex, tx);
      const at = now();
      const placedIn = orderClass(order);
      await trx('orders').insert({
        id: order.id,
        school_id: order.schoolId,
        album_id: placedIn.albumId,
        album_name: placedIn.albumName,
        customer_id: order.customerId,
        customer_name: order.customerName,
        customer_email: order.customerEmail,
        customer_phone: order.customerPhone,
        student_name: order.studentName,
        total_thebe: order.totalThebe,
        subtotal_thebe: order.subtotalThebe,
        sibling_discount_thebe: order.siblingDiscountThebe,
        coupon_id: order.coupon?.id ?? null,
        coupon_code: order.coupon?.code ?? null,
        coupon_discount_thebe: order.coupon?.discountThebe ?? 0,
        order_status: 'pending',
        payment_status: 'pending',
        notes: order.notes,
        idempotency_key: order.idempotencyKey,
        idempotency_hash: order.idempotencyHash,
        created_at: at,
        updated_at: at,
      });
      const itemRow = (line: PricedLine, orderPackageId: number | null) => orderItemRow(order.id, line, orderPackageId);
      if (order.lines.length > 0) await trx('order_items').insert(order.lines.map((line) => itemRow(line, null)));
      if (order.packages.length === 0) return { createdAt: at };
      await trx('order_packages').insert(
        order.packages.map((pkg) => ({
          order_id: order.id,
          package_id: pkg.package.id,
          name: pkg.package.name,
          quantity: pkg.quantity,
          unit_thebe: pkg.unitThebe,
          total_thebe: pkg.totalThebe,
          items_value_thebe: pkg.itemsValueThebe,
          student_id: pkg.studentId,
          child_held: pkg.childHeld,
          prepaid: pkg.prepaid,
          album_id: pkg.albumId,
          poses_chosen_by: pkg.prepaid ? null : 'family',
          poses_chosen_at: pkg.prepaid ? null : at,
        })),
      );
      // Inserted in order within this transaction: the ids come back in the same order on both databases.
      const ids = ((await trx('order_packages').where({ order_id: order.id }).orderBy('id').select('id')) as { id: number }[]).map((row) => Number(row.id));
      // A prepaid package has no contents until its photos are chosen (docs/prepaid.md).
      const contents = order.packages.flatMap((pkg, index) => pkg.contents.map((line) => itemRow(line, ids[index] ?? null)));
      if (contents.length > 0) await trx('order_items').insert(contents);
      return { createdAt: at };
    },

    /**
     * Writes a package line's photos (docs/prepaid.md, "Choosing the photos"): its contents replace
     * the ones it had, and who chose is recorded. `from` is who may still choose: the family only
     * while the studio has not filled it, the studio only while nobody chose. 0 when the line
     * changed hands meanwhile (nothing written).
     */
    async fillPackageLine(
      line: { orderId: string; lineId: number },
      contents: readonly PricedLine[],
      by: PosesChosenBy,
      from: readonly (PosesChosenBy | null)[],
      tx: Tx,
    ): Promise<number> {
      const at = now();
      const db = runner(knex, tx);
      const query = db('order_packages').where({ id: line.lineId, order_id: line.orderId, prepaid: true });
      void query.where((q: Knex.QueryBuilder) => {
        for (const who of from) void (who === null ? q.orWhereNull('poses_chosen_by') : q.orWhere('poses_chosen_by', who));
      });
      const updated = await query.update({ poses_chosen_by: by, poses_chosen_at: at, no_photo_at: null });
      if (updated === 0) return 0;
      await db('order_items').where({ order_id: line.orderId, order_package_id: line.lineId }).delete();
      if (contents.length > 0) await db('order_items').insert(contents.map((content) => orderItemRow(line.orderId, content, line.lineId)));
      return updated;
    },

    /**
     * Paid, not cancelled prepaid lines nobody chose photos for, in schools whose closing date is
     * before `today` (YYYY-MM-DD), not yet flagged: the default fill's work (docs/prepaid.md).
     */
    async unfilledPrepaidLines(today: string, limit: number): Promise<UnfilledPrepaidLine[]> {
      const rows = (await knex('order_packages as op')
        .join('orders as o', 'o.id', 'op.order_id')
        .join('schools as s', 's.id', 'o.school_id')
        .where('op.prepaid', true)
        .whereNull('op.poses_chosen_by')
        .whereNull('op.no_photo_at')
        .where('o.payment_status', 'completed')
        .whereNot('o.order_status', 'cancelled')
        .whereNotNull('s.closing_date')
        .where('s.closing_date', '<', today)
        .orderBy('op.id')
        .limit(limit)
        .select('op.id', 'op.order_id', 'op.student_id', 'op.package_id', 'op.quantity', 'o.school_id', 's.closing_date')) as {
        id: number;
        order_id: string;
        student_id: number | null;
        package_id: number | null;
        quantity: number;
        school_id: number;
        closing_date: string;
      }[];
      return rows.map((row) => ({
        lineId: Number(row.id),
        orderId: row.order_id,
        studentId: idOrNull(row.student_id),
        packageId: idOrNull(row.package_id),
        quantity: Number(row.quantity),
        schoolId: Number(row.school_id),
        closingDate: row.closing_date,
      }));
    },

    /**
     * Paid, not cancelled prepaid lines nobody chose photos for whose family was not yet told the
     * child's photos are online, while the child has a released photo and the closing date
     * (`today`, YYYY-MM-DD) has not passed (docs/prepaid.md, "Choosing the photos").
     */
    async prepaidLinesToTell(today: string, at: number, limit: number): Promise<{ lineId: number; orderId: string; studentId: number }[]> {
      const released = knex('photos as rp')
        .join('albums as ra', 'ra.id', 'rp.album_id')
        .whereRaw('rp.student_id = op.student_id')
        .where('rp.kind', 'photo')
        .where('rp.in_tray', false)
        .where('rp.pending_review', false)
        .whereNull('ra.archived_at')
        .where((q) => q.where('ra.status', 'published').orWhere('ra.publish_at', '<=', at))
        .select(knex.raw('1'));
      const rows = (await knex('order_packages as op')
        .join('orders as o', 'o.id', 'op.order_id')
        .join('schools as s', 's.id', 'o.school_id')
        .join('students as st', 'st.id', 'op.student_id')
        .where('op.prepaid', true)
        .whereNull('op.poses_chosen_by')
        .whereNull('op.online_told_at')
        .where('o.payment_status', 'completed')
        .whereNot('o.order_status', 'cancelled')
        .where('st.do_not_publish', false)
        .where((q) => q.whereNull('s.closing_date').orWhere('s.closing_date', '>=', today))
        .whereExists(released)
        .orderBy('op.id')
        .limit(limit)
        .select('op.id', 'op.order_id', 'op.student_id')) as { id: number; order_id: string; student_id: number }[];
      return rows.map((row) => ({ lineId: Number(row.id), orderId: row.order_id, studentId: Number(row.student_id) }));
    },

    /** Records that the lines' family was told; answers how many this call marked (0: another process did). */
    async markOnlineTold(lineIds: number[], tx: Tx): Promise<number> {
      return runner(knex, tx)('order_packages').whereIn('id', lineIds).whereNull('online_told_at').update({ online_told_at: now() });
    },

    /** Flags a prepaid line the fill could not fill (no photo of the child): staff arrange a retake or refund. 0 if it was chosen meanwhile. */
    async flagNoPhoto(lineId: number, tx: Tx): Promise<number> {
      return runner(knex, tx)('order_packages').where({ id: lineId, prepaid: true }).whereNull('poses_chosen_by').whereNull('no_photo_at').update({ no_photo_at: now() });
    },

    /**
     * A child's released photos in capture order (docs/prepaid.md, "The studio fills what nobody
     * chose"): not withheld, not do-not-publish, in a published class; the default pose first when
     * it is one of them.
     */
    async releasedPhotoIdsOf(studentId: number): Promise<{ ids: number[]; defaultPhotoId: number | null }> {
      const student = (await knex('students').where({ id: studentId }).first('default_photo_id', 'do_not_publish')) as { default_photo_id: number | null; do_not_publish: number | boolean } | undefined;
      if (!student || Boolean(Number(student.do_not_publish))) return { ids: [], defaultPhotoId: null };
      const rows = (await knex('photos as p')
        .join('albums as a', 'a.id', 'p.album_id')
        .where('p.student_id', studentId)
        .select('p.id', 'p.kind', 'p.in_tray', 'p.pending_review', 'p.captured_at', 'p.original_name', 'a.status', 'a.publish_at', 'a.archived_at')) as {
        id: number;
        kind: string;
        in_tray: number | boolean;
        pending_review: number | boolean;
        captured_at: number | string | null;
        original_name: string;
        status: string;
        publish_at: number | string | null;
        archived_at: number | string | null;
      }[];
      const released = rows
        .filter(
          (row) =>
            !isWithheld({ kind: row.kind, inTray: Boolean(Number(row.in_tray ?? 0)), pendingReview: Boolean(Number(row.pending_review ?? 0)) }) &&
            isPublished({ status: row.status, publishAt: row.publish_at === null ? null : Number(row.publish_at), archivedAt: row.archived_at }),
        )
        .sort((a, b) => {
          const untimed = Number.MAX_SAFE_INTEGER;
          const at = (row: { captured_at: number | string | null }) => (row.captured_at === null ? untimed : Number(row.captured_at));
          return at(a) - at(b) || compareNames(a.original_name, b.original_name) || Number(a.id) - Number(b.id);
        });
      const ids = released.map((row) => Number(row.id));
      const defaultPhotoId = student.default_photo_id === null ? null : Number(student.default_photo_id);
      return { ids, defaultPhotoId: defaultPhotoId !== null && ids.includes(defaultPhotoId) ? defaultPhotoId : null };
    },

    /** One order with its lines, in one query (the lines joined in; the order's columns repeat on each). */
    async find(id: string, tx?: Tx): Promise<OrderRecord | undefined> {
      const db = runner(knex, tx);
      const rows: (OrderRow & PrefixedItemRow)[] = await joinPhotoNow(baseQuery(db).leftJoin('order_items as i', 'i.order_id', 'o.id'))
        .select(PREFIXED_ITEM_COLUMNS)
        .where('o.id', id)
        .orderBy('i.id');
      const first = rows[0];
      if (!first) return undefined;
      const items = prefixedItems(rows);
      await labelSharedNames(db, items);
      // A prepaid package line has no contents until its photos are chosen: the lines are always read (docs/prepaid.md).
      const packages = await packagesOf(db, [id]);
      return toRecord(first, items, packages.get(id) ?? []);
    },

    /**
     * The order as paying it needs it (payments.service.ts `payableOrder`), with its lines and their
     * photos as they are now, in one query: whether a payment request may still be open, whether a
     * line lost its photo, and whether it was placed with a coupon. Undefined for an unknown order.
     */
    async payable(orderId: string): Promise<{ order: PayableOrder; lines: OrderItemRecord[] } | undefined> {
      const open = knex('payments as p').where('p.order_id', knex.ref('o.id')).whereIn('p.status', OPEN_PAYMENT_STATES).whereNotNull('p.pay_request_id').count('*');
      const rows: (PrefixedItemRow & { o_id: string; o_total_thebe: number | string; o_customer_email: string; o_payment_status: PaymentStatus; o_order_status: OrderStatus; o_coupon_id: number | null; o_open_requests: number | string })[] =
        await joinPhotoNow(knex('orders as o').leftJoin('order_items as i', 'i.order_id', 'o.id'))
          .where('o.id', orderId)
          .orderBy('i.id')
          .select('o.id as o_id', 'o.total_thebe as o_total_thebe', 'o.customer_email as o_customer_email', 'o.payment_status as o_payment_status', 'o.order_status as o_order_status', 'o.coupon_id as o_coupon_id', open.as('o_open_requests'))
          .select(PREFIXED_ITEM_COLUMNS);
      const first = rows[0];
      if (!first) return undefined;
      const lines = prefixedItems(rows);
      return {
        order: {
          id: first.o_id,
          totalThebe: Number(first.o_total_thebe),
          customerEmail: first.o_customer_email,
          paymentStatus: first.o_payment_status,
          orderStatus: first.o_order_status,
          hasOpenRequest: Number(first.o_open_requests) > 0,
          linesWithoutPhoto: lines.filter((line) => line.photoId === null).length,
          placedWithCoupon: first.o_coupon_id !== null,
        },
        lines,
      };
    },

    /** The ids of the order's lines, in the order they were inserted (`insert` writes them in one statement). */
    async lineIds(orderId: string, tx: Tx): Promise<number[]> {
      return ((await runner(knex, tx)('order_items').where({ order_id: orderId }).orderBy('id').select('id')) as { id: number }[]).map((row) => Number(row.id));
    },

    /**
     * The order `insert` has just written, as `find` reads it, built from what was written instead
     * of read back (docs/performance.md, "Checkout tails on a warm server"): no payment, print batch
     * or counter yet, each line's photo as `photos()` read it. `lineIds` are its lines' ids from
     * `lineIds()`. Undefined for an order with package lines, or lines whose photos were not read
     * by `photos()`: read those with `find`.
     */
    async placed(
      order: NewOrder,
      written: { createdAt: number; lineIds: readonly number[]; school: Pick<OrderSchool, 'name' | 'closingDate'> },
    ): Promise<OrderRecord | undefined> {
      if (order.packages.length > 0 || written.lineIds.length !== order.lines.length) return undefined;
      const items: OrderItemRecord[] = [];
      for (const [index, line] of order.lines.entries()) {
        const { photo } = line;
        const id = written.lineIds[index];
        if (!photo.now || id === undefined) return undefined;
        items.push({
          id,
          orderId: order.id,
          photoId: photo.id,
          albumId: photo.albumId,
          photoName: photo.originalName,
          photoOriginalNumber: photo.originalNumber,
          photoOriginalName: photo.originalName,
          photoFilename: photo.filename,
          studentId: photo.studentId,
          lineStudentName: photo.studentId === null ? null : photo.now.studentName,
          lineStudentNumber: photo.studentId === null ? null : photo.now.studentNumber,
          lineStudentAlbumId: photo.studentId === null ? null : photo.now.studentAlbumId,
          childHeld: line.childHeld,
          productId: line.product.id,
          productName: line.product.name,
          productDescription: line.product.description,
          kind: line.product.kind,
          quantity: line.quantity,
          unitThebe: line.unitThebe,
          totalThebe: line.totalThebe,
          photoNow: { studentId: photo.studentId, inTray: photo.now.inTray, withheld: photo.withheld, doNotPublish: photo.doNotPublish, published: photo.now.published },
          orderPackageId: null,
        });
      }
      await labelSharedNames(knex, items);
      const placedIn = orderClass(order);
      return {
        id: order.id,
        schoolId: order.schoolId,
        schoolName: written.school.name,
        albumId: placedIn.albumId,
        albumName: placedIn.albumName,
        customerId: order.customerId,
        customerName: order.customerName,
        customerEmail: order.customerEmail,
        customerPhone: order.customerPhone,
        studentName: order.studentName,
        totalThebe: order.totalThebe,
        subtotalThebe: order.subtotalThebe,
        siblingDiscountThebe: order.siblingDiscountThebe,
        couponId: order.coupon?.id ?? null,
        couponCode: order.coupon?.code ?? null,
        couponDiscountThebe: order.coupon?.discountThebe ?? 0,
        orderStatus: 'pending',
        paymentStatus: 'pending',
        paymentReference: null,
        notes: order.notes,
        idempotencyHash: order.idempotencyHash,
        duplicatePayments: 0,
        paidAfterCancel: 0,
        paidWithWithdrawn: 0,
        createdAt: written.createdAt,
        schoolClosingDate: written.school.closingDate ?? null,
        testPayment: false,
        printBatchId: null,
        paidAfterExpiry: 0,
        latestPayment: null,
        gatewayPayMethod: null,
        gatewayPayMethodDetail: null,
        paidMethod: null,
        items,
        packages: [],
      };
    },

    /**
     * The order's lines with their photos as they are now, without the order: what paying checks
     * for withdrawn photos (docs/payments.md, "Withdrawn photos are never charged").
     */
    async linesNow(orderId: string, tx?: Tx): Promise<OrderItemRecord[]> {
      const rows: OrderItemRow[] = await joinPhotoNow(runner(knex, tx)('order_items as i'))
        .where('i.order_id', orderId)
        .orderBy('i.id')
        .select('i.*', NOW_COLUMNS, LINE_COLUMNS);
      return rows.map(toItemRecord);
    },

    async findByIdempotencyKey(key: string): Promise<OrderRecord | undefined> {
      const rows = await baseQuery(knex).where('o.idempotency_key', key);
      return (await withItems(rows))[0];
    },

    async list(filter: { status?: OrderStatus; schoolId?: number; customerId?: number; hideUnpaidCancelled?: boolean }): Promise<OrderRecord[]> {
      const query = baseQuery(knex).orderBy([{ column: 'o.created_at', order: 'desc' }, { column: 'o.id' }]);
      if (filter.status) query.where('o.order_status', filter.status);
      if (filter.schoolId) query.where('o.school_id', filter.schoolId);
      if (filter.customerId) query.where('o.customer_id', filter.customerId);
      if (filter.hideUnpaidCancelled) query.whereNot((q) => q.where('o.order_status', 'cancelled').whereNot('o.payment_status', 'completed').where('o.paid_after_cancel', 0));
      return withItems(await query);
    },

    /** Whether the order was created with this Idempotency-Key (what the browser that placed it holds). */
    async createdWithKey(id: string, key: string): Promise<boolean> {
      return (await knex('orders').where({ id, idempotency_key: key }).first('id')) !== undefined;
    },

    /**
     * Cancels an unpaid order no payment is being set up for and none may still settle; 0 when it
     * was paid, moved on, claimed or received meanwhile.
     */
    async cancelUnpaid(id: string, tx?: Tx): Promise<number> {
      const at = now();
      const db = runner(knex, tx);
      return db('orders')
        .where({ id, order_status: 'pending' })
        .whereNot('payment_status', 'completed')
        .where((q) => q.whereNull('payment_claimed_until').orWhere('payment_claimed_until', '<', at))
        .whereNotExists(settling(db, at).whereRaw('p.order_id = orders.id'))
        .update({ order_status: 'cancelled', updated_at: at });
    },

    /**
     * Whether a payment of the order was received by the gateway and may still settle (a bank
     * transfer before its deadline, a wallet payment awaiting the phone): such an order is not
     * cancelled by its parent (docs/statuses.md#cancelled-by-the-parent).
     */
    async hasSettlingPayment(id: string): Promise<boolean> {
      return (await settling(knex, now()).where('p.order_id', id).first()) !== undefined;
    },

    async setStatus(id: string, status: OrderStatus, tx?: Tx): Promise<number> {
      return runner(knex, tx)('orders').where({ id }).update({ order_status: status, updated_at: now() });
    },
  };
}
export type OrdersRepository = ReturnType<typeof createOrdersRepository>;

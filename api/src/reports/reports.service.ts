import { compareNames } from '../../contract/format';
import { REPORT_MSG } from '../../contract/messages';
import {
  REPORT_MAX_DAYS,
  REPORT_TAIL_DAYS,
  REPORT_TOP_ITEMS,
  type ClassReport,
  type ReportFigures,
  type ReportItemKind,
  type ReportOpenedBasis,
  type ReportTopItem,
  type SalesPeriod,
  type SalesReport,
  type SalesReportQuery,
  type SalesTailDay,
  type SchoolReport,
  type SchoolsReport,
  type SchoolsReportQuery,
} from '../../contract/reports';
import type { Deps } from '../deps';
import { badRequest, notFound } from '../http/errors';
import { createReportsRepository, type DayRange, type ItemFiguresRecord } from './reports.repository';
import { createSalesRecording } from './reports-recording';
import { allocateRevenue } from './allocate';
import { createOrdersRepository, type OrderRecord } from '../orders/orders.repository';
import { lineWithdrawn } from '../orders/orders.presenter';

/** What a paid order owes back for its withdrawn lines, per class (null: lines without a class). */
interface WithdrawnRefund {
  orderId: string;
  schoolId: number;
  byClass: Map<number | null, number>;
}

/**
 * A paid line whose photo is withdrawn is owed back its share of what was paid (docs/reports.md#unpaid-orders-and-refunds):
 * a single line its revenue share (as a sale line's), a package's content its part of the package's
 * share in proportion to the contents' quantities.
 */
function withdrawnRefund(order: OrderRecord): WithdrawnRefund | null {
  const singles = order.items.filter((item) => item.orderPackageId === null);
  const shares = allocateRevenue(order.totalThebe, [...singles.map((item) => item.totalThebe), ...order.packages.map((pkg) => pkg.totalThebe)]);
  const byClass = new Map<number | null, number>();
  const owe = (albumId: number | null, thebe: number) => byClass.set(albumId, (byClass.get(albumId) ?? 0) + thebe);
  singles.forEach((item, index) => {
    if (lineWithdrawn(item)) owe(item.albumId, shares[index] ?? 0);
  });
  order.packages.forEach((pkg, index) => {
    const contents = order.items.filter((item) => item.orderPackageId === pkg.id);
    const parts = allocateRevenue(shares[singles.length + index] ?? 0, contents.map((item) => item.quantity));
    contents.forEach((item, at) => {
      if (lineWithdrawn(item)) owe(item.albumId, parts[at] ?? 0);
    });
  });
  return byClass.size === 0 ? null : { orderId: order.id, schoolId: order.schoolId, byClass };
}

const DAY_MS = 24 * 3600_000;

/** YYYY-MM-DD to the stored day YYYYMMDD (docs/reports.md#dates-and-ranges). */
export const dayNumber = (iso: string): number => Number(iso.replaceAll('-', ''));
const dayIso = (day: number): string => {
  const text = String(day);
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
};
/** Days since 1970-01-01 of a calendar day, for day arithmetic. */
const epochDay = (iso: string): number => Math.round(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
const isoOfEpochDay = (n: number): string => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** a / b rounded half up, for non-negative integers; null when b is 0. */
const roundedRatio = (a: number, b: number): number | null => (b > 0 ? Math.floor((2 * a + b) / (2 * b)) : null);

const ITEM_KINDS: readonly string[] = ['print', 'digital', 'package'];

/** Summable figures of a row before its ratios are worked out. */
interface Sums {
  heads: number | null;
  opened: number | null;
  openedBasis: ReportOpenedBasis | null;
  paidOrders: number;
  orderingChildren: number;
  revenueThebe: number;
  digitalRevenueThebe: number;
  items: Map<string, ItemFiguresRecord>;
  pendingOrders: number;
  pendingThebe: number;
  refundOrders: number;
  refundThebe: number;
  prepaidRevenueThebe: number;
  packagesWaitingForPhotos: number;
  packagesWithoutPhoto: number;
}

const emptySums = (): Sums => ({
  heads: null,
  opened: null,
  openedBasis: null,
  paidOrders: 0,
  orderingChildren: 0,
  revenueThebe: 0,
  digitalRevenueThebe: 0,
  items: new Map(),
  pendingOrders: 0,
  pendingThebe: 0,
  refundOrders: 0,
  refundThebe: 0,
  prepaidRevenueThebe: 0,
  packagesWaitingForPhotos: 0,
  packagesWithoutPhoto: 0,
});

const addHeads = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : a + b);

/** Adds an item's units and revenue into a row's best sellers. */
function addItem(items: Map<string, ItemFiguresRecord>, item: ItemFiguresRecord): void {
  const current = items.get(item.key);
  if (current) {
    current.quantity += item.quantity;
    current.revenueThebe += item.revenueThebe;
  } else {
    items.set(item.key, { ...item });
  }
}

/** Best sellers: revenue, then units, then name (docs/reports.md#best-sellers). */
function topItems(items: Map<string, ItemFiguresRecord>): ReportTopItem[] {
  return [...items.values()]
    .sort((a, b) => b.revenueThebe - a.revenueThebe || b.quantity - a.quantity || compareNames(a.name, b.name) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, REPORT_TOP_ITEMS)
    .map((item) => ({
      key: item.key,
      name: item.name,
      kind: (ITEM_KINDS.includes(item.kind) ? item.kind : 'print') as ReportItemKind,
      quantity: item.quantity,
      revenueThebe: item.revenueThebe,
    }));
}

function figures(sums: Sums): ReportFigures {
  const heads = sums.heads;
  return {
    heads,
    opened: sums.opened,
    openedBasis: sums.openedBasis,
    paidOrders: sums.paidOrders,
    orderingChildren: sums.orderingChildren,
    orderRate: heads === null || heads === 0 ? null : sums.orderingChildren / heads,
    revenueThebe: sums.revenueThebe,
    printRevenueThebe: sums.revenueThebe - sums.digitalRevenueThebe,
    digitalRevenueThebe: sums.digitalRevenueThebe,
    averageOrderThebe: roundedRatio(sums.revenueThebe, sums.paidOrders),
    revenuePerHeadThebe: heads === null ? null : roundedRatio(sums.revenueThebe, heads),
    topItems: topItems(sums.items),
    pendingOrders: sums.pendingOrders,
    pendingThebe: sums.pendingThebe,
    refundOrders: sums.refundOrders,
    refundThebe: sums.refundThebe,
    prepaidRevenueThebe: sums.prepaidRevenueThebe,
    packagesWaitingForPhotos: sums.packagesWaitingForPhotos,
    packagesWithoutPhoto: sums.packagesWithoutPhoto,
  };
}

/** How "opened" is counted in a school of this access mode (docs/reports.md#families-who-opened-the-gallery). */
const openedBasis = (accessMode: string): ReportOpenedBasis => (accessMode === 'student_codes' ? 'children' : 'grants');
const visitKind = (basis: ReportOpenedBasis): string => (basis === 'children' ? 'child' : 'grant');

export function createReportsService(deps: Pick<Deps, 'knex'>) {
  const repo = createReportsRepository(deps.knex);
  const sales = createSalesRecording(deps);
  const orders = createOrdersRepository(deps.knex);

  /** The paid orders of the range with withdrawn lines, and what each owes back. */
  async function withdrawnRefunds(range: DayRange): Promise<WithdrawnRefund[]> {
    const refunds: WithdrawnRefund[] = [];
    for (const id of await repo.withdrawnPaidCandidates(range)) {
      const order = await orders.find(id);
      const refund = order ? withdrawnRefund(order) : null;
      if (refund) refunds.push(refund);
    }
    return refunds;
  }

  const rangeOf = (query: { from: string | null; to: string | null }): DayRange => ({
    from: query.from === null ? null : dayNumber(query.from),
    to: query.to === null ? null : dayNumber(query.to),
  });

  return {
    /** Adds the paid lines not yet counted to the season totals (the maintenance job, under its lock). */
    rollUpSeasonTotals: (): Promise<number> => sales.rollUp(),

    /** Every school and each of its classes, with the totals over all schools (docs/reports.md). */
    async schools(query: SchoolsReportQuery): Promise<SchoolsReport> {
      const range = rangeOf(query);
      // The whole season reads the maintained season totals; a range reads the lines of its days.
      const whole = range.from === null && range.to === null;
      const [schools, classes, rosters, [paid, items], opened, pending, refunds, withdrawn, prepaid, waiting] = await Promise.all([
        repo.schools(),
        repo.classes(),
        repo.rosterSizes(),
        whole ? repo.seasonFigures().then((season) => [season.paid, season.items] as const) : Promise.all([repo.paidFigures(range), repo.itemFigures(range)]),
        repo.opened(range),
        repo.pending(range),
        repo.refundLines(range),
        withdrawnRefunds(range),
        repo.prepaidRevenue(range),
        repo.packagesWaiting(),
      ]);
      const schoolSums = new Map<number, Sums>();
      const classSums = new Map<number, Sums>();
      const basisOf = new Map<number, ReportOpenedBasis>();
      for (const school of schools) {
        const basis = openedBasis(school.accessMode);
        basisOf.set(school.id, basis);
        schoolSums.set(school.id, { ...emptySums(), opened: 0, openedBasis: basis });
      }
      for (const album of classes) {
        const basis = basisOf.get(album.schoolId) ?? 'grants';
        const heads = rosters.get(album.id) ?? null;
        classSums.set(album.id, { ...emptySums(), heads, opened: 0, openedBasis: basis });
        const school = schoolSums.get(album.schoolId);
        if (school) school.heads = addHeads(school.heads, heads);
      }
      const rowOf = (schoolId: number, albumId: number | null): Sums | undefined => (albumId === null ? schoolSums.get(schoolId) : classSums.get(albumId));

      // The repository answers per class; a school's figures are the sums of its rows, its orders
      // counted once each by their first line (docs/reports.md#how-the-figures-stay-fast).
      for (const record of paid) {
        const school = schoolSums.get(record.schoolId);
        if (school) {
          school.paidOrders += record.schoolOrders;
          school.orderingChildren += record.orderingChildren;
          school.revenueThebe += record.revenueThebe;
          school.digitalRevenueThebe += record.digitalRevenueThebe;
        }
        const album = record.albumId === null ? undefined : classSums.get(record.albumId);
        if (!album) continue;
        album.paidOrders = record.paidOrders;
        album.orderingChildren = record.orderingChildren;
        album.revenueThebe = record.revenueThebe;
        album.digitalRevenueThebe = record.digitalRevenueThebe;
      }
      for (const item of items) {
        const school = schoolSums.get(item.schoolId);
        if (school) addItem(school.items, item);
        if (item.albumId !== null) {
          const album = classSums.get(item.albumId);
          if (album) addItem(album.items, item);
        }
      }
      for (const record of opened) {
        const basis = basisOf.get(record.schoolId);
        if (basis === undefined || record.kind !== visitKind(basis)) continue;
        const row = rowOf(record.schoolId, record.albumId);
        if (row) row.opened = record.visitors;
      }
      for (const record of pending) {
        const school = schoolSums.get(record.schoolId);
        if (school) {
          school.pendingOrders += record.schoolOrders;
          school.pendingThebe += record.thebe;
        }
        const album = record.albumId === null ? undefined : classSums.get(record.albumId);
        if (!album) continue;
        album.pendingOrders += record.orders;
        album.pendingThebe += record.classThebe;
      }
      // Ordering before picture day (docs/prepaid.md, "The books").
      for (const record of prepaid) {
        const school = schoolSums.get(record.schoolId);
        if (school) school.prepaidRevenueThebe += record.revenueThebe;
        const album = record.albumId === null ? undefined : classSums.get(record.albumId);
        if (album) album.prepaidRevenueThebe += record.revenueThebe;
      }
      for (const record of waiting) {
        for (const row of [schoolSums.get(record.schoolId), record.albumId === null ? undefined : classSums.get(record.albumId)]) {
          if (!row) continue;
          row.packagesWaitingForPhotos += record.waiting;
          row.packagesWithoutPhoto += record.withoutPhoto;
        }
      }
      const refundedInSchool = new Set<string>();
      for (const record of refunds) {
        if (record.albumId !== null) {
          const album = classSums.get(record.albumId);
          if (album) {
            album.refundOrders += 1;
            album.refundThebe += record.linesRevenueThebe * record.times;
          }
        }
        const school = schoolSums.get(record.schoolId);
        if (school && !refundedInSchool.has(record.orderId)) {
          refundedInSchool.add(record.orderId);
          school.refundOrders += 1;
          school.refundThebe += record.totalThebe * record.times;
        }
      }
      // Withdrawn and moved paid lines are owed back too; an order counts once in each row.
      const refundedInClass = new Set(refunds.map((record) => `${record.orderId}:${record.albumId}`));
      for (const record of withdrawn) {
        for (const [albumId, thebe] of record.byClass) {
          const album = albumId === null ? undefined : classSums.get(albumId);
          if (!album) continue;
          if (!refundedInClass.has(`${record.orderId}:${albumId}`)) album.refundOrders += 1;
          refundedInClass.add(`${record.orderId}:${albumId}`);
          album.refundThebe += thebe;
        }
        const school = schoolSums.get(record.schoolId);
        if (!school) continue;
        if (!refundedInSchool.has(record.orderId)) school.refundOrders += 1;
        refundedInSchool.add(record.orderId);
        school.refundThebe += [...record.byClass.values()].reduce((sum, thebe) => sum + thebe, 0);
      }

      const totals = emptySums();
      const bases = new Set(basisOf.values());
      const sameBasis = bases.size === 1 ? [...bases][0] ?? null : null;
      totals.openedBasis = sameBasis;
      totals.opened = sameBasis === null ? null : 0;
      const classesOf = new Map<number, ClassReport[]>();
      for (const album of classes) {
        const sums = classSums.get(album.id);
        if (!sums) continue;
        const list = classesOf.get(album.schoolId) ?? [];
        list.push({
          albumId: album.id,
          name: album.name,
          status: album.archived ? 'archived' : album.status,
          publishedAt: album.publishedAt ?? album.firstPhotoAt,
          ...figures(sums),
        });
        classesOf.set(album.schoolId, list);
      }
      const rows: SchoolReport[] = schools.map((school) => {
        const sums = schoolSums.get(school.id) ?? emptySums();
        // An order and a child belong to one school: the schools' counts add up to the totals.
        totals.heads = addHeads(totals.heads, sums.heads);
        if (totals.opened !== null) totals.opened += sums.opened ?? 0;
        totals.paidOrders += sums.paidOrders;
        totals.orderingChildren += sums.orderingChildren;
        totals.revenueThebe += sums.revenueThebe;
        totals.digitalRevenueThebe += sums.digitalRevenueThebe;
        for (const item of sums.items.values()) addItem(totals.items, item);
        totals.pendingOrders += sums.pendingOrders;
        totals.pendingThebe += sums.pendingThebe;
        totals.refundOrders += sums.refundOrders;
        totals.refundThebe += sums.refundThebe;
        totals.prepaidRevenueThebe += sums.prepaidRevenueThebe;
        totals.packagesWaitingForPhotos += sums.packagesWaitingForPhotos;
        totals.packagesWithoutPhoto += sums.packagesWithoutPhoto;
        const classRows = (classesOf.get(school.id) ?? []).sort((a, b) => compareNames(a.name, b.name) || a.albumId - b.albumId);
        return { schoolId: school.id, name: school.name, accessMode: school.accessMode, closingDate: school.closingDate, ...figures(sums), classes: classRows };
      });
      rows.sort((a, b) => compareNames(a.name, b.name) || a.schoolId - b.schoolId);
      return { from: query.from, to: query.to, generatedAt: Date.now(), schools: rows, totals: figures(totals) };
    },

    /** Sales per day or week and the tail after publishing (docs/reports.md#sales-over-time). */
    async sales(query: SalesReportQuery): Promise<SalesReport> {
      if (query.schoolId !== null && !(await repo.schoolExists(query.schoolId))) throw notFound(REPORT_MSG.schoolNotFound);
      if (query.albumId !== null) {
        const schoolId = await repo.schoolOfClass(query.albumId);
        if (schoolId === null || (query.schoolId !== null && schoolId !== query.schoolId)) throw notFound(REPORT_MSG.albumNotFound);
      }
      const tooLong = (from: string, to: string) => epochDay(to) - epochDay(from) + 1 > REPORT_MAX_DAYS;
      if (query.from !== null && query.to !== null && tooLong(query.from, query.to)) throw badRequest(REPORT_MSG.rangeTooLong, { to: REPORT_MSG.rangeTooLong });
      const filter = { ...rangeOf(query), schoolId: query.schoolId, albumId: query.albumId };
      const [days, offsets] = await Promise.all([repo.salesByDay(filter), repo.revenueByPublishOffset(filter)]);

      const firstSale = days[0];
      const lastSale = days[days.length - 1];
      const start = query.from ?? (firstSale ? dayIso(firstSale.day) : query.to);
      const end = query.to ?? (lastSale ? dayIso(lastSale.day) : query.from);
      if (start !== null && end !== null && tooLong(start, end)) throw badRequest(REPORT_MSG.rangeTooLong, { to: REPORT_MSG.rangeTooLong });

      const periods: SalesPeriod[] = [];
      const periodAt = new Map<number, SalesPeriod>();
      if (start !== null && end !== null) {
        const first = epochDay(start);
        const last = epochDay(end);
        for (let n = first; n <= last; ) {
          // 1970-01-01 was a Thursday: (n + 3) % 7 is days since Monday.
          const periodEnd = query.by === 'week' ? Math.min(last, n - ((n + 3) % 7) + 6) : n;
          const period = { start: isoOfEpochDay(n), end: isoOfEpochDay(periodEnd), orders: 0, revenueThebe: 0 };
          periods.push(period);
          for (let d = n; d <= periodEnd; d++) periodAt.set(d, period);
          n = periodEnd + 1;
        }
      }
      const totals = { orders: 0, revenueThebe: 0 };
      for (const day of days) {
        // An order is paid on one day, so its lines fall in one period: the daily counts add up.
        const period = periodAt.get(epochDay(dayIso(day.day)));
        if (period) {
          period.orders += day.orders;
          period.revenueThebe += day.revenueThebe;
        }
        totals.orders += day.orders;
        totals.revenueThebe += day.revenueThebe;
      }

      const tailRevenue = Array.from({ length: REPORT_TAIL_DAYS }, () => 0);
      for (const { offset, revenueThebe } of offsets) {
        const index = Math.min(Math.max(offset, 0), REPORT_TAIL_DAYS - 1);
        tailRevenue[index] = (tailRevenue[index] ?? 0) + revenueThebe;
      }
      const tailTotal = tailRevenue.reduce((sum, value) => sum + value, 0);
      let running = 0;
      const tail: SalesTailDay[] = tailRevenue.map((revenueThebe, day) => {
        running += revenueThebe;
        return { day, revenueThebe, share: tailTotal > 0 ? revenueThebe / tailTotal : 0, cumulativeShare: tailTotal > 0 ? running / tailTotal : 0 };
      });
      return { schoolId: query.schoolId, albumId: query.albumId, from: query.from, to: query.to, by: query.by, periods, totals, tail };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;

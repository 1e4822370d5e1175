/**
 * The Reports tab's figures as text, shared by the table and its CSV so both say the same thing
 * (docs/reports.md, "The Reports tab"): money is "P65.00" on screen and "65.00" in the CSV, a rate
 * "40%" on screen and "40" in the CSV's percent column, an unknown figure "—" on screen and an
 * empty cell in the CSV. Sorting puts unknown figures last in either direction.
 */
import type { ClassReport, ReportFigures, SchoolReport, SchoolsReport } from '@contract/reports';
import { compareNames } from '@contract/format';
import { formatPula, thebeToDecimal } from '@contract/money';
import { REPORT_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import { csvRows } from '@contract/csv';

/** A row of the table: a school or a class, with its name. */
export type ReportRow = ReportFigures & { name: string; status?: string };

/** 0.4 -> "40", 1/3 -> "33.3": a percentage with at most one decimal, null stays null. */
export function percent(rate: number | null): string | null {
  if (rate === null || !Number.isFinite(rate)) return null;
  return String(Math.round(rate * 1000) / 10);
}

/** "40%", or "—" when unknown. */
export const percentText = (rate: number | null): string => {
  const value = percent(rate);
  return value === null ? M.unknown : `${value}%`;
};

/** "P65.00", or "—" when unknown. */
export const moneyText = (thebe: number | null): string => (thebe === null ? M.unknown : formatPula(thebe, 'thebe'));

/** "65.00", or an empty cell when unknown. */
export const moneyCsv = (thebe: number | null): string => (thebe === null ? '' : thebeToDecimal(thebe));

export const countText = (value: number | null): string => (value === null ? M.unknown : String(value));

/**
 * Share of the children who opened the gallery: only where "opened" counts children (a school with
 * student codes) and a roster says how many there are. Unlocks of a shared password are an
 * estimate that can exceed the roster, so they get no rate.
 */
export function openedRate(row: ReportFigures): number | null {
  if (row.openedBasis !== 'children' || row.opened === null || row.heads === null || row.heads === 0) return null;
  return row.opened / row.heads;
}

/** What the Opened cell says: "12", "≈12" for an estimate, "—" when unknown. */
export function openedText(row: ReportFigures): string {
  if (row.opened === null) return M.unknown;
  return row.openedBasis === 'grants' ? `${M.estimateMark}${row.opened}` : String(row.opened);
}

export const statusText = (status: string | undefined): string => (status === undefined ? '' : (M.statusLabels[status] ?? status));

export type ColumnKey =
  | 'name'
  | 'status'
  | 'heads'
  | 'opened'
  | 'orderRate'
  | 'paidOrders'
  | 'revenue'
  | 'average'
  | 'perHead'
  | 'print'
  | 'digital'
  | 'pending'
  | 'refunds'
  | 'prepaid'
  | 'waiting';

export interface Column {
  key: ColumnKey;
  label: string;
  /** Text columns sort A to Z first; figures largest first. */
  numeric: boolean;
  sortValue: (row: ReportRow) => string | number | null;
}

const figureColumns: Column[] = [
  { key: 'heads', label: M.columnHeads, numeric: true, sortValue: (row) => row.heads },
  { key: 'opened', label: M.columnOpened, numeric: true, sortValue: (row) => row.opened },
  { key: 'orderRate', label: M.columnOrderRate, numeric: true, sortValue: (row) => row.orderRate },
  { key: 'paidOrders', label: M.columnOrders, numeric: true, sortValue: (row) => row.paidOrders },
  { key: 'revenue', label: M.columnRevenue, numeric: true, sortValue: (row) => row.revenueThebe },
  { key: 'average', label: M.columnAverage, numeric: true, sortValue: (row) => row.averageOrderThebe },
  { key: 'perHead', label: M.columnPerHead, numeric: true, sortValue: (row) => row.revenuePerHeadThebe },
  { key: 'print', label: M.columnPrint, numeric: true, sortValue: (row) => row.printRevenueThebe },
  { key: 'digital', label: M.columnDigital, numeric: true, sortValue: (row) => row.digitalRevenueThebe },
  // Unpaid and refunds sort by their amount, then by how many orders.
  { key: 'pending', label: M.columnPending, numeric: true, sortValue: (row) => row.pendingThebe * 1e6 + row.pendingOrders },
  { key: 'refunds', label: M.columnRefunds, numeric: true, sortValue: (row) => row.refundThebe * 1e6 + row.refundOrders },
];

/** Packages paid before picture day (docs/prepaid.md, "The books"): revenue beside Digital, the waiting packages last. */
const prepaidColumn: Column = { key: 'prepaid', label: M.columnPrepaid, numeric: true, sortValue: (row) => row.prepaidRevenueThebe };
const waitingColumn: Column = { key: 'waiting', label: M.columnWaiting, numeric: true, sortValue: (row) => row.packagesWaitingForPhotos * 1e6 + row.packagesWithoutPhoto };

/** Whether the rows shown have anything prepaid: a studio that never sells before picture day keeps its table as narrow as before. */
export const hasPrepaid = (rows: readonly ReportFigures[]): boolean => rows.some((row) => row.prepaidRevenueThebe > 0 || row.packagesWaitingForPhotos > 0 || row.packagesWithoutPhoto > 0);

/** The columns with the prepaid ones when the rows shown have any. */
export function withPrepaid(columns: readonly Column[], rows: readonly ReportFigures[]): Column[] {
  if (!hasPrepaid(rows)) return [...columns];
  const digital = columns.findIndex((column) => column.key === 'digital');
  return [...columns.slice(0, digital + 1), prepaidColumn, ...columns.slice(digital + 1), waitingColumn];
}

export const schoolColumns: Column[] = [{ key: 'name', label: M.columnSchool, numeric: false, sortValue: (row) => row.name }, ...figureColumns];

export const classColumns: Column[] = [
  { key: 'name', label: M.columnClass, numeric: false, sortValue: (row) => row.name },
  { key: 'status', label: M.columnStatus, numeric: false, sortValue: (row) => statusText(row.status) },
  ...figureColumns,
];

export interface Sort {
  key: ColumnKey;
  direction: 'ascending' | 'descending';
}

export const DEFAULT_SORT: Sort = { key: 'name', direction: 'ascending' };

/** A click on a header: the same column turns around; another starts A to Z, or largest first. */
export function nextSort(current: Sort, column: Column): Sort {
  if (current.key === column.key) return { key: column.key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { key: column.key, direction: column.numeric ? 'descending' : 'ascending' };
}

/** The rows in the chosen order: unknown figures last either way, ties by name. */
export function sortRows<T extends ReportRow>(rows: readonly T[], sort: Sort, columns: readonly Column[]): T[] {
  const column = columns.find((candidate) => candidate.key === sort.key) ?? columns[0];
  if (!column) return [...rows];
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = column.sortValue(a);
    const y = column.sortValue(b);
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
      return compareNames(a.name, b.name);
    }
    const order = typeof x === 'string' || typeof y === 'string' ? compareNames(String(x), String(y)) : x - y;
    return order !== 0 ? sign * order : compareNames(a.name, b.name);
  });
}

function figuresCsv(row: ReportFigures): string[] {
  return [
    row.heads === null ? '' : String(row.heads),
    row.opened === null ? '' : String(row.opened),
    row.openedBasis === null ? '' : (M.csvOpenedBasis[row.openedBasis] ?? row.openedBasis),
    String(row.orderingChildren),
    percent(row.orderRate) ?? '',
    String(row.paidOrders),
    moneyCsv(row.revenueThebe),
    moneyCsv(row.printRevenueThebe),
    moneyCsv(row.digitalRevenueThebe),
    moneyCsv(row.averageOrderThebe),
    moneyCsv(row.revenuePerHeadThebe),
    String(row.pendingOrders),
    moneyCsv(row.pendingThebe),
    String(row.refundOrders),
    moneyCsv(row.refundThebe),
    moneyCsv(row.prepaidRevenueThebe),
    String(row.packagesWaitingForPhotos),
    String(row.packagesWithoutPhoto),
    row.topItems.map((item) => M.csvTopItem(item.name, item.quantity, thebeToDecimal(item.revenueThebe))).join('; '),
  ];
}

/**
 * The CSV of the table: every school in the table's order, each followed by its classes in the
 * same order, then the totals of all schools.
 */
export function reportToCsv(report: SchoolsReport, sort: Sort): string {
  const schools = sortRows(report.schools, sort, schoolColumns);
  const rows: string[][] = [[...M.csvColumns]];
  for (const school of schools) {
    rows.push([school.name, '', '', ...figuresCsv(school)]);
    for (const album of sortRows<ClassReport>(school.classes, sort, classColumns)) rows.push([school.name, album.name, statusText(album.status), ...figuresCsv(album)]);
  }
  rows.push([M.csvTotals, '', '', ...figuresCsv(report.totals)]);
  return csvRows(rows);
}

/** Whether any row shown counts unlocks of a password (the estimate needs its note). */
export const hasEstimate = (rows: readonly ReportFigures[]): boolean => rows.some((row) => row.openedBasis === 'grants');

/** The school a drill-down shows, if it is still in the report. */
export const findSchool = (report: SchoolsReport, schoolId: number | null): SchoolReport | null =>
  schoolId === null ? null : (report.schools.find((school) => school.schoolId === schoolId) ?? null);

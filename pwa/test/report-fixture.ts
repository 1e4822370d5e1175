/** A small season report for the Reports tab's tests: three schools, one of them without sales or roster. */
import type { ClassReport, ReportFigures, SalesReport, SchoolReport, SchoolsReport } from '@contract/reports';
import { REPORT_TAIL_DAYS } from '@contract/reports';

const none: ReportFigures = {
  heads: null,
  opened: null,
  openedBasis: null,
  paidOrders: 0,
  orderingChildren: 0,
  orderRate: null,
  revenueThebe: 0,
  printRevenueThebe: 0,
  digitalRevenueThebe: 0,
  averageOrderThebe: null,
  revenuePerHeadThebe: null,
  topItems: [],
  pendingOrders: 0,
  pendingThebe: 0,
  refundOrders: 0,
  refundThebe: 0,
  prepaidRevenueThebe: 0,
  packagesWaitingForPhotos: 0,
  packagesWithoutPhoto: 0,
};

const album = (albumId: number, name: string, status: string, figures: Partial<ReportFigures>): ClassReport => ({ ...none, ...figures, albumId, name, status, publishedAt: Date.UTC(2026, 10, 2) });

const school = (schoolId: number, name: string, accessMode: string, classes: ClassReport[], figures: Partial<ReportFigures>): SchoolReport => ({
  ...none,
  ...figures,
  schoolId,
  name,
  accessMode,
  closingDate: null,
  classes,
});

const print = { key: 'product:print_10x15', name: '10x15 Print', kind: 'print' as const };

export const schoolsReport: SchoolsReport = {
  from: null,
  to: null,
  generatedAt: Date.UTC(2026, 11, 7, 6, 30),
  schools: [
    school(
      1,
      'Kgale Hill Primary',
      'school_password',
      [
        album(11, 'Grade 1A', 'published', { heads: 30, opened: 20, openedBasis: 'grants', paidOrders: 9, orderingChildren: 9, orderRate: 0.3, revenueThebe: 58500, printRevenueThebe: 52000, digitalRevenueThebe: 6500, averageOrderThebe: 6500, revenuePerHeadThebe: 1950, topItems: [{ ...print, quantity: 12, revenueThebe: 30000 }] }),
        album(12, 'Grade 2B', 'archived', { opened: 4, openedBasis: 'grants', paidOrders: 3, orderingChildren: 3, revenueThebe: 19500, printRevenueThebe: 19500, averageOrderThebe: 6500, pendingOrders: 1, pendingThebe: 6500 }),
      ],
      { heads: 30, opened: 22, openedBasis: 'grants', paidOrders: 12, orderingChildren: 12, orderRate: 0.4, revenueThebe: 78000, printRevenueThebe: 71500, digitalRevenueThebe: 6500, averageOrderThebe: 6500, revenuePerHeadThebe: 2600, topItems: [{ ...print, quantity: 15, revenueThebe: 40000 }], pendingOrders: 1, pendingThebe: 6500 },
    ),
    school(
      2,
      'Tlokweng Primary',
      'student_codes',
      [album(21, 'Class 3C', 'published', { heads: 3, opened: 2, openedBasis: 'children', paidOrders: 1, orderingChildren: 1, orderRate: 1 / 3, revenueThebe: 150000, printRevenueThebe: 150000, averageOrderThebe: 150000, revenuePerHeadThebe: 50000, refundOrders: 1, refundThebe: 150000 })],
      { heads: 3, opened: 2, openedBasis: 'children', paidOrders: 1, orderingChildren: 1, orderRate: 1 / 3, revenueThebe: 150000, printRevenueThebe: 150000, averageOrderThebe: 150000, revenuePerHeadThebe: 50000, refundOrders: 1, refundThebe: 150000, topItems: [{ key: 'package:3', name: 'Family Pack', kind: 'package', quantity: 1, revenueThebe: 150000 }] },
    ),
    school(3, 'Zeta Academy', 'school_password', [], { openedBasis: 'grants', opened: 0 }),
  ],
  totals: { ...none, heads: 33, paidOrders: 13, orderingChildren: 13, orderRate: 13 / 33, revenueThebe: 228000, printRevenueThebe: 221500, digitalRevenueThebe: 6500, averageOrderThebe: 17538, revenuePerHeadThebe: 6909, pendingOrders: 1, pendingThebe: 6500, refundOrders: 1, refundThebe: 150000, topItems: [{ key: 'package:3', name: 'Family Pack', kind: 'package', quantity: 1, revenueThebe: 150000 }, { ...print, quantity: 15, revenueThebe: 40000 }] },
};

const tail = Array.from({ length: REPORT_TAIL_DAYS }, (_, day) => {
  const revenueThebe = day === 0 ? 114000 : day === 10 ? 114000 : 0;
  return { day, revenueThebe, share: revenueThebe / 228000, cumulativeShare: day < 10 ? 0.5 : 1 };
});

export const salesReport = (overrides: Partial<SalesReport> = {}): SalesReport => ({
  schoolId: null,
  albumId: null,
  from: null,
  to: null,
  by: 'day',
  periods: [
    { start: '2026-12-01', end: '2026-12-01', orders: 12, revenueThebe: 78000 },
    { start: '2026-12-02', end: '2026-12-02', orders: 0, revenueThebe: 0 },
    { start: '2026-12-03', end: '2026-12-03', orders: 1, revenueThebe: 150000 },
  ],
  totals: { orders: 13, revenueThebe: 228000 },
  tail,
  ...overrides,
});

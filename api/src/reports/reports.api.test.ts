import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPORT_MSG } from '../../contract/messages';
import { REPORT_TAIL_DAYS, salesReportSchema, schoolsReportSchema, type ReportFigures, type SchoolReport } from '../../contract/reports';
import type { Student } from '../../contract/students';
import { createReportsRecordingRepository } from './reports-recording.repository';
import { rollUpPaidLines as migrationRollUp } from '../../../db/migrations/20261203110000_sales_season_totals';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { agePayments, customerClient, updateSchool } from '../../test/fixtures';
import { createShop, initiatePayment, orderBody, parentFor, payInitiated, payThroughSandbox, waitUntil, type Shop } from '../../test/shop';
import { PAYMENT_REUSE_MS } from '../payments/payments.service';
import { addStudents, assignPhotos, familyWith, setAccessMode } from '../students/students.test-helpers';

const DAY_MS = 24 * 3600_000;
/** Today in Botswana (UTC+2, no DST), where every order of this suite is placed and paid. */
const botswanaDay = (ms: number) => new Date(ms + 2 * 3600_000).toISOString().slice(0, 10);

/**
 * Hand-computed season (docs/reports.md). Prices: Glossy Print P30.00 (print), HD Download P17.50
 * (digital). Every order is placed and paid today.
 *
 * Alpha Primary (school password): Class 1A (roster of 3, published 3 days ago; photo A is Kabo's,
 * photo B nobody's), Class 2B (password, no roster).
 * - O1, parent 1, paid: 2 prints of A (6000, Kabo) + a download of B (1750) = 7750.
 * - O2, parent 2 (also unlocked 2B), paid twice: a print of A (3000, Kabo) + a download of 2B's
 *   photo (1750) = 4750; flagged for a refund of 4750 (3000 in 1A, 1750 in 2B).
 * - O3, parent 1, left pending: a print of B, 3000.
 * - O4, parent 1, card declined (still waiting for payment): a print of B, 3000.
 * - O5, parent 1, cancelled by staff before paying: a print of A, 3000: counted nowhere.
 * - O7, parent 2, left pending over two classes: a print of A (3000 in 1A) + a download of 2B's
 *   photo (1750 in 2B) = 4750: the school waits for 4750 once, each class for its part.
 * Beta Primary (student codes): Class 1A (roster of 2), Class 2B (nothing).
 * - O6, Neo's family (unlocked by code), paid: a download of Neo's photo, 1750 (digital only).
 */
describeApi('season reports', () => {
  let server: TestServer;
  let staff: Client;
  let alpha: Shop;
  let beta: Shop;
  let today: string;
  const alphaClass1Published = Date.now() - 3 * DAY_MS;

  const place = async (parent: Client, shop: Shop, lines: Parameters<typeof orderBody>[1]) => {
    const res = await parent.post('/api/orders', orderBody(shop, lines));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.order.id as string;
  };
  const statusOf = async (id: string) => (await staff.get(`/api/orders/${id}`)).body as { paymentStatus: string; orderStatus: string };

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'admin');
    alpha = await createShop(server);
    beta = await createShop(server);
    await updateSchool(server, alpha.schoolId, { name: 'Alpha Primary' });
    await updateSchool(server, beta.schoolId, { name: 'Beta Primary' });
    // A class published three days ago (the tail's day 3); set in the database, as time cannot pass in a test.
    await server.runtime.knex('albums').where({ id: alpha.openAlbumId }).update({ status: 'published', published_at: alphaClass1Published });

    const [kabo] = (await addStudents(staff, alpha.openAlbumId, ['Kabo Ramotswe', 'Mma Makutsi', 'Rra Matekoni'])) as [Student];
    await assignPhotos(staff, [alpha.photoIds[0]!], kabo.id);

    const parent1 = await parentFor(server, alpha);
    // A grant's visitor key comes from its tag and end, to the second (docs/reports.md, "Families who
    // opened the gallery"): two unlocks in one second would count once.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const parent2 = await parentFor(server, alpha, { protectedClass: true });
    const [a, b] = alpha.photoIds as [number, number];
    expect((await parent1.get(`/api/albums/${alpha.openAlbumId}/photos`)).status).toBe(200);
    const o1 = await place(parent1, alpha, [
      { photoId: a, albumId: alpha.openAlbumId, product: alpha.print, quantity: 2 },
      { photoId: b, albumId: alpha.openAlbumId, product: alpha.digital, quantity: 1 },
    ]);
    await payThroughSandbox(server, o1);
    const o2 = await place(parent2, alpha, [
      { photoId: a, albumId: alpha.openAlbumId, product: alpha.print, quantity: 1 },
      { photoId: alpha.protectedPhotoId, albumId: alpha.protectedAlbumId, product: alpha.digital, quantity: 1 },
    ]);
    // Paid twice: a request kept open in one tab, and a fresh one from another (docs/payments.md).
    const old = await initiatePayment(server, o2);
    await agePayments(server, o2, PAYMENT_REUSE_MS + 60_000);
    const fresh = await initiatePayment(server, o2);
    await payInitiated(server, fresh);
    await waitUntil(async () => (await statusOf(o2)).paymentStatus === 'completed');
    await payInitiated(server, old);
    await waitUntil(async () => (await server.runtime.knex('orders').where({ id: o2 }).first()).duplicate_payments > 0);

    await place(parent1, alpha, [{ photoId: b, albumId: alpha.openAlbumId, product: alpha.print, quantity: 1 }]);
    const o4 = await place(parent1, alpha, [{ photoId: b, albumId: alpha.openAlbumId, product: alpha.print, quantity: 1 }]);
    await payThroughSandbox(server, o4, { card: '4000000000000036' });
    const o5 = await place(parent1, alpha, [{ photoId: a, albumId: alpha.openAlbumId, product: alpha.print, quantity: 1 }]);
    expect((await staff.put(`/api/orders/${o5}`, { orderStatus: 'cancelled' })).status).toBe(200);
    await place(parent2, alpha, [
      { photoId: a, albumId: alpha.openAlbumId, product: alpha.print, quantity: 1 },
      { photoId: alpha.protectedPhotoId, albumId: alpha.protectedAlbumId, product: alpha.digital, quantity: 1 },
    ]);

    await setAccessMode(staff, beta.schoolId, 'student_codes');
    const [neo] = (await addStudents(staff, beta.openAlbumId, ['Neo Kgosi', 'Lesedi Tau'])) as [Student];
    await assignPhotos(staff, [beta.photoIds[0]!], neo.id);
    const family = await familyWith(server, neo.code);
    const o6 = await place(family, beta, [{ photoId: beta.photoIds[0]!, albumId: beta.openAlbumId, product: beta.digital, quantity: 1 }]);
    await payThroughSandbox(server, o6);
    await waitUntil(async () => (await statusOf(o1)).paymentStatus === 'completed' && (await statusOf(o6)).paymentStatus === 'completed');
    today = botswanaDay(Date.now());
  }, 60_000);
  afterAll(() => server?.close());

  const item = (shop: Shop, product: 'print' | 'digital', quantity: number, revenueThebe: number) => ({
    key: `product:${shop[product].id}`,
    name: shop[product].name,
    kind: product,
    quantity,
    revenueThebe,
  });
  const none = { pendingOrders: 0, pendingThebe: 0, refundOrders: 0, refundThebe: 0 };

  it('401 without a token, 403 for a parent account, on both endpoints', async () => {
    const anon = new Client(server.url);
    const customer = await customerClient(server);
    for (const path of ['/api/reports/schools', '/api/reports/sales']) {
      expect((await anon.get(path)).status).toBe(401);
      expect((await customer.get(path)).status).toBe(403);
    }
  });

  it('per school and per class, every figure as computed by hand', async () => {
    const res = await staff.get('/api/reports/schools');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const report = schoolsReportSchema.strict().parse(res.body);
    expect(report.from).toBeNull();
    expect(report.to).toBeNull();
    expect(report.schools.map((s) => s.name)).toEqual(['Alpha Primary', 'Beta Primary']);
    const [a, b] = report.schools as [SchoolReport, SchoolReport];

    const alphaFigures: ReportFigures = {
      heads: 3,
      opened: 2,
      openedBasis: 'grants',
      paidOrders: 2,
      orderingChildren: 1,
      orderRate: 1 / 3,
      revenueThebe: 12500,
      printRevenueThebe: 9000,
      digitalRevenueThebe: 3500,
      averageOrderThebe: 6250,
      revenuePerHeadThebe: 4167,
      topItems: [item(alpha, 'print', 3, 9000), item(alpha, 'digital', 2, 3500)],
      pendingOrders: 3,
      pendingThebe: 10750,
      refundOrders: 1,
      refundThebe: 4750,
      prepaidRevenueThebe: 0,
      packagesWaitingForPhotos: 0,
      packagesWithoutPhoto: 0,
    };
    expect(a).toMatchObject({ schoolId: alpha.schoolId, accessMode: 'school_password', ...alphaFigures });
    expect(a.classes.map((c) => c.name)).toEqual(['Class 1A', 'Class 2B']);
    expect(a.classes[0]).toEqual({
      albumId: alpha.openAlbumId,
      name: 'Class 1A',
      status: 'published',
      publishedAt: alphaClass1Published,
      heads: 3,
      // Both parents unlocked the school; only parent 1 listed this class's photos.
      opened: 1,
      openedBasis: 'grants',
      paidOrders: 2,
      orderingChildren: 1,
      orderRate: 1 / 3,
      revenueThebe: 10750,
      printRevenueThebe: 9000,
      digitalRevenueThebe: 1750,
      averageOrderThebe: 5375,
      revenuePerHeadThebe: 3583,
      topItems: [item(alpha, 'print', 3, 9000), item(alpha, 'digital', 1, 1750)],
      pendingOrders: 3,
      pendingThebe: 9000,
      refundOrders: 1,
      refundThebe: 3000,
      prepaidRevenueThebe: 0,
      packagesWaitingForPhotos: 0,
      packagesWithoutPhoto: 0,
    });
    expect(a.classes[1]).toMatchObject({
      albumId: alpha.protectedAlbumId,
      heads: null,
      opened: 1,
      paidOrders: 1,
      orderingChildren: 0,
      orderRate: null,
      revenueThebe: 1750,
      printRevenueThebe: 0,
      digitalRevenueThebe: 1750,
      averageOrderThebe: 1750,
      revenuePerHeadThebe: null,
      topItems: [item(alpha, 'digital', 1, 1750)],
      pendingOrders: 1,
      pendingThebe: 1750,
      refundOrders: 1,
      refundThebe: 1750,
    });

    expect(b).toMatchObject({
      schoolId: beta.schoolId,
      accessMode: 'student_codes',
      heads: 2,
      opened: 1,
      openedBasis: 'children',
      paidOrders: 1,
      orderingChildren: 1,
      orderRate: 0.5,
      revenueThebe: 1750,
      printRevenueThebe: 0,
      digitalRevenueThebe: 1750,
      averageOrderThebe: 1750,
      revenuePerHeadThebe: 875,
      topItems: [item(beta, 'digital', 1, 1750)],
      ...none,
    });
    expect(b.classes[0]).toMatchObject({ name: 'Class 1A', heads: 2, opened: 1, openedBasis: 'children', paidOrders: 1, orderingChildren: 1, orderRate: 0.5, revenueThebe: 1750 });
    // A class with nothing: every count zero, every ratio null.
    expect(b.classes[1]).toMatchObject({ name: 'Class 2B', heads: null, opened: 0, paidOrders: 0, orderingChildren: 0, orderRate: null, revenueThebe: 0, averageOrderThebe: null, revenuePerHeadThebe: null, topItems: [], ...none });

    expect(report.totals).toEqual({
      heads: 5,
      // Password and code schools together: the two "opened" counts do not add up.
      opened: null,
      openedBasis: null,
      paidOrders: 3,
      orderingChildren: 2,
      orderRate: 0.4,
      revenueThebe: 14250,
      printRevenueThebe: 9000,
      digitalRevenueThebe: 5250,
      averageOrderThebe: 4750,
      revenuePerHeadThebe: 2850,
      topItems: [item(alpha, 'print', 3, 9000), item(alpha, 'digital', 2, 3500), item(beta, 'digital', 1, 1750)],
      pendingOrders: 3,
      pendingThebe: 10750,
      refundOrders: 1,
      refundThebe: 4750,
      prepaidRevenueThebe: 0,
      packagesWaitingForPhotos: 0,
      packagesWithoutPhoto: 0,
    });
  });

  it('the season totals, rolled up in part and then whole, answer exactly as the lines do', async () => {
    const answer = async (path: string) => ({ ...(schoolsReportSchema.parse((await staff.get(path)).body) as object), generatedAt: 0, from: null, to: null });
    const unrolled = async () => Number((await server.runtime.knex('sales_lines').where('rolled_up', false).whereNotNull('paid_day').count({ count: '*' }).first())?.count ?? 0);
    const fromLines = await answer('/api/reports/schools');
    expect(await unrolled()).toBeGreaterThan(2);
    // Two lines in the totals, the others still read as lines.
    expect(await createReportsRecordingRepository(server.runtime.knex).rollUpPaidLines(2)).toBe(2);
    expect(await answer('/api/reports/schools')).toEqual(fromLines);
    // The job's run takes the rest; a second run finds nothing, so no line is counted twice.
    expect(await server.runtime.services.reports.rollUpSeasonTotals()).toBeGreaterThan(0);
    expect(await unrolled()).toBe(0);
    expect(await server.runtime.services.reports.rollUpSeasonTotals()).toBe(0);
    expect(await answer('/api/reports/schools')).toEqual(fromLines);
    // A range holding every day is read from the lines, never the totals: the same figures.
    expect(await answer(`/api/reports/schools?from=2020-01-01&to=${today}`)).toEqual(fromLines);
    // The migration rolls up the lines paid before it, in SQL: the same totals as the job's.
    const knex = server.runtime.knex;
    const tables = ['sales_class_totals', 'sales_class_items', 'sales_class_children'];
    const season = async () => Promise.all(tables.map((table) => knex(table).select().then((rows) => rows.map((row) => JSON.stringify(row)).sort())));
    const byJob = await season();
    for (const table of tables) await knex(table).del();
    await knex('sales_lines').update({ rolled_up: false });
    await migrationRollUp(knex);
    expect(await season()).toEqual(byJob);
    expect(await unrolled()).toBe(0);
    expect(await answer('/api/reports/schools')).toEqual(fromLines);
    // Two roll-ups at once (as if a job lock were lost): each line still counts once.
    for (const table of tables) await knex(table).del();
    await knex('sales_lines').update({ rolled_up: false });
    const recording = createReportsRecordingRepository(knex);
    await Promise.allSettled([recording.rollUpPaidLines(1000), recording.rollUpPaidLines(1000), recording.rollUpPaidLines(1000)]);
    while ((await recording.rollUpPaidLines(1000)) > 0);
    expect(await season()).toEqual(byJob);
    expect(await answer('/api/reports/schools')).toEqual(fromLines);
  });

  it('a range that leaves today out counts no sale, and one that holds today counts them all', async () => {
    const yesterday = botswanaDay(Date.now() - DAY_MS);
    const before = schoolsReportSchema.parse((await staff.get(`/api/reports/schools?from=2020-01-01&to=${yesterday}`)).body);
    expect(before).toMatchObject({ from: '2020-01-01', to: yesterday });
    expect(before.totals).toMatchObject({ paidOrders: 0, revenueThebe: 0, pendingOrders: 0, refundOrders: 0, topItems: [] });
    expect(before.schools).toHaveLength(2);
    const holding = schoolsReportSchema.parse((await staff.get(`/api/reports/schools?from=${today}&to=${today}`)).body);
    expect(holding.totals).toMatchObject({ paidOrders: 3, revenueThebe: 14250, pendingOrders: 3, pendingThebe: 10750, refundOrders: 1 });
  });

  it('sales over time by day and by week, and the tail after publishing', async () => {
    const from = botswanaDay(Date.now() - 9 * DAY_MS);
    const res = await staff.get(`/api/reports/sales?from=${from}&to=${today}`);
    expect(res.status).toBe(200);
    const sales = salesReportSchema.strict().parse(res.body);
    expect(sales).toMatchObject({ schoolId: null, albumId: null, from, to: today, by: 'day', totals: { orders: 3, revenueThebe: 14250 } });
    expect(sales.periods).toHaveLength(10);
    expect(sales.periods[0]).toEqual({ start: from, end: from, orders: 0, revenueThebe: 0 });
    expect(sales.periods[9]).toEqual({ start: today, end: today, orders: 3, revenueThebe: 14250 });

    expect(sales.tail).toHaveLength(REPORT_TAIL_DAYS);
    // Day 3: Class 1A's lines (10750); day 0: the downloads of classes with no publish time but today's photos (1750 + 1750).
    expect(sales.tail[0]).toEqual({ day: 0, revenueThebe: 3500, share: 3500 / 14250, cumulativeShare: 3500 / 14250 });
    expect(sales.tail[3]).toEqual({ day: 3, revenueThebe: 10750, share: 10750 / 14250, cumulativeShare: 1 });
    expect(sales.tail[REPORT_TAIL_DAYS - 1]).toEqual({ day: REPORT_TAIL_DAYS - 1, revenueThebe: 0, share: 0, cumulativeShare: 1 });

    const weeks = salesReportSchema.parse((await staff.get(`/api/reports/sales?from=${from}&to=${today}&by=week`)).body);
    const monday = (iso: string) => {
      const d = new Date(`${iso}T00:00:00Z`);
      return new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);
    };
    expect(weeks.periods[0]?.start).toBe(from);
    expect(weeks.periods.at(-1)).toMatchObject({ start: monday(today) < from ? from : monday(today), end: today, orders: 3, revenueThebe: 14250 });
    for (const period of weeks.periods.slice(1)) expect(new Date(`${period.start}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(weeks.periods.reduce((sum, p) => sum + p.revenueThebe, 0)).toBe(14250);

    const school = salesReportSchema.parse((await staff.get(`/api/reports/sales?schoolId=${alpha.schoolId}`)).body);
    expect(school.periods).toEqual([{ start: today, end: today, orders: 2, revenueThebe: 12500 }]);
    const album = salesReportSchema.parse((await staff.get(`/api/reports/sales?schoolId=${alpha.schoolId}&albumId=${alpha.protectedAlbumId}`)).body);
    expect(album.totals).toEqual({ orders: 1, revenueThebe: 1750 });
    expect(album.tail[0]).toMatchObject({ revenueThebe: 1750, share: 1 });
  });

  it('400 naming the field, 404 for an unknown school or class', async () => {
    const bad = async (query: string, message: string, field: string) => {
      const res = await staff.get(`/api/reports/sales?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message).toBe(message);
      expect(res.body.errors[field]).toBe(message);
    };
    await bad('from=2026-02-30', REPORT_MSG.fromInvalid, 'from');
    await bad('to=soon', REPORT_MSG.toInvalid, 'to');
    await bad('from=2026-03-02&to=2026-03-01', REPORT_MSG.rangeReversed, 'to');
    await bad('from=2024-01-01&to=2026-01-02', REPORT_MSG.rangeTooLong, 'to');
    await bad('schoolId=abc', REPORT_MSG.schoolIdInvalid, 'schoolId');
    await bad('albumId=0', REPORT_MSG.albumIdInvalid, 'albumId');
    await bad('by=month', REPORT_MSG.periodInvalid, 'by');
    expect((await staff.get('/api/reports/schools?from=2026-03-02&to=2026-03-01')).status).toBe(400);
    expect((await staff.get('/api/reports/sales?from=2024-01-01&to=2025-12-31')).status).toBe(200);

    const missing = async (query: string, message: string) => {
      const res = await staff.get(`/api/reports/sales?${query}`);
      expect(res.status, query).toBe(404);
      expect(res.body.message).toBe(message);
    };
    await missing('schoolId=999999', REPORT_MSG.schoolNotFound);
    await missing('albumId=999999', REPORT_MSG.albumNotFound);
    await missing(`schoolId=${beta.schoolId}&albumId=${alpha.openAlbumId}`, REPORT_MSG.albumNotFound);
  });
});

import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClassReport, SchoolReport } from '@contract/reports';
import { REPORT_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import { Toaster } from '../../../components/ui/toast';
import { fakeStaffApi } from '../../../../test/staff-api';
import { parseCsv } from '../../../../test/parse-csv';
import { salesReport, schoolsReport } from '../../../../test/report-fixture';
import { botswanaToday } from '../dashboard/coupons-tab';
import { Dashboard } from '../dashboard/dashboard';
import { addDays } from './report-range';
import { ReportsTab } from './reports-tab';

// uPlot needs a real canvas; the tests check what the tab hands the chart code, and when it loads it.
const charts = vi.hoisted(() => ({
  drawSales: vi.fn(() => ({ destroy: vi.fn(), setSize: vi.fn() })),
  drawTail: vi.fn(() => ({ destroy: vi.fn(), setSize: vi.fn() })),
}));
vi.mock('./staff-charts', () => ({ CHART_HEIGHT: 240, ...charts }));

const { calls, answers } = fakeStaffApi();

const admin = { id: 1, email: 'admin@studio.test', firstName: 'A', lastName: 'B', role: 'admin', createdAt: '2026-11-20T08:00:00.000Z' };

beforeEach(() => {
  charts.drawSales.mockClear();
  charts.drawTail.mockClear();
  window.localStorage.setItem('user', JSON.stringify(admin));
  answers.set('GET /api/reports/schools', schoolsReport);
  answers.set('GET /api/reports/sales?by=day', salesReport());
});

function renderTab(node = <ReportsTab />, path = '/') {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
}

/** Each body row: its name, then the main figure of every cell (what the CSV also holds). */
const rowFigures = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [row.querySelector('th')?.textContent ?? '', ...Array.from(row.querySelectorAll('td')).map((cell) => cell.querySelector('.report-value')?.textContent ?? '')]);

const header = (table: HTMLElement, name: string) => within(table).getByRole('columnheader', { name: new RegExp(`^${name}`) });

describe('the Reports tab', () => {
  it('shows each school with money in pula, rates in percent, unknown figures as a dash and the estimate explained', async () => {
    renderTab();
    const table = await screen.findByRole('table', { name: M.schoolsTableLabel });
    expect(rowFigures(table)).toEqual([
      ['Kgale Hill Primary', '30', '≈22', '40%', '12', 'P780.00', 'P65.00', 'P26.00', 'P715.00', 'P65.00', 'P65.00', 'P0.00'],
      ['Tlokweng Primary', '3', '2', '33.3%', '1', 'P1500.00', 'P1500.00', 'P500.00', 'P1500.00', 'P0.00', 'P0.00', 'P1500.00'],
      ['Zeta Academy', '—', '≈0', '—', '0', 'P0.00', '—', '—', 'P0.00', 'P0.00', 'P0.00', 'P0.00'],
      [M.totalsRow, '33', '—', '39.4%', '13', 'P2280.00', 'P175.38', 'P69.09', 'P2215.00', 'P65.00', 'P65.00', 'P1500.00'],
    ]);
    // What each figure is out of: 12 of 30 children ordered; 2 of 3 children opened (codes), no rate for unlocks.
    const kgale = within(table).getByRole('row', { name: /Kgale Hill Primary/ });
    within(kgale).getByText('12 of 30');
    within(kgale).getByText(M.ordersCount(1));
    const tlokweng = within(table).getByRole('row', { name: /Tlokweng Primary/ });
    within(tlokweng).getByText(M.openedOf('66.7%'));
    screen.getByText(M.openedEstimate);
    screen.getByText(M.openedChildren);
    screen.getByText(M.topLine('Family Pack', 1, 'P1500.00'));
    expect(header(table, M.columnSchool).getAttribute('aria-sort')).toBe('ascending');
    expect(screen.queryByText(M.emptySales)).toBeNull();
  });

  it('sorts by a column on a click, largest first, again the other way, unknown figures last both ways', async () => {
    renderTab();
    const table = await screen.findByRole('table', { name: M.schoolsTableLabel });
    const names = () => rowFigures(table).map((row) => row[0]);
    await userEvent.click(within(header(table, M.columnRevenue)).getByRole('button'));
    expect(header(table, M.columnRevenue).getAttribute('aria-sort')).toBe('descending');
    expect(header(table, M.columnSchool).getAttribute('aria-sort')).toBeNull();
    expect(names()).toEqual(['Tlokweng Primary', 'Kgale Hill Primary', 'Zeta Academy', M.totalsRow]);
    await userEvent.click(within(header(table, M.columnRevenue)).getByRole('button'));
    expect(header(table, M.columnRevenue).getAttribute('aria-sort')).toBe('ascending');
    expect(names()).toEqual(['Zeta Academy', 'Kgale Hill Primary', 'Tlokweng Primary', M.totalsRow]);
    await userEvent.click(within(header(table, M.columnOrderRate)).getByRole('button'));
    expect(names()).toEqual(['Kgale Hill Primary', 'Tlokweng Primary', 'Zeta Academy', M.totalsRow]);
    await userEvent.click(within(header(table, M.columnOrderRate)).getByRole('button'));
    expect(names()).toEqual(['Tlokweng Primary', 'Kgale Hill Primary', 'Zeta Academy', M.totalsRow]);
  });

  it("drills into a school's classes, charts that school, and comes back", async () => {
    answers.set('GET /api/reports/sales?schoolId=1&by=day', salesReport({ schoolId: 1 }));
    answers.set('GET /api/reports/sales?schoolId=1&albumId=12&by=week', salesReport({ schoolId: 1, albumId: 12, by: 'week' }));
    renderTab();
    await userEvent.click(await screen.findByRole('button', { name: M.openSchool('Kgale Hill Primary') }));
    const table = await screen.findByRole('table', { name: M.classesTableLabel('Kgale Hill Primary') });
    expect(rowFigures(table)).toEqual([
      ['Grade 1A', 'Published', '30', '≈20', '30%', '9', 'P585.00', 'P65.00', 'P19.50', 'P520.00', 'P65.00', 'P0.00', 'P0.00'],
      ['Grade 2B', 'Archived', '—', '≈4', '—', '3', 'P195.00', 'P65.00', '—', 'P195.00', 'P0.00', 'P65.00', 'P0.00'],
      [M.schoolTotalsRow, '', '30', '≈22', '40%', '12', 'P780.00', 'P65.00', 'P26.00', 'P715.00', 'P65.00', 'P65.00', 'P0.00'],
    ]);
    await screen.findByRole('heading', { name: M.salesTitleOf('Kgale Hill Primary') });
    // The chart follows: one class, by week.
    await userEvent.selectOptions(screen.getByLabelText(M.chartClass), 'Grade 2B');
    await userEvent.click(screen.getByRole('button', { name: M.byWeek }));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/reports/sales?schoolId=1&albumId=12&by=week')).toBe(true));
    expect(screen.getByRole('button', { name: M.byWeek }).getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: M.backToSchools }));
    await screen.findByRole('table', { name: M.schoolsTableLabel });
  });

  it('draws both charts with a text alternative, and asks for the dates chosen', async () => {
    renderTab();
    const summary = `${M.salesSummary('P2280.00', 13, '1 Dec 2026', '3 Dec 2026')} ${M.salesBest('3 Dec 2026', 'P1500.00')}`;
    await screen.findByRole('img', { name: summary });
    await waitFor(() => expect(charts.drawSales).toHaveBeenCalled());
    expect(charts.drawSales.mock.calls[0]?.slice(1, 3)).toEqual([salesReport().periods, 'day']);
    await waitFor(() => expect(charts.drawTail).toHaveBeenCalled());
    screen.getByText(M.tailSummary('50%', '100%', '100%'));

    const today = botswanaToday();
    const from = addDays(today, -6);
    answers.set(`GET /api/reports/schools?from=${from}&to=${today}`, { ...schoolsReport, from, to: today });
    await userEvent.click(screen.getByRole('button', { name: M.last7 }));
    await waitFor(() => expect(calls.some((call) => call.url === `/api/reports/schools?from=${from}&to=${today}`)).toBe(true));
    expect(calls.some((call) => call.url === `/api/reports/sales?from=${from}&to=${today}&by=day`)).toBe(true);
    expect(screen.getByRole('button', { name: M.last7 }).getAttribute('aria-pressed')).toBe('true');
    expect((screen.getByLabelText(M.from) as HTMLInputElement).value).toBe(from);
  });

  it('refuses a range that ends before it starts without asking the server', async () => {
    renderTab();
    await screen.findByRole('table', { name: M.schoolsTableLabel });
    await userEvent.type(screen.getByLabelText(M.to), '2026-11-01');
    await userEvent.type(screen.getByLabelText(M.from), '2026-12-01');
    await screen.findByText(M.rangeReversed);
    expect(calls.some((call) => call.url.includes('from=2026-12-01'))).toBe(false);
  });

  it('exports the figures of the table, each school followed by its classes, in the order shown', async () => {
    let saved: Blob | null = null;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => ((saved = blob), 'blob:x'), revokeObjectURL: () => undefined }));
    renderTab();
    const table = await screen.findByRole('table', { name: M.schoolsTableLabel });
    await userEvent.click(within(header(table, M.columnRevenue)).getByRole('button'));
    await userEvent.click(screen.getByRole('button', { name: M.exportCsv }));
    await screen.findByText(M.exported(M.csvFileName(null, null, botswanaToday())));
    expect(saved).not.toBeNull();
    const rows = parseCsv(await (saved as unknown as Blob).text());
    expect(rows[0]).toEqual([...M.csvColumns]);
    expect(rows.slice(1).map((row) => `${row[0]}|${row[1]}`)).toEqual([
      'Tlokweng Primary|',
      'Tlokweng Primary|Class 3C',
      'Kgale Hill Primary|',
      'Kgale Hill Primary|Grade 1A',
      'Kgale Hill Primary|Grade 2B',
      'Zeta Academy|',
      `${M.csvTotals}|`,
    ]);
    expect(rows[3]).toEqual([
      'Kgale Hill Primary', '', '', '30', '22', M.csvOpenedBasis.grants, '12', '40', '12', '780.00', '715.00', '65.00', '65.00', '26.00', '1', '65.00', '0', '0.00', '0.00', '0', '0', '10x15 Print x15 (400.00)',
    ]);
    expect(rows[5]?.slice(0, 10)).toEqual(['Kgale Hill Primary', 'Grade 2B', 'Archived', '', '4', M.csvOpenedBasis.grants, '3', '', '3', '195.00']);
    expect(rows[7]?.slice(3, 14)).toEqual(['33', '', '', '13', '39.4', '13', '2280.00', '2215.00', '65.00', '175.38', '69.09']);
    // The screen and the file agree, figure by figure (P and % aside, "—" an empty cell).
    const plain = (text: string) => (text === M.unknown ? '' : text.replace(/^P/, '').replace(/%$/, '').replace(/^≈/, ''));
    for (const shown of rowFigures(table)) {
      const line = rows.find((row) => row[0] === (shown[0] === M.totalsRow ? M.csvTotals : shown[0]) && row[1] === '')!;
      // School, then Children, Opened, Order rate, Paid orders, Revenue, Average, Per child, Print, Digital, Unpaid, Refunds.
      expect(shown.slice(1).map(plain)).toEqual([line[3], line[4], line[7], line[8], line[9], line[12], line[13], line[10], line[11], line[15], line[17]]);
    }
  });

  it('shows prepaid revenue and the packages waiting for photos per school and class, in the CSV too, only when there are any', async () => {
    // Without any prepaid figure (the fixture) the table keeps its columns.
    renderTab();
    const plainTable = await screen.findByRole('table', { name: M.schoolsTableLabel });
    expect(within(plainTable).queryByRole('columnheader', { name: new RegExp(`^${M.columnPrepaid}`) })).toBeNull();
    expect(screen.queryByText(M.prepaidNote)).toBeNull();
    cleanup();

    const [kgale, tlokweng, zeta] = schoolsReport.schools as [SchoolReport, SchoolReport, SchoolReport];
    const [class3c] = tlokweng.classes as [ClassReport];
    const prepaid = { prepaidRevenueThebe: 9000, packagesWaitingForPhotos: 3, packagesWithoutPhoto: 1 };
    answers.set('GET /api/reports/schools', {
      ...schoolsReport,
      schools: [kgale, { ...tlokweng, ...prepaid, classes: [{ ...class3c, ...prepaid }] }, zeta],
      totals: { ...schoolsReport.totals, ...prepaid },
    });
    let saved: Blob | null = null;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => ((saved = blob), 'blob:x'), revokeObjectURL: () => undefined }));
    renderTab();
    const table = await screen.findByRole('table', { name: M.schoolsTableLabel });
    // Prepaid sits after Digital, the waiting packages last.
    const headers = within(table).getAllByRole('columnheader').map((cell) => cell.textContent?.replace(/[▲▼↕]/g, ''));
    expect(headers.slice(-5)).toEqual([M.columnDigital, M.columnPrepaid, M.columnPending, M.columnRefunds, M.columnWaiting]);
    expect(rowFigures(table).map((row) => [row[0], row[10], row[13]])).toEqual([
      ['Kgale Hill Primary', 'P0.00', '0'],
      ['Tlokweng Primary', 'P90.00', '3'],
      ['Zeta Academy', 'P0.00', '0'],
      [M.totalsRow, 'P90.00', '3'],
    ]);
    within(within(table).getByRole('row', { name: /Tlokweng Primary/ })).getByText(M.withoutPhoto(1));
    screen.getByText(M.prepaidNote);
    // Sorted by the waiting packages: most first.
    await userEvent.click(within(header(table, M.columnWaiting)).getByRole('button'));
    expect(rowFigures(table)[0]?.[0]).toBe('Tlokweng Primary');

    // The class: its prepaid revenue and waiting packages.
    await userEvent.click(screen.getByRole('button', { name: M.openSchool('Tlokweng Primary') }));
    const classes = await screen.findByRole('table', { name: M.classesTableLabel('Tlokweng Primary') });
    const classRow = within(classes).getByRole('row', { name: /Class 3C/ });
    within(classRow).getByText('P90.00');
    within(classRow).getByText(M.withoutPhoto(1));
    expect(classRow.querySelector('[data-column="waiting"] .report-value')?.textContent).toBe('3');
    await userEvent.click(screen.getByRole('button', { name: M.backToSchools }));

    // Kgale Hill sold nothing prepaid: its own classes show no prepaid columns.
    await userEvent.click(await screen.findByRole('button', { name: M.openSchool('Kgale Hill Primary') }));
    const kgaleClasses = await screen.findByRole('table', { name: M.classesTableLabel('Kgale Hill Primary') });
    expect(within(kgaleClasses).queryByRole('columnheader', { name: new RegExp(`^${M.columnWaiting}`) })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: M.backToSchools }));

    await userEvent.click(await screen.findByRole('button', { name: M.exportCsv }));
    await screen.findByText(M.exported(M.csvFileName(null, null, botswanaToday())));
    const rows = parseCsv(await (saved as unknown as Blob).text());
    const at = (name: string) => M.csvColumns.indexOf(name as never);
    const figures = (row: string[] | undefined) => [row?.[0], row?.[1], row?.[at('Prepaid Revenue')], row?.[at('Packages Waiting for Photos')], row?.[at('Packages Without Photo')]];
    expect(rows.filter((row) => row[0] === 'Tlokweng Primary' || row[0] === M.csvTotals).map(figures)).toEqual([
      ['Tlokweng Primary', '', '90.00', '3', '1'],
      ['Tlokweng Primary', 'Class 3C', '90.00', '3', '1'],
      [M.csvTotals, '', '90.00', '3', '1'],
    ]);
  });

  it('says so when no school sold anything, and when there is no school at all', async () => {
    const quiet = { ...schoolsReport, schools: [schoolsReport.schools[2]!], totals: { ...schoolsReport.totals, paidOrders: 0, pendingOrders: 0, revenueThebe: 0, topItems: [] } };
    answers.set('GET /api/reports/schools', quiet);
    answers.set('GET /api/reports/sales?by=day', salesReport({ periods: [], totals: { orders: 0, revenueThebe: 0 } }));
    renderTab();
    await screen.findByText(M.emptySales);
    await screen.findByText(M.noSales);
    screen.getByText(M.noTail);
    screen.getByText(M.topEmpty);
    expect(charts.drawSales).not.toHaveBeenCalled();
  });

  it('shows an empty state without schools', async () => {
    answers.set('GET /api/reports/schools', { ...schoolsReport, schools: [] });
    renderTab();
    await screen.findByText(M.emptySchools);
    expect(screen.queryByRole('button', { name: M.exportCsv })).toBeNull();
  });

  it('asks for the report and the chart code only once the Reports tab is opened', async () => {
    renderTab(<Dashboard />, '/?tab=orders');
    await screen.findByRole('tab', { name: M.tab });
    expect(calls.some((call) => call.url.startsWith('/api/reports'))).toBe(false);
    await userEvent.click(screen.getByRole('tab', { name: M.tab }));
    await screen.findByRole('table', { name: M.schoolsTableLabel });
    await waitFor(() => expect(charts.drawSales).toHaveBeenCalledTimes(1));
  });
});

describe('the Reports tab when the server refuses', () => {
  it("shows the server's reason (a range too long for the sales over time) and keeps the table", async () => {
    answers.delete('GET /api/reports/sales?by=day');
    vi.mocked(fetch).mockImplementation(async (input: RequestInfo | URL) => {
      const url = String(input);
      calls.push({ method: 'GET', url, body: null });
      if (url.startsWith('/api/reports/sales')) return new Response(JSON.stringify({ message: 'Choose a range of at most two years' }), { status: 400, headers: { 'Content-Type': 'application/json' } });
      return new Response(JSON.stringify(answers.get(`GET ${url}`) ?? { message: 'not here' }), { status: answers.has(`GET ${url}`) ? 200 : 404, headers: { 'Content-Type': 'application/json' } });
    });
    renderTab();
    await screen.findByRole('table', { name: M.schoolsTableLabel });
    expect(await screen.findAllByText('Choose a range of at most two years')).toHaveLength(2);
    expect(charts.drawSales).not.toHaveBeenCalled();
  });
});

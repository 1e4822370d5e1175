/**
 * The Reports tab (issue 26, docs/reports.md "The Reports tab") on a tablet: a parent pays an order
 * at the demo school through the sandbox; a photographer opens Reports, sees the charts drawn,
 * sorts the schools by revenue, drills into the demo school's classes, and downloads the CSV, whose
 * figures are those of the table and of the API.
 */
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { SchoolsReport } from '../api/contract/reports';
import { compareNames } from '../api/contract/format';
import { formatPula } from '../api/contract/money';
import { REPORT_SCREEN_MSG as M } from '../api/contract/staff-screen-messages';
import { parseCsv } from '../pwa/test/parse-csv';
import { APPROVED_CARD, addFirstPhoto, fillCheckout, goToCheckout, openClass, payWithCard, toastWith, uniqueEmail, unlockSchool } from './support/journey';
import { adminToken, api, createSchoolAndClass, signIn } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

const TABLET = { viewport: { width: 820, height: 1180 }, hasTouch: true, acceptDownloads: true };
const DEMO = 'Demo Primary School';

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include('.reports-tab').analyze();
  return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Each body row of a table: its name, then the main figure of every cell. */
const rowFigures = (table: Locator) =>
  table.locator('tbody tr, tfoot tr').evaluateAll((rows) =>
    rows.map((row) => [row.querySelector('th')?.textContent ?? '', ...Array.from(row.querySelectorAll('td')).map((cell) => cell.querySelector('.report-value')?.textContent ?? '')]),
  );

/** The CSV's figure for a figure shown: no "P", no "%", no "≈", and an empty cell for "—". */
const plain = (text: string) => (text === M.unknown ? '' : text.replace(/^P/, '').replace(/%$/, '').replace(/^≈/, ''));

describeJourney('staff reports', (env) => {
  it('shows the paid order in the table and the charts, sorts, drills into a school and exports the same figures', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    // A school without sales whose name comes before the demo school's.
    const quiet = await createSchoolAndClass(base, token, 'Acacia');

    // A parent pays for two prints at the demo school.
    const parentContext = await env.browser.newContext();
    const parent = await parentContext.newPage();
    await unlockSchool(parent, base, DEMO, 'demo1234');
    await openClass(parent, 'Class 1A');
    await addFirstPhoto(parent, [{ name: '10x15 Print', quantity: 2 }]);
    await goToCheckout(parent);
    await fillCheckout(parent, { name: 'Naledi Parent', email: uniqueEmail('reports'), student: 'Kagiso' });
    const orderId = await payWithCard(parent, APPROVED_CARD);
    await parent.getByRole('heading', { name: 'Payment Successful' }).waitFor({ timeout: 30_000 });
    await parentContext.close();
    const order = await api<{ totalAmount: string; paymentStatus: string }>(base, `/api/orders/${orderId}`, { token });
    expect(order.paymentStatus).toBe('completed');

    const context = await env.browser.newContext(TABLET);
    const page = await context.newPage();
    await signIn(page, base);
    await page.getByRole('tab', { name: M.tab }).click();
    const table = page.getByRole('table', { name: M.schoolsTableLabel });
    await table.waitFor();
    const report = await api<SchoolsReport>(base, '/api/reports/schools', { token });
    const demo = report.schools.find((school) => school.name === DEMO)!;
    expect(demo.paidOrders).toBe(1);
    expect(formatPula(demo.revenueThebe, 'thebe')).toBe(formatPula(order.totalAmount));

    // The charts are drawn on a canvas, with their summaries as text.
    const chart = page.locator('.report-chart canvas').first();
    await chart.waitFor();
    expect(await chart.evaluate((canvas) => (canvas as HTMLCanvasElement).width)).toBeGreaterThan(0);
    await page.getByRole('img', { name: new RegExp(`^${formatPula(order.totalAmount).replace('.', '\\.')} from 1 paid order`) }).waitFor();
    expect(await page.locator('.report-chart canvas').count()).toBeGreaterThanOrEqual(2);

    // The table says what the API says: the demo school's row, and the totals.
    let rows = await rowFigures(table);
    const names = () => rowFigures(table).then((list) => list.map((row) => row[0]));
    expect(rows.map((row) => row[0])).toEqual([...report.schools.map((school) => school.name), M.totalsRow]);
    const demoRow = rows.find((row) => row[0] === DEMO)!;
    expect(demoRow.slice(4, 6)).toEqual(['1', formatPula(order.totalAmount)]);
    expect(rows.at(-1)?.[5]).toBe(formatPula(report.totals.revenueThebe, 'thebe'));
    expect(await seriousViolations(page)).toEqual([]);
    // The whole table fits a tablet, upright and sideways: no column is hidden past the edge.
    for (const width of [820, 1024]) {
      await page.setViewportSize({ width, height: 1180 });
      const hidden = await table.evaluate((element) => element.parentElement!.scrollWidth - element.parentElement!.clientWidth);
      expect({ width, hidden }).toEqual({ width, hidden: 0 });
    }
    await page.setViewportSize(TABLET.viewport);

    // Sorting by revenue puts the demo school above the quiet one, and back by name.
    expect((await names()).indexOf(quiet.name)).toBeLessThan((await names()).indexOf(DEMO));
    const revenueHeader = table.getByRole('columnheader', { name: new RegExp(`^${M.columnRevenue}`) });
    await revenueHeader.getByRole('button').click();
    expect(await revenueHeader.getAttribute('aria-sort')).toBe('descending');
    expect((await names())[0]).toBe(DEMO);
    expect((await names()).indexOf(quiet.name)).toBeGreaterThan(0);
    await revenueHeader.getByRole('button').click();
    expect(await revenueHeader.getAttribute('aria-sort')).toBe('ascending');
    expect((await names()).indexOf(DEMO)).toBe(report.schools.length - 1);

    // Drilling into the demo school: its classes, in the order still chosen (revenue, smallest first).
    await table.getByRole('button', { name: M.openSchool(DEMO) }).click();
    const classes = page.getByRole('table', { name: M.classesTableLabel(DEMO) });
    await classes.waitFor();
    const classRows = await rowFigures(classes);
    expect(classRows.map((row) => row[0])).toEqual([...demo.classes].sort((a, b) => a.revenueThebe - b.revenueThebe || compareNames(a.name, b.name)).map((album) => album.name).concat(M.schoolTotalsRow));
    expect(classRows.find((row) => row[0] === 'Class 1A')?.[6]).toBe(formatPula(order.totalAmount));
    await page.getByRole('heading', { name: M.salesTitleOf(DEMO) }).waitFor();
    await page.getByRole('button', { name: M.backToSchools }).click();
    await table.waitFor();

    // The CSV holds the figures of the table, in its order, and each school's classes.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: M.exportCsv }).click()]);
    await toastWith(page, M.exportedTitle).waitFor();
    expect(download.suggestedFilename()).toMatch(/^report_season_\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = parseCsv(fs.readFileSync((await download.path())!, 'utf8'));
    expect(csv[0]).toEqual([...M.csvColumns]);
    rows = await rowFigures(table);
    const schoolLines = csv.slice(1).filter((line) => line[1] === '');
    expect(schoolLines.map((line) => line[0])).toEqual(rows.map((row) => (row[0] === M.totalsRow ? M.csvTotals : row[0])));
    for (const [index, shown] of rows.entries()) {
      const line = schoolLines[index]!;
      // Children, Opened, Order rate, Paid orders, Revenue, Average, Per child, Print, Digital, Unpaid, Refunds.
      expect(shown.slice(1).map((text) => plain(text ?? ''))).toEqual([line[3], line[4], line[7], line[8], line[9], line[12], line[13], line[10], line[11], line[15], line[17]]);
    }
    const classLine = csv.find((line) => line[0] === DEMO && line[1] === 'Class 1A')!;
    expect(classLine.slice(8, 10)).toEqual(['1', formatPula(order.totalAmount).slice(1)]);
    await context.close();
  });
});

import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Coupon } from '@contract/coupons';
import { COUPON_MSG } from '@contract/messages';
import type { StaffSchool } from '@contract/schools';
import { COUPON_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import { Toaster } from '../../../components/ui/toast';
import { fakeStaffApi } from '../../../../test/staff-api';
import { botswanaToday, CouponsTab } from './coupons-tab';

const { calls, answers } = fakeStaffApi();

const school = (id: number, name: string): StaffSchool => ({
  id,
  name,
  slug: name.toLowerCase().replace(/\W+/g, '-'),
  contactEmail: 'office@school.example',
  contactPhone: null,
  address: null,
  closingDate: null,
  pictureDay: null,
  priceListId: null,
  priceListName: null,
  accessMode: 'school_password',
  hasPassword: true,
  albums: [],
  createdAt: '2026-11-01T08:00:00.000Z',
});

const base: Coupon = {
  id: 1,
  code: 'SPRING10',
  schoolId: 4,
  schoolName: 'Kgale Hill Primary',
  kind: 'percent',
  value: '10',
  minOrder: '100.00',
  startsOn: '2026-12-01',
  endsOn: '2026-12-31',
  maxUses: 50,
  oncePer: 'email',
  excludesPackages: true,
  usesPaid: 3,
  usesHeld: 2,
  active: true,
  createdAt: '2026-11-20T08:00:00.000Z',
};

const coupons: Coupon[] = [
  base,
  { ...base, id: 2, code: 'FAMILY25', schoolId: null, schoolName: null, kind: 'amount', value: '25.00', minOrder: null, startsOn: null, endsOn: null, maxUses: null, oncePer: 'order', excludesPackages: false, usesPaid: 7, usesHeld: 0 },
  { ...base, id: 3, code: 'OLD-DEAL', startsOn: null, endsOn: '2020-01-31', maxUses: null, oncePer: 'order', excludesPackages: false, usesPaid: 12, usesHeld: 0, active: false },
  { ...base, id: 4, code: 'FIRST5', schoolId: 6, schoolName: 'Tlokweng Primary', startsOn: null, endsOn: null, maxUses: 5, oncePer: 'child', excludesPackages: false, usesPaid: 4, usesHeld: 1, active: false },
  { ...base, id: 5, code: 'NEXTYEAR', startsOn: '2099-01-01', endsOn: null, maxUses: null, oncePer: 'order', excludesPackages: false, usesPaid: 0, usesHeld: 0, active: false },
];

const admin = { id: 1, email: 'admin@studio.test', firstName: 'A', lastName: 'B', role: 'admin', createdAt: '2026-11-20T08:00:00.000Z' };

beforeEach(() => {
  // jsdom has no ResizeObserver; Radix's checkbox inside a form measures itself with one.
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
  window.localStorage.setItem('user', JSON.stringify(admin));
  answers.set('GET /api/coupons', coupons);
  answers.set('GET /api/schools', [school(4, 'Kgale Hill Primary'), school(6, 'Tlokweng Primary')]);
});

function renderTab() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })}>
      <MemoryRouter>
        <CouponsTab />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
}

const sent = (method: string) => calls.filter((call) => call.method === method);
const fetched = (url: string) => calls.filter((call) => call.method === 'GET' && call.url === url).length;
/** The text of the elements an element's aria-describedby names. */
const description = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

/** Opens the form (New Coupon, or a row's Edit) once the schools are in its select. */
async function openForm(button: string) {
  await userEvent.click(await screen.findByRole('button', { name: button }));
  const dialog = within(await screen.findByRole('dialog'));
  await dialog.findByRole('option', { name: 'Tlokweng Primary' });
  return dialog;
}

describe('the coupons list', () => {
  it('shows each coupon with its school, discount, minimum, days, uses and why it can or cannot be used', async () => {
    renderTab();
    const table = within(await screen.findByRole('table', { name: M.tableLabel }));
    const rows = table.getAllByRole('row').slice(1);
    expect(rows.map(cells)).toEqual([
      ['SPRING10', 'Kgale Hill Primary', `10%${M.oncePerLabels.email} · ${M.packagesExcluded}`, 'P100.00', '1 Dec 2026 to 31 Dec 2026', '3 of 50 used, 2 held', M.statusActive, `${M.edit}${M.delete}`],
      ['FAMILY25', M.allSchools, 'P25.00', M.noMinimum, M.anyDay, '7 used', M.statusActive, `${M.edit}${M.delete}`],
      ['OLD-DEAL', 'Kgale Hill Primary', '10%', 'P100.00', 'Until 31 Jan 2020', '12 used', M.statusExpired, `${M.edit}${M.delete}`],
      ['FIRST5', 'Tlokweng Primary', `10%${M.oncePerLabels.child}`, 'P100.00', M.anyDay, '4 of 5 used, 1 held', M.statusUsedUp, `${M.edit}${M.delete}`],
      ['NEXTYEAR', 'Kgale Hill Primary', '10%', 'P100.00', 'From 1 Jan 2099', '0 used', M.statusNotStarted, `${M.edit}${M.delete}`],
    ]);
    // Each row's buttons name their coupon; on a tablet the stacked rows keep each column's name.
    table.getByRole('button', { name: M.editLabel('FIRST5') });
    table.getByRole('button', { name: M.deleteLabel('OLD-DEAL') });
    expect(rows[0]?.querySelector('td')?.getAttribute('data-label')).toBe(M.columnCode);
  });

  it("shows one school's coupons with those for every school", async () => {
    renderTab();
    const table = within(await screen.findByRole('table', { name: M.tableLabel }));
    await userEvent.selectOptions(screen.getByLabelText(M.school), 'Tlokweng Primary');
    expect(table.getAllByRole('row').slice(1).map((row) => cells(row)[0])).toEqual(['FAMILY25', 'FIRST5']);
  });

  it('says when there are no coupons', async () => {
    answers.set('GET /api/coupons', []);
    renderTab();
    await screen.findByText(M.empty);
  });

  it('says when the coupons could not be loaded', async () => {
    answers.delete('GET /api/coupons');
    renderTab();
    expect((await screen.findByRole('alert')).textContent).toBe(M.loadFailed);
  });

  it('counts Botswana days: 23:30 UTC on 31 December is already 1 January in Gaborone', () => {
    expect(botswanaToday(new Date('2026-12-31T21:59:00.000Z'))).toBe('2026-12-31');
    expect(botswanaToday(new Date('2026-12-31T23:30:00.000Z'))).toBe('2027-01-01');
  });
});

describe('the coupon form', () => {
  it('names the wrong fields and sends nothing', async () => {
    renderTab();
    const dialog = await openForm(M.newCoupon);
    await userEvent.click(dialog.getByRole('button', { name: M.create }));
    expect(description(dialog.getByLabelText(M.code))).toBe(`${COUPON_MSG.codeRequired} ${M.codeHint}`);
    expect(description(dialog.getByLabelText(M.valuePercent))).toBe(COUPON_MSG.percentInvalid);

    await userEvent.type(dialog.getByLabelText(M.code), 'x!');
    await userEvent.type(dialog.getByLabelText(M.valuePercent), '150');
    fireEvent.change(dialog.getByLabelText(M.startsOn), { target: { value: '2026-12-10' } });
    fireEvent.change(dialog.getByLabelText(M.endsOn), { target: { value: '2026-12-01' } });
    await userEvent.type(dialog.getByLabelText(M.minOrder), '12.345');
    await userEvent.click(dialog.getByRole('button', { name: M.create }));
    expect(description(dialog.getByLabelText(M.code))).toBe(`${COUPON_MSG.codeFormat} ${M.codeHint}`);
    expect(description(dialog.getByLabelText(M.endsOn))).toBe(`${COUPON_MSG.datesInvalid} ${M.datesHint}`);
    expect(description(dialog.getByLabelText(M.minOrder))).toBe(`${COUPON_MSG.minimumInvalid} ${M.minOrderHint}`);

    // An amount coupon asks for Pula (checked once the days are in order).
    fireEvent.change(dialog.getByLabelText(M.endsOn), { target: { value: '2026-12-31' } });
    await userEvent.selectOptions(dialog.getByLabelText(M.kind), M.kindAmount);
    await userEvent.clear(dialog.getByLabelText(M.valueAmount));
    await userEvent.type(dialog.getByLabelText(M.valueAmount), '0');
    await userEvent.click(dialog.getByRole('button', { name: M.create }));
    expect(description(dialog.getByLabelText(M.valueAmount))).toBe(COUPON_MSG.amountInvalid);
    expect(description(dialog.getByLabelText(M.endsOn))).toBe(M.datesHint);
    expect(sent('POST')).toHaveLength(0);
  });

  it('tells staff under "How often one family may use it" that once per e-mail is the weakest limit', async () => {
    renderTab();
    const dialog = await openForm(M.newCoupon);
    expect(description(dialog.getByLabelText(M.oncePer))).toBe(M.oncePerHint);
    expect(M.oncePerHint).toMatch(/^Once per e-mail is the weakest of these limits/);
  });

  it('creates a coupon with what was typed, and the list is asked again', async () => {
    answers.set('POST /api/coupons', { ...base, id: 9, code: 'WINTER-25' });
    renderTab();
    const dialog = await openForm(M.newCoupon);
    await userEvent.type(dialog.getByLabelText(M.code), 'winter-25');
    // The code is shown as it is kept: upper-case.
    expect((dialog.getByLabelText(M.code) as HTMLInputElement).value).toBe('WINTER-25');
    await userEvent.selectOptions(dialog.getByLabelText(M.school), 'Tlokweng Primary');
    await userEvent.selectOptions(dialog.getByLabelText(M.kind), M.kindAmount);
    await userEvent.type(dialog.getByLabelText(M.valueAmount), '25.50');
    await userEvent.type(dialog.getByLabelText(M.minOrder), '200');
    fireEvent.change(dialog.getByLabelText(M.startsOn), { target: { value: '2026-12-01' } });
    fireEvent.change(dialog.getByLabelText(M.endsOn), { target: { value: '2026-12-31' } });
    await userEvent.type(dialog.getByLabelText(M.maxUses), '40');
    await userEvent.selectOptions(dialog.getByLabelText(M.oncePer), M.oncePerLabels.child);
    await userEvent.click(dialog.getByRole('checkbox', { name: M.excludesPackages }));
    const lists = fetched('/api/coupons');
    await userEvent.click(dialog.getByRole('button', { name: M.create }));

    await screen.findByText(M.created('WINTER-25'));
    expect(sent('POST')).toEqual([
      {
        method: 'POST',
        url: '/api/coupons',
        body: { code: 'WINTER-25', schoolId: 6, kind: 'amount', value: '25.50', minOrder: '200', startsOn: '2026-12-01', endsOn: '2026-12-31', maxUses: 40, oncePer: 'child', excludesPackages: true },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(fetched('/api/coupons')).toBe(lists + 1));
  });

  it('sends a coupon for every school with its blanks as null', async () => {
    answers.set('POST /api/coupons', { ...base, id: 9, code: 'ALL10' });
    renderTab();
    const dialog = await openForm(M.newCoupon);
    await userEvent.type(dialog.getByLabelText(M.code), 'ALL10');
    await userEvent.type(dialog.getByLabelText(M.valuePercent), '10');
    await userEvent.click(dialog.getByRole('button', { name: M.create }));
    await screen.findByText(M.created('ALL10'));
    expect(sent('POST').map((call) => call.body)).toEqual([
      { code: 'ALL10', schoolId: null, kind: 'percent', value: '10', minOrder: null, startsOn: null, endsOn: null, maxUses: null, oncePer: 'order', excludesPackages: false },
    ]);
  });

  it("shows the server's refusals at their field: a taken code, and the fields its errors name", async () => {
    renderTab();
    const dialog = await openForm(M.newCoupon);
    await userEvent.type(dialog.getByLabelText(M.code), 'SPRING10');
    await userEvent.type(dialog.getByLabelText(M.valuePercent), '10');
    vi.mocked(fetch).mockResolvedValueOnce(
      new Response(JSON.stringify({ message: COUPON_MSG.codeTaken, code: 'COUPON_CODE_TAKEN' }), { status: 409, headers: { 'Content-Type': 'application/json' } }),
    );
    await userEvent.click(dialog.getByRole('button', { name: M.create }));
    await waitFor(() => expect(description(dialog.getByLabelText(M.code))).toBe(`${COUPON_MSG.codeTaken} ${M.codeHint}`));
    // The toast says it too.
    expect(screen.getAllByText(COUPON_MSG.codeTaken).length).toBeGreaterThan(1);

    await userEvent.clear(dialog.getByLabelText(M.code));
    await userEvent.type(dialog.getByLabelText(M.code), 'SPRING11');
    vi.mocked(fetch).mockResolvedValueOnce(
      new Response(JSON.stringify({ message: COUPON_MSG.schoolNotFound, code: 'VALIDATION_ERROR', errors: { schoolId: COUPON_MSG.schoolNotFound, maxUses: COUPON_MSG.maxUsesInvalid } }), {
        status: 400,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    await userEvent.click(dialog.getByRole('button', { name: M.create }));
    await waitFor(() => expect(description(dialog.getByLabelText(M.school))).toBe(COUPON_MSG.schoolNotFound));
    expect(description(dialog.getByLabelText(M.maxUses))).toBe(`${COUPON_MSG.maxUsesInvalid} ${M.maxUsesHint}`);
    // The earlier refusal is gone with the new answer.
    expect(description(dialog.getByLabelText(M.code))).toBe(M.codeHint);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('edits a coupon from its saved values and sends the whole coupon', async () => {
    answers.set('PATCH /api/coupons/1', { ...base, value: '15' });
    renderTab();
    const dialog = await openForm(M.editLabel('SPRING10'));
    screen.getByRole('heading', { name: M.editTitle('SPRING10') });
    expect((dialog.getByLabelText(M.code) as HTMLInputElement).value).toBe('SPRING10');
    expect((dialog.getByLabelText(M.school) as HTMLSelectElement).value).toBe('4');
    expect((dialog.getByLabelText(M.valuePercent) as HTMLInputElement).value).toBe('10');
    expect((dialog.getByLabelText(M.minOrder) as HTMLInputElement).value).toBe('100.00');
    expect((dialog.getByLabelText(M.startsOn) as HTMLInputElement).value).toBe('2026-12-01');
    expect((dialog.getByLabelText(M.endsOn) as HTMLInputElement).value).toBe('2026-12-31');
    expect((dialog.getByLabelText(M.maxUses) as HTMLInputElement).value).toBe('50');
    expect((dialog.getByLabelText(M.oncePer) as HTMLSelectElement).value).toBe('email');
    expect(dialog.getByRole('checkbox', { name: M.excludesPackages }).getAttribute('aria-checked')).toBe('true');

    await userEvent.clear(dialog.getByLabelText(M.valuePercent));
    await userEvent.type(dialog.getByLabelText(M.valuePercent), '15');
    await userEvent.clear(dialog.getByLabelText(M.maxUses));
    await userEvent.click(dialog.getByRole('button', { name: M.save }));
    await screen.findByText(M.saved('SPRING10'));
    expect(sent('PATCH')).toEqual([
      {
        method: 'PATCH',
        url: '/api/coupons/1',
        body: { code: 'SPRING10', schoolId: 4, kind: 'percent', value: '15', minOrder: '100.00', startsOn: '2026-12-01', endsOn: '2026-12-31', maxUses: null, oncePer: 'email', excludesPackages: true },
      },
    ]);
    expect(sent('POST')).toHaveLength(0);
  });

  it('starts a new coupon blank after editing one', async () => {
    renderTab();
    let dialog = await openForm(M.editLabel('FAMILY25'));
    await userEvent.click(dialog.getByRole('button', { name: M.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    dialog = await openForm(M.newCoupon);
    expect((dialog.getByLabelText(M.code) as HTMLInputElement).value).toBe('');
    expect((dialog.getByLabelText(M.school) as HTMLSelectElement).value).toBe('');
  });
});

describe('deleting a coupon', () => {
  it('asks first, then deletes it and says so', async () => {
    answers.set('DELETE /api/coupons/3', { message: COUPON_MSG.deleted });
    renderTab();
    await userEvent.click(await screen.findByRole('button', { name: M.deleteLabel('OLD-DEAL') }));
    const ask = within(await screen.findByRole('dialog', { name: M.deleteQuestion }));
    ask.getByText(M.deleteWarning('OLD-DEAL'));
    expect(sent('DELETE')).toHaveLength(0);
    await userEvent.click(ask.getByRole('button', { name: M.deleteConfirm }));
    await screen.findByText(M.deleted('OLD-DEAL'));
    expect(sent('DELETE')).toEqual([{ method: 'DELETE', url: '/api/coupons/3', body: null }]);
  });
});

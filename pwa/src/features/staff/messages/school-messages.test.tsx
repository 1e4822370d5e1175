import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { OUTREACH_MSG } from '@contract/messages';
import { STAFF_MESSAGES_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import { SMS_PREVIEW_MSG as S } from '@contract/season-sms-messages';
import type { MessageSchedule, MessagesPreview, MessageStats, StaffGuardian } from '@contract/outreach';
import type { StaffSchool } from '@contract/schools';
import { Toaster } from '../../../components/ui/toast';
import { fakeStaffApi } from '../../../../test/staff-api';
import { SchoolMessages } from './school-messages';

const { calls, answers } = fakeStaffApi();

const school: StaffSchool = {
  id: 4,
  name: 'Kgale Hill Primary',
  slug: 'kgale-hill',
  contactEmail: 'office@kgale.example',
  contactPhone: null,
  address: null,
  closingDate: '2026-12-11',
  pictureDay: '2026-11-20',
  priceListId: null,
  priceListName: null,
  accessMode: 'school_password',
  hasPassword: true,
  albums: [
    { id: 9, name: 'Grade 4A', schoolId: 4, hasPassword: false, photoCount: 30, status: 'published', publishAt: null, pendingReview: 0 },
    { id: 10, name: 'Grade 4B', schoolId: 4, hasPassword: false, photoCount: 28, status: 'draft', publishAt: null, pendingReview: 0 },
  ],
  createdAt: '2026-11-01T08:00:00.000Z',
};

const schedule: MessageSchedule = { photosOnline: true, reminderDays: [7, 3, 1], sendFrom: '08:00', sendUntil: '19:00', isDefault: true };

const noSms: MessagesPreview['messages'][number]['sms'] = { text: 'Kgale Hill Primary photos are online: https://shop.example/s/abcdefghijkl', encoding: 'GSM-7', units: 70, segments: 1, recipients: [], skipped: [], costThebe: 0 };
const smsText = 'Photos of Neo Kgosi (Kgale Hill Primary) are online: https://shop.example/s/abcdefghijkl Order by Fri 11 Dec.\nStop SMS: https://shop.example/s/mnopqrstuvwx';

const preview: MessagesPreview = {
  timezone: 'Africa/Gaborone',
  smsCostThebe: 25,
  schedule,
  pictureDay: '2026-11-20',
  closingDate: '2026-12-11',
  messages: [
    {
      kind: 'photos_online',
      label: 'Photos are online',
      albumId: 9,
      albumName: 'Grade 4A',
      sendAt: '2026-11-28T06:00:00.000Z',
      status: 'planned',
      reason: null,
      recipients: [
        { email: 'neo.mum@example.com', source: 'subscribed', studentName: 'Neo Kgosi' },
        { email: 'zoe.dad@example.com', source: 'roster', studentName: 'Zoë Letsholo' },
      ],
      skipped: [{ email: 'paid@example.com', reason: 'Already paid for this class' }],
      sms: {
        text: smsText,
        encoding: 'GSM-7',
        units: 140,
        segments: 1,
        recipients: [
          { phone: '+26771234567', studentName: 'Neo Kgosi' },
          { phone: '+26772345678', studentName: 'Neo Kgosi' },
        ],
        skipped: [{ phone: '+26773456789', reason: 'Not confirmed' }],
        costThebe: 50,
      },
    },
    {
      kind: 'photos_online',
      label: 'Photos are online',
      albumId: 10,
      albumName: 'Grade 4B',
      sendAt: null,
      status: 'unplanned',
      reason: 'The class is not published yet',
      recipients: [],
      skipped: [],
      sms: noSms,
    },
    {
      kind: 'closing_reminder',
      label: 'Ordering closes soon',
      albumId: null,
      albumName: null,
      sendAt: '2026-11-24T17:30:00.000Z',
      status: 'sent',
      reason: null,
      recipients: [{ email: 'neo.mum@example.com', source: 'subscribed', studentName: 'Neo Kgosi' }],
      skipped: [],
      sms: { ...noSms, encoding: 'UCS-2', units: 150, segments: 3, recipients: [{ phone: '+26771234567', studentName: 'Neo Kgosi' }], costThebe: 75 },
    },
  ],
};

const stats: MessageStats = {
  scheduled: 3,
  sent: 12,
  failed: 1,
  ordersWithin7Days: 4,
  revenueWithin7Days: 123450,
  byKind: [{ kind: 'photos_online', label: 'Photos are online', scheduled: 1, sent: 10, failed: 1, orders: 3, revenue: 98000 }],
  sms: { scheduled: 2, sent: 9, delivered: 7, failed: 2 },
};

const guardian: StaffGuardian = {
  id: 5,
  email: 'neo.mum@example.com',
  phone: null,
  confirmed: true,
  phoneConfirmed: false,
  marketing: true,
  unsubscribed: false,
  consentVersion: '2026-11-27',
  consentAt: '2026-11-27T08:15:00.000Z',
  follows: [{ studentId: 1, studentName: 'Neo Kgosi', albumName: 'Grade 4A' }],
};

const admin = { id: 1, email: 'admin@studio.test', firstName: 'A', lastName: 'B', role: 'admin', createdAt: '2026-11-20T08:00:00.000Z' };

beforeEach(() => {
  // jsdom has no ResizeObserver; Radix's checkbox inside a form measures itself with one.
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
  window.localStorage.setItem('user', JSON.stringify(admin));
  answers.set('GET /api/schools/by-id/4', school);
  answers.set('GET /api/schools/4/messages/schedule', schedule);
  answers.set('GET /api/schools/4/messages/preview', preview);
  answers.set('GET /api/schools/4/messages/stats', stats);
  answers.set('GET /api/schools/4/guardians', { guardians: [guardian] });
});

function renderScreen() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })}>
      <MemoryRouter>
        <SchoolMessages schoolId={4} />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
}

const puts = () => calls.filter((call) => call.method === 'PUT');
const fetched = (url: string) => calls.filter((call) => call.method === 'GET' && call.url === url).length;
/** The text of the elements an element's aria-describedby names. */
const description = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('the season dates', () => {
  it('shows the picture day to edit, each class as published or not, and the closing date with where it is edited', async () => {
    renderScreen();
    await screen.findByRole('heading', { name: M.title('Kgale Hill Primary') });
    expect((screen.getByLabelText(M.pictureDay) as HTMLInputElement).value).toBe('2026-11-20');
    const classes = within(screen.getByRole('list', { name: M.publishHeading }));
    expect(classes.getByText('Grade 4A').closest('li')?.textContent).toContain('Published');
    expect(classes.getByText('Grade 4B').closest('li')?.textContent).toContain('Draft');
    screen.getByText('11 Dec 2026');
    expect(screen.getByRole('link', { name: M.editClosingDate }).getAttribute('href')).toBe('/photographer/dashboard?tab=schools');
  });

  it('saves a new picture day on the school', async () => {
    answers.set('PATCH /api/schools/4', { ...school, pictureDay: '2026-11-21' });
    renderScreen();
    const input = await screen.findByLabelText(M.pictureDay);
    fireEvent.change(input, { target: { value: '2026-11-21' } });
    await userEvent.click(screen.getByRole('button', { name: M.savePictureDay }));
    await screen.findByText(M.pictureDaySaved('21 Nov 2026'));
    expect(calls.find((call) => call.method === 'PATCH')).toEqual({ method: 'PATCH', url: '/api/schools/4', body: { pictureDay: '2026-11-21' } });
  });
});

describe('the schedule form', () => {
  it('names the wrong fields and sends nothing, then sends the schedule as the contract reads it', async () => {
    answers.set('PUT /api/schools/4/messages/schedule', { photosOnline: false, reminderDays: [14, 7, 1], sendFrom: '08:00', sendUntil: '18:30', isDefault: false });
    renderScreen();
    const form = within(await screen.findByRole('form', { name: M.scheduleHeading }));
    expect(form.getAllByRole('listitem').map((item) => item.textContent)).toEqual([`${M.reminderDay(7)}×`, `${M.reminderDay(3)}×`, `${M.reminderDay(1)}×`]);

    // A window that ends before it starts, and a reminder too far ahead.
    fireEvent.change(form.getByLabelText(M.sendUntil), { target: { value: '07:00' } });
    await userEvent.type(form.getByLabelText(M.addReminderLabel), '61');
    await userEvent.click(form.getByRole('button', { name: M.addReminder }));
    expect(form.getByText(OUTREACH_MSG.reminderDays)).toBeTruthy();
    await userEvent.click(form.getByRole('button', { name: M.saveSchedule }));
    expect(description(form.getByLabelText(M.sendUntil))).toBe(OUTREACH_MSG.windowOrder);
    expect(puts()).toHaveLength(0);

    // A day already there is refused too.
    await userEvent.clear(form.getByLabelText(M.addReminderLabel));
    await userEvent.type(form.getByLabelText(M.addReminderLabel), '7');
    await userEvent.click(form.getByRole('button', { name: M.addReminder }));
    form.getByText(M.reminderTaken(7));

    // Fixed: until 18:30, no reminder 3 days before, one 14 days before, no "photos are online".
    fireEvent.change(form.getByLabelText(M.sendUntil), { target: { value: '18:30' } });
    await userEvent.click(form.getByRole('button', { name: M.removeReminder(3) }));
    await userEvent.clear(form.getByLabelText(M.addReminderLabel));
    await userEvent.type(form.getByLabelText(M.addReminderLabel), '14');
    await userEvent.click(form.getByRole('button', { name: M.addReminder }));
    await userEvent.click(form.getByRole('checkbox', { name: M.photosOnline }));
    const previews = fetched('/api/schools/4/messages/preview');
    await userEvent.click(form.getByRole('button', { name: M.saveSchedule }));
    await screen.findByText(M.scheduleSaved);
    expect(puts()).toEqual([{ method: 'PUT', url: '/api/schools/4/messages/schedule', body: { photosOnline: false, reminderDays: [14, 7, 1], sendFrom: '08:00', sendUntil: '18:30' } }]);
    expect(form.queryByText(OUTREACH_MSG.windowOrder)).toBeNull();
    // The preview follows the schedule: it is asked again; the badge says the school changed it.
    await waitFor(() => expect(fetched('/api/schools/4/messages/preview')).toBe(previews + 1));
    await screen.findByText(M.scheduleCustom);
  });

  it("shows the server's field errors under their field", async () => {
    renderScreen();
    const form = within(await screen.findByRole('form', { name: M.scheduleHeading }));
    vi.mocked(fetch).mockResolvedValueOnce(
      new Response(JSON.stringify({ message: OUTREACH_MSG.tooManyReminders, errors: { reminderDays: OUTREACH_MSG.tooManyReminders, sendFrom: OUTREACH_MSG.timeFormat } }), {
        status: 400,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    await userEvent.click(form.getByRole('button', { name: M.saveSchedule }));
    await waitFor(() => expect(description(form.getByLabelText(M.sendFrom))).toBe(OUTREACH_MSG.timeFormat));
    expect(form.getByText(OUTREACH_MSG.tooManyReminders)).toBeTruthy();
  });

  it('goes back to the default schedule', async () => {
    const custom: MessageSchedule = { photosOnline: false, reminderDays: [2], sendFrom: '09:00', sendUntil: '17:00', isDefault: false };
    answers.set('GET /api/schools/4/messages/schedule', custom);
    answers.set('PUT /api/schools/4/messages/schedule', { ...schedule, isDefault: false });
    renderScreen();
    await screen.findByText(M.scheduleCustom);
    const form = within(await screen.findByRole('form', { name: M.scheduleHeading }));
    await userEvent.click(form.getByRole('button', { name: M.backToDefault }));
    await screen.findByText(M.scheduleReset);
    expect(puts()).toEqual([{ method: 'PUT', url: '/api/schools/4/messages/schedule', body: { photosOnline: true, reminderDays: [7, 3, 1], sendFrom: '08:00', sendUntil: '19:00' } }]);
    await waitFor(() => expect((form.getByLabelText(M.sendFrom) as HTMLInputElement).value).toBe('08:00'));
    // The API keeps the saved row (isDefault false), but what it sends is the default's.
    await screen.findByText(M.scheduleDefault);
    expect((form.getByRole('button', { name: M.backToDefault }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('the preview', () => {
  it('lists each message with its class, Botswana time and status, and opens its recipients and those left out', async () => {
    renderScreen();
    const table = within(await screen.findByRole('table', { name: M.previewTable }));
    const rows = table.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['Photos are online', 'Grade 4A', '28 Nov 2026, 08:00', 'Planned', M.showRecipients(2, 1), `2 phones1 SMS (GSM-7)Estimated cost: About P0.50`],
      ['Photos are online', 'Grade 4B', M.notPlanned, `Not planned${'The class is not published yet'}`, M.showRecipients(0, 0), S.noSms],
      ['Ordering closes soon', M.wholeSchool, '24 Nov 2026, 19:30', 'Sent', M.showRecipients(1, 0), `1 phone${S.segments(3, 'UCS-2')}Estimated cost: About P0.75`],
    ]);
    // A message longer than one SMS says so, as a warning.
    expect(table.getByText(S.segments(3, 'UCS-2')).className).toContain('badge');
    expect(table.queryByRole('list')).toBeNull();

    const open = table.getByRole('button', { name: M.showRecipients(2, 1) });
    await userEvent.click(open);
    expect(open.getAttribute('aria-expanded')).toBe('true');
    const recipients = within(table.getByRole('list', { name: M.recipientsOf('Photos are online', 'Grade 4A') }));
    expect(recipients.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      `neo.mum@example.comNeo Kgosi${M.sourceLabels.subscribed}`,
      `zoe.dad@example.comZoë Letsholo${M.sourceLabels.roster}`,
    ]);
    const skipped = within(table.getByRole('list', { name: M.skippedHeading }));
    expect(skipped.getByRole('listitem').textContent).toBe('paid@example.comAlready paid for this class');
    // The SMS next to the e-mail: its text, segments and cost, its phones and those left out.
    expect(table.getByText((_, el) => el?.classList.contains('sms-text') === true).textContent).toBe(smsText);
    expect(within(table.getByRole('list', { name: S.heading })).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['+26771234567Neo Kgosi', '+26772345678Neo Kgosi']);
    expect(within(table.getByRole('list', { name: S.skipped })).getByRole('listitem').textContent).toBe('+26773456789Not confirmed');
    await userEvent.click(table.getByRole('button', { name: M.hideRecipients }));
    expect(table.queryByRole('list')).toBeNull();
  });

  it('says when nothing is planned', async () => {
    answers.set('GET /api/schools/4/messages/preview', { ...preview, messages: [] });
    renderScreen();
    await screen.findByText(M.previewEmpty);
  });

  it('says so when the preview fails', async () => {
    answers.delete('GET /api/schools/4/messages/preview');
    renderScreen();
    await screen.findByText(M.previewFailed);
  });
});

describe('statistics and the test to myself', () => {
  it('shows the totals with the revenue in Pula, and sends the chosen test', async () => {
    answers.set('POST /api/schools/4/messages/test', { sentTo: 'admin@studio.test', message: 'A test of "Ordering closes soon" was sent to admin@studio.test.' });
    renderScreen();
    const totals = within(await screen.findByRole('list', { name: M.statsLabel }));
    expect(totals.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      `${M.scheduled}3`,
      `${M.sent}12`,
      `${M.failed}1`,
      `${M.ordersWithin(7)}4`,
      `${M.revenueWithin(7)}P1234.50`,
    ]);
    within(screen.getByRole('table', { name: M.statsByKind })).getByText('P980.00');
    const sms = within(screen.getByRole('list', { name: M.smsStatsLabel }));
    expect(sms.getAllByRole('listitem').map((item) => item.textContent)).toEqual([`${M.smsSent}9`, `${M.smsDelivered}7`, `${M.smsFailed}2`]);

    const test = within(screen.getByRole('form', { name: M.testHeading }));
    await userEvent.selectOptions(test.getByLabelText(M.testKind), OUTREACH_MSG.kindLabels.closing_reminder);
    await userEvent.click(test.getByRole('button', { name: M.sendTest }));
    const card = within(screen.getByRole('heading', { name: M.testHeading }).closest('.card-body') as HTMLElement);
    await waitFor(() => expect(card.getByRole('status').textContent).toBe('A test of "Ordering closes soon" was sent to admin@studio.test.'));
    expect(calls.find((call) => call.method === 'POST')).toEqual({ method: 'POST', url: '/api/schools/4/messages/test', body: { kind: 'closing_reminder' } });
  });
});

describe('the guardians', () => {
  it('lists each guardian with their consent, and erases one only after staff confirm', async () => {
    answers.set('DELETE /api/guardians/5', { message: 'Erased' });
    renderScreen();
    const table = within(await screen.findByRole('table', { name: M.guardiansTable }));
    const row = within(table.getByText('neo.mum@example.com').closest('tr')!);
    row.getByText(M.confirmed);
    row.getByText(M.marketing);
    expect(row.queryByText(M.unsubscribed)).toBeNull();
    row.getByText(M.consentLine('2026-11-27', '27 Nov 2026, 10:15'));
    row.getByText(M.followsChild('Neo Kgosi', 'Grade 4A'));

    await userEvent.click(row.getByRole('button', { name: M.eraseLabel('neo.mum@example.com') }));
    let dialog = within(await screen.findByRole('dialog', { name: M.eraseQuestion }));
    dialog.getByText(M.eraseWarning('neo.mum@example.com'));
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    const before = fetched('/api/schools/4/guardians');
    await userEvent.click(row.getByRole('button', { name: M.eraseLabel('neo.mum@example.com') }));
    dialog = within(await screen.findByRole('dialog', { name: M.eraseQuestion }));
    await userEvent.click(dialog.getByRole('button', { name: M.erase }));
    await screen.findByText(M.erased('neo.mum@example.com'));
    expect(calls.filter((call) => call.method === 'DELETE')).toEqual([{ method: 'DELETE', url: '/api/guardians/5', body: null }]);
    await waitFor(() => expect(fetched('/api/schools/4/guardians')).toBe(before + 1));
  });

  it('shows a guardian reached by phone with the number, and one whose number waits for its code', async () => {
    const byPhone: StaffGuardian = { ...guardian, id: 6, email: null, phone: '+26771234567', phoneConfirmed: true, marketing: false };
    const both: StaffGuardian = { ...guardian, id: 7, email: 'kabo.dad@example.com', phone: '+26772345678', phoneConfirmed: false, marketing: false };
    answers.set('GET /api/schools/4/guardians', { guardians: [byPhone, both] });
    renderScreen();
    const table = within(await screen.findByRole('table', { name: M.guardiansTable }));
    const phoneRow = within(table.getByText('+26771234567').closest('tr')!);
    phoneRow.getByText(M.confirmed);
    expect(phoneRow.queryByText(M.phoneNotConfirmed)).toBeNull();
    const bothRow = within(table.getByText(M.contact('kabo.dad@example.com', '+26772345678')).closest('tr')!);
    bothRow.getByText(M.phoneNotConfirmed);
  });

  it('says when nobody subscribed', async () => {
    answers.set('GET /api/schools/4/guardians', { guardians: [] });
    renderScreen();
    await screen.findByText(M.guardiansEmpty);
  });
});

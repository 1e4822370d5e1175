import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STAFF_SMALL_MSG } from '@contract/staff-screen-messages';
import { STUDENT_PHONE_MSG } from '@contract/code-recovery';
import type { AlbumSummary } from '@contract/schools';
import type { Student } from '@contract/students';
import { RosterPanel } from './roster-panel';

const album: AlbumSummary = { id: 9, name: 'Grade 4A', schoolId: 2, hasPassword: false, photoCount: 3, status: 'published', publishAt: null, pendingReview: 0 };
const student = (id: number, name: string, photoCount: number): Student => ({ id, albumId: album.id, name, number: null, guardianEmail: null, guardianPhone: null, code: 'ABCD-EFGH', doNotPublish: false, photoCount, defaultPhotoId: null, createdAt: '2026-11-26T10:00:00.000Z' });

beforeEach(() => {
  window.localStorage.setItem('token', 'staff-token');
  // Erase is offered to admins only (docs/accounts.md, "What a photographer may not do").
  window.localStorage.setItem('user', JSON.stringify({ id: 1, email: 'a@studio.test', firstName: 'A', lastName: 'B', role: 'admin', createdAt: '2026-11-20T08:00:00.000Z' }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) =>
      String(input) === '/api/albums/9/students'
        ? new Response(JSON.stringify([student(1, 'Neo Kgosi', 3), student(2, 'Zoë Letsholo', 0)]), { status: 200, headers: { 'Content-Type': 'application/json' } })
        : new Response('{}', { status: 404, headers: { 'Content-Type': 'application/json' } }),
    ),
  );
});

afterEach(() => vi.unstubAllGlobals());

/** The text of the elements an element's aria-describedby names. */
const description = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('the students table', () => {
  it('says what Remove and what Erase do, on each button and once under the table', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RosterPanel album={album} />
      </QueryClientProvider>,
    );
    const table = within(await screen.findByRole('table', { name: 'Students of Grade 4A' }));
    for (const name of ['Neo Kgosi', 'Zoë Letsholo']) {
      const remove = table.getByRole('button', { name: `Remove ${name}` });
      const erase = table.getByRole('button', { name: `Erase ${name}` });
      expect(description(remove)).toBe(STAFF_SMALL_MSG.removeHelp);
      expect(description(erase)).toBe(STAFF_SMALL_MSG.eraseHelp);
      expect(remove.getAttribute('title')).toBe(STAFF_SMALL_MSG.removeHelp);
      expect(erase.getAttribute('title')).toBe(STAFF_SMALL_MSG.eraseHelp);
    }
    expect(screen.getAllByText(STAFF_SMALL_MSG.removeHelp)).toHaveLength(1);
    expect(screen.getAllByText(STAFF_SMALL_MSG.eraseHelp)).toHaveLength(1);
  });

  it('offers a photographer Remove but not Erase, which is for admins', async () => {
    window.localStorage.setItem('user', JSON.stringify({ id: 2, email: 'p@studio.test', firstName: 'P', lastName: 'Q', role: 'photographer', createdAt: '2026-11-20T08:00:00.000Z' }));
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RosterPanel album={album} />
      </QueryClientProvider>,
    );
    const table = within(await screen.findByRole('table', { name: 'Students of Grade 4A' }));
    expect(table.getByRole('button', { name: 'Remove Neo Kgosi' })).toBeTruthy();
    expect(table.queryByRole('button', { name: 'Erase Neo Kgosi' })).toBeNull();
  });

  it('shows each guardian phone under the child\'s name, as people read it (docs/sms.md, "Codes recovered by phone")', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        new Response(JSON.stringify([{ ...student(1, 'Neo Kgosi', 3), guardianPhone: '+26774000111' }, { ...student(2, 'Zoë Letsholo', 0), guardianPhone: '+27821234567' }, student(3, 'Kabo Dube', 0)]), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
      ),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RosterPanel album={album} />
      </QueryClientProvider>,
    );
    const table = within(await screen.findByRole('table', { name: 'Students of Grade 4A' }));
    // Under the child's name, with its label for screen readers (a column of its own made a tablet's row scroll sideways).
    const nameCell = (name: string) => table.getByRole('rowheader', { name: new RegExp(`^${name}`) });
    expect(nameCell('Neo Kgosi').textContent).toContain(`${STUDENT_PHONE_MSG.column}: +267 74 000 111`);
    expect(nameCell('Zoë Letsholo').textContent).toContain(`${STUDENT_PHONE_MSG.column}: +27821234567`);
    expect(nameCell('Kabo Dube').textContent).not.toContain(STUDENT_PHONE_MSG.column);
    // The add form asks for it too.
    expect(screen.getByRole('form', { name: 'Add a student' }).querySelector('input[type="tel"]')).toBeTruthy();
  });
});

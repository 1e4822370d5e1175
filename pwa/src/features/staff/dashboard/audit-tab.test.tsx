import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUDIT_MSG, type AuditPage } from '@contract/audit';
import type { AlbumSummary } from '@contract/schools';
import type { Student } from '@contract/students';
import { Dashboard } from './dashboard';
import { RosterPanel } from '../classes/roster-panel';

const user = (role: 'admin' | 'photographer') => JSON.stringify({ id: 1, email: `${role}@studio.test`, firstName: 'A', lastName: 'B', role, createdAt: '2026-11-20T08:00:00.000Z' });
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const page: AuditPage = {
  entries: [
    {
      id: 7,
      action: 'do_not_publish_cleared',
      at: '2026-12-01T08:30:00.000Z',
      staff: { id: 1, email: 'admin@studio.test', role: 'admin' },
      targetId: 12,
      subject: 'Neo Kgosi',
      school: { id: 2, name: 'Thornhill Primary' },
      album: { id: 9, name: 'Grade 4A' },
      count: null,
    },
    {
      id: 6,
      action: 'student_erased',
      at: '2026-11-30T08:30:00.000Z',
      staff: { id: 1, email: 'admin@studio.test', role: 'admin' },
      targetId: 11,
      subject: null,
      school: { id: 2, name: 'Thornhill Primary' },
      album: { id: 9, name: 'Grade 4A' },
      count: 3,
    },
  ],
  nextBefore: null,
};

beforeEach(() => {
  window.localStorage.setItem('token', 'staff-token');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.startsWith('/api/audit-log')) return json(page);
      if (url === '/api/albums/9/students') return json([{ id: 12, albumId: 9, name: 'Neo Kgosi', number: null, guardianEmail: null, guardianPhone: null, code: 'ABCD-EFGH', doNotPublish: true, photoCount: 2, defaultPhotoId: null, createdAt: '2026-11-26T10:00:00.000Z' } satisfies Student]);
      return json({ message: 'Not found' }, 404);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

function dashboard(tab: string) {
  render(
    <QueryClientProvider client={client()}>
      <MemoryRouter initialEntries={[`/photographer/dashboard?tab=${tab}`]}>
        <Dashboard />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the audit log tab (docs/accounts.md, "The audit log")', () => {
  it('is offered to an admin and lists who did what, and when', async () => {
    window.localStorage.setItem('user', user('admin'));
    dashboard('audit');
    expect(screen.getByRole('tab', { name: AUDIT_MSG.tab })).toBeTruthy();
    const table = within(await screen.findByRole('table', { name: AUDIT_MSG.title }));
    expect(table.getByText(`${AUDIT_MSG.action.do_not_publish_cleared}: Neo Kgosi`)).toBeTruthy();
    expect(table.getByText(`${AUDIT_MSG.action.student_erased}: child #11 (erased) (3 photos)`)).toBeTruthy();
    expect(table.getAllByText('Thornhill Primary / Grade 4A')).toHaveLength(2);
  });

  it('is not offered to a photographer, even when the address asks for it', async () => {
    window.localStorage.setItem('user', user('photographer'));
    dashboard('audit');
    expect(screen.queryByRole('tab', { name: AUDIT_MSG.tab })).toBeNull();
    expect(screen.queryByRole('table', { name: AUDIT_MSG.title })).toBeNull();
    expect(vi.mocked(fetch).mock.calls.some(([url]) => String(url).startsWith('/api/audit-log'))).toBe(false);
  });
});

describe('a child marked do not publish', () => {
  const album: AlbumSummary = { id: 9, name: 'Grade 4A', schoolId: 2, hasPassword: false, photoCount: 3, status: 'published', publishAt: null, pendingReview: 0 };
  const roster = () =>
    render(
      <QueryClientProvider client={client()}>
        <RosterPanel album={album} />
      </QueryClientProvider>,
    );

  it('cannot be cleared by a photographer, and says why', async () => {
    window.localStorage.setItem('user', user('photographer'));
    roster();
    const box = await screen.findByRole('checkbox', { name: 'Do not publish Neo Kgosi' });
    expect(box.hasAttribute('disabled')).toBe(true);
    expect(box.getAttribute('title')).toBe(AUDIT_MSG.clearDoNotPublishAdminOnly);
  });

  it('can be cleared by an admin', async () => {
    window.localStorage.setItem('user', user('admin'));
    roster();
    const box = await screen.findByRole('checkbox', { name: 'Do not publish Neo Kgosi' });
    expect(box.hasAttribute('disabled')).toBe(false);
  });
});

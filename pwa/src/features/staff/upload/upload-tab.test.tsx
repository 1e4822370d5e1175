import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, useLocation } from 'react-router-dom';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MatchingSummary } from '@contract/matching';
import { MATCHING_MSG } from '@contract/messages';
import { STAFF_SMALL_MSG } from '@contract/staff-screen-messages';
import type { AlbumSummary, StaffSchool } from '@contract/schools';
import type { Student } from '@contract/students';
import { uploadDb } from '../../../lib/upload-queue-db';
import { MatchingSummaryCard, UNPHOTOGRAPHED_NAMED } from './matching-summary';
import { chosenClass, UploadTab } from './upload-tab';

const album = (id: number, name: string, schoolId: number): AlbumSummary => ({ id, name, schoolId, hasPassword: false, photoCount: 0, status: 'published', publishAt: null, pendingReview: 0 });
const school = (id: number, name: string, albums: AlbumSummary[]): StaffSchool => ({
  id,
  name,
  slug: `school-${id}`,
  contactEmail: 'office@example.com',
  contactPhone: null,
  address: null,
  closingDate: null,
  pictureDay: null,
  priceListId: null,
  priceListName: null,
  accessMode: 'student_codes',
  hasPassword: false,
  albums,
  createdAt: '2026-11-26T10:00:00.000Z',
});
const SCHOOLS = [school(1, 'Demo Primary', [album(5, 'Class 1A', 1)]), school(2, 'Review School', [album(9, 'Grade 4A', 2), album(10, 'Grade 4B', 2)])];
const student = (id: number, name: string, photoCount: number): Student => ({ id, albumId: 9, name, number: null, guardianEmail: null, guardianPhone: null, code: 'ABCD-EFGH', doNotPublish: false, photoCount, defaultPhotoId: null, createdAt: '2026-11-26T10:00:00.000Z' });

let answers: Map<string, unknown>;

beforeEach(async () => {
  answers = new Map([['/api/schools', SCHOOLS]]);
  window.localStorage.setItem('token', 'staff-token');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const answer = answers.get(String(input));
      return answer === undefined
        ? new Response('{"message":"not here"}', { status: 404, headers: { 'Content-Type': 'application/json' } })
        : new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  await uploadDb().sessions.clear();
});

afterEach(() => vi.unstubAllGlobals());

function Address() {
  const location = useLocation();
  return <output aria-label="address">{location.search}</output>;
}

function renderAt(url: string, node: React.ReactNode) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[url]}>
        {node}
        <Address />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const schoolPicker = () => screen.findByLabelText<HTMLSelectElement>('School');
const classPicker = () => screen.getByRole<HTMLSelectElement>('combobox', { name: 'Class' });

describe('the upload pickers', () => {
  it('open on the school and class the class page links to', async () => {
    renderAt('/photographer/dashboard?tab=upload&school=2&class=9', <UploadTab />);
    expect((await schoolPicker()).value).toBe('2');
    expect(classPicker().value).toBe('9');
  });

  it('keep the class of the latest upload on this device, and the address keeps a new choice over a reload', async () => {
    await uploadDb().sessions.bulkPut([
      { albumId: 5, sessionId: 'session-old', nextSeq: 3, updatedAt: 1_000, summary: null },
      { albumId: 10, sessionId: 'session-new', nextSeq: 3, updatedAt: 2_000, summary: null },
    ]);
    renderAt('/photographer/dashboard?tab=upload', <UploadTab />);
    await waitFor(async () => expect((await schoolPicker()).value).toBe('2'));
    expect(classPicker().value).toBe('10');
    await userEvent.selectOptions(classPicker(), '9');
    expect(classPicker().value).toBe('9');
    expect(new URLSearchParams(screen.getByRole('status', { name: 'address' }).textContent ?? '').get('class')).toBe('9');
  });

  it('choose no class that is gone, and keep an explicit "no school"', () => {
    expect(chosenClass(SCHOOLS, new URLSearchParams('school=2&class=5'), null)).toEqual({ schoolId: 2, albumId: null });
    expect(chosenClass(SCHOOLS, new URLSearchParams('class=9'), null)).toEqual({ schoolId: 2, albumId: 9 });
    expect(chosenClass(SCHOOLS, new URLSearchParams(''), 77)).toEqual({ schoolId: null, albumId: null });
    expect(chosenClass(SCHOOLS, new URLSearchParams('school='), 9)).toEqual({ schoolId: null, albumId: null });
  });
});

describe('the summary of the latest upload', () => {
  const summary: MatchingSummary = { sessionId: 'session-new', photos: 4, cards: 1, byCard: 2, byName: 1, byStaff: 0, inTray: 1, reported: [] };
  const place = () => ({ schoolId: 2, schoolName: 'Review School', albumName: 'Grade 4A' });

  it('says how many files were uploaded and names the children who got no photos', async () => {
    await uploadDb().sessions.put({ albumId: 9, sessionId: 'session-new', nextSeq: 5, updatedAt: 2_000, summary });
    const roster = [student(1, 'Neo Kgosi', 3), ...Array.from({ length: UNPHOTOGRAPHED_NAMED + 2 }, (_, index) => student(10 + index, `Child ${String.fromCharCode(65 + index)}`, 0))];
    answers.set('/api/albums/9/students', roster);
    renderAt('/photographer/dashboard?tab=upload', <MatchingSummaryCard placeOf={place} />);
    const region = await screen.findByRole('region', { name: 'Matching of the latest upload' });
    expect(region.textContent).toContain(`${STAFF_SMALL_MSG.filesUploaded(5)}.`);
    expect(region.textContent).toContain(MATCHING_MSG.summaryMatched(2, 1));
    await screen.findByText('No photos yet of Child A, Child B, Child C, Child D, Child E, Child F, Child G, Child H and 2 more.');
    expect(region.textContent).not.toContain('Neo Kgosi');
  });

  it('says so when every child has photos', async () => {
    await uploadDb().sessions.put({ albumId: 9, sessionId: 'session-new', nextSeq: 5, updatedAt: 2_000, summary: { ...summary, photos: 1, cards: 0 } });
    answers.set('/api/albums/9/students', [student(1, 'Neo Kgosi', 1)]);
    renderAt('/photographer/dashboard?tab=upload', <MatchingSummaryCard placeOf={place} />);
    await screen.findByText(STAFF_SMALL_MSG.everyChildHasPhotos);
    expect(screen.getByRole('region', { name: 'Matching of the latest upload' }).textContent).toContain(`${STAFF_SMALL_MSG.filesUploaded(1)}.`);
  });
});

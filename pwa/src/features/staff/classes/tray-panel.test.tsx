import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TrayCard } from '@contract/matching';
import { MATCHING_MSG } from '@contract/messages';
import { TRAY_MSG } from '@contract/staff-screen-messages';
import type { TrayItem, TrayResponse } from '@contract/photos';
import type { AlbumSummary } from '@contract/schools';
import type { Student } from '@contract/students';
import { Toaster } from '../../../components/ui/toast';
import { fakeStaffApi } from '../../../../test/staff-api';
import { staffKeys } from '../api/keys';
import { guessFor, TrayPanel } from './tray-panel';

const album: AlbumSummary = { id: 9, name: 'Grade 4A', schoolId: 2, hasPassword: false, photoCount: 0, status: 'published', publishAt: null, pendingReview: 0 };
const NEO = 501;
const ZOE = 502;

const photoOf = (id: number) => ({
  id,
  filename: `f${id}.jpg`,
  originalName: `IMG_${String(id).padStart(4, '0')}.JPG`,
  originalNumber: String(id).padStart(4, '0'),
  fileSize: 1000,
  albumId: album.id,
  studentName: null,
  studentId: null,
  thumbnailWidth: 320,
  thumbnailHeight: 240,
  createdAt: '2026-11-26T10:00:00.000Z',
});
const known = (studentId: number, studentName: string): TrayCard => ({ status: 'known', studentId, studentName, elsewhere: null });
const unknown: TrayCard = { status: 'unknown', studentId: null, studentName: null, elsewhere: null };
const waiting = (id: number): TrayItem => ({ photo: { ...photoOf(id), inTray: true }, card: null });
const card = (id: number, of: TrayCard): TrayItem => ({ photo: { ...photoOf(id), card: true }, card: of });

describe('the guess for a waiting photo', () => {
  it('is never the child of the card after the photo: a photo before a card is not that card\'s child', () => {
    const items = [waiting(1), card(2, known(NEO, 'Neo Kgosi')), waiting(3)];
    expect(guessFor(items, 0, 'session-1')).toBeNull();
  });

  it('is the child of the known card before the photo, however many waiting photos lie between', () => {
    const items = [card(1, known(NEO, 'Neo Kgosi')), waiting(2), waiting(3), card(4, known(ZOE, 'Zoë Letsholo'))];
    expect(guessFor(items, 1, 'session-1')).toEqual({ id: NEO, name: 'Neo Kgosi' });
    expect(guessFor(items, 2, 'session-1')).toEqual({ id: NEO, name: 'Neo Kgosi' });
  });

  it('is nobody after a card of an unknown code (the nearest card decides), and nobody without a session', () => {
    const items = [card(1, known(NEO, 'Neo Kgosi')), card(2, unknown), waiting(3)];
    expect(guessFor(items, 2, 'session-1')).toBeNull();
    expect(guessFor([card(1, known(NEO, 'Neo Kgosi')), waiting(2)], 1, '')).toBeNull();
  });
});

const { calls, answers } = fakeStaffApi();

const student = (id: number, name: string): Student => ({ id, albumId: album.id, name, number: null, guardianEmail: null, guardianPhone: null, code: 'ABCD-EFGH', doNotPublish: false, photoCount: 0, defaultPhotoId: null, createdAt: '2026-11-26T10:00:00.000Z' });

/** A session: a photo before Neo's card, the card, a photo after it (Neo's by the rule, put back in the tray by staff). */
function trayOf(): TrayResponse {
  return { waiting: 2, sessions: [{ sessionId: 'session-1', items: [waiting(1), card(2, known(NEO, 'Neo Kgosi')), waiting(3)] }] };
}

function renderTray() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  // The review sheet and the school were loaded before: they are fetched again after a change.
  client.setQueryData(staffKeys.albumReview(album.id), { loaded: true });
  client.setQueryData(staffKeys.school(album.schoolId), { loaded: true });
  render(
    <QueryClientProvider client={client}>
      <TrayPanel album={album} />
      <Toaster />
    </QueryClientProvider>,
  );
  return client;
}

const trayFetches = () => calls.filter((call) => call.method === 'GET' && call.url === '/api/albums/9/tray').length;

describe('the unmatched tray', () => {
  beforeEach(() => {
    answers.set('GET /api/albums/9/tray', trayOf());
    answers.set('GET /api/albums/9/students', [student(NEO, 'Neo Kgosi'), student(ZOE, 'Zoë Letsholo')]);
  });

  it('offers no child for the photo before a card, and a visible guess for the photo after a known card', async () => {
    answers.set('PUT /api/photos/student', { updated: 1 });
    renderTray();
    const before = within(await screen.findByRole('group', { name: 'Assign IMG_0001.JPG' }));
    expect(before.queryByRole('button', { name: /Neo Kgosi/ })).toBeNull();
    expect(before.queryByRole('button', { name: /^Guess/ })).toBeNull();
    expect(before.getByRole('button', { name: MATCHING_MSG.groupPhoto })).toBeTruthy();

    const after = within(screen.getByRole('group', { name: 'Assign IMG_0003.JPG' }));
    const guess = after.getByRole('button', { name: TRAY_MSG.guess('Neo Kgosi') });
    expect(guess.textContent).toBe('Guess: Neo Kgosi (card before)');
    // An outline button, not the big primary one: it is a guess to check.
    expect(guess.className).toContain('btn-outline');
    expect(guess.className).not.toContain('btn-primary');
    await userEvent.click(guess);
    await screen.findByText(MATCHING_MSG.assigned('Neo Kgosi'));
    expect(calls.find((call) => call.method === 'PUT')).toEqual({ method: 'PUT', url: '/api/photos/student', body: { photoIds: [3], studentId: NEO } });
  });

  it('deletes a waiting photo after asking', async () => {
    // Deleting photos is an admin's (docs/accounts.md, "What a photographer may not do").
    window.localStorage.setItem('user', JSON.stringify({ id: 1, email: 'a@studio.test', firstName: 'A', lastName: 'B', role: 'admin', createdAt: '2026-11-20T08:00:00.000Z' }));
    answers.set('DELETE /api/photos/bulk-delete', { deletedCount: 1 });
    const client = renderTray();
    const more = within(await screen.findByRole('group', { name: TRAY_MSG.otherActions('IMG_0001.JPG') }));
    await userEvent.click(more.getByRole('button', { name: TRAY_MSG.deletePhoto }));
    const dialog = within(await screen.findByRole('dialog', { name: TRAY_MSG.deletePhotoTitle }));
    dialog.getByText(TRAY_MSG.deletePhotoConfirm('IMG_0001.JPG'));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(dialog.getByRole('button', { name: TRAY_MSG.deletePhotoConfirmLabel }));
    await screen.findByText(TRAY_MSG.photoDeleted('IMG_0001.JPG'));
    expect(calls.find((call) => call.method === 'DELETE')).toEqual({ method: 'DELETE', url: '/api/photos/bulk-delete', body: { photoIds: [1] } });
    await waitFor(() => expect(trayFetches()).toBe(2));
    expect(client.getQueryState(staffKeys.albumReview(album.id))?.isInvalidated).toBe(true);
  });

  it('marks a waiting photo as a card after asking; the tray, the review sheet and the school are fetched again', async () => {
    answers.set('PUT /api/photos/card', { updated: 1 });
    const client = renderTray();
    const more = within(await screen.findByRole('group', { name: TRAY_MSG.otherActions('IMG_0003.JPG') }));
    await userEvent.click(more.getByRole('button', { name: TRAY_MSG.markCard }));
    const dialog = within(await screen.findByRole('dialog', { name: TRAY_MSG.markCardTitle }));
    dialog.getByText(TRAY_MSG.markCardConfirm('IMG_0003.JPG'));
    await userEvent.click(dialog.getByRole('button', { name: TRAY_MSG.markCard }));
    await screen.findByText(TRAY_MSG.marked('IMG_0003.JPG'));
    expect(calls.find((call) => call.url === '/api/photos/card')).toEqual({ method: 'PUT', url: '/api/photos/card', body: { photoIds: [3] } });
    await waitFor(() => expect(trayFetches()).toBe(2));
    expect(client.getQueryState(staffKeys.albumReview(album.id))?.isInvalidated).toBe(true);
    expect(client.getQueryState(staffKeys.school(album.schoolId))?.isInvalidated).toBe(true);
  });

  it('offers no action on a card photo: it is never assigned, made a group photo, or marked again', async () => {
    renderTray();
    const strip = within(await screen.findByRole('list', { name: 'Photos in the order they were taken' }));
    const cardTile = within(strip.getByRole('img', { name: 'Card photo IMG_0002.JPG' }).closest('li')!);
    expect(cardTile.queryAllByRole('button')).toHaveLength(0);
    expect(cardTile.queryAllByRole('combobox')).toHaveLength(0);
  });
});

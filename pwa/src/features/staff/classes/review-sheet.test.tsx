import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ReviewPhoto, ReviewSheet as Sheet } from '@contract/albums';
import { REVIEW_MSG } from '@contract/messages';
import { CLASS_SCREEN_MSG, TRAY_MSG } from '@contract/staff-screen-messages';
import type { AlbumSummary } from '@contract/schools';
import { Toaster } from '../../../components/ui/toast';
import { fakeStaffApi } from '../../../../test/staff-api';
import { ReviewSheet, REVIEW_PAGE_SIZE } from './review-sheet';
import { ClassPublishing, classStatus, fromLocalInput, toLocalInput } from './class-publishing';

const album: AlbumSummary = { id: 9, name: 'Grade 4A', schoolId: 2, hasPassword: false, photoCount: 0, status: 'draft', publishAt: null, pendingReview: 0 };

let nextPhoto = 1;
const photo = (over: Partial<ReviewPhoto> = {}): ReviewPhoto => {
  const id = nextPhoto++;
  return { id, label: `Photo ${id}`, originalName: `IMG_${String(id).padStart(4, '0')}.JPG`, thumbnailWidth: 320, thumbnailHeight: 240, matchedBy: 'card', pendingReview: false, placedByCard: null, ...over };
};

/** A class of `children` children with two photos each (the first child's first one waits for review), a group photo and a tray photo. */
function sheetOf(children: number): Sheet {
  nextPhoto = 1;
  const students = Array.from({ length: children }, (_, index) => {
    const card = photo({ matchedBy: null });
    const name = `Child ${String(index + 1).padStart(3, '0')}`;
    const photos = [
      photo({ pendingReview: index === 0, placedByCard: { photoId: card.id, originalName: card.originalName } }),
      photo({ placedByCard: { photoId: card.id, originalName: card.originalName } }),
    ];
    return { id: 1000 + index, name, number: null, doNotPublish: false, defaultPhotoId: null, photos, cards: [{ photoId: card.id, originalName: card.originalName }], summary: REVIEW_MSG.childSummary(name, 2, [card.originalName]) };
  });
  const group = [photo({ matchedBy: 'staff' })];
  const tray = [photo({ matchedBy: null })];
  const count = students.length * 2 + 2;
  return {
    album: { id: album.id, name: album.name, schoolId: 2, hasPassword: false, photoCount: count, status: 'draft', publishAt: null, pendingReview: 1, archived: false, hasRoster: true },
    students,
    group,
    tray,
    counts: { photos: count, cards: children, tray: 1, pendingReview: 1, visibleNow: 0, visibleAfterPublish: count - 1 },
  };
}

const { calls, answers } = fakeStaffApi();

function renderWithQueries(node: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      {node}
      <Toaster />
    </QueryClientProvider>,
  );
}

const imageCalls = () => calls.filter((call) => call.url.startsWith('/api/images/'));

describe('the review sheet', () => {
  it('shows a 300-child class 20 children at a time, with only their images asked for', async () => {
    answers.set('GET /api/albums/9/review', sheetOf(300));
    renderWithQueries(<ReviewSheet album={album} />);
    await screen.findByRole('heading', { name: /^Children/ });
    const children = () => screen.getAllByRole('heading', { level: 4 }).map((heading) => heading.textContent);
    expect(children()).toHaveLength(REVIEW_PAGE_SIZE);
    expect(children()[0]).toBe('Child 001: 2 photos, placed by card IMG_0001.JPG');
    expect(screen.getByText('Children 1–20 of 300 · Page 1 of 15')).toBeTruthy();
    // 20 children's photos with the card that placed them, and the group and tray photos: never the other 280 children's.
    await waitFor(() => expect(imageCalls().length).toBe(REVIEW_PAGE_SIZE * 3 + 2));
    for (const call of imageCalls()) expect(call.url).toMatch(/^\/api\/images\/\d+\/thumbnail\?size=small$/);
    for (const image of screen.getAllByRole('img')) expect(image.getAttribute('loading')).toBe('lazy');

    const pages = screen.getAllByRole('navigation', { name: 'Pages of children' })[0]!;
    await userEvent.click(within(pages).getByRole('button', { name: 'Page 15' }));
    expect(children()[0]).toMatch(/^Child 281:/);
    expect(children()).toHaveLength(20);
    await userEvent.click(within(pages).getByRole('button', { name: 'Previous' }));
    expect(children()[0]).toMatch(/^Child 261:/);

    // Only the children with photos waiting for review.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Only children with photos waiting for review' }));
    expect(children()).toEqual(['Child 001: 2 photos, placed by card IMG_0001.JPG']);
    expect(screen.queryByRole('navigation', { name: 'Pages of children' })).toBeNull();
  });

  it('shows how each photo was placed and whether it waits for review', async () => {
    answers.set('GET /api/albums/9/review', sheetOf(2));
    renderWithQueries(<ReviewSheet album={album} />);
    const first = within(await screen.findByRole('region', { name: 'Child 001' }));
    expect(first.getAllByText('Placed by card IMG_0001.JPG')).toHaveLength(2);
    expect(first.getAllByText(REVIEW_MSG.pendingBadge)).toHaveLength(1);
    expect(within(screen.getByRole('region', { name: 'Child 002' })).queryByText(REVIEW_MSG.pendingBadge)).toBeNull();
    expect(screen.getByRole('heading', { name: 'Group photos (1)' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Unmatched tray (1)' })).toBeTruthy();
  });

  it('starts each run of a child\'s photos with the card photo that placed it, marked as never shown to families', async () => {
    const sheet = sheetOf(2);
    const [first] = sheet.students as [Sheet['students'][number]];
    // A second card placed the child's later photos, and one photo between was placed by its file name.
    const later = photo({ matchedBy: null });
    first.photos.push(
      photo({ matchedBy: 'name' }),
      photo({ placedByCard: { photoId: later.id, originalName: later.originalName } }),
      photo({ placedByCard: { photoId: later.id, originalName: later.originalName } }),
    );
    first.cards.push({ photoId: later.id, originalName: later.originalName });
    answers.set('GET /api/albums/9/review', sheet);
    renderWithQueries(<ReviewSheet album={album} />);
    const strip = within(await screen.findByRole('list', { name: 'Photos of Child 001' }));
    const tiles = strip.getAllByRole('listitem').map((item) => item.querySelector('strong')?.textContent);
    expect(tiles).toEqual([
      CLASS_SCREEN_MSG.runCard('IMG_0001.JPG'),
      'Photo 2',
      'Photo 3',
      'Photo 10',
      CLASS_SCREEN_MSG.runCard(later.originalName),
      'Photo 11',
      'Photo 12',
    ]);
    const card = strip.getByRole('img', { name: CLASS_SCREEN_MSG.runCardAlt('IMG_0001.JPG') });
    expect(card.getAttribute('loading')).toBe('lazy');
    await waitFor(() => expect(calls.some((call) => call.url === `/api/images/1/thumbnail?size=small`)).toBe(true));
    expect(strip.getAllByText(CLASS_SCREEN_MSG.runCardNote)).toHaveLength(2);
    // A card is never moved: its tile has no "Move to..." select.
    expect(within(strip.getByRole('listitem', { name: CLASS_SCREEN_MSG.runCard('IMG_0001.JPG') })).queryByRole('combobox')).toBeNull();
  });

  it('moves a photo with one choice: to another child, to the group, to the tray; the sheet is fetched again', async () => {
    const sheet = sheetOf(3);
    answers.set('GET /api/albums/9/review', sheet);
    answers.set('PUT /api/photos/student', { updated: 1 });
    answers.set('PUT /api/photos/tray', { updated: 1 });
    renderWithQueries(<ReviewSheet album={album} />);
    const move = await screen.findByRole('combobox', { name: 'Move Photo 2, IMG_0002.JPG to' });
    // The children are listed once the select is used (not 300 options for every photo up front).
    await userEvent.click(move);
    const options = within(move).getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual([REVIEW_MSG.moveTo, 'Child 002', 'Child 003', REVIEW_MSG.moveToGroup, REVIEW_MSG.moveToTray, TRAY_MSG.markCard]);

    const reviews = () => calls.filter((call) => call.url === '/api/albums/9/review').length;
    expect(reviews()).toBe(1);
    await userEvent.selectOptions(move, 'Child 003');
    await screen.findByText(REVIEW_MSG.moved('Child 003'));
    expect(calls.find((call) => call.method === 'PUT')).toEqual({ method: 'PUT', url: '/api/photos/student', body: { photoIds: [2], studentId: 1002 } });
    await waitFor(() => expect(reviews()).toBe(2));

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Move Photo 3, IMG_0003.JPG to' }), REVIEW_MSG.moveToGroup);
    await screen.findByText(REVIEW_MSG.moved(REVIEW_MSG.moveToGroup));
    expect(calls.filter((call) => call.method === 'PUT').at(-1)?.body).toEqual({ photoIds: [3], studentId: null });

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Move Photo 5, IMG_0005.JPG to' }), REVIEW_MSG.moveToTray);
    await screen.findByText(REVIEW_MSG.moved(REVIEW_MSG.moveToTray));
    expect(calls.filter((call) => call.method === 'PUT').at(-1)).toEqual({ method: 'PUT', url: '/api/photos/tray', body: { photoIds: [5] } });
    // A tray photo offers the group and the children, not the tray it is in.
    const trayPhoto = sheet.tray[0]!;
    const trayMove = screen.getByRole('combobox', { name: `Move ${trayPhoto.label}, ${trayPhoto.originalName} to` });
    expect(within(trayMove).queryByRole('option', { name: REVIEW_MSG.moveToTray })).toBeNull();
  });

  it('says "This is a card photo" of a photo whose card the scan missed, after asking; the sheet is fetched again', async () => {
    answers.set('GET /api/albums/9/review', sheetOf(2));
    answers.set('PUT /api/photos/card', { updated: 1 });
    renderWithQueries(<ReviewSheet album={album} />);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Move Photo 3, IMG_0003.JPG to' }), TRAY_MSG.markCard);
    const dialog = within(await screen.findByRole('dialog', { name: TRAY_MSG.markCardTitle }));
    dialog.getByText(TRAY_MSG.markCardConfirm('IMG_0003.JPG'));
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    await userEvent.click(dialog.getByRole('button', { name: TRAY_MSG.markCard }));
    await screen.findByText(TRAY_MSG.marked('IMG_0003.JPG'));
    expect(calls.find((call) => call.method === 'PUT')).toEqual({ method: 'PUT', url: '/api/photos/card', body: { photoIds: [3] } });
    await waitFor(() => expect(calls.filter((call) => call.url === '/api/albums/9/review')).toHaveLength(2));
  });

  it('says why a move failed', async () => {
    answers.set('GET /api/albums/9/review', sheetOf(2));
    renderWithQueries(<ReviewSheet album={album} />);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Move Photo 2, IMG_0002.JPG to' }), REVIEW_MSG.moveToGroup);
    await screen.findByText('not here');
  });
});

describe('publishing a class', () => {
  it('names the status: draft, scheduled, published', () => {
    expect(classStatus({ status: 'draft', publishAt: null }).label).toBe('Draft');
    expect(classStatus({ status: 'published', publishAt: null }).label).toBe('Published');
    expect(classStatus({ status: 'draft', publishAt: '2026-12-01T06:00:00.000Z' }).label).toBe('Publishes 1 Dec 2026, 08:00');
  });

  it('reads and writes the datetime-local field as ISO 8601 with its zone', () => {
    const iso = fromLocalInput('2026-12-01T08:00');
    expect(iso).toBe(new Date(2026, 11, 1, 8, 0).toISOString());
    expect(toLocalInput(iso)).toBe('2026-12-01T08:00');
    expect(fromLocalInput('')).toBeNull();
    expect(toLocalInput(null)).toBe('');
  });

  it('publishes a draft after saying how many photos families will see', async () => {
    const sheet = sheetOf(2);
    answers.set('GET /api/albums/9/review', sheet);
    answers.set('POST /api/albums/9/publish', { album: { ...sheet.album, status: 'published' }, released: 1, visible: 5, message: 'ok' });
    renderWithQueries(<ClassPublishing album={album} />);
    expect(screen.queryByRole('button', { name: REVIEW_MSG.unpublish })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: REVIEW_MSG.publishClass }));
    const dialog = await screen.findByRole('dialog', { name: REVIEW_MSG.publishConfirmTitle });
    await within(dialog).findByText(REVIEW_MSG.publishConfirm(sheet.counts.visibleAfterPublish));
    await userEvent.click(within(dialog).getByRole('button', { name: REVIEW_MSG.publishClass }));
    await screen.findByText(REVIEW_MSG.publishedText('Grade 4A', 5));
    expect(calls.some((call) => call.method === 'POST' && call.url === '/api/albums/9/publish')).toBe(true);
  });

  it('offers "Release N new photos" and "Back to draft" on a published class, and schedules only a draft', async () => {
    answers.set('PATCH /api/albums/9', { ...album, status: 'draft' });
    const { rerender } = renderWithQueries(<ClassPublishing album={{ ...album, status: 'published', pendingReview: 3 }} />);
    expect(screen.getByRole('button', { name: 'Release 3 new photos' })).toBeTruthy();
    expect(screen.queryByLabelText(REVIEW_MSG.publishAtLabel)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: REVIEW_MSG.unpublish }));
    const dialog = await screen.findByRole('dialog', { name: 'Set this class back to draft?' });
    await userEvent.click(within(dialog).getByRole('button', { name: REVIEW_MSG.unpublish }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ status: 'draft' }));

    rerender(
      <QueryClientProvider client={new QueryClient()}>
        <ClassPublishing album={album} />
      </QueryClientProvider>,
    );
    answers.set('PATCH /api/albums/9', { ...album, publishAt: new Date(2026, 11, 1, 8, 0).toISOString() });
    fireEvent.change(screen.getByLabelText(REVIEW_MSG.publishAtLabel), { target: { value: '2026-12-01T08:00' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PATCH').at(-1)?.body).toEqual({ publishAt: new Date(2026, 11, 1, 8, 0).toISOString() }));
    fireEvent.change(screen.getByLabelText(REVIEW_MSG.publishAtLabel), { target: { value: '' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PATCH').at(-1)?.body).toEqual({ publishAt: null }));
  });
});

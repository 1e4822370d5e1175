import { Profiler } from 'react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { GalleryPhoto } from '@contract/photos';
import { familyPhotoLabel } from '@contract/photo-names';
import type * as PhotoNames from '@contract/photo-names';
import { GRID_FIRST_RENDER, PhotoGrid } from './photo-grid';

// The family label is read by every tile render: counting its calls per photo counts the renders.
vi.mock('@contract/photo-names', async (importOriginal) => {
  const original = await importOriginal<typeof PhotoNames>();
  return { ...original, familyPhotoLabel: vi.fn(original.familyPhotoLabel) };
});

const photoOf = (id: number): GalleryPhoto => ({
  id,
  filename: `${id}.jpg`,
  originalName: `IMG_${id}.JPG`,
  originalNumber: String(id),
  fileSize: 1,
  albumId: 2,
  studentName: null,
  studentId: null,
  thumbnailWidth: 400,
  thumbnailHeight: 300,
  createdAt: '',
});
const classOf = (count: number) => Array.from({ length: count }, (_, index) => photoOf(index + 1));

/** The grid in a profiler: how many tiles each of its commits left on the page. */
function renderGrid(photos: readonly GalleryPhoto[]) {
  const commits: { phase: string; tiles: number }[] = [];
  const onOpen = vi.fn();
  const grid = (list: readonly GalleryPhoto[]) => (
    <Profiler id="grid" onRender={(_id, phase) => commits.push({ phase, tiles: document.querySelectorAll('.photo-tile').length })}>
      <PhotoGrid photos={list} onOpen={onOpen} />
    </Profiler>
  );
  const view = render(grid(photos));
  return { commits, rerender: (list: readonly GalleryPhoto[]) => view.rerender(grid(list)) };
}

const rendersOf = (id: number) => vi.mocked(familyPhotoLabel).mock.calls.filter(([photo]) => photo.id === id).length;

describe('the photo grid', () => {
  it('shows a class of 40 with its first rows first and the rest in a deferred render, each tile named', () => {
    const { commits } = renderGrid(classOf(40));
    expect(commits).toEqual([
      { phase: 'mount', tiles: GRID_FIRST_RENDER },
      { phase: 'update', tiles: 40 },
    ]);
    const tiles = screen.getAllByRole('button');
    expect(tiles).toHaveLength(40);
    expect(tiles[39]?.getAttribute('aria-label')).toBe('Choose products for Photo 40');
    // Named once, by the button: the image itself is decorative.
    expect(document.querySelectorAll('.photo-tile img[alt=""]')).toHaveLength(40);
  });

  it('renders a class that fits in the first render once, and no tile twice after it shows', () => {
    vi.mocked(familyPhotoLabel).mockClear();
    const { commits } = renderGrid(classOf(GRID_FIRST_RENDER));
    expect(commits).toEqual([{ phase: 'mount', tiles: GRID_FIRST_RENDER }]);
    const once = rendersOf(1);
    expect(once).toBeGreaterThan(0);

    vi.mocked(familyPhotoLabel).mockClear();
    renderGrid(classOf(40));
    // Photo 1 is in the first render, photo 40 in the deferred one: each renders once.
    expect(rendersOf(1)).toBe(once);
    expect(rendersOf(40)).toBe(once);
  });

  it('renders again only the tiles whose photo changed when the class is fetched again', () => {
    const photos = classOf(40);
    const { rerender } = renderGrid(photos);
    vi.mocked(familyPhotoLabel).mockClear();
    rerender(photos.map((photo) => (photo.id === 7 ? { ...photo, studentName: 'Thabo' } : photo)));
    expect(rendersOf(7)).toBeGreaterThan(0);
    expect(rendersOf(1) + rendersOf(40)).toBe(0);
    expect(screen.getByRole('button', { name: 'Choose products for Thabo, Photo 7' })).toBeTruthy();
  });
});

import { memo, useCallback, useDeferredValue, useEffect, useRef, useState } from 'react';
import type { GalleryPhoto as Photo } from '@contract/photos';
import { OFFLINE_MSG } from '@contract/pwa-messages';
import { GRID_ABOVE_THE_FOLD, GRID_FIRST_ROW, GRID_SIZES, GRID_SMALL_MEDIA, gridSrcSet } from '@contract/gallery-page';
import { AuthedImage } from '../../components/authed-image';
import { smallThumbnailUrl, thumbnailUrl } from './api';
import { familyPhotoLabel, photoLabel } from '@contract/photo-names';
import { useOnline } from '../../lib/use-online';

/**
 * The tiles the render that shows a class holds: a phone's first six rows, a wide screen's first
 * three. The rest follow in a deferred render (docs/performance.md, "The first screen").
 */
export const GRID_FIRST_RENDER = 12;

/**
 * Thumbnails carry their stored width and height, so the grid reserves their space (no layout
 * shift); the first rows are asked for at once (the first row first: the server's page may already
 * have asked for them, with the same sizes), below them they load lazily, and all decode off the
 * main thread. On a phone-wide screen the grid always
 * asks for the small (320 px) rendition: its two columns are about 180 CSS px wide, enough for the
 * phone's pixel density, and a class of 40 photos costs a parent well under half a megabyte. Wider
 * screens pick by cell width and pixel density. `staff`: a staff session viewing the school, whose
 * images are fetched with its token (an <img> cannot send it). Memoised: opening or closing the
 * photo dialog, or a change of the cart, does not render the class's tiles again (docs/performance.md,
 * "The first taps").
 *
 * On a slow phone, rendering and inserting a class's 40 tiles is one task React cannot split (the
 * commit), and when the class's answer arrives after the first render it is a synchronous render
 * too. So the render that shows the class holds the first GRID_FIRST_RENDER tiles only and the
 * rest follow in a deferred render (`useDeferredValue`, a transition React renders in slices). Each
 * tile is memoised: a list fetched again renders only the tiles whose photo changed (TanStack
 * Query keeps the unchanged photos' objects), and the grid's mount renders no tile twice.
 */
export const PhotoGrid = memo(function PhotoGrid({ photos, onOpen, staff = false }: { photos: readonly Photo[]; onOpen: (photo: Photo) => void; staff?: boolean }) {
  // A thumbnail never opened on this device cannot load offline: a tile says so, and it is asked
  // for again once the device is back online.
  const online = useOnline();
  const [missing, setMissing] = useState<ReadonlySet<number>>(new Set());
  // Cleared when the device comes back online, not when the grid mounts: a state set by the mount's
  // effect renders the grid again, in a render React does not split, right after it first shows.
  const wasOnline = useRef(online);
  useEffect(() => {
    if (online && !wasOnline.current) setMissing(new Set());
    wasOnline.current = online;
  }, [online]);
  const failed = useCallback((id: number) => {
    if (!navigator.onLine) setMissing((known) => new Set(known).add(id));
  }, []);
  // A class that fits in the first render has nothing to defer (no second render of the grid).
  const shown = useDeferredValue(photos.length, photos.length > GRID_FIRST_RENDER ? GRID_FIRST_RENDER : undefined);
  if (photos.length === 0) return <p className="muted center">No photos found in this class</p>;
  // Staff see the camera's file names; families see "Photo 12" (and the child's name when known).
  const label = staff ? photoLabel : familyPhotoLabel;
  return (
    <ul className="photo-grid" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {photos.slice(0, shown).map((photo, index) => (
        <PhotoTile key={photo.id} photo={photo} index={index} label={label} staff={staff} offline={missing.has(photo.id)} onOpen={onOpen} onFailed={failed} />
      ))}
    </ul>
  );
});

const PhotoTile = memo(function PhotoTile({
  photo,
  index,
  label,
  staff,
  offline,
  onOpen,
  onFailed,
}: {
  photo: Photo;
  index: number;
  label: (photo: Photo) => string;
  staff: boolean;
  offline: boolean;
  onOpen: (photo: Photo) => void;
  onFailed: (id: number) => void;
}) {
  return (
    <li>
      <button type="button" className="photo-tile" onClick={() => onOpen(photo)} aria-label={`Choose products for ${photo.studentName ? `${photo.studentName}, ` : ''}${label(photo)}`}>
        {offline ? (
          <span className="photo-offline" role="img" aria-label={`${label(photo)}: ${OFFLINE_MSG.photoWhenOnline}`} style={{ aspectRatio: `${photo.thumbnailWidth} / ${photo.thumbnailHeight}` }}>
            {OFFLINE_MSG.photoWhenOnline}
          </span>
        ) : staff ? (
          <AuthedImage
            className="protected"
            src={thumbnailUrl(photo.id)}
            width={photo.thumbnailWidth}
            height={photo.thumbnailHeight}
            decoding="async"
            draggable={false}
            alt={label(photo)}
          />
        ) : (
          <picture>
            <source media={GRID_SMALL_MEDIA} srcSet={smallThumbnailUrl(photo.id)} />
            <img
              className="protected"
              src={thumbnailUrl(photo.id)}
              srcSet={gridSrcSet(photo.id)}
              sizes={GRID_SIZES}
              width={photo.thumbnailWidth}
              height={photo.thumbnailHeight}
              loading={index < GRID_ABOVE_THE_FOLD ? 'eager' : 'lazy'}
              fetchPriority={index < GRID_FIRST_ROW ? 'high' : 'auto'}
              decoding="async"
              draggable={false}
              // The button is named for the photo and its caption shows the label: the same
              // words as the image's text would be read twice.
              alt=""
              onError={() => onFailed(photo.id)}
            />
          </picture>
        )}
        <span>{photo.studentName ? `${photo.studentName} · ${label(photo)}` : label(photo)}</span>
      </button>
    </li>
  );
});

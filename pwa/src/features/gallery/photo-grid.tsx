import type { Photo } from '@contract/photos';
import { thumbnailUrl } from './api';

export const photoLabel = (photo: Pick<Photo, 'id' | 'originalName' | 'filename'>) => photo.originalName || photo.filename || `ID: ${photo.id}`;

/**
 * Thumbnails carry their stored width and height, so the grid reserves their space (no layout
 * shift); they load lazily and decode off the main thread.
 */
export function PhotoGrid({ photos, onOpen }: { photos: readonly Photo[]; onOpen: (photo: Photo) => void }) {
  if (photos.length === 0) return <p className="muted center">No photos found in this class</p>;
  return (
    <ul className="photo-grid" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {photos.map((photo) => (
        <li key={photo.id}>
          <button type="button" className="photo-tile" onClick={() => onOpen(photo)} aria-label={`Choose products for ${photoLabel(photo)}`}>
            <img
              className="protected"
              src={thumbnailUrl(photo.id)}
              width={photo.thumbnailWidth}
              height={photo.thumbnailHeight}
              loading="lazy"
              decoding="async"
              draggable={false}
              alt={`Photo ${photoLabel(photo)}`}
            />
            <span>{photo.studentName ?? photoLabel(photo)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

import type { MissingPhoto } from '@contract/photos';

/** The first `limit` missing photos, then '...and N more'. */
export function MissingList({ photos, limit }: { photos: readonly MissingPhoto[]; limit: number }) {
  const more = photos.length - limit;
  return (
    <ul className="missing-list">
      {photos.slice(0, limit).map((photo) => (
        <li key={photo.id}>
          <strong>{photo.originalName}</strong>
          <span className="muted">
            {' '}
            · {photo.schoolName} · {photo.albumName}
          </span>
        </li>
      ))}
      {more > 0 ? <li className="muted">...and {more} more</li> : null}
    </ul>
  );
}

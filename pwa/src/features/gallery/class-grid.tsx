import type { AlbumSummary } from '@contract/schools';
import { sortClasses } from './sort-classes';

export interface ClassGridProps {
  classes: readonly AlbumSummary[];
  unlocked: readonly number[];
  onSelect: (album: AlbumSummary) => void;
}

export function ClassGrid({ classes, unlocked, onSelect }: ClassGridProps) {
  if (classes.length === 0) return <p className="muted center">No classes available</p>;
  return (
    <ul className="grid grid-2 grid-3" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {sortClasses(classes).map((album) => {
        const locked = album.hasPassword && !unlocked.includes(album.id);
        return (
          <li key={album.id}>
            <button type="button" className="card class-card" onClick={() => onSelect(album)}>
              <strong style={{ fontSize: '1.125rem' }}>{album.name}</strong>
              <span className="muted">
                {album.photoCount} {album.photoCount === 1 ? 'photo' : 'photos'}
                {locked ? ' · Password required' : ''}
              </span>
              <span style={{ color: 'var(--c-brand)', fontWeight: 600 }}>Click to view photos</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

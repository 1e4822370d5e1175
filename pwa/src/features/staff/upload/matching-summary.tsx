import { useLiveQuery } from 'dexie-react-hooks';
import { Link } from 'react-router-dom';
import { MATCHING_MSG } from '@contract/messages';
import { STAFF_SMALL_MSG } from '@contract/staff-screen-messages';
import { byName } from '@contract/format';
import { childNamer } from '@contract/same-names';
import { useAlbumStudents } from '../api/students';
import { buttonClass } from '../../../components/ui/button';
import { paths } from '../../../lib/paths';
import { uploadDb } from '../../../lib/upload-queue-db';
import { summaryText } from './matching-text';

/** The children named at most in "No photos yet of ...": the rest are counted. */
export const UNPHOTOGRAPHED_NAMED = 8;

export interface SummaryPlace {
  schoolId: number;
  schoolName: string;
  albumName: string;
}


/**
 * What matching made of the latest upload session (kept in the upload queue's database, so it is
 * still here after the page reloads or goes offline): matched by card, by file name, waiting in the
 * tray, and the cards that could not be trusted, with the way to the tray; how many files the
 * session stored, and which children of the class have no photo yet (someone missed at the shoot).
 */
export function MatchingSummaryCard({ placeOf }: { placeOf: (albumId: number) => SummaryPlace | null }) {
  const latest = useLiveQuery(async () => {
    const sessions = await uploadDb().sessions.toArray();
    return sessions.filter((session) => session.summary !== null).sort((a, b) => b.updatedAt - a.updatedAt)[0] ?? null;
  }, []);
  if (!latest?.summary) return null;
  const summary = latest.summary;
  const place = placeOf(latest.albumId);
  return (
    <section className="stack-tight matching-summary" aria-label="Matching of the latest upload">
      <h3>Matching{place ? `: ${place.albumName}` : ''}</h3>
      <p aria-live="polite">
        <span>{STAFF_SMALL_MSG.filesUploaded(summary.photos + summary.cards)}.</span> <strong>{summaryText(summary)}.</strong>{' '}
        <span className="muted">{MATCHING_MSG.summaryCards(summary.cards)}.</span>
      </p>
      <Unphotographed albumId={latest.albumId} />
      {summary.reported.length > 0 ? (
        <ul className="matching-reported">
          {summary.reported.map((entry) => (
            <li key={entry.photoId}>{entry.message}</li>
          ))}
        </ul>
      ) : null}
      {summary.inTray > 0 && place ? (
        <Link className={buttonClass('outline', 'btn-sm')} to={`${paths.staffClasses(place.schoolId)}?class=${latest.albumId}&tab=tray`}>
          Open the unmatched tray
        </Link>
      ) : null}
    </section>
  );
}

/** The children of the class with no photo yet, by name (a few) and counted (the rest). */
function Unphotographed({ albumId }: { albumId: number }) {
  const students = useAlbumStudents(albumId);
  if (!students.data || students.data.length === 0) return null;
  const missing = students.data.filter((student) => student.photoCount === 0).sort(byName);
  if (missing.length === 0) return <p className="muted">{STAFF_SMALL_MSG.everyChildHasPhotos}</p>;
  // A name two children share is shown with the number (docs/access.md, "Two children with the same name").
  const shownName = childNamer(students.data);
  const named = missing.slice(0, UNPHOTOGRAPHED_NAMED).map(shownName);
  return <p className="matching-missing">{STAFF_SMALL_MSG.noPhotosOf(named, missing.length - named.length)}</p>;
}

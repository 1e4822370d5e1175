import type { CardStatus, MatchedBy } from '../../contract/matching';
import { compareNames } from '../../contract/format';
import type { NameMatch } from './file-names';

/** A photo of an upload session as matching needs it. */
export interface SessionPhoto {
  id: number;
  kind: 'photo' | 'card';
  cardStatus: CardStatus | null;
  cardStudentId: number | null;
  /** EXIF capture time (ms), null without one. */
  capturedAt: number | null;
  /** The client's capture-order number. */
  seq: number | null;
  originalName: string;
  studentId: number | null;
  inTray: boolean;
  matchedBy: MatchedBy | null;
}

export interface Placement {
  studentId: number | null;
  inTray: boolean;
  matchedBy: MatchedBy | null;
}

/**
 * The order the photos were taken in. When every photo of the session has an EXIF time, by that
 * time (ties by the client's number, then the name); otherwise by the client's number and then
 * the file name in numeric-aware order (IMG_2 before IMG_10). Deciding per session keeps the order
 * a true order (mixing time and name per pair would not be) and independent of batch arrival.
 */
export function captureOrder<P extends Pick<SessionPhoto, 'id' | 'capturedAt' | 'seq' | 'originalName'>>(photos: readonly P[]): P[] {
  const timed = photos.length > 0 && photos.every((photo) => photo.capturedAt !== null);
  const seq = (photo: P) => photo.seq ?? Number.MAX_SAFE_INTEGER;
  return [...photos].sort(
    (a, b) =>
      (timed ? (a.capturedAt as number) - (b.capturedAt as number) : 0) ||
      seq(a) - seq(b) ||
      compareNames(a.originalName, b.originalName) ||
      a.id - b.id,
  );
}

/**
 * Where each photo of a session belongs, walking it in capture order:
 * - a card of this class names the child of the photos after it, up to the next card;
 * - a card with an unknown code, or of another class, is not trusted: the photos after it wait in
 *   the tray, as do the photos before the first card;
 * - a file name that names one student assigns the photo whatever the cards say; a name that fits
 *   two students goes to the tray;
 * - a photo staff placed by hand keeps its place.
 * Only photos (not cards) get a placement; the result depends on the session's photos alone.
 */
export function matchSession(photos: readonly SessionPhoto[], nameMatch: (originalName: string) => NameMatch): Map<number, Placement> {
  const placements = new Map<number, Placement>();
  let current: number | null = null;
  for (const photo of captureOrder(photos)) {
    if (photo.kind === 'card') {
      current = photo.cardStatus === 'known' ? photo.cardStudentId : null;
      continue;
    }
    if (photo.matchedBy === 'staff') continue;
    const named = nameMatch(photo.originalName);
    if (typeof named === 'number') placements.set(photo.id, { studentId: named, inTray: false, matchedBy: 'name' });
    else if (named === null && current !== null) placements.set(photo.id, { studentId: current, inTray: false, matchedBy: 'card' });
    else placements.set(photo.id, { studentId: null, inTray: true, matchedBy: null });
  }
  return placements;
}

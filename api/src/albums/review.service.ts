import { compareNames } from '../../contract/format';
import { MSG } from '../../contract/messages';
import type { Deps } from '../deps';
import { notFound } from '../http/errors';
import { captureOrder } from '../matching/match-session';
import { createPhotoRepository, type PhotoRecord } from '../photos/photos.repository';
import { createStudentRepository, type StudentRecord } from '../students/students.repository';
import { createAlbumRepository, type AlbumRecord } from './albums.repository';

/** A photo of the class on the review sheet: its number in capture order and the card that placed it. */
export interface ReviewEntry {
  photo: PhotoRecord;
  /** 1-based, over the class's photos (not cards) in capture order. */
  number: number;
  placedByCard: PhotoRecord | null;
}

export interface ReviewRecord {
  album: AlbumRecord;
  students: { student: StudentRecord; photos: ReviewEntry[]; cards: PhotoRecord[] }[];
  group: ReviewEntry[];
  tray: ReviewEntry[];
  counts: { photos: number; cards: number; tray: number; pendingReview: number; visibleNow: number; visibleAfterPublish: number };
}

/**
 * The class in capture order (docs/access.md, "The review sheet"): by the time the camera wrote
 * (EXIF), then by file name, whatever order the shoot was uploaded in; photos without a time
 * after those with one. Each photo placed by a card is paired with the card before it in its own
 * upload session, where the matching walked.
 */
function inCaptureOrder(photos: PhotoRecord[]): { photo: PhotoRecord; card: PhotoRecord | null }[] {
  const untimed = Number.MAX_SAFE_INTEGER;
  return pairedWithCards(photos).sort(
    (a, b) => (a.photo.capturedAt ?? untimed) - (b.photo.capturedAt ?? untimed) || compareNames(a.photo.originalName, b.photo.originalName) || a.photo.id - b.photo.id,
  );
}

/** Each photo with the card before it in its session (none for photos of no session). */
function pairedWithCards(photos: PhotoRecord[]): { photo: PhotoRecord; card: PhotoRecord | null }[] {
  const loose = photos.filter((photo) => photo.uploadSession === null).sort((a, b) => compareNames(a.originalName, b.originalName) || a.id - b.id);
  const sessions = new Map<string, PhotoRecord[]>();
  for (const photo of photos) {
    if (photo.uploadSession === null) continue;
    sessions.set(photo.uploadSession, [...(sessions.get(photo.uploadSession) ?? []), photo]);
  }
  const ordered = [...sessions.values()].sort((a, b) => Math.min(...a.map((p) => p.id)) - Math.min(...b.map((p) => p.id)));
  const out: { photo: PhotoRecord; card: PhotoRecord | null }[] = loose.map((photo) => ({ photo, card: null }));
  for (const session of ordered) {
    let card: PhotoRecord | null = null;
    const walk = captureOrder(session.map((photo) => ({ ...photo, seq: photo.captureSeq })));
    for (const photo of walk) {
      if (photo.kind === 'card') card = photo;
      out.push({ photo, card });
    }
  }
  return out;
}

/**
 * The review sheet (docs/access.md, "The review sheet"): per child, their photos in capture order
 * with the card that placed each run; the group photos; the tray; and how many photos families
 * see now and will see once the class is published and its waiting photos released.
 */
export function createReviewService(deps: Pick<Deps, 'knex'>) {
  const albums = createAlbumRepository(deps.knex);
  const photos = createPhotoRepository(deps.knex);
  const students = createStudentRepository(deps.knex);

  return {
    async sheet(albumId: number): Promise<ReviewRecord> {
      const album = await albums.findById(albumId);
      if (!album) throw notFound(MSG.classNotFound);
      const [all, roster] = await Promise.all([photos.listByAlbum(albumId), students.listByAlbum(albumId)]);
      const entries: ReviewEntry[] = [];
      let number = 0;
      for (const { photo, card } of inCaptureOrder(all)) {
        if (photo.kind === 'card') continue;
        number += 1;
        entries.push({ photo, number, placedByCard: photo.matchedBy === 'card' ? card : null });
      }
      const released = (entry: ReviewEntry) => !entry.photo.inTray && !entry.photo.doNotPublish;
      const byStudent = new Map<number, ReviewEntry[]>();
      for (const entry of entries) {
        const id = entry.photo.studentId;
        if (id !== null && !entry.photo.inTray) byStudent.set(id, [...(byStudent.get(id) ?? []), entry]);
      }
      return {
        album,
        students: [...roster]
          .sort((a, b) => compareNames(a.name, b.name) || a.id - b.id)
          .map((student) => {
            const own = byStudent.get(student.id) ?? [];
            const cards = [...new Map(own.flatMap((entry) => (entry.placedByCard ? [[entry.placedByCard.id, entry.placedByCard] as const] : []))).values()];
            return { student, photos: own, cards };
          }),
        group: entries.filter((entry) => entry.photo.studentId === null && !entry.photo.inTray),
        tray: entries.filter((entry) => entry.photo.inTray),
        counts: {
          photos: entries.length,
          cards: all.length - entries.length,
          tray: entries.filter((entry) => entry.photo.inTray).length,
          pendingReview: entries.filter((entry) => entry.photo.pendingReview).length,
          visibleNow: album.published ? entries.filter((entry) => released(entry) && !entry.photo.pendingReview).length : 0,
          visibleAfterPublish: entries.filter(released).length,
        },
      };
    },
  };
}
export type ReviewService = ReturnType<typeof createReviewService>;

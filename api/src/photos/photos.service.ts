import { randomBytes } from 'node:crypto';
import { MATCHING_MSG, MSG } from '../../contract/messages';
import type { UploadCapture } from '../../contract/matching';
import type { GalleryPhoto, MissingPhotosReport, RestoreResponse, UploadBatchResponse } from '../../contract/photos';
import { compareNames } from '../../contract/format';
import type { Deps } from '../deps';
import type { Viewer } from '../http/access';
import { AppError, badRequest, conflict, notFound } from '../http/errors';
import { isUniqueViolation } from '../db/errors';
import type { MatchingService, TrayRecord } from '../matching/matching.service';
import { presentMatchingSummary } from '../matching/matching.presenter';
import type { UploadedFile } from '../http/multipart';
import type { PhotoFiles, PreparedPhoto, StoredPhoto } from '../media/media.types';
import { originalNumberOf } from './original-number';
import { createPhotoRepository, type AlbumRef, type NewPhoto, type PhotoRecord, type PhotoWithAlbum } from './photos.repository';
import { presentFamilyPhoto, presentPhoto } from './photos.presenter';
import { createStudentRepository } from '../students/students.repository';
import { createPaidPhotoRepository } from '../orders/paid-photos.repository';
import { createFileDeletions } from '../storage/file-deletions';
import { createAuditRepository, type AuditActor } from '../audit/audit.repository';
import { createDatabase } from '../db/database';
import { assertNoOrderNeeds } from '../orders/paid-photos';
import { guardSoldPhotos } from '../orders/sold-photos';
import { createSoldPhotoRepository } from '../orders/sold-photos.repository';
import { createVisibility, isWithheld, photoVisible, visibleStudentId, type ClassAccess, type PhotoRef } from '../students/visibility';

/** Existence checks on storage run this many at a time, so a large library does not exhaust descriptors. */
const STAT_CHUNK = 32;
/** Frame order as the photographer shot it: IMG_2 before IMG_10, then by id. */
const frameOrder = (a: PhotoRecord, b: PhotoRecord) => compareNames(a.originalName, b.originalName) || a.id - b.id;

const filesOf = (photo: Pick<PhotoRecord, 'storageKey' | 'mimeType'>): PhotoFiles => ({ storageKey: photo.storageKey, mimeType: photo.mimeType });

/** What the visibility rule needs to know about a photo. */
const refOf = (photo: PhotoRecord): PhotoRef => ({
  studentId: photo.studentId,
  doNotPublish: photo.doNotPublish,
  withheld: isWithheld(photo),
});

/** The refused files of a batch in the order they were sent, each with the reason its check gave. */
function presentRefused(refused: { file: UploadedFile; error: AppError }[], files: UploadedFile[]): UploadBatchResponse['rejected'] {
  return [...refused].sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file)).map(({ file, error }) => ({ name: file.originalName, reason: error.message }));
}

/** Staff get every field; a family never the camera's file name or the legacy student name. */
function present(photos: PhotoRecord[], access: ClassAccess): GalleryPhoto[] {
  return photos
    .map((photo) => ({ photo, ref: refOf(photo) }))
    .filter(({ ref }) => photoVisible(access, ref))
    .map(({ photo, ref }) => ({ photo, studentId: visibleStudentId(access, ref) }))
    .sort((a, b) => frameOrder(a.photo, b.photo))
    .map(({ photo, studentId }) => (access.kind === 'staff' ? presentPhoto(photo, studentId) : presentFamilyPhoto(photo, studentId)));
}

/**
 * The capture number of each file: the client's, found by name and size (two identical entries
 * are taken in turn), or, without a capture list, the file's place in numeric-aware name order.
 */
function captureNumbers(files: UploadedFile[], capture: UploadCapture | null): Map<UploadedFile, number> {
  const numbers = new Map<UploadedFile, number>();
  if (!capture) {
    [...files].sort((a, b) => compareNames(a.originalName, b.originalName)).forEach((file, index) => numbers.set(file, index));
    return numbers;
  }
  const entries = [...capture.files];
  for (const file of files) {
    const at = entries.findIndex((entry) => entry.name === file.originalName && entry.size === file.size);
    const entry = entries[at];
    if (!entry) throw badRequest(MATCHING_MSG.badCapture, { capture: MATCHING_MSG.badCapture }, 'BAD_CAPTURE');
    entries.splice(at, 1);
    numbers.set(file, entry.seq);
  }
  if (new Set(numbers.values()).size !== files.length) throw badRequest(MATCHING_MSG.badCapture, { capture: MATCHING_MSG.badCapture }, 'BAD_CAPTURE');
  return numbers;
}

export function createPhotoService(deps: Pick<Deps, 'knex' | 'media' | 'logger' | 'metrics'>) {
  const repo = createPhotoRepository(deps.knex);
  const visibility = createVisibility(createStudentRepository(deps.knex));
  const paidPhotos = createPaidPhotoRepository(deps.knex);
  const soldPhotos = createSoldPhotoRepository(deps.knex);
  const fileDeletions = createFileDeletions(deps);
  const audit = createAuditRepository(deps.knex);
  const database = createDatabase(deps.knex);
  const { media } = deps;

  async function getAlbum(albumId: number): Promise<AlbumRef> {
    const album = await repo.findAlbum(albumId);
    if (!album) throw notFound(MSG.classNotFound);
    return album;
  }

  async function withMissingOriginal(rows: PhotoWithAlbum[]): Promise<PhotoWithAlbum[]> {
    const missing: PhotoWithAlbum[] = [];
    for (let i = 0; i < rows.length; i += STAT_CHUNK) {
      const chunk = rows.slice(i, i + STAT_CHUNK);
      const present = await Promise.all(chunk.map((entry) => media.originalExists(filesOf(entry.photo))));
      chunk.forEach((entry, j) => {
        if (!present[j]) missing.push(entry);
      });
    }
    return missing;
  }

  /**
   * The rows go and their files are queued in one transaction, then the files are removed; a
   * removal that fails is retried by the maintenance job (docs/images.md, "Deleting photos").
   */
  /**
   * Deletes the photos' rows and queues their files, refused (409 `PHOTOS_IN_ORDERS`, nothing
   * deleted) while orders need any of them; the check and the delete are one transaction
   * (docs/access.md, "Photos that orders need").
   */
  async function removeRows(photos: PhotoRecord[], actor?: AuditActor): Promise<number> {
    if (photos.length === 0) return 0;
    const files = photos.map(filesOf);
    const deleted = await database.transaction(async (tx) => {
      await assertNoOrderNeeds(paidPhotos, { photoIds: photos.map((photo) => photo.id) }, tx);
      // A staff member's bulk delete: one audit entry per class, with its count (docs/accounts.md, "The audit log").
      if (actor) {
        const perClass = new Map<number, number>();
        for (const photo of photos) perClass.set(photo.albumId, (perClass.get(photo.albumId) ?? 0) + 1);
        for (const [albumId, count] of perClass) await audit.record({ action: 'photos_deleted', actor, albumId, count, at: Date.now() }, tx);
      }
      const count = await repo.deleteByIds(photos.map((photo) => photo.id), tx);
      await fileDeletions.queue(files, tx);
      return count;
    });
    await fileDeletions.removeQueued(files);
    return deleted;
  }

  async function restoreOne(albumId: number, file: UploadedFile): Promise<RestoreResponse['results'][number]> {
    const candidates = await repo.findByOriginalName(albumId, file.originalName);
    let target: PhotoRecord | undefined;
    for (const photo of candidates) {
      if (!(await media.originalExists(filesOf(photo)))) {
        target = photo;
        break;
      }
    }
    if (!target) return { filename: file.originalName, success: false, message: MSG.noMissingPhotos };
    try {
      const stored = await media.restorePhoto(filesOf(target), file);
      await repo.updateStored(target.id, stored);
      return { filename: file.originalName, success: true, message: MSG.restoredPhoto };
    } catch (err) {
      if (err instanceof AppError) return { filename: file.originalName, success: false, message: err.message };
      throw err;
    }
  }

  return {
    getAlbum,

    async getPhoto(photoId: number): Promise<PhotoWithAlbum> {
      const found = await repo.findWithAlbum(photoId);
      if (!found) throw notFound(MSG.photoNotFound);
      return found;
    },

    /** The class's photos this viewer may see (the visibility rule), in frame order. */
    async listAlbumPhotos(albumId: number, access: ClassAccess): Promise<GalleryPhoto[]> {
      return present(await repo.listByAlbum(albumId), access);
    },

    /**
     * The class's photos for this viewer: a family holding a child's code gets exactly that
     * child's photos and the class's group photos; one who may see nothing of the class gets the
     * parent-facing 401/403. With `inSchool`, a class of another school is a 404.
     */
    async listForViewer(albumId: number, viewer: Viewer, inSchool?: number): Promise<GalleryPhoto[]> {
      const album = await getAlbum(albumId);
      // A class of another school than the page's is not found there.
      if (inSchool !== undefined && album.schoolId !== inSchool) throw notFound(MSG.classNotFound);
      const access = await visibility.requireClass(viewer, album);
      return present(await repo.listByAlbum(album.id), access);
    },

    /** Staff: the class's unmatched tray (404 for an unknown class). */
    async tray(albumId: number, matching: Pick<MatchingService, 'tray'>): Promise<TrayRecord> {
      const album = await getAlbum(albumId);
      return matching.tray(album.id);
    },

    /** One child's own photos (not the group photos) this viewer may see. */
    async listStudentPhotos(studentId: number, access: ClassAccess): Promise<GalleryPhoto[]> {
      return present(await repo.listByStudent(studentId), access);
    },

    /**
     * One bad file refuses one file (docs/images.md, "One bad file refuses one file"): each file is
     * checked and rendered, a file the checks refuse is named in `rejected` with the reason, and
     * the others are stored together (a storage or database failure still removes everything this
     * batch stored, so a retry never duplicates). Capture numbers are the client's, or taken over
     * every file of the batch, so a refused file never shifts the order of the rest. A batch
     * belongs to an upload session: a file the session already holds at the same capture number
     * (a resend whose answer was lost) is answered from storage, not stored twice. In a class
     * with a roster every photo is looked at for a child's QR card, waits in the tray until the
     * whole session is matched again, and a photo placed while the class is live waits for review.
     * Every file refused: the first file's error, with `rejected` naming them all.
     */
    async uploadBatch(
      albumId: number,
      files: UploadedFile[],
      prepare: (file: UploadedFile) => Promise<PreparedPhoto> = (file) => media.prepareUpload(file),
      options: { capture?: UploadCapture | null; matching?: MatchingService } = {},
    ): Promise<UploadBatchResponse> {
      if (files.length === 0) throw badRequest(MSG.noFilesSelected, { photos: MSG.noFilesSelected });
      await getAlbum(albumId);
      const refused: { file: UploadedFile; error: AppError }[] = [];
      /** A file's own fault (not an image, corrupt, too large) refuses that file; anything else fails the batch. */
      const refuse = (file: UploadedFile, err: unknown): boolean => {
        if (!(err instanceof AppError) || err.status >= 500) return false;
        refused.push({ file, error: err });
        return true;
      };
      const checked: UploadedFile[] = [];
      for (const file of files) {
        try {
          await media.checkUpload(file);
          checked.push(file);
        } catch (err) {
          if (!refuse(file, err)) throw err;
        }
      }
      const session = options.capture?.sessionId ?? randomBytes(16).toString('base64url');
      const seqOf = captureNumbers(files, options.capture ?? null);
      const earlier = new Map<number, PhotoRecord>();
      if (options.capture) {
        for (const photo of await repo.bySession(albumId, session, [...seqOf.values()])) earlier.set(Number(photo.captureSeq), photo);
        for (const file of files) {
          const photo = earlier.get(seqOf.get(file) as number);
          if (photo && photo.originalName !== file.originalName) throw conflict(MATCHING_MSG.captureConflict(file.originalName), 'CAPTURE_CONFLICT');
        }
      }
      const fresh = checked.filter((file) => !earlier.has(seqOf.get(file) as number));
      const matcher = options.matching ? await options.matching.forAlbum(albumId) : null;
      const ready: { file: UploadedFile; prepared: PreparedPhoto; card?: NewPhoto['card'] }[] = [];
      const committed: StoredPhoto[] = [];
      let ids: number[];
      /** Photos this request stored; the others of `ids` were stored by an earlier try of the batch. */
      let storedNow = 0;
      // Each photo's card scan is asked for as soon as its decode is done, whatever the photos
      // before it are still doing, and the batch's files go into storage while the last scans
      // finish: the scans are what a batch of a class with a roster waits for last (docs/images.md,
      // "Cards at the shoot"). The photos are still taken in order below.
      const scans = fresh.map((file) => {
        const preparing = prepare(file);
        const text = matcher ? preparing.then((prepared) => prepared.findCardText(matcher.isCardText)) : Promise.resolve(null);
        // Both are awaited below, in order; one left behind by an earlier failure must not go unhandled.
        preparing.catch(() => undefined);
        text.catch(() => undefined);
        return { file, preparing, text };
      });
      try {
        const passed: { file: UploadedFile; prepared: PreparedPhoto; text: Promise<string | null> }[] = [];
        for (const { file, preparing, text } of scans) {
          try {
            passed.push({ file, prepared: await preparing, text });
          } catch (err) {
            if (refuse(file, err)) continue;
            throw err;
          }
        }
        const first = refused[0];
        if (first && refused.length === files.length) {
          deps.metrics.photos('refused', refused.length);
          throw new AppError(first.error.status, first.error.message, first.error.code, first.error.errors, undefined, { rejected: presentRefused(refused, files) });
        }
        // Every file passed: every photo's files go into storage at once (none of them waits on
        // another), and all of them settle before a failure removes the ones that were stored.
        const storing = Promise.allSettled(passed.map((entry) => entry.prepared.commit()));
        try {
          for (const { file, prepared, text } of passed) {
            const found = await text;
            ready.push({ file, prepared, card: found !== null && matcher ? await matcher.resolveCard(found) : undefined });
          }
        } finally {
          for (const result of await storing) if (result.status === 'fulfilled') committed.push(result.value);
        }
        const failed = (await storing).find((result) => result.status === 'rejected');
        if (failed) throw failed.reason;
        const inserted = await repo.insertMany(
          ready.map((entry) => ({
            albumId,
            originalName: entry.file.originalName,
            originalNumber: originalNumberOf(entry.file.originalName),
            stored: entry.prepared.stored,
            capture: { session, seq: seqOf.get(entry.file) as number, capturedAt: entry.prepared.takenAt },
            card: entry.card,
            // Until matching places it, a photo of a class with a roster is nobody's: it waits in the tray.
            held: matcher && !entry.card ? { inTray: true, pendingReview: false } : undefined,
          })),
        );
        ids = [...inserted.map((photo) => photo.id), ...[...earlier.values()].map((photo) => photo.id)];
        storedNow = inserted.length;
      } catch (err) {
        await Promise.all(committed.map((stored) => media.removePhoto(stored)));
        // The same batch sent twice at once: the other request stored it; answer with its photos.
        if (!(options.capture && isUniqueViolation(err))) throw err;
        const stored = await repo.bySession(albumId, session, [...seqOf.values()]);
        if (stored.length !== files.length - refused.length) throw err;
        ids = stored.map((photo) => photo.id);
      } finally {
        await Promise.all(ready.map((entry) => entry.prepared.discard()));
      }
      deps.metrics.photos('stored', storedNow);
      deps.metrics.photos('resent', ids.length - storedNow);
      deps.metrics.photos('refused', refused.length);
      const matching = matcher && options.matching ? presentMatchingSummary(await options.matching.rematch(albumId, session)) : null;
      // Multipart parsing lists files as they finish streaming; answer in frame order instead.
      const photos = (await repo.findByIds(ids)).sort(frameOrder).map((photo) => presentPhoto(photo));
      return { message: MSG.photosUploaded(photos.length), uploaded: photos.length, photos, matching, rejected: presentRefused(refused, files) };
    },

    /**
     * Makes the small thumbnail of every photo stored before it existed, a page of rows at a time,
     * one decode at a time (the media limiter is shared with uploads). Only rows without one are
     * read, so running it again does nothing more. A photo whose original is gone is skipped: a
     * restore makes all of its renditions.
     */
    async backfillSmallThumbnails(): Promise<{ made: number; skipped: number }> {
      let made = 0;
      let skipped = 0;
      let afterId = 0;
      for (;;) {
        const photos = await repo.listLackingSmallThumbnail(afterId, 50);
        if (photos.length === 0) return { made, skipped };
        for (const photo of photos) {
          afterId = photo.id;
          const small = await media.makeSmallThumbnail(filesOf(photo)).catch((err: unknown) => {
            deps.logger.warn({ err, photoId: photo.id }, 'making a small thumbnail failed');
            return null;
          });
          if (!small) {
            skipped += 1;
            continue;
          }
          await repo.setSmallThumbnail(afterId, small);
          made += 1;
        }
      }
    },

    /** Staff put photos back in the tray (never a card: it is not waiting for a child); they stay there when the session is matched again. */
    /** A photo a family paid for is withheld only once staff confirmed the warning (docs/access.md, "Moving a sold photo"). */
    async toTray(photoIds: number[], confirmed = false): Promise<{ updated: number }> {
      const ids = [...new Set(photoIds)];
      const photos = await repo.findByIds(ids);
      if (photos.length !== ids.length) throw notFound(MSG.photoNotFound);
      if (photos.some((photo) => photo.kind === 'card')) throw badRequest(MATCHING_MSG.cardNotAssignable, { photoIds: MATCHING_MSG.cardNotAssignable }, 'CARD_PHOTO');
      return database.transaction(async (tx) => {
        await guardSoldPhotos(soldPhotos, ids, { to: 'withheld' }, confirmed, tx);
        return { updated: await repo.toTray(ids, tx) };
      });
    },

    /** Refused (409 `PHOTOS_IN_ORDERS`, nothing deleted) while orders need any of them (docs/access.md, "Photos that orders need"). */
    /** Admins only (the route); recorded in the audit log. */
    async bulkDelete(photoIds: number[], actor: AuditActor): Promise<{ deletedCount: number }> {
      const photos = await repo.findByIds(photoIds);
      return { deletedCount: await removeRows(photos, actor) };
    },

    async missingReport(): Promise<MissingPhotosReport> {
      const all = await repo.listAllWithAlbum();
      const missing = await withMissingOriginal(all);
      return {
        missingPhotos: missing.map(({ photo, album }) => ({
          id: photo.id,
          filename: photo.filename,
          originalName: photo.originalName,
          albumId: album.id,
          albumName: album.name,
          schoolId: album.schoolId,
          schoolName: album.schoolName,
          createdAt: photo.createdAt,
        })),
        totalInDatabase: all.length,
      };
    },

    async cleanupMissing(): Promise<{ deletedCount: number }> {
      const missing = await withMissingOriginal(await repo.listAllWithAlbum());
      // A missing original an order needs is restored, not forgotten (refused in removeRows).
      return { deletedCount: await removeRows(missing.map((entry) => entry.photo)) };
    },

    /**
     * Each file is matched by original name to a photo of the chosen class whose original is gone,
     * never to another class's or school's photo of the same name (docs/images.md); one result per file.
     */
    async restore(albumId: number, files: UploadedFile[]): Promise<RestoreResponse> {
      await getAlbum(albumId);
      if (files.length === 0) throw badRequest(MSG.noFilesSelected, { photos: MSG.noFilesSelected });
      const results: RestoreResponse['results'] = [];
      for (const file of files) results.push(await restoreOne(albumId, file));
      return { results };
    },
  };
}
export type PhotoService = ReturnType<typeof createPhotoService>;

import { MSG } from '../../contract/messages';
import type { Deps } from '../deps';
import type { Grant, Viewer } from '../http/access';
import { AppError, notFound } from '../http/errors';
import type { FileResponse } from '../media/media.types';
import { createStudentRepository } from '../students/students.repository';
import { classAccess, createVisibility, photoVisible, type ClassRef } from '../students/visibility';
import type { GrantedStudent } from '../students/students.repository';
import { createImagesRepository, forgetImageStates, type ImageRecord } from './images.repository';

export function createImageService(deps: Pick<Deps, 'knex' | 'media'>) {
  const images = createImagesRepository(deps.knex);
  const visibility = createVisibility(createStudentRepository(deps.knex));
  /**
   * The children a grant holds, kept with the grant: a grant kept under the access version is the
   * same frozen object on every request of that cookie, and every change that could alter which
   * children it holds or their class (a new code, an erasure, a class deleted) raises the version
   * and so makes a new one (docs/access.md, "The gallery cookie"). The rule here uses only the
   * children's ids and classes.
   */
  const heldByGrant = new WeakMap<Grant, Promise<GrantedStudent[]>>();
  function heldChildren(viewer: Viewer): Promise<GrantedStudent[]> {
    if (viewer.staff) return Promise.resolve([]);
    const kept = heldByGrant.get(viewer.grant);
    if (kept) return kept;
    const reading = visibility.grantedStudents(viewer);
    heldByGrant.set(viewer.grant, reading);
    reading.catch(() => heldByGrant.delete(viewer.grant));
    return reading;
  }

  /**
   * Access is decided before the storage is touched, so a locked class reveals nothing; a photo
   * the viewer's grant does not cover answers as if it did not exist.
   */
  async function visibleImage(photoId: number, viewer: Viewer, customerId: number | null = null): Promise<ImageRecord> {
    const found = await images.find(photoId);
    if (!found) throw notFound(MSG.photoNotFound);
    // A photo this viewer may not see, whatever the lock, is 404 like one that does not exist
    // (docs/access.md, "Families see only their own").
    const granted = await heldChildren(viewer);
    const access = viewer.staff ? ({ kind: 'staff' } as const) : classAccess(viewer, found.album, granted);
    if (photoVisible(access, found.photo)) return found;
    if (found.archivedClass && (await orderedByViewer(photoId, found, found.archivedClass, viewer, granted, customerId))) return found;
    throw notFound(MSG.photoNotFound);
  }

  /**
   * An archived class is hidden from families but kept for orders (docs/access.md, "Archived
   * classes"): a family still sees the images of the photos it ordered there, and only those. The
   * photo must be one it could see before the archive (not withheld, not do-not-publish), on an order
   * of its own that is not cancelled: the signed-in customer's (My Orders, from any device), or a
   * line of a child its gallery cookie holds by code.
   */
  async function orderedByViewer(
    photoId: number,
    found: ImageRecord, unarchived: ClassRef, viewer: Viewer, granted: readonly GrantedStudent[], customerId: number | null): Promise<boolean> {
    if (!unarchived.published || found.photo.withheld || found.photo.doNotPublish) return false;
    const before = classAccess(viewer, unarchived, granted);
    const studentIds = before.kind === 'students' || before.kind === 'class' ? before.studentIds : [];
    return images.orderedBy(photoId, { customerId, studentIds });
  }

  return {
    /**
     * The grid's thumbnail: the 320 px rendition when `small` (phones, or `Save-Data: on`). A photo
     * stored before that rendition existed and not yet backfilled gets the full thumbnail instead,
     * which is still right, only larger. Every rendition carries the watermark; originals are never
     * served here.
     */
    async thumbnail(photoId: number, viewer: Viewer, small: boolean, customerId: number | null = null): Promise<FileResponse> {
      const image = await visibleImage(photoId, viewer, customerId);
      const files = { storageKey: image.storageKey, mimeType: image.mimeType };
      if (small && image.smallThumbEtag) return deps.media.rendition({ ...files, etag: image.smallThumbEtag }, 'small-thumbnail');
      return deps.media.rendition({ ...files, etag: image.thumbEtag }, 'thumbnail');
    },

    async preview(photoId: number, viewer: Viewer, customerId: number | null = null): Promise<FileResponse> {
      const image = await visibleImage(photoId, viewer, customerId);
      return deps.media.rendition({ storageKey: image.storageKey, mimeType: image.mimeType, etag: image.previewEtag }, 'preview');
    },

    example: (fileName: string): FileResponse => deps.media.exampleImage(fileName),

    /**
     * Forgets the photo states this process keeps (docs/access.md, "The gallery cookie"): called
     * after every request that may have changed a photo, its class, school or child, once done.
     */
    forgetStates: (): void => forgetImageStates(deps.knex),

    /**
     * The photos of the list this viewer may still see, by the same rule as their images: the rest
     * (gone, moved, withdrawn, no longer granted) answer as if they did not exist.
     */
    async stillVisible(photoIds: readonly number[], viewer: Viewer): Promise<number[]> {
      const visible: number[] = [];
      for (const photoId of [...new Set(photoIds)]) {
        try {
          await visibleImage(photoId, viewer);
          visible.push(photoId);
        } catch (err) {
          if (!(err instanceof AppError) || err.status >= 500) throw err;
        }
      }
      return visible;
    },
  };
}
export type ImageService = ReturnType<typeof createImageService>;

import { MSG, REVIEW_MSG } from '../../contract/messages';
import { NEW_ALBUM_STATUS, type AlbumStatus } from '../../contract/constants';
import type { AlbumCreateInput, AlbumUpdateInput } from '../../contract/albums';
import type { Deps } from '../deps';
import type { Viewer } from '../http/access';
import { badRequest, notFound, unauthorized } from '../http/errors';
import { hashPassword, verifySharedPassword } from '../http/passwords';
import { createDatabase } from '../db/database';
import { createFileDeletions } from '../storage/file-deletions';
import { createPaidPhotoRepository } from '../orders/paid-photos.repository';
import { assertNoOrderNeeds } from '../orders/paid-photos';
import { guardWithholding } from '../orders/sold-photos';
import { createSoldPhotoRepository } from '../orders/sold-photos.repository';
import { isPublished } from '../students/visibility';
import { slowed } from '../http/rate-limit';
import { createAlbumRepository, type AlbumRecord } from './albums.repository';
import { createAuditRepository, type AuditActor } from '../audit/audit.repository';

type AlbumDeps = Pick<Deps, 'knex' | 'media' | 'logger' | 'limits'>;

export function createAlbumService(deps: AlbumDeps) {
  const database = createDatabase(deps.knex);
  const repo = createAlbumRepository(deps.knex);
  const paidPhotos = createPaidPhotoRepository(deps.knex);
  const soldPhotos = createSoldPhotoRepository(deps.knex);
  const fileDeletions = createFileDeletions(deps);
  const audit = createAuditRepository(deps.knex);

  async function get(id: number): Promise<AlbumRecord> {
    const album = await repo.findById(id);
    if (!album) throw notFound(MSG.classNotFound);
    return album;
  }

  /**
   * Checks a class password with the brute-force limits (docs/access.md). A class without a
   * password opens for everyone who has the school. Returns the grant epoch read with the password
   * that opened it, or null for a wrong password (429 once over the limit).
   */
  async function checkPassword(album: AlbumRecord, password: string, clientIp: string): Promise<number | null> {
    const target = `album:${album.id}`;
    await deps.limits.guard('class-unlock', clientIp, target);
    const credential = await repo.credential(album.id);
    if (credential.passwordHash === null) return credential.grantEpoch;
    const ok = await verifySharedPassword(credential.passwordHash, password);
    if (!ok) {
      await slowed(await deps.limits.fail('class-unlock', clientIp, target));
      return null;
    }
    await deps.limits.succeed('class-unlock', clientIp, target);
    return credential.grantEpoch;
  }

  return {
    get,

    listForSchool: (schoolId: number) => repo.listBySchools([schoolId]),

    async create(input: AlbumCreateInput): Promise<AlbumRecord> {
      const passwordHash = input.password === null ? null : await hashPassword(input.password);
      return database.transaction(async (tx) => {
        const mode = await repo.schoolAccessMode(input.schoolId, tx);
        if (mode === undefined) throw notFound(MSG.schoolNotFound);
        // A class of a student-codes school waits for review; a school-password class is live at once (docs/access.md, "Draft and published classes").
        const status: AlbumStatus = mode === 'student_codes' ? NEW_ALBUM_STATUS.student_codes : NEW_ALBUM_STATUS.school_password;
        const id = await repo.insert({ schoolId: input.schoolId, name: input.name, passwordHash, status }, tx);
        return (await repo.findById(id, tx)) as AlbumRecord;
      });
    },

    /**
     * An absent password keeps it; '' or null removes protection; anything else replaces it.
     * `status` hides or shows the class (photos waiting for review stay waiting); `publishAt`
     * schedules a draft, and only a draft (docs/access.md, "Draft and published classes").
     * `archived` hides the class from families and keeps it for orders (docs/access.md, "Archived classes").
     * Back to draft, while families paid for photos of it they still have, is 409 `PHOTO_SOLD` until
     * staff confirm (docs/access.md, "Moving a sold photo").
     */
    async update(id: number, input: AlbumUpdateInput): Promise<AlbumRecord> {
      const current = await get(id);
      const status = input.status ?? current.status;
      const publishAt = input.publishAt === undefined ? undefined : input.publishAt === null ? null : Date.parse(input.publishAt);
      if (status === 'published' && publishAt !== undefined && publishAt !== null) {
        throw badRequest(REVIEW_MSG.publishAtOnPublished, { publishAt: REVIEW_MSG.publishAtOnPublished }, 'ALREADY_PUBLISHED');
      }
      const passwordHash =
        input.password === undefined ? undefined : input.password === null ? null : await hashPassword(input.password);
      await database.transaction(async (tx) => {
        // Taking a published class from families when they paid for its photos warns first (docs/access.md, "Moving a sold photo").
        const before = (await repo.findById(id, tx)) ?? current;
        const nextPublishAt = status === 'published' ? null : publishAt === undefined ? before.publishAt : publishAt;
        if (isPublished({ status: before.status, publishAt: before.publishAt }) && !isPublished({ status, publishAt: nextPublishAt })) {
          await guardWithholding(soldPhotos, { albumId: id }, input.confirm === true, tx);
        }
        // Archiving an archived class keeps the time it was archived.
        const archived = input.archived === undefined || input.archived === current.archived ? undefined : input.archived;
        await repo.update(id, { name: input.name, passwordHash, status: input.status, publishAt: status === 'published' ? null : publishAt, archived }, tx);
        if (input.status === 'published' && current.status === 'draft') await repo.markPublished(id, tx);
      });
      return get(id);
    },

    /**
     * "Publish class" and "Release N new photos": the class is published and every photo waiting
     * for review is shown to its family, in one transaction.
     */
    async publish(id: number): Promise<{ album: AlbumRecord; released: number }> {
      const released = await database.transaction(async (tx) => {
        if (!(await repo.findById(id, tx))) throw notFound(MSG.classNotFound);
        return repo.publish(id, tx);
      });
      return { album: await get(id), released };
    },

    /**
     * The scheduled drafts whose time has come are published, each exactly once however many
     * processes run this (the update is conditional). Returns the classes this call published.
     */
    async publishDue(at: number = Date.now()): Promise<number[]> {
      const published: number[] = [];
      for (const due of await repo.dueToPublish(at, 100)) {
        if (await repo.publishIfDue(due.id, at)) published.push(due.id);
      }
      return published;
    },

    /** Refused (409 `PHOTOS_IN_ORDERS`) while orders need its photos: staff archive it instead. */
    /** Admins only (the route); written to the audit log with the delete (docs/accounts.md, "The audit log"). */
    async delete(id: number, actor: AuditActor): Promise<void> {
      const files = await database.transaction(async (tx) => {
        // First: the check locks the orders of its photos until the delete commits.
        await assertNoOrderNeeds(paidPhotos, { albumId: id }, tx);
        const album = await repo.findById(id, tx);
        if (!album) throw notFound(MSG.classNotFound);
        const found = await repo.photoFilesOfAlbum(id, tx);
        await audit.record({ action: 'class_deleted', actor, targetId: id, schoolId: album.schoolId, albumId: id, count: found.length, at: Date.now() }, tx);
        await repo.deleteWithPhotos(id, tx);
        await fileDeletions.queue(found, tx);
        return found;
      });
      await fileDeletions.removeQueued(files);
    },


    /**
     * A class password is only asked once the school is unlocked (staff pass): granting a class
     * also grants its school, so without this check a class with no password would open the
     * school without the school password. Returns the class and, when the password opened it, the
     * class's grant epoch (null for a wrong password).
     */
    async unlock(id: number, password: string, clientIp: string, viewer: Viewer): Promise<{ album: AlbumRecord; grantEpoch: number | null }> {
      const album = await get(id);
      if (!viewer.staff && !viewer.grant.schools.includes(album.schoolId)) throw unauthorized(MSG.schoolAccessRequired, 'SCHOOL_LOCKED');
      return { album, grantEpoch: await checkPassword(album, password, clientIp) };
    },
  };
}
export type AlbumService = ReturnType<typeof createAlbumService>;

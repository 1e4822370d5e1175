import type { Knex } from 'knex';
import { MSG } from '../../contract/messages';
import type { AlbumCreateInput, AlbumUpdateInput } from '../../contract/albums';
import { notFound } from '../http/errors';
import { hashPassword, verifyPassword } from '../http/passwords';
import type { RateLimits } from '../http/rate-limit';
import type { Logger } from '../logger';
import type { MediaService } from '../media/media.types';
import { createAlbumRepository, type AlbumRecord, type PhotoFileRecord } from './albums.repository';

interface AlbumDeps {
  knex: Knex;
  media: MediaService;
  logger: Logger;
  limits: RateLimits;
}

export function createAlbumService(deps: AlbumDeps) {
  const repo = createAlbumRepository(deps.knex);

  async function get(id: number): Promise<AlbumRecord> {
    const album = await repo.findById(id);
    if (!album) throw notFound(MSG.classNotFound);
    return album;
  }

  return {
    get,

    listForSchool: (schoolId: number) => repo.listBySchools([schoolId]),

    async create(input: AlbumCreateInput): Promise<AlbumRecord> {
      const passwordHash = input.password === null ? null : await hashPassword(input.password);
      return deps.knex.transaction(async (trx) => {
        const school = await trx('schools').where({ id: input.schoolId }).first('id');
        if (!school) throw notFound(MSG.schoolNotFound);
        const id = await repo.insert({ schoolId: input.schoolId, name: input.name, passwordHash }, trx);
        return (await repo.findById(id, trx)) as AlbumRecord;
      });
    },

    /** An absent password keeps it; '' or null removes protection; anything else replaces it. */
    async update(id: number, input: AlbumUpdateInput): Promise<AlbumRecord> {
      await get(id);
      const passwordHash =
        input.password === undefined ? undefined : input.password === null ? null : await hashPassword(input.password);
      await repo.update(id, { name: input.name, passwordHash });
      return get(id);
    },

    async delete(id: number): Promise<void> {
      const files = await deps.knex.transaction(async (trx) => {
        if (!(await repo.findById(id, trx))) throw notFound(MSG.classNotFound);
        const found = await repo.photoFilesOfAlbum(id, trx);
        await trx('photos').where({ album_id: id }).delete();
        await repo.delete(id, trx);
        return found;
      });
      await removePhotoFiles(deps, files);
    },

    /**
     * Checks a class password with the brute-force limits of D3. A class without a password opens
     * for everyone who has the school. Returns false for a wrong password (429 once over the limit).
     */
    async checkPassword(album: AlbumRecord, password: string, clientIp: string): Promise<boolean> {
      const target = `album:${album.id}`;
      await deps.limits.guard('class-unlock', clientIp, target);
      if (!album.hasPassword) return true;
      const ok = await verifyPassword(await repo.passwordHash(album.id), password);
      if (!ok) {
        await deps.limits.fail('class-unlock', clientIp, target);
        return false;
      }
      await deps.limits.succeed('class-unlock', clientIp, target);
      return true;
    },
  };
}
export type AlbumService = ReturnType<typeof createAlbumService>;

/**
 * Runs after the rows are gone, so a failing disk never leaves a row without its file; a file that
 * cannot be removed is logged and left for the missing-photos tools.
 */
export async function removePhotoFiles(deps: { media: MediaService; logger: Logger }, files: PhotoFileRecord[]): Promise<void> {
  for (const file of files) {
    try {
      await deps.media.removePhoto(file);
    } catch (err) {
      deps.logger.warn({ err, storageKey: file.storageKey }, 'could not remove photo files');
    }
  }
}

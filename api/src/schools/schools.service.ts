import type { Knex } from 'knex';
import { MSG, STUDENT_MSG } from '../../contract/messages';
import { SLUG_PATTERN, type PublicSchool, type SchoolCreateInput, type SchoolUpdateInput, type StaffSchool } from '../../contract/schools';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../http/errors';
import { hashPassword, verifyPassword } from '../http/passwords';
import type { RateLimits } from '../http/rate-limit';
import type { Logger } from '../logger';
import type { MediaService } from '../media/media.types';
import { isUniqueViolation } from '../db/errors';
import { createAlbumRepository, type PhotoFileRecord } from '../albums/albums.repository';
import { byName, presentAlbums } from '../albums/albums.presenter';
import { removePhotoFiles } from '../albums/albums.service';
import { createSchoolRepository, type SchoolRecord, type SchoolWrite } from './schools.repository';
import { presentPublicSchool, presentStaffSchool } from './schools.presenter';

interface SchoolDeps {
  knex: Knex;
  media: MediaService;
  logger: Logger;
  limits: RateLimits;
}

export function createSchoolService(deps: SchoolDeps) {
  const repo = createSchoolRepository(deps.knex);
  const albums = createAlbumRepository(deps.knex);

  async function get(id: number, trx?: Knex): Promise<SchoolRecord> {
    const school = await repo.findById(id, trx);
    if (!school) throw notFound(MSG.schoolNotFound);
    return school;
  }

  async function staffView(school: SchoolRecord): Promise<StaffSchool> {
    return presentStaffSchool(school, presentAlbums(await albums.listBySchools([school.id])));
  }

  async function assertPriceList(priceListId: number | null | undefined, trx: Knex): Promise<void> {
    if (priceListId && !(await repo.priceListExists(priceListId, trx))) {
      throw badRequest(MSG.priceListNotFound, { priceListId: MSG.priceListNotFound });
    }
  }

  /** The slug is checked first for a friendly 409; the unique index catches a concurrent twin. */
  async function write<T>(slug: string | undefined, exceptId: number | null, work: (trx: Knex) => Promise<T>): Promise<T> {
    try {
      return await deps.knex.transaction(async (trx) => {
        if (slug !== undefined) {
          const taken = await trx('schools').where({ slug }).first('id');
          if (taken && Number(taken.id) !== exceptId) throw slugTaken();
        }
        return work(trx);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw slugTaken();
      throw err;
    }
  }

  return {
    get,
    findBySlug: (slug: string) => repo.findBySlug(slug),

    async listPublic(): Promise<PublicSchool[]> {
      return (await repo.list()).sort(byName).map(presentPublicSchool);
    },

    async listStaff(): Promise<StaffSchool[]> {
      const schools = (await repo.list()).sort(byName);
      const all = await albums.listBySchools(schools.map((school) => school.id));
      return schools.map((school) => presentStaffSchool(school, presentAlbums(all.filter((album) => album.schoolId === school.id))));
    },

    async getStaff(id: number): Promise<StaffSchool> {
      return staffView(await get(id));
    },

    /**
     * D3 and checklist B2: an unknown school and a wrong password give the same answer after the
     * same argon2 work, and both count against the limits.
     */
    async verify(slug: string, password: string, clientIp: string): Promise<PublicSchool> {
      const target = slug.trim().toLowerCase().slice(0, 80);
      await deps.limits.guard('school-unlock', clientIp, target);
      const found = SLUG_PATTERN.test(target) ? await repo.passwordHashBySlug(target) : undefined;
      // The mode is public (GET /api/schools/{slug} tells the gallery which form to show), so
      // saying it here reveals nothing; the password is not even checked, and no grant is made.
      if (found?.accessMode === 'student_codes') throw forbidden(STUDENT_MSG.schoolUsesCodes, 'STUDENT_CODES_ONLY');
      const ok = await verifyPassword(found?.passwordHash, password);
      if (!found || !ok) {
        await deps.limits.fail('school-unlock', clientIp, target);
        throw unauthorized(MSG.invalidSchoolPassword, 'INVALID_PASSWORD');
      }
      await deps.limits.succeed('school-unlock', clientIp, target);
      return presentPublicSchool(await get(found.id));
    },

    async create(input: SchoolCreateInput): Promise<StaffSchool> {
      const passwordHash = await hashPassword(input.password);
      const id = await write(input.slug, null, async (trx) => {
        await assertPriceList(input.priceListId, trx);
        return repo.insert({ ...toWrite(input), passwordHash }, trx);
      });
      return staffView(await get(id));
    },

    async update(id: number, input: SchoolUpdateInput): Promise<StaffSchool> {
      const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
      await write(input.slug, id, async (trx) => {
        await get(id, trx);
        await assertPriceList(input.priceListId, trx);
        await repo.update(id, { ...toWrite(input), passwordHash }, trx);
      });
      return staffView(await get(id));
    },

    /** Orders are kept for the school's records (orders.school_id is ON DELETE RESTRICT). */
    async delete(id: number): Promise<void> {
      let files: PhotoFileRecord[];
      try {
        files = await deps.knex.transaction(async (trx) => {
          await get(id, trx);
          if ((await repo.orderCount(id, trx)) > 0) throw conflict(MSG.schoolHasOrders, 'SCHOOL_HAS_ORDERS');
          const found = await albums.photoFilesOfSchool(id, trx);
          await trx('photos').whereIn('album_id', trx('albums').where({ school_id: id }).select('id')).delete();
          await trx('albums').where({ school_id: id }).delete();
          await repo.delete(id, trx);
          return found;
        });
      } catch (err) {
        if (isForeignKeyViolation(err)) throw conflict(MSG.schoolHasOrders, 'SCHOOL_HAS_ORDERS');
        throw err;
      }
      await removePhotoFiles(deps, files);
    },
  };
}
export type SchoolService = ReturnType<typeof createSchoolService>;

function toWrite(input: SchoolUpdateInput): SchoolWrite {
  return {
    name: input.name,
    slug: input.slug,
    contactEmail: input.contactEmail,
    contactPhone: input.contactPhone,
    address: input.address,
    closingDate: input.closingDate,
    priceListId: input.priceListId,
    accessMode: input.accessMode,
  };
}

const slugTaken = () => conflict(MSG.slugTaken, 'SLUG_TAKEN');

/** An order created between the check and the delete still stops it, on both dialects. */
function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    e.code === 'ER_ROW_IS_REFERENCED_2' ||
    e.code === 'ER_ROW_IS_REFERENCED' ||
    /FOREIGN KEY constraint failed/.test(e.message ?? '')
  );
}

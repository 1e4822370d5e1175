import { MSG, STUDENT_MSG } from '../../contract/messages';
import { SLUG_PATTERN, type AlbumSummary, type PublicSchool, type SchoolBySlug, type SchoolCreateInput, type SchoolUpdateInput, type StaffSchool } from '../../contract/schools';
import type { StaffRole } from '../../contract/constants';
import type { Deps } from '../deps';
import type { Viewer } from '../http/access';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../http/errors';
import { hashPassword, verifySharedPassword } from '../http/passwords';
import { createDatabase, type Tx } from '../db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../db/errors';
import { createAlbumRepository, type AlbumRecord, type PhotoFileRecord } from '../albums/albums.repository';
import { byNameThenId, presentAlbums } from '../albums/albums.presenter';
import { createFileDeletions } from '../storage/file-deletions';
import { createStudentRepository, type GrantedStudent } from '../students/students.repository';
import { createVisibility, schoolUnlocked, visibleClasses } from '../students/visibility';
import { createSchoolRepository, type SchoolRecord, type SchoolWrite } from './schools.repository';
import { slowed } from '../http/rate-limit';
import { presentPublicSchool, presentSchoolBySlug, presentStaffSchool } from './schools.presenter';

type SchoolDeps = Pick<Deps, 'knex' | 'media' | 'logger' | 'limits'>;

export function createSchoolService(deps: SchoolDeps) {
  const database = createDatabase(deps.knex);
  const fileDeletions = createFileDeletions(deps);
  const repo = createSchoolRepository(deps.knex);
  const albums = createAlbumRepository(deps.knex);
  const visibility = createVisibility(createStudentRepository(deps.knex));

  /**
   * The classes shown to a family that holds children's codes and not the school password count
   * only what that family may see: its children's photos and the group photos (docs/access.md,
   * "Families see only their own"). Staff and school-password families keep the class's count.
   */
  async function counted(viewer: Viewer, school: SchoolRecord, shown: AlbumRecord[], granted: readonly GrantedStudent[]): Promise<AlbumRecord[]> {
    if (viewer.staff || (school.accessMode === 'school_password' && viewer.grant.schools.includes(school.id))) return shown;
    const held = granted.filter((student) => student.schoolId === school.id).map((student) => student.id);
    const counts = await albums.releasedCountsFor(shown.map((album) => album.id), held);
    return shown.map((album) => ({ ...album, releasedCount: counts.get(album.id) ?? 0 }));
  }

  async function get(id: number, tx?: Tx): Promise<SchoolRecord> {
    const school = await repo.findById(id, tx);
    if (!school) throw notFound(MSG.schoolNotFound);
    return school;
  }

  async function staffView(school: SchoolRecord): Promise<StaffSchool> {
    return presentStaffSchool(school, presentAlbums(await albums.listBySchools([school.id]), true));
  }

  async function assertPriceList(priceListId: number | null | undefined, tx: Tx): Promise<void> {
    if (priceListId && !(await repo.priceListExists(priceListId, tx))) {
      throw badRequest(MSG.priceListNotFound, { priceListId: MSG.priceListNotFound });
    }
  }

  /** The slug is checked first for a friendly 409; the unique index catches a concurrent twin. */
  async function write<T>(slug: string | undefined, exceptId: number | null, work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await database.transaction(async (tx) => {
        if (slug !== undefined) {
          const taken = await repo.idBySlug(slug, tx);
          if (taken !== undefined && taken !== exceptId) throw slugTaken();
        }
        return work(tx);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw slugTaken();
      throw err;
    }
  }

  return {
    get,
    findBySlug: (slug: string) => repo.findBySlug(slug),

    /** Staff see every school with its classes; anyone else the public list. */
    async list(staff: boolean): Promise<StaffSchool[] | PublicSchool[]> {
      const schools = (await repo.list()).sort(byNameThenId);
      if (!staff) return schools.map(presentPublicSchool);
      const all = await albums.listBySchools(schools.map((school) => school.id));
      return schools.map((school) => presentStaffSchool(school, presentAlbums(all.filter((album) => album.schoolId === school.id), true)));
    },

    async getStaff(id: number): Promise<StaffSchool> {
      return staffView(await get(id));
    },

    /** A school by its slug (any case), and whether this viewer has unlocked it. */
    async bySlug(slug: string, viewer: Viewer): Promise<SchoolBySlug> {
      const wanted = slug.toLowerCase();
      const school = SLUG_PATTERN.test(wanted) ? await repo.findBySlug(wanted) : undefined;
      if (!school) throw notFound(MSG.schoolNotFound);
      return presentSchoolBySlug(school, schoolUnlocked(viewer, school, await visibility.grantedStudents(viewer)));
    },

    /**
     * A school gallery's first screen for the page the server sends: the school and the classes
     * this viewer may see, or null when the slug names no school or the viewer's grant does not
     * open it (never an error: the app then asks the API, which refuses as usual).
     */
    async galleryFor(slug: string, viewer: Viewer): Promise<{ school: SchoolBySlug; albums: AlbumSummary[] } | null> {
      const wanted = slug.toLowerCase();
      if (!SLUG_PATTERN.test(wanted)) return null;
      const school = await repo.findBySlug(wanted);
      if (!school) return null;
      const granted = await visibility.grantedStudents(viewer);
      if (!schoolUnlocked(viewer, school, granted)) return null;
      const shown = visibleClasses(viewer, school, await albums.listBySchools([school.id]), granted);
      if (!shown) return null;
      return { school: presentSchoolBySlug(school, true), albums: presentAlbums(await counted(viewer, school, shown, granted), viewer.staff) };
    },

    /** The classes of the school this viewer may see; a locked school is a 401 naming the lock. */
    async visibleAlbums(id: number, viewer: Viewer): Promise<AlbumSummary[]> {
      const school = await get(id);
      const granted = await visibility.grantedStudents(viewer);
      const shown = visibleClasses(viewer, school, await albums.listBySchools([school.id]), granted);
      if (!shown) {
        throw school.accessMode === 'student_codes'
          ? unauthorized(STUDENT_MSG.studentAccessRequired, 'STUDENT_LOCKED')
          : unauthorized(MSG.schoolAccessRequired, 'SCHOOL_LOCKED');
      }
      return presentAlbums(await counted(viewer, school, shown, granted), viewer.staff);
    },

    /**
     * An unknown school and a wrong password give the same answer after the same argon2 work, and
     * both count against the limits (docs/access.md).
     */
    async verify(slug: string, password: string, clientIp: string): Promise<{ school: PublicSchool; grantEpoch: number }> {
      const target = slug.trim().toLowerCase().slice(0, 80);
      await deps.limits.guard('school-unlock', clientIp, target);
      const found = SLUG_PATTERN.test(target) ? await repo.passwordHashBySlug(target) : undefined;
      // The mode is public (GET /api/schools/{slug} tells the gallery which form to show), so
      // saying it here reveals nothing; the password is not even checked, and no grant is made.
      if (found?.accessMode === 'student_codes') throw forbidden(STUDENT_MSG.schoolUsesCodes, 'STUDENT_CODES_ONLY');
      const ok = await verifySharedPassword(found?.passwordHash, password);
      if (!found || !ok) {
        await slowed(await deps.limits.fail('school-unlock', clientIp, target));
        throw unauthorized(MSG.invalidSchoolPassword, 'INVALID_PASSWORD');
      }
      await deps.limits.succeed('school-unlock', clientIp, target);
      return { school: presentPublicSchool(await get(found.id)), grantEpoch: found.grantEpoch };
    },

    async create(input: SchoolCreateInput): Promise<StaffSchool> {
      // The contract refuses a school_password school without a password (docs/access.md, "School password").
      const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
      const id = await write(input.slug, null, async (tx) => {
        await assertPriceList(input.priceListId, tx);
        return repo.insert({ ...toWrite(input), passwordHash }, tx);
      });
      return staffView(await get(id));
    },

    /** `role`: who asks; only an admin switches the access mode (docs/accounts.md, "What a photographer may not do"). */
    async update(id: number, input: SchoolUpdateInput, role: StaffRole): Promise<StaffSchool> {
      const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
      await write(input.slug, id, async (tx) => {
        const current = await get(id, tx);
        if (input.accessMode !== undefined && input.accessMode !== current.accessMode && role !== 'admin') {
          throw forbidden(MSG.adminOnlyAccessMode, 'ADMIN_ONLY');
        }
        // A school whose families use the school password must have one on record: switching a
        // codes school without one back to the password asks for it (docs/access.md, "School password").
        if ((input.accessMode ?? current.accessMode) === 'school_password' && !current.hasPassword && passwordHash === undefined) {
          throw badRequest(MSG.schoolPasswordRequired, { password: MSG.schoolPasswordRequired });
        }
        await assertPriceList(input.priceListId, tx);
        await repo.update(id, { ...toWrite(input), passwordHash }, tx);
        // A new password, or the switch to student codes, cuts off every device unlocked with the
        // old password, even if the school later goes back to it (docs/access.md, "Grants end").
        if (passwordHash !== undefined || (input.accessMode === 'student_codes' && current.accessMode !== 'student_codes')) {
          await repo.revokeGrants(id, tx);
        }
      });
      return staffView(await get(id));
    },

    /**
     * Orders are kept for the school's records (orders.school_id is ON DELETE RESTRICT): an order
     * created between the check and the delete still stops it, through the foreign key.
     */
    async delete(id: number): Promise<void> {
      let files: PhotoFileRecord[];
      try {
        files = await database.transaction(async (tx) => {
          await get(id, tx);
          if ((await repo.orderCount(id, tx)) > 0) throw conflict(MSG.schoolHasOrders, 'SCHOOL_HAS_ORDERS');
          const found = await albums.photoFilesOfSchool(id, tx);
          await albums.deleteAllOfSchool(id, tx);
          await repo.delete(id, tx);
          await fileDeletions.queue(found, tx);
          return found;
        });
      } catch (err) {
        if (isForeignKeyViolation(err)) throw conflict(MSG.schoolHasOrders, 'SCHOOL_HAS_ORDERS');
        throw err;
      }
      await fileDeletions.removeQueued(files);
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
    pictureDay: input.pictureDay,
    priceListId: input.priceListId,
    accessMode: input.accessMode,
  };
}

const slugTaken = () => conflict(MSG.slugTaken, 'SLUG_TAKEN');

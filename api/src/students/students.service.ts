import { MATCHING_MSG, MSG, STUDENT_MSG } from '../../contract/messages';
import { PREPAID_MSG } from '../../contract/prepaid';
import { SAME_NAME_MSG, childNamer, sameChildName } from '../../contract/same-names';
import { studentInputSchema, type AssignPhotosInput, type StudentInput, type StudentUpdateInput } from '../../contract/students';
import type { GalleryPhoto } from '../../contract/photos';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../http/errors';
import { AUDIT_MSG } from '../../contract/audit';
import { createAuditRepository, type AuditActor } from '../audit/audit.repository';
import type { Deps } from '../deps';
import type { Viewer } from '../http/access';
import { createFileDeletions } from '../storage/file-deletions';
import { createAlbumRepository } from '../albums/albums.repository';
import { createSchoolRepository } from '../schools/schools.repository';
import { createDatabase, type Tx } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import type { PhotoService } from '../photos/photos.service';
import { now } from '../db/knex';
import type { RawRosterRow } from './roster-csv';
import { newStudentCode, pastCodeDigest } from './student-code';
import { createVisibility, heldStudents } from './visibility';
import { renderFlyers } from './flyers';
import type { Grant } from '../http/access';
import { createStudentRepository, type GrantedStudent, type StudentRecord } from './students.repository';
import { STUDENT_PHONE_MSG } from '../../contract/code-recovery';
import { slowed } from '../http/rate-limit';
import { byStudentName } from './students.presenter';
import type { CouponsForOrders } from '../coupons/coupons.types';
import { guardSoldPhotos, guardWithholding } from '../orders/sold-photos';
import { createSoldPhotoRepository } from '../orders/sold-photos.repository';

type StudentDeps = Pick<Deps, 'knex' | 'media' | 'logger' | 'limits'> & { config: Pick<Deps['config'], 'businessName' | 'publicUrl'> };

/** A roster row as checked: what the preview shows of it, and the input it gives when valid. */
export interface CheckedRow {
  row: number;
  input: StudentInput | null;
  raw: { name: string; number: string | null; guardianEmail: string | null; guardianPhone: string | null };
  error: string | null;
}

/** What an erasure did: when (ms), and how much of the child went. */
export interface ErasureRecord {
  erasedAt: number;
  photosDeleted: number;
  orderLinesRedacted: number;
}

/** New codes are drawn again when one is taken; at 40 bits a second collision in a row is practically impossible. */
const CODE_ATTEMPTS = 5;

/** Names compared as people read them: case, accents' composition and extra spaces aside. */
const foldName = (name: string) => name.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase();
/** How checkout and staff join several children in an order's student name ("Neo Dube, Zoe Tau", "Neo & Zoe"). */
const NAME_SEPARATORS = /\s*(?:,|;|&|\+|\/|\band\b)\s*/i;

/**
 * An order's student name once a child is erased (docs/access.md, "Erasure"), or null to keep it:
 * the child's name is taken out wherever it stands (alone or beside a brother's or sister's); an
 * order tied to the child by a line's student id whose name does not spell the child's as the
 * roster does (a spelling chosen at checkout or by staff) keeps only the roster names of its other
 * children. The removal text marks what went.
 */
export function nameAfterErasure(current: string, childName: string, tiedToChild: boolean, otherChildren: readonly string[], removedText: string): string | null {
  const parts = current.split(NAME_SEPARATORS).filter((part) => part.trim() !== '');
  let kept = parts.filter((part) => foldName(part) !== foldName(childName));
  if (kept.length === parts.length) {
    if (!tiedToChild) return null;
    kept = [...otherChildren];
  }
  const name = [...kept, removedText].join(', ');
  // orders.student_name holds 150 characters; the removal text always fits.
  return name.length <= ORDER_STUDENT_NAME_MAX ? name : removedText;
}

const ORDER_STUDENT_NAME_MAX = 150;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An order's notes once a child is erased (docs/access.md, "Erasure, completely"), or the notes
 * unchanged: an order tied to the child by a line loses its note (it is about that child, and may
 * spell the name any way); in the class's other orders the child's full name, first name and
 * surname are replaced wherever they stand as words, whatever the case.
 */
export function notesAfterErasure(notes: string | null, childName: string, tiedToChild: boolean, removedNote: string, removedName: string): string | null {
  if (notes === null || notes.trim() === '') return notes;
  if (tiedToChild) return removedNote;
  const full = childName.normalize('NFC').trim().replace(/\s+/g, ' ');
  const words = [full, ...full.split(' ')].filter((word) => word.length >= 2).sort((a, b) => b.length - a.length);
  if (words.length === 0) return notes;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map((word) => escapeRegExp(word).replace(/ /g, '\\s+')).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  return notes.normalize('NFC').replace(pattern, removedName);
}

const sameName = sameChildName;
const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** What an erasure tells the guardians feature (docs/outreach.md, "Erasure"). */
export interface ChildFollowers {
  forgetChild(child: { studentId: number; schoolId: number; guardianEmail: string | null }, tx: Tx): Promise<void>;
}

export function createStudentService(deps: StudentDeps, photos: PhotoService, followers: ChildFollowers, coupons: Pick<CouponsForOrders, 'release'>) {
  const repo = createStudentRepository(deps.knex);
  const albums = createAlbumRepository(deps.knex);
  const schools = createSchoolRepository(deps.knex);
  const database = createDatabase(deps.knex);
  const soldPhotos = createSoldPhotoRepository(deps.knex);
  const visibility = createVisibility(repo);
  const fileDeletions = createFileDeletions(deps);
  const audit = createAuditRepository(deps.knex);

  async function get(id: number, tx?: Tx): Promise<StudentRecord> {
    const student = await repo.findById(id, tx);
    if (!student) throw notFound(STUDENT_MSG.studentNotFound);
    return student;
  }

  async function requireAlbum(albumId: number, tx?: Tx) {
    const album = await albums.findById(albumId, tx);
    if (!album) throw notFound(MSG.classNotFound);
    return album;
  }

  /**
   * Every row is checked against the rules, the other rows and the class: a missing name, a bad
   * e-mail, a student number used twice, the same student twice (same name and number), or two
   * children of one name without numbers to tell them apart are each reported on their row.
   */
  function checkRows(rows: RawRosterRow[], existing: StudentRecord[]): CheckedRow[] {
    const checked: CheckedRow[] = [];
    for (const raw of rows) {
      const shown = {
        name: text(raw.name).normalize('NFC').trim(),
        number: text(raw.number).trim() || null,
        guardianEmail: text(raw.guardianEmail).trim() || null,
        guardianPhone: text(raw.guardianPhone).trim() || null,
      };
      const parsed = studentInputSchema.safeParse({ name: text(raw.name), number: raw.number ?? null, guardianEmail: raw.guardianEmail ?? null, guardianPhone: raw.guardianPhone ?? null });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        // A phone's problem names its column (docs/sms.md, "Codes recovered by phone").
        const message = issue?.path[0] === 'guardianPhone' ? STUDENT_PHONE_MSG.rowPhone(issue.message) : (issue?.message ?? MSG.invalidRequest);
        checked.push({ row: raw.row, input: null, raw: shown, error: message });
        continue;
      }
      const input = parsed.data;
      let error: string | null = null;
      for (const earlier of checked) {
        if (!earlier.input) continue;
        if (input.number !== null && earlier.input.number === input.number) {
          error = sameName(earlier.input.name, input.name) ? STUDENT_MSG.duplicateInFile(earlier.row) : STUDENT_MSG.duplicateNumberInFile(earlier.row);
          break;
        }
        // Two children may share a name only when their numbers tell them apart (docs/access.md, "Two children with the same name").
        if (sameName(earlier.input.name, input.name) && (input.number === null || earlier.input.number === null)) {
          error = SAME_NAME_MSG.sameNameInFile(earlier.row);
          break;
        }
      }
      if (!error) {
        const clash = input.number === null ? undefined : existing.find((student) => student.number === input.number);
        if (clash) error = sameName(clash.name, input.name) ? STUDENT_MSG.alreadyInClass : STUDENT_MSG.numberTaken;
        else if (existing.some((student) => sameName(student.name, input.name) && (student.number === null || input.number === null))) {
          error = SAME_NAME_MSG.sameNameInClass;
        }
      }
      checked.push({ row: raw.row, input, raw: { name: input.name, number: input.number, guardianEmail: input.guardianEmail, guardianPhone: input.guardianPhone }, error });
    }
    return checked;
  }

  /** Inserts with fresh codes; a code taken meanwhile (the unique index) means drawing again. */
  async function insertWithCodes(albumId: number, inputs: StudentInput[]): Promise<number[]> {
    for (let attempt = 1; ; attempt++) {
      const codes = new Set<string>();
      while (codes.size < inputs.length) codes.add(newStudentCode());
      try {
        return await database.transaction(async (tx) => {
          await requireAlbum(albumId, tx);
          const taken = await repo.existingCodes([...codes], tx);
          const fresh = [...codes].map((code) => {
            let candidate = code;
            while (taken.has(candidate) || (candidate !== code && codes.has(candidate))) candidate = newStudentCode();
            return candidate;
          });
          return repo.insertMany(
            albumId,
            inputs.map((input, i) => ({ ...input, code: fresh[i] ?? newStudentCode() })),
            tx,
          );
        });
      } catch (err) {
        if (attempt < CODE_ATTEMPTS && isUniqueViolation(err) && /code/i.test(String((err as Error).message))) continue;
        if (isUniqueViolation(err)) throw conflict(STUDENT_MSG.numberTaken, 'STUDENT_NUMBER_TAKEN');
        throw err;
      }
    }
  }

  return {
    get,

    async list(albumId: number): Promise<StudentRecord[]> {
      await requireAlbum(albumId);
      return (await repo.listByAlbum(albumId)).sort(byStudentName);
    },

    /** The flyers PDF of the roster (or of one child of it), with the school's details, and its file name. */
    async flyers(albumId: number, only: number | null): Promise<{ pdf: Buffer; fileName: string }> {
      const album = await requireAlbum(albumId);
      const school = await schools.findById(album.schoolId);
      if (!school) throw notFound(MSG.schoolNotFound);
      let students = (await repo.listByAlbum(albumId)).sort(byStudentName);
      // A name two children share is printed with the number, so each flyer reaches the right family.
      const nameOf = childNamer(students);
      if (only !== null) {
        students = students.filter((student) => student.id === only);
        if (students.length === 0) throw notFound(STUDENT_MSG.studentNotFound);
      }
      if (students.length === 0) throw badRequest(STUDENT_MSG.noStudentsForFlyers, undefined, 'NO_STUDENTS');
      const pdf = await renderFlyers({
        businessName: deps.config.businessName,
        publicUrl: deps.config.publicUrl,
        school: { name: school.name, closingDate: school.closingDate },
        album: { name: album.name },
        students: students.map((student) => ({ name: nameOf(student), code: student.code })),
      });
      const name = `flyers-${school.slug}-${album.name}`.replace(/[^A-Za-z0-9-]+/g, '-').replace(/-+/g, '-').slice(0, 100);
      return { pdf, fileName: `${name}.pdf` };
    },

    async preview(albumId: number, rows: RawRosterRow[]): Promise<CheckedRow[]> {
      await requireAlbum(albumId);
      return checkRows(rows, await repo.listByAlbum(albumId));
    },

    /** All or nothing: one bad row and no student is created (400 naming every bad row). */
    async importRoster(albumId: number, rows: RawRosterRow[]): Promise<StudentRecord[]> {
      await requireAlbum(albumId);
      const checked = checkRows(rows, await repo.listByAlbum(albumId));
      const errors = Object.fromEntries(checked.flatMap((row) => (row.error === null ? [] : [[`rows.${row.row}`, row.error]])));
      const count = Object.keys(errors).length;
      if (count > 0) throw badRequest(STUDENT_MSG.rosterHasErrors(count), errors, 'ROSTER_INVALID');
      const inputs = checked.flatMap((row) => (row.input ? [row.input] : []));
      const ids = await insertWithCodes(albumId, inputs);
      return repo.listByIds(ids);
    },

    /**
     * Clearing do not publish is an admin's decision (403 ADMIN_ONLY for a photographer); either
     * change of it is written to the audit log with the update (docs/accounts.md, "The audit log").
     * Setting it when families paid for photos of the child still in their hands is refused with
     * 409 `PHOTO_SOLD` until staff confirm (docs/access.md, "Moving a sold photo").
     */
    async update(id: number, input: StudentUpdateInput, actor: AuditActor): Promise<StudentRecord> {
      const student = await get(id);
      const clearing = input.doNotPublish === false && student.doNotPublish;
      if (clearing && actor.role !== 'admin') throw forbidden(AUDIT_MSG.clearDoNotPublishAdminOnly, 'ADMIN_ONLY');
      if (input.number !== undefined && input.number !== null && input.number !== student.number) {
        const clash = (await repo.listByAlbum(student.albumId)).find((other) => other.id !== id && other.number === input.number);
        if (clash) throw conflict(STUDENT_MSG.numberTaken, 'STUDENT_NUMBER_TAKEN');
      }
      // The default pose is one of the child's own photos, not a card (docs/prepaid.md, "The studio fills what nobody chose").
      if (input.defaultPhotoId !== undefined && input.defaultPhotoId !== null && !(await repo.isOwnPhoto(id, input.defaultPhotoId))) {
        throw badRequest(PREPAID_MSG.defaultPhotoNotOfChild, { defaultPhotoId: PREPAID_MSG.defaultPhotoNotOfChild }, 'DEFAULT_PHOTO_NOT_OF_CHILD');
      }
      for (let attempt = 1; ; attempt++) {
        try {
          await database.transaction(async (tx) => {
            // Read again in the transaction: the audit entry says what really changed.
            const current = await get(id, tx);
            if (input.doNotPublish === false && current.doNotPublish && actor.role !== 'admin') throw forbidden(AUDIT_MSG.clearDoNotPublishAdminOnly, 'ADMIN_ONLY');
            // Hiding a child whose photos families paid for warns first (docs/access.md, "Moving a sold photo").
            if (input.doNotPublish === true && !current.doNotPublish) await guardWithholding(soldPhotos, { studentId: id }, input.confirm === true, tx);
            // A card photographed with the old code still shows the child: it stays theirs (docs/access.md, "Erasure, completely").
            // In the update's transaction, so a refused update leaves no past code behind.
            if (input.newCode) await repo.recordPastCode(id, pastCodeDigest(current.code), now(), tx);
            await repo.update(
              id,
              {
                name: input.name,
                number: input.number,
                guardianEmail: input.guardianEmail,
                guardianPhone: input.guardianPhone,
                doNotPublish: input.doNotPublish,
                code: input.newCode ? newStudentCode() : undefined,
                defaultPhotoId: input.defaultPhotoId,
              },
              tx,
            );
            if (input.doNotPublish !== undefined && input.doNotPublish !== current.doNotPublish) {
              const action = input.doNotPublish ? 'do_not_publish_set' : 'do_not_publish_cleared';
              await audit.record({ action, actor, targetId: id, schoolId: current.schoolId, albumId: current.albumId, at: now() }, tx);
            }
          });
          break;
        } catch (err) {
          if (input.newCode && attempt < CODE_ATTEMPTS && isUniqueViolation(err) && /code/i.test(String((err as Error).message))) continue;
          if (isUniqueViolation(err)) throw conflict(STUDENT_MSG.numberTaken, 'STUDENT_NUMBER_TAKEN');
          throw err;
        }
      }
      return get(id);
    },

    /** Taking a child off the roster must not turn their photos into group photos everyone sees. */
    async remove(id: number): Promise<void> {
      await database.transaction(async (tx) => {
        const student = await get(id, tx);
        if (student.photoCount > 0) throw conflict(STUDENT_MSG.studentHasPhotos, 'STUDENT_HAS_PHOTOS');
        await repo.delete(id, tx);
      });
    },

    /**
     * A family's code: failures count against the client, the client's network and the pair, like
     * a password; a success forgets this client's failures for this code.
     */
    async verify(code: string, client: string, network: string): Promise<{ student: GrantedStudent; code: string }> {
      await deps.limits.guard('student-code', client, network, code);
      const id = await repo.findIdByCode(code);
      const [student] = id === undefined ? [] : await repo.granted([id]);
      if (!student) {
        await slowed(await deps.limits.fail('student-code', client, network, code));
        throw unauthorized(STUDENT_MSG.codeNotRecognised, 'INVALID_CODE');
      }
      await deps.limits.succeed('student-code', client, network, code);
      return { student, code: student.code };
    },

    /** The children a browser's grant still holds (an erased child, or one with a new code, drops out). */
    async unlocked(grant: Grant): Promise<GrantedStudent[]> {
      const found = await heldStudents(repo, grant);
      const byId = new Map<number, GrantedStudent>(found.map((student) => [student.id, student]));
      return grant.students.flatMap((studentId) => {
        const student = byId.get(studentId);
        return student ? [student] : [];
      });
    },

    /**
     * Of the children a browser's signed cookie held (each existed when its code was given), those
     * that no longer exist: erased, or taken off the roster, at the school's request
     * (docs/access.md, "What the family of an erased child sees").
     */
    async removed(heldIds: readonly number[]): Promise<number[]> {
      const ids = [...new Set(heldIds)];
      if (ids.length === 0) return [];
      const present = new Set((await repo.granted(ids)).map((student) => student.id));
      return ids.filter((id) => !present.has(id));
    },

    /**
     * One child's photos, for staff or a family holding the child's code; anyone else is refused
     * as the class's visibility rule says (docs/access.md#the-visibility-rule).
     */
    async photosOf(id: number, viewer: Viewer): Promise<GalleryPhoto[]> {
      // A child this family does not hold, whether another family's, erased or never there, gets
      // one answer: 401 STUDENT_LOCKED (docs/access.md, "Families see only their own").
      if (!viewer.staff && !(await visibility.grantedStudents(viewer)).some((held) => held.id === id)) {
        throw unauthorized(STUDENT_MSG.studentAccessRequired, 'STUDENT_LOCKED');
      }
      const student = await get(id);
      const album = await photos.getAlbum(student.albumId);
      // A family holding the child's code in a class still in draft is told "nothing yet", not "not found".
      if (!viewer.staff && !album.published) return [];
      const access = await visibility.requireClass(viewer, album);
      return photos.listStudentPhotos(student.id, access);
    },

    /** Every photo must be in the student's class; null makes them group photos of their class again. */
    async assignPhotos(input: AssignPhotosInput): Promise<{ updated: number }> {
      const photoIds = [...new Set(input.photoIds)];
      return database.transaction(async (tx) => {
        const albumOf = await repo.photoAlbums(photoIds, tx);
        if (albumOf.size !== photoIds.length) throw notFound(MSG.photoNotFound);
        if (await repo.anyCard(photoIds, tx)) throw badRequest(MATCHING_MSG.cardNotAssignable, { photoIds: MATCHING_MSG.cardNotAssignable }, 'CARD_PHOTO');
        if (input.studentId !== null) {
          const student = await get(input.studentId, tx);
          if ([...albumOf.values()].some((albumId) => albumId !== student.albumId)) {
            throw badRequest(STUDENT_MSG.photosNotInClass, { photoIds: STUDENT_MSG.photosNotInClass }, 'PHOTOS_NOT_IN_CLASS');
          }
        }
        // A photo a family paid for moves only once staff confirmed the warning (docs/access.md, "Moving a sold photo").
        await guardSoldPhotos(soldPhotos, photoIds, { to: 'student', studentId: input.studentId }, input.confirm === true, tx);
        return { updated: await repo.assignPhotos(photoIds, input.studentId, tx) };
      });
    },

    /**
     * Erasure at the family's request: the child's photos (rows, then files), the child and their
     * code go; paid orders keep their lines as text and their totals; unpaid ones are cancelled;
     * a record says who erased and when, without anything of the child.
     */
    async erase(id: number, staff: AuditActor): Promise<ErasureRecord> {
      const at = now();
      const { files, result } = await database.transaction(async (tx) => {
        const student = await get(id, tx);
        const erased = await repo.photoFilesOf(id, tx);
        const photoIds = erased.map((photo) => photo.id);
        const redacted = await repo.redactOrderLines(photoIds, id, STUDENT_MSG.photoRemovedText, tx);
        // The child's name goes from every order that may carry it: those tied to the child by a line, and the class's others (group photos only).
        const names = new Map<string, string>();
        const others = await repo.lineChildren(redacted.orderIds, tx);
        const tied = new Set(redacted.orderIds);
        const orders = [...(await repo.orderNames(redacted.orderIds, tx)), ...(await repo.classOrderNames(student.albumId, tx))];
        for (const order of orders) {
          if (names.has(order.id)) continue;
          const renamed = nameAfterErasure(order.studentName, student.name, tied.has(order.id), others.get(order.id) ?? [], STUDENT_MSG.photoRemovedText);
          if (renamed !== null && renamed !== order.studentName) names.set(order.id, renamed);
        }
        await repo.setStudentNames(names, tx);
        // Notes may name the child too.
        const notes = new Map<string, string | null>();
        for (const order of orders) {
          if (notes.has(order.id)) continue;
          const rewritten = notesAfterErasure(order.notes, student.name, tied.has(order.id), STUDENT_MSG.noteRemovedText, STUDENT_MSG.nameRemovedText);
          if (rewritten !== order.notes) notes.set(order.id, rewritten);
        }
        await repo.setOrderNotes(notes, tx);
        await repo.cancelUnpaidOrders(redacted.orderIds, tx);
        // Cancelled unpaid orders give their coupon uses back; release leaves the others alone.
        for (const orderId of redacted.orderIds) await coupons.release(orderId, tx);
        if (photoIds.length > 0) await repo.deletePhotos(photoIds, tx);
        // Queued with the rows: a removal that fails is retried until storage confirms (docs/access.md, "Erasure").
        await fileDeletions.queue(erased, tx);
        // Nobody follows the child any more: no schedule reaches a guardian for them (docs/outreach.md, "Erasure").
        await followers.forgetChild({ studentId: id, schoolId: student.schoolId, guardianEmail: student.guardianEmail }, tx);
        await repo.delete(id, tx);
        await repo.recordErasure(
          {
            schoolId: student.schoolId,
            albumId: student.albumId,
            staffId: staff.id,
            staffEmail: staff.email,
            photosDeleted: photoIds.length,
            orderLinesRedacted: redacted.lines,
            at,
          },
          tx,
        );
        await audit.record({ action: 'student_erased', actor: staff, targetId: id, schoolId: student.schoolId, albumId: student.albumId, count: photoIds.length, at }, tx);
        return { files: erased, result: { erasedAt: at, photosDeleted: photoIds.length, orderLinesRedacted: redacted.lines } };
      });
      await fileDeletions.removeQueued(files);
      return result;
    },

    /**
     * Orders an erasure left pending because a payment of theirs was still open are cancelled once
     * it has ended unpaid (refused, or abandoned past OPEN_PAYMENT_WINDOW_MS) and no other is being
     * opened (docs/access.md, "Erasure"); run by the payment sweep. Returns how many were cancelled.
     */
    async cancelOrdersLeftByErasure(): Promise<number> {
      return database.transaction(async (tx) => {
        const orderIds = await repo.ordersLeftByErasure(500, tx);
        const cancelled = await repo.cancelUnpaidOrders(orderIds, tx);
        for (const orderId of orderIds) await coupons.release(orderId, tx);
        return cancelled;
      });
    },
  };
}
export type StudentService = ReturnType<typeof createStudentService>;

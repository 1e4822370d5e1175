import type { Knex } from 'knex';
import type { AccessMode } from '../../contract/student-codes';
import { inTx, runner, type Tx } from '../db/database';
import { bumpAccessVersion } from '../http/access-version.repository';
import { insertedId, now, toIso } from '../db/knex';
import type { PhotoFileRecord } from '../albums/albums.repository';
import { whereMayStillBePaid } from '../payments/payments.repository';

export interface StudentRecord {
  id: number;
  albumId: number;
  schoolId: number;
  name: string;
  number: string | null;
  guardianEmail: string | null;
  /** E.164, for the code recovered by SMS (docs/sms.md, "Codes recovered by phone"). */
  guardianPhone: string | null;
  /** Normalised, without the dash. */
  code: string;
  doNotPublish: boolean;
  photoCount: number;
  /** The photo staff marked as the child's default pose on the review sheet (docs/prepaid.md). */
  defaultPhotoId: number | null;
  createdAt: string;
}

/** A child a family's grant names, with what the gallery and the visibility rule need. */
export interface GrantedStudent {
  id: number;
  name: string;
  /** The child's current code, so a grant made with an older one is refused. */
  code: string;
  albumId: number;
  albumName: string;
  schoolId: number;
  schoolName: string;
  schoolSlug: string;
  accessMode: AccessMode;
  doNotPublish: boolean;
}

export interface NewStudent {
  name: string;
  number: string | null;
  guardianEmail: string | null;
  guardianPhone: string | null;
  code: string;
}

/** A child whose code a guardian's phone may recover (docs/sms.md, "Codes recovered by phone"). */
export interface RecoverableStudent {
  id: number;
  name: string;
  code: string;
  schoolId: number;
  albumName: string;
}

interface StudentRow {
  id: number;
  album_id: number;
  school_id: number;
  name: string;
  number: string | null;
  guardian_email: string | null;
  guardian_phone: string | null;
  code: string;
  do_not_publish: number | boolean;
  photo_count: number | string;
  default_photo_id?: number | null;
  created_at: number | string;
}

function toRecord(row: StudentRow): StudentRecord {
  return {
    id: Number(row.id),
    albumId: Number(row.album_id),
    schoolId: Number(row.school_id),
    name: row.name,
    number: row.number,
    guardianEmail: row.guardian_email,
    guardianPhone: row.guardian_phone,
    code: row.code,
    doNotPublish: Boolean(Number(row.do_not_publish)),
    photoCount: Number(row.photo_count),
    defaultPhotoId: row.default_photo_id === null || row.default_photo_id === undefined ? null : Number(row.default_photo_id),
    createdAt: toIso(row.created_at),
  };
}

function recordQuery(db: Knex) {
  return db('students as st')
    .join('albums as a', 'a.id', 'st.album_id')
    .select(
      'st.id',
      'st.album_id',
      'a.school_id',
      'st.name',
      'st.number',
      'st.guardian_email',
      'st.guardian_phone',
      'st.code',
      'st.do_not_publish',
      'st.default_photo_id',
      'st.created_at',
      db.raw('(select count(*) from photos p where p.student_id = st.id) as photo_count'),
    );
}

/** Where an erased child's name may stand in an order: its student name and its notes. */
export interface OrderNames {
  id: string;
  studentName: string;
  notes: string | null;
}
interface OrderNamesRow {
  id: string;
  student_name: string;
  notes: string | null;
}
const toOrderNames = (row: OrderNamesRow): OrderNames => ({ id: row.id, studentName: row.student_name, notes: row.notes });

export function createStudentRepository(knex: Knex) {
  return {
    async findById(id: number, tx?: Tx): Promise<StudentRecord | undefined> {
      const db = runner(knex, tx);
      const row = (await recordQuery(db).where('st.id', id).first()) as StudentRow | undefined;
      return row ? toRecord(row) : undefined;
    },

    async listByAlbum(albumId: number, tx?: Tx): Promise<StudentRecord[]> {
      const db = runner(knex, tx);
      return ((await recordQuery(db).where('st.album_id', albumId).orderBy('st.id')) as StudentRow[]).map(toRecord);
    },

    async listByIds(ids: number[], tx?: Tx): Promise<StudentRecord[]> {
      const db = runner(knex, tx);
      if (ids.length === 0) return [];
      return ((await recordQuery(db).whereIn('st.id', ids).orderBy('st.id')) as StudentRow[]).map(toRecord);
    },

    async findIdByCode(code: string): Promise<number | undefined> {
      const row = (await knex('students').where({ code }).first('id')) as { id: number } | undefined;
      return row ? Number(row.id) : undefined;
    },

    async granted(ids: number[]): Promise<GrantedStudent[]> {
      if (ids.length === 0) return [];
      const rows = (await knex('students as st')
        .join('albums as a', 'a.id', 'st.album_id')
        .join('schools as s', 's.id', 'a.school_id')
        .whereIn('st.id', ids)
        .select(
          'st.id',
          'st.name',
          'st.code',
          'st.do_not_publish',
          'a.id as album_id',
          'a.name as album_name',
          's.id as school_id',
          's.name as school_name',
          's.slug as school_slug',
          's.access_mode',
        )) as {
        id: number;
        name: string;
        code: string;
        do_not_publish: number | boolean;
        album_id: number;
        album_name: string;
        school_id: number;
        school_name: string;
        school_slug: string;
        access_mode: AccessMode;
      }[];
      return rows.map((row) => ({
        id: Number(row.id),
        name: row.name,
        code: row.code,
        albumId: Number(row.album_id),
        albumName: row.album_name,
        schoolId: Number(row.school_id),
        schoolName: row.school_name,
        schoolSlug: row.school_slug,
        accessMode: row.access_mode,
        doNotPublish: Boolean(Number(row.do_not_publish)),
      }));
    },

    /**
     * The children on a class list with this guardian phone whose code the family may have by SMS
     * (docs/sms.md, "Codes recovered by phone"): in a school that uses student codes, in a class
     * families see now (published, or its publishAt come; not archived), not marked do not
     * publish. Erased children are gone from the table. The most recent classes first, at most `limit`.
     */
    async recoverableByPhone(phone: string, at: number, limit: number): Promise<RecoverableStudent[]> {
      const rows = (await knex('students as st')
        .join('albums as a', 'a.id', 'st.album_id')
        .join('schools as s', 's.id', 'a.school_id')
        .where('st.guardian_phone', phone)
        .where('s.access_mode', 'student_codes')
        .where('st.do_not_publish', false)
        .whereNull('a.archived_at')
        .where((q) => q.where('a.status', 'published').orWhere((p) => p.whereNotNull('a.publish_at').where('a.publish_at', '<=', at)))
        .orderBy([{ column: 'a.id', order: 'desc' }, { column: 'st.name' }, { column: 'st.id' }])
        .limit(limit)
        .select('st.id', 'st.name', 'st.code', 'a.school_id', 'a.name as album_name')) as { id: number; name: string; code: string; school_id: number; album_name: string }[];
      return rows.map((row) => ({ id: Number(row.id), name: row.name, code: row.code, schoolId: Number(row.school_id), albumName: row.album_name }));
    },

    async existingCodes(codes: string[], tx?: Tx): Promise<Set<string>> {
      const db = runner(knex, tx);
      if (codes.length === 0) return new Set();
      const rows = (await db('students').whereIn('code', codes).select('code')) as { code: string }[];
      return new Set(rows.map((row) => row.code));
    },

    async insertMany(albumId: number, students: NewStudent[], tx: Tx): Promise<number[]> {
      const db = inTx(tx);
      const at = now();
      const ids: number[] = [];
      for (const student of students) {
        ids.push(
          insertedId(
            await db('students').insert({
              album_id: albumId,
              name: student.name,
              number: student.number,
              guardian_email: student.guardianEmail,
              guardian_phone: student.guardianPhone,
              code: student.code,
              do_not_publish: false,
              created_at: at,
              updated_at: at,
            }),
          ),
        );
      }
      return ids;
    },

    async update(
      id: number,
      changes: { name?: string; number?: string | null; guardianEmail?: string | null; guardianPhone?: string | null; doNotPublish?: boolean; code?: string; defaultPhotoId?: number | null },
      tx?: Tx,
    ): Promise<void> {
      const db = runner(knex, tx);
      const row: Record<string, unknown> = {};
      if (changes.name !== undefined) row.name = changes.name;
      if (changes.number !== undefined) row.number = changes.number;
      if (changes.guardianEmail !== undefined) row.guardian_email = changes.guardianEmail;
      if (changes.guardianPhone !== undefined) row.guardian_phone = changes.guardianPhone;
      if (changes.doNotPublish !== undefined) row.do_not_publish = changes.doNotPublish;
      if (changes.code !== undefined) row.code = changes.code;
      if (changes.defaultPhotoId !== undefined) row.default_photo_id = changes.defaultPhotoId;
      if (Object.keys(row).length === 0) return;
      await db('students').where({ id }).update({ ...row, updated_at: now() });
      // A new code cuts off every device that used the old one (docs/access.md, "Code-bound grants").
      if (changes.code !== undefined) await bumpAccessVersion(knex, tx);
    },

    /** An erasure or a child taken off the roster: no grant may keep them (docs/access.md, "Erasure"). */
    async delete(id: number, tx?: Tx): Promise<void> {
      await runner(knex, tx)('students').where({ id }).delete();
      await bumpAccessVersion(knex, tx);
    },

    /** Whether the photo is this child's own (not a card): what may be its default pose (docs/prepaid.md). */
    async isOwnPhoto(studentId: number, photoId: number): Promise<boolean> {
      return (await knex('photos').where({ id: photoId, student_id: studentId }).whereNot('kind', 'card').first('id')) !== undefined;
    },

    /** Remembers a code a new one replaces (its digest only), so cards showing it stay the child's. */
    async recordPastCode(studentId: number, codeDigest: string, at: number, tx?: Tx): Promise<void> {
      await runner(knex, tx)('student_past_codes').insert({ student_id: studentId, code_digest: codeDigest, replaced_at: at });
    },

    async photoFilesOf(studentId: number, tx?: Tx): Promise<(PhotoFileRecord & { id: number })[]> {
      const db = runner(knex, tx);
      // Card photos show the child's name and code: they go with the child, from whichever class.
      const rows = (await db('photos').where({ student_id: studentId }).orWhere({ card_student_id: studentId }).select('id', 'storage_key', 'mime_type')) as {
        id: number;
        storage_key: string;
        mime_type: string;
      }[];
      return rows.map((row) => ({ id: Number(row.id), storageKey: row.storage_key, mimeType: row.mime_type }));
    },

    /** Photos by id with their class, for assigning them to a student. */
    async photoAlbums(photoIds: number[], tx?: Tx): Promise<Map<number, number>> {
      const db = runner(knex, tx);
      const rows = (await db('photos').whereIn('id', photoIds).select('id', 'album_id')) as { id: number; album_id: number }[];
      return new Map(rows.map((row) => [Number(row.id), Number(row.album_id)]));
    },

    /** Staff placing photos by hand: out of the unmatched tray, live at once, and kept where they are when the session is matched again. */
    async assignPhotos(photoIds: number[], studentId: number | null, tx?: Tx): Promise<number> {
      const db = runner(knex, tx);
      // A person decided: the photo is live at once (no review).
      return db('photos').whereIn('id', photoIds).update({ student_id: studentId, in_tray: false, matched_by: 'staff', pending_review: false });
    },

    async anyCard(photoIds: number[], tx?: Tx): Promise<boolean> {
      const db = runner(knex, tx);
      return (await db('photos').whereIn('id', photoIds).where('kind', 'card').first('id')) !== undefined;
    },

    /**
     * Order lines for the erased photos become text: the product, quantity and money stay (paid
     * totals must still add up), the photo and the child go.
     */
    async redactOrderLines(photoIds: number[], studentId: number, removedText: string, tx: Tx): Promise<{ lines: number; orderIds: string[] }> {
      const db = inTx(tx);
      const query = () =>
        db('order_items').where((q) => {
          q.where('student_id', studentId);
          if (photoIds.length > 0) q.orWhereIn('photo_id', photoIds);
        });
      const orderIds = [...new Set(((await query().select('order_id')) as { order_id: string }[]).map((row) => row.order_id))];
      const lines = await query().update({
        photo_id: null,
        student_id: null,
        photo_name: removedText,
        photo_original_name: null,
        photo_original_number: null,
        photo_filename: null,
      });
      return { lines, orderIds };
    },

    /** Orders for the class (the order's class, or a line of it), with their student name: where an erased child's name may stand. */
    async classOrderNames(albumId: number, tx: Tx): Promise<OrderNames[]> {
      const db = inTx(tx);
      const rows = (await db('orders')
        .where('album_id', albumId)
        .orWhereIn('id', db('order_items').where('album_id', albumId).select('order_id'))
        .select('id', 'student_name', 'notes')) as OrderNamesRow[];
      return rows.map(toOrderNames);
    },

    async orderNames(orderIds: string[], tx: Tx): Promise<OrderNames[]> {
      if (orderIds.length === 0) return [];
      const rows = (await inTx(tx)('orders').whereIn('id', orderIds).select('id', 'student_name', 'notes')) as OrderNamesRow[];
      return rows.map(toOrderNames);
    },

    async setOrderNotes(notes: Map<string, string | null>, tx: Tx): Promise<void> {
      const at = now();
      for (const [id, text] of notes) await inTx(tx)('orders').where({ id }).update({ notes: text, updated_at: at });
    },

    /** Per order, the roster names of the children its lines are still for. */
    async lineChildren(orderIds: string[], tx: Tx): Promise<Map<string, string[]>> {
      const found = new Map<string, string[]>();
      if (orderIds.length === 0) return found;
      const rows = (await inTx(tx)('order_items as i')
        .join('students as st', 'st.id', 'i.student_id')
        .whereIn('i.order_id', orderIds)
        .distinct('i.order_id', 'st.name')) as { order_id: string; name: string }[];
      for (const row of rows) found.set(row.order_id, [...(found.get(row.order_id) ?? []), row.name]);
      return found;
    },

    async setStudentNames(names: Map<string, string>, tx: Tx): Promise<void> {
      const at = now();
      for (const [id, studentName] of names) await inTx(tx)('orders').where({ id }).update({ student_name: studentName, updated_at: at });
    },

    /**
     * Unpaid orders that held the erased photos can no longer be fulfilled: they are cancelled,
     * except while a payment of theirs is still open or being opened (it may yet be approved, and
     * a cancelled order paid is a refund, docs/access.md, "Erasure").
     */
    async cancelUnpaidOrders(orderIds: string[], tx: Tx): Promise<number> {
      const db = inTx(tx);
      if (orderIds.length === 0) return 0;
      const at = now();
      return db('orders')
        .whereIn('id', orderIds)
        .whereNot('payment_status', 'completed')
        .whereNot('order_status', 'cancelled')
        .where((q) => q.whereNull('payment_claimed_until').orWhere('payment_claimed_until', '<', at))
        .whereNotExists(
          db('payments as p')
            .select(db.raw('1'))
            .whereRaw('p.order_id = orders.id')
            .modify((query) => whereMayStillBePaid(query, at, 'p')),
        )
        .update({ order_status: 'cancelled', updated_at: at });
    },

    /**
     * Unpaid orders an erasure left pending (a line redacted at the family's request: no photo and
     * no original name) that are not cancelled yet, oldest first.
     */
    async ordersLeftByErasure(limit: number, tx: Tx): Promise<string[]> {
      const db = inTx(tx);
      const rows = (await db('orders as o')
        .whereNot('o.payment_status', 'completed')
        .whereNot('o.order_status', 'cancelled')
        .whereExists(db('order_items as i').select(db.raw('1')).whereRaw('i.order_id = o.id').whereNull('i.photo_id').whereNull('i.photo_original_name'))
        .orderBy('o.created_at')
        .limit(limit)
        .select('o.id')) as { id: string }[];
      return rows.map((row) => row.id);
    },

    deletePhotos: (ids: number[], tx: Tx) => inTx(tx)('photos').whereIn('id', ids).delete(),

    async recordErasure(
      entry: { schoolId: number; albumId: number; staffId: number; staffEmail: string; photosDeleted: number; orderLinesRedacted: number; at: number },
      tx: Tx,
    ): Promise<void> {
      const db = inTx(tx);
      await db('student_erasures').insert({
        school_id: entry.schoolId,
        album_id: entry.albumId,
        erased_by: entry.staffId,
        erased_by_email: entry.staffEmail,
        photos_deleted: entry.photosDeleted,
        order_lines_redacted: entry.orderLinesRedacted,
        erased_at: entry.at,
      });
    },
  };
}
export type StudentRepository = ReturnType<typeof createStudentRepository>;

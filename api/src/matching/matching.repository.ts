import type { Knex } from 'knex';
import type { CardStatus, MatchedBy } from '../../contract/matching';
import type { RosterEntry } from './file-names';
import type { Placement, SessionPhoto } from './match-session';
import { toPhotoRecord, type PhotoRecord, type PhotoRow } from '../photos/photos.repository';
import { inTx, runner, type Tx } from '../db/database';

/** A student found by a card's code, in whichever class and school they are. */
export interface CodeOwner {
  id: number;
  name: string;
  albumId: number;
  albumName: string;
  schoolName: string;
}

interface SessionRow {
  id: number;
  kind: string;
  card_status: string | null;
  card_student_id: number | null;
  captured_at: number | string | null;
  capture_seq: number | null;
  original_name: string;
  student_id: number | null;
  in_tray: number | boolean;
  matched_by: string | null;
}

const toSessionPhoto = (row: SessionRow): SessionPhoto => ({
  id: Number(row.id),
  kind: row.kind === 'card' ? 'card' : 'photo',
  cardStatus: (row.card_status as CardStatus | null) ?? null,
  cardStudentId: row.card_student_id === null ? null : Number(row.card_student_id),
  capturedAt: row.captured_at === null ? null : Number(row.captured_at),
  seq: row.capture_seq === null ? null : Number(row.capture_seq),
  originalName: row.original_name,
  studentId: row.student_id === null ? null : Number(row.student_id),
  inTray: Boolean(Number(row.in_tray)),
  matchedBy: (row.matched_by as MatchedBy | null) ?? null,
});

const SESSION_COLUMNS = ['id', 'kind', 'card_status', 'card_student_id', 'captured_at', 'capture_seq', 'original_name', 'student_id', 'in_tray', 'matched_by'];

/** Photos placed by one UPDATE at most (well under SQLite's limit of bound values). */
const PLACE_CHUNK = 500;

export function createMatchingRepository(knex: Knex) {
  return {
    async roster(albumId: number, tx?: Tx): Promise<RosterEntry[]> {
      const rows = (await runner(knex, tx)('students').where({ album_id: albumId }).select('id', 'name', 'number')) as { id: number; name: string; number: string | null }[];
      return rows.map((row) => ({ id: Number(row.id), name: row.name, number: row.number }));
    },

    async ownerOfCode(code: string): Promise<CodeOwner | undefined> {
      const row = (await knex('students as st')
        .join('albums as a', 'a.id', 'st.album_id')
        .join('schools as s', 's.id', 'a.school_id')
        .where('st.code', code)
        .first('st.id', 'st.name', 'a.id as album_id', 'a.name as album_name', 's.name as school_name')) as
        | { id: number; name: string; album_id: number; album_name: string; school_name: string }
        | undefined;
      return row && { id: Number(row.id), name: row.name, albumId: Number(row.album_id), albumName: row.album_name, schoolName: row.school_name };
    },

    /** The child a replaced code belonged to (by its digest), or undefined. */
    async pastOwnerOfCode(codeDigest: string): Promise<number | undefined> {
      const row = (await knex('student_past_codes').where('code_digest', codeDigest).orderBy('replaced_at', 'desc').first('student_id')) as { student_id: number } | undefined;
      return row ? Number(row.student_id) : undefined;
    },

    async sessionPhotos(albumId: number, session: string, tx?: Tx): Promise<SessionPhoto[]> {
      const rows = (await runner(knex, tx)('photos').where({ album_id: albumId, upload_session: session }).select(SESSION_COLUMNS)) as SessionRow[];
      return rows.map(toSessionPhoto);
    },

    /** Sessions of the class with photos waiting in the tray. */
    async traySessions(albumId: number): Promise<string[]> {
      const rows = (await knex('photos').where({ album_id: albumId, in_tray: true }).distinct('upload_session')) as { upload_session: string | null }[];
      return rows.flatMap((row) => (row.upload_session === null ? [] : [row.upload_session]));
    },

    /** Photos waiting in the tray that no session orders (kept for completeness; uploads always name a session). */
    async trayWithoutSession(albumId: number): Promise<PhotoRecord[]> {
      const rows = await knex('photos').where({ album_id: albumId, in_tray: true }).whereNull('upload_session').orderBy('id').select<PhotoRow[]>('*');
      return rows.map(toPhotoRecord);
    },

    async owners(ids: number[]): Promise<Map<number, CodeOwner>> {
      if (ids.length === 0) return new Map();
      const rows = (await knex('students as st')
        .join('albums as a', 'a.id', 'st.album_id')
        .join('schools as s', 's.id', 'a.school_id')
        .whereIn('st.id', ids)
        .select('st.id', 'st.name', 'a.id as album_id', 'a.name as album_name', 's.name as school_name')) as {
        id: number;
        name: string;
        album_id: number;
        album_name: string;
        school_name: string;
      }[];
      return new Map(rows.map((row) => [Number(row.id), { id: Number(row.id), name: row.name, albumId: Number(row.album_id), albumName: row.album_name, schoolName: row.school_name }]));
    },

    async photosByIds(ids: number[]): Promise<PhotoRecord[]> {
      if (ids.length === 0) return [];
      return (await knex('photos').whereIn('id', ids).select<PhotoRow[]>('*')).map(toPhotoRecord);
    },

    /**
     * Writes only the placements that changed. With `review`, a photo a card or a file name puts
     * with a child waits for staff before families see it; one that goes to the tray is hidden there.
     */
    async place(changes: Map<number, Placement>, review: boolean, tx: Tx): Promise<void> {
      const db = inTx(tx);
      // One statement per distinct placement, not one per photo: a batch's photos mostly follow
      // the same card, and the session is matched again after every batch (docs/images.md,
      // "Cards at the shoot").
      const groups = new Map<string, { placement: Placement; ids: number[] }>();
      for (const [id, placement] of changes) {
        const key = `${placement.studentId}:${placement.inTray}:${placement.matchedBy}`;
        const group = groups.get(key) ?? { placement, ids: [] };
        group.ids.push(id);
        groups.set(key, group);
      }
      for (const { placement, ids } of groups.values()) {
        for (let i = 0; i < ids.length; i += PLACE_CHUNK) {
          await db('photos')
            .whereIn('id', ids.slice(i, i + PLACE_CHUNK))
            .update({ student_id: placement.studentId, in_tray: placement.inTray, matched_by: placement.matchedBy, pending_review: review && !placement.inTray });
        }
      }
    },

    /**
     * Whether a placement by a card or a file name waits for review in this class: once it is
     * published, or scheduled to publish itself (docs/access.md, "Photos waiting for review").
     */
    async reviewsPlacements(albumId: number, tx: Tx): Promise<boolean> {
      const row = (await inTx(tx)('albums').where({ id: albumId }).first('status', 'publish_at')) as { status: string; publish_at: number | string | null } | undefined;
      return row !== undefined && (row.status === 'published' || row.publish_at !== null);
    },

    /** The photos' class and upload session, and whether each is a card already. */
    async photoSessions(ids: number[]): Promise<{ id: number; albumId: number; session: string | null; kind: string }[]> {
      if (ids.length === 0) return [];
      const rows = (await knex('photos').whereIn('id', ids).select('id', 'album_id', 'upload_session', 'kind')) as {
        id: number;
        album_id: number;
        upload_session: string | null;
        kind: string;
      }[];
      return rows.map((row) => ({ id: Number(row.id), albumId: Number(row.album_id), session: row.upload_session, kind: row.kind }));
    },

    /**
     * Staff say these photos show a child's card the scan could not read: cards of nobody known,
     * never shown to families, never placed with a child.
     */
    async markCards(ids: number[], tx: Tx): Promise<number> {
      return Number(
        await inTx(tx)('photos')
          .whereIn('id', ids)
          .update({ kind: 'card', card_status: 'unknown', card_student_id: null, student_id: null, in_tray: false, matched_by: null, pending_review: false }),
      );
    },

    /** Serialises matching of one class across processes on MySQL (SQLite writes are serial anyway). */
    async lockAlbum(albumId: number, tx: Tx): Promise<void> {
      const db = inTx(tx);
      if (db.client.config.client === 'mysql2') await db('albums').where({ id: albumId }).forUpdate().first('id');
    },
  };
}
export type MatchingRepository = ReturnType<typeof createMatchingRepository>;

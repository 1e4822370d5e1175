import type { Knex } from 'knex';
import type { AuditAction } from '../../contract/audit';
import { runner, type Tx } from '../db/database';

/** Who acted: the signed-in staff member, as the token's account row says now. */
export interface AuditActor {
  id: number;
  email: string;
  role: string;
}

export interface AuditInput {
  action: AuditAction;
  actor: AuditActor;
  targetId?: number | null;
  schoolId?: number | null;
  albumId?: number | null;
  count?: number | null;
  at: number;
}

export interface AuditRecord {
  id: number;
  action: AuditAction;
  staffId: number;
  staffEmail: string;
  staffRole: string;
  targetId: number | null;
  /** The child's current name, while the target is a student still on a roster. */
  studentName: string | null;
  schoolId: number | null;
  schoolName: string | null;
  albumId: number | null;
  albumName: string | null;
  count: number | null;
  at: number;
}

const STUDENT_ACTIONS: readonly AuditAction[] = ['do_not_publish_set', 'do_not_publish_cleared'];

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** The audit log (docs/accounts.md, "The audit log"): written in the action's own transaction, read newest first. */
export function createAuditRepository(knex: Knex) {
  return {
    /** Names the school and class as they are now (before the action removes them). */
    async record(entry: AuditInput, tx: Tx): Promise<void> {
      const db = runner(knex, tx);
      const album = entry.albumId ? ((await db('albums').where({ id: entry.albumId }).first('name', 'school_id')) as { name: string; school_id: number } | undefined) : undefined;
      const schoolId = entry.schoolId ?? (album ? Number(album.school_id) : null);
      const school = schoolId ? ((await db('schools').where({ id: schoolId }).first('name')) as { name: string } | undefined) : undefined;
      await db('audit_log').insert({
        action: entry.action,
        staff_id: entry.actor.id,
        staff_email: entry.actor.email,
        staff_role: entry.actor.role,
        target_id: entry.targetId ?? null,
        school_id: schoolId,
        school_name: school?.name ?? null,
        album_id: entry.albumId ?? null,
        album_name: album?.name ?? null,
        count: entry.count ?? null,
        at: entry.at,
      });
    },

    async list(page: { before: number | null; limit: number }): Promise<AuditRecord[]> {
      const query = knex('audit_log as a')
        .leftJoin('students as s', function joinStudent() {
          this.on('s.id', '=', 'a.target_id').andOnIn('a.action', [...STUDENT_ACTIONS]);
        })
        .orderBy('a.id', 'desc')
        .limit(page.limit)
        .select('a.*', 's.name as student_name');
      if (page.before !== null) void query.where('a.id', '<', page.before);
      const rows = (await query) as Record<string, unknown>[];
      return rows.map((row) => ({
        id: Number(row.id),
        action: row.action as AuditAction,
        staffId: Number(row.staff_id),
        staffEmail: String(row.staff_email),
        staffRole: String(row.staff_role),
        targetId: num(row.target_id),
        studentName: row.student_name === null || row.student_name === undefined ? null : String(row.student_name),
        schoolId: num(row.school_id),
        schoolName: row.school_name === null || row.school_name === undefined ? null : String(row.school_name),
        albumId: num(row.album_id),
        albumName: row.album_name === null || row.album_name === undefined ? null : String(row.album_name),
        count: num(row.count),
        at: Number(row.at),
      }));
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;

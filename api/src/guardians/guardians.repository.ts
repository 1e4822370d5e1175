import type { Connection } from '../db/knex';
import { runner, type Tx } from '../db/database';
import { insertedId } from '../db/knex';

/**
 * A guardian (docs/outreach.md, "Consent"): one person, reached by an address, a mobile number or
 * both, with their consent and opt-ins. `confirmedAt` is the address's confirmation,
 * `phoneConfirmedAt` the number's ("Double opt-in: by phone").
 */
export interface GuardianRecord {
  id: number;
  email: string | null;
  /** E.164. */
  phone: string | null;
  confirmedAt: number | null;
  phoneConfirmedAt: number | null;
  consentVersion: string;
  consentAt: number;
  marketing: boolean;
  marketingAt: number | null;
  unsubscribedAt: number | null;
  createdAt: number;
}

/** A child (studentId) or a whole school (studentId null) a guardian follows. */
export interface FollowRecord {
  id: number;
  guardianId: number;
  schoolId: number;
  studentId: number | null;
  /** Null while pending: no message for it until a link made after it is clicked. */
  confirmedAt: number | null;
}

/** One subscribe request's confirmation link (only the token's hash is stored). */
export interface ConfirmationRecord {
  id: number;
  guardianId: number;
  /** 'email': a link was sent; 'phone': a code was sent by SMS. */
  channel: 'email' | 'phone';
  /** SHA-256 of the link's token; for a phone request, of a random value never sent (it salts the code's HMAC). */
  tokenHash: string;
  /** A phone request's code, as an HMAC (null for a link). */
  codeHash: string | null;
  /** Codes entered against a phone request, each counted before it is compared. */
  codeTries: number;
  consentVersion: string;
  marketing: boolean;
  /** The highest follow id the link's e-mail named (for the record: what a link confirms is in guardian_confirmation_follows). */
  followsUpTo: number;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/** A guardian as staff see them for one school, with what they follow there. */
export interface StaffGuardianRecord extends GuardianRecord {
  follows: { studentId: number | null; studentName: string | null; albumName: string | null }[];
}

interface GuardianRow {
  id: number;
  email: string | null;
  phone: string | null;
  confirmed_at: number | string | null;
  phone_confirmed_at: number | string | null;
  consent_version: string;
  consent_at: number | string;
  marketing: number | string | boolean;
  marketing_at: number | string | null;
  unsubscribed_at: number | string | null;
  created_at: number | string;
}

interface FollowRow {
  id: number;
  guardian_id: number;
  school_id: number;
  student_id: number | null;
  confirmed_at: number | string | null;
}

interface ConfirmationRow {
  id: number;
  guardian_id: number;
  token_hash: string;
  channel: string;
  code_hash: string | null;
  code_tries: number | string;
  consent_version: string;
  marketing: number | string | boolean;
  follows_up_to: number | string;
  created_at: number | string;
  expires_at: number | string;
  used_at: number | string | null;
}

const ms = (value: number | string | null): number | null => (value === null ? null : Number(value));

const toGuardian = (row: GuardianRow): GuardianRecord => ({
  id: Number(row.id),
  email: row.email,
  phone: row.phone,
  confirmedAt: ms(row.confirmed_at),
  phoneConfirmedAt: ms(row.phone_confirmed_at),
  consentVersion: row.consent_version,
  consentAt: Number(row.consent_at),
  marketing: Boolean(Number(row.marketing)),
  marketingAt: ms(row.marketing_at),
  unsubscribedAt: ms(row.unsubscribed_at),
  createdAt: Number(row.created_at),
});

const toFollow = (row: FollowRow): FollowRecord => ({
  id: Number(row.id),
  guardianId: Number(row.guardian_id),
  schoolId: Number(row.school_id),
  studentId: row.student_id === null ? null : Number(row.student_id),
  confirmedAt: ms(row.confirmed_at),
});

const toConfirmation = (row: ConfirmationRow): ConfirmationRecord => ({
  id: Number(row.id),
  guardianId: Number(row.guardian_id),
  channel: row.channel === 'phone' ? 'phone' : 'email',
  tokenHash: row.token_hash,
  codeHash: row.code_hash,
  codeTries: Number(row.code_tries),
  consentVersion: row.consent_version,
  marketing: Boolean(Number(row.marketing)),
  followsUpTo: Number(row.follows_up_to),
  createdAt: Number(row.created_at),
  expiresAt: Number(row.expires_at),
  usedAt: ms(row.used_at),
});

/** What a guardian's fields are written as; only the given ones change. */
export interface GuardianWrite {
  confirmedAt?: number | null;
  phoneConfirmedAt?: number | null;
  consentVersion?: string;
  consentAt?: number;
  marketing?: boolean;
  marketingAt?: number | null;
  unsubscribedAt?: number | null;
}

function toRow(write: GuardianWrite): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  if (write.confirmedAt !== undefined) row.confirmed_at = write.confirmedAt;
  if (write.phoneConfirmedAt !== undefined) row.phone_confirmed_at = write.phoneConfirmedAt;
  if (write.consentVersion !== undefined) row.consent_version = write.consentVersion;
  if (write.consentAt !== undefined) row.consent_at = write.consentAt;
  if (write.marketing !== undefined) row.marketing = write.marketing ? 1 : 0;
  if (write.marketingAt !== undefined) row.marketing_at = write.marketingAt;
  if (write.unsubscribedAt !== undefined) row.unsubscribed_at = write.unsubscribedAt;
  return row;
}

/** What an erased guardian's past messages keep: their kind, school, status and times, so counts stay true. */
export const ERASED_RECIPIENT = 'erased@erased.invalid';
const ERASED_SUBJECT = '[erased]';

export function createGuardianRepository(knex: Connection) {
  return {
    async findByEmail(email: string, tx?: Tx | null): Promise<GuardianRecord | undefined> {
      const row = (await runner(knex, tx)('guardians').where({ email }).first()) as GuardianRow | undefined;
      return row ? toGuardian(row) : undefined;
    },

    async findByPhone(phone: string, tx?: Tx | null): Promise<GuardianRecord | undefined> {
      const row = (await runner(knex, tx)('guardians').where({ phone }).first()) as GuardianRow | undefined;
      return row ? toGuardian(row) : undefined;
    },

    async findById(id: number, tx?: Tx | null): Promise<GuardianRecord | undefined> {
      const row = (await runner(knex, tx)('guardians').where({ id }).first()) as GuardianRow | undefined;
      return row ? toGuardian(row) : undefined;
    },

    async insert(
      input: { email: string | null; phone?: string | null; consentVersion: string; at: number; marketing: boolean; unsubscribedAt: number | null },
      tx?: Tx | null,
    ): Promise<number> {
      const result = await runner(knex, tx)('guardians').insert({
        email: input.email,
        phone: input.phone ?? null,
        consent_version: input.consentVersion,
        consent_at: input.at,
        marketing: input.marketing ? 1 : 0,
        marketing_at: input.marketing ? input.at : null,
        unsubscribed_at: input.unsubscribedAt,
        created_at: input.at,
        updated_at: input.at,
      });
      return insertedId(result);
    },

    async update(id: number, write: GuardianWrite, at: number, tx?: Tx | null): Promise<void> {
      await runner(knex, tx)('guardians').where({ id }).update({ ...toRow(write), updated_at: at });
    },

    /** The school of each child that exists, by child id. */
    async schoolsOfStudents(studentIds: readonly number[], tx?: Tx | null): Promise<Map<number, number>> {
      if (studentIds.length === 0) return new Map();
      const rows = (await runner(knex, tx)('students')
        .join('albums', 'albums.id', 'students.album_id')
        .whereIn('students.id', studentIds)
        .select('students.id as id', 'albums.school_id as school_id')) as { id: number; school_id: number }[];
      return new Map(rows.map((row) => [Number(row.id), Number(row.school_id)]));
    },

    /** The names of the schools that exist, by id. */
    async schoolNames(schoolIds: readonly number[], tx?: Tx | null): Promise<Map<number, string>> {
      if (schoolIds.length === 0) return new Map();
      const rows = (await runner(knex, tx)('schools').whereIn('id', schoolIds).select('id', 'name')) as { id: number; name: string }[];
      return new Map(rows.map((row) => [Number(row.id), row.name]));
    },

    async schoolExists(schoolId: number): Promise<boolean> {
      return Boolean(await knex('schools').where({ id: schoolId }).first('id'));
    },

    async follows(guardianId: number, tx?: Tx | null): Promise<FollowRecord[]> {
      const rows = (await runner(knex, tx)('guardian_follows').where({ guardian_id: guardianId }).orderBy('id')) as FollowRow[];
      return rows.map(toFollow);
    },

    async insertFollow(input: { guardianId: number; schoolId: number; studentId: number | null; at: number }, tx?: Tx | null): Promise<number> {
      const result = await runner(knex, tx)('guardian_follows').insert({
        guardian_id: input.guardianId,
        school_id: input.schoolId,
        student_id: input.studentId,
        created_at: input.at,
        confirmed_at: null,
      });
      return insertedId(result);
    },

    async insertConfirmation(
      input: {
        guardianId: number;
        tokenHash: string;
        /** A phone request's code, as an HMAC; a link's request has none. */
        codeHash?: string;
        consentVersion: string;
        marketing: boolean;
        followsUpTo: number;
        at: number;
        expiresAt: number;
      },
      tx?: Tx | null,
    ): Promise<number> {
      const result = await runner(knex, tx)('guardian_confirmations').insert({
        guardian_id: input.guardianId,
        token_hash: input.tokenHash,
        channel: input.codeHash === undefined ? 'email' : 'phone',
        code_hash: input.codeHash ?? null,
        consent_version: input.consentVersion,
        marketing: input.marketing ? 1 : 0,
        follows_up_to: input.followsUpTo,
        created_at: input.at,
        expires_at: input.expiresAt,
        used_at: null,
      });
      return insertedId(result);
    },

    /** The follows a link's e-mail named: its click confirms these and nothing else. */
    async insertConfirmationFollows(confirmationId: number, followIds: readonly number[], tx?: Tx | null): Promise<void> {
      if (followIds.length === 0) return;
      await runner(knex, tx)('guardian_confirmation_follows').insert(followIds.map((followId) => ({ confirmation_id: confirmationId, follow_id: followId })));
    },

    async confirmationFollowIds(confirmationId: number, tx?: Tx | null): Promise<number[]> {
      const rows = (await runner(knex, tx)('guardian_confirmation_follows').where({ confirmation_id: confirmationId }).select('follow_id')) as { follow_id: number }[];
      return rows.map((row) => Number(row.follow_id));
    },

    /**
     * Counts one code entered against a phone request, before it is compared (docs/outreach.md,
     * "Double opt-in: by phone"): a conditional update, so of any number of tries sent at once only
     * `maxTries` count and the rest are refused. The tries counted so far, or null when none was left.
     * Run it in a transaction: the updated row stays locked until its count is read back.
     */
    async countCodeTry(id: number, maxTries: number, tx?: Tx | null): Promise<number | null> {
      const db = runner(knex, tx);
      const counted = await db('guardian_confirmations')
        .where({ id, channel: 'phone' })
        .whereNull('used_at')
        .andWhere('code_tries', '<', maxTries)
        .update({ code_tries: knex.raw('code_tries + 1') });
      if (counted !== 1) return null;
      const row = (await db('guardian_confirmations').where({ id }).first('code_tries')) as { code_tries: number | string };
      return Number(row.code_tries);
    },

    /**
     * A phone guardian's code requests, newest first, each with the children (or schools) it asked
     * for: a code confirms only on a browser that holds every one of them.
     */
    async phoneRequests(guardianId: number, tx?: Tx | null): Promise<(ConfirmationRecord & { follows: { schoolId: number; studentId: number | null }[] })[]> {
      const db = runner(knex, tx);
      const rows = (await db('guardian_confirmations').where({ guardian_id: guardianId, channel: 'phone' }).orderBy('id', 'desc').limit(20)) as ConfirmationRow[];
      if (rows.length === 0) return [];
      const follows = (await db('guardian_confirmation_follows')
        .join('guardian_follows', 'guardian_follows.id', 'guardian_confirmation_follows.follow_id')
        .whereIn(
          'guardian_confirmation_follows.confirmation_id',
          rows.map((row) => row.id),
        )
        .select('guardian_confirmation_follows.confirmation_id as confirmation_id', 'guardian_follows.school_id as school_id', 'guardian_follows.student_id as student_id')) as {
        confirmation_id: number;
        school_id: number;
        student_id: number | null;
      }[];
      return rows.map((row) => ({
        ...toConfirmation(row),
        follows: follows
          .filter((follow) => Number(follow.confirmation_id) === Number(row.id))
          .map((follow) => ({ schoolId: Number(follow.school_id), studentId: follow.student_id === null ? null : Number(follow.student_id) })),
      }));
    },

    /** Spends a link: true for the one request that spent it, false when it was already used (two clicks at once). */
    async spendConfirmation(id: number, at: number, tx?: Tx | null): Promise<boolean> {
      return (await runner(knex, tx)('guardian_confirmations').where({ id }).whereNull('used_at').update({ used_at: at })) === 1;
    },

    /** Confirms those of the guardian's pending follows that a link named. */
    async confirmFollowIds(guardianId: number, followIds: readonly number[], at: number, tx?: Tx | null): Promise<number> {
      if (followIds.length === 0) return 0;
      return runner(knex, tx)('guardian_follows').where({ guardian_id: guardianId }).whereIn('id', followIds).whereNull('confirmed_at').update({ confirmed_at: at });
    },

    /**
     * Guardians who never confirmed, are not unsubscribed (that row is what keeps an unsubscribed
     * address unsubscribed), and whose every link ended at or before `cutoff`.
     */
    async unconfirmedPast(cutoff: number, tx?: Tx | null, onlyId?: number): Promise<{ id: number; email: string | null; phone: string | null }[]> {
      const rows = (await runner(knex, tx)('guardians')
        .modify((q) => {
          if (onlyId !== undefined) void q.where({ id: onlyId });
        })
        .whereNull('confirmed_at')
        .whereNull('phone_confirmed_at')
        .whereNull('unsubscribed_at')
        .andWhere('created_at', '<=', cutoff)
        .whereNotExists((q) => q.select(knex.raw('1')).from('guardian_confirmations').whereRaw('guardian_confirmations.guardian_id = guardians.id').andWhere('expires_at', '>', cutoff))
        .select('id', 'email', 'phone')) as { id: number; email: string | null; phone: string | null }[];
      return rows.map((row) => ({ id: Number(row.id), email: row.email, phone: row.phone }));
    },

    /** Links (used or not) that ended at or before `cutoff`, and the pending follows no remaining link names. */
    async deleteStaleLinks(cutoff: number, tx?: Tx | null): Promise<{ links: number; follows: number }> {
      const db = runner(knex, tx);
      const links = await db('guardian_confirmations').where('expires_at', '<=', cutoff).delete();
      const follows = await db('guardian_follows')
        .whereNull('confirmed_at')
        .andWhere('created_at', '<=', cutoff)
        .whereNotExists((q) => q.select(knex.raw('1')).from('guardian_confirmation_follows').whereRaw('guardian_confirmation_follows.follow_id = guardian_follows.id'))
        .delete();
      return { links, follows };
    },

    async findConfirmation(tokenHash: string, tx?: Tx | null): Promise<ConfirmationRecord | undefined> {
      // Only a link's request: a phone request's token hash is of a value never sent, and is never looked up.
      const row = (await runner(knex, tx)('guardian_confirmations').where({ token_hash: tokenHash, channel: 'email' }).first()) as ConfirmationRow | undefined;
      return row ? toConfirmation(row) : undefined;
    },

    /** The guardians with a follow in the school, each with what they follow there (children with their class). */
    async listForSchool(schoolId: number): Promise<StaffGuardianRecord[]> {
      const rows = (await knex('guardian_follows')
        .join('guardians', 'guardians.id', 'guardian_follows.guardian_id')
        .leftJoin('students', 'students.id', 'guardian_follows.student_id')
        .leftJoin('albums', 'albums.id', 'students.album_id')
        .where('guardian_follows.school_id', schoolId)
        // A confirmed guardian is shown with what they confirmed; a later request (perhaps a stranger's) waits for its link.
        .andWhere((w) => w.whereNotNull('guardian_follows.confirmed_at').orWhere((u) => u.whereNull('guardians.confirmed_at').whereNull('guardians.phone_confirmed_at')))
        .orderBy('guardians.email')
        .orderBy('guardians.phone')
        .orderBy('guardian_follows.id')
        .select(
          'guardians.*',
          'guardian_follows.student_id as follow_student_id',
          'students.name as follow_student_name',
          'albums.name as follow_album_name',
        )) as (GuardianRow & { follow_student_id: number | null; follow_student_name: string | null; follow_album_name: string | null })[];
      const byId = new Map<number, StaffGuardianRecord>();
      for (const row of rows) {
        const id = Number(row.id);
        let guardian = byId.get(id);
        if (!guardian) {
          guardian = { ...toGuardian(row), follows: [] };
          byId.set(id, guardian);
        }
        guardian.follows.push({
          studentId: row.follow_student_id === null ? null : Number(row.follow_student_id),
          studentName: row.follow_student_name,
          albumName: row.follow_album_name,
        });
      }
      return [...byId.values()];
    },

    /** Removes the guardian with their follows, cart and links. */
    async delete(id: number, tx?: Tx | null): Promise<void> {
      const db = runner(knex, tx);
      await db('guardian_confirmation_follows').whereIn('confirmation_id', db('guardian_confirmations').where({ guardian_id: id }).select('id')).delete();
      await db('guardian_follows').where({ guardian_id: id }).delete();
      await db('guardian_carts').where({ guardian_id: id }).delete();
      await db('guardian_confirmations').where({ guardian_id: id }).delete();
      await db('guardians').where({ id }).delete();
    },

    /**
     * Takes the address, subject and body out of a guardian's past messages: those written for them
     * (`guardianId`) and those of `kinds` sent to their address (a class list's "photos are online").
     * Kind, school, status and times stay, so the school's counts stay true.
     */
    async redactMessages(filter: { guardianId: number; email: string | null; phone?: string | null; kinds: readonly string[] }, tx?: Tx | null): Promise<number> {
      const recipients = [filter.email?.toLowerCase(), filter.phone].filter((value): value is string => Boolean(value));
      return runner(knex, tx)('outbox_messages')
        .where((w) => w.where({ guardian_id: filter.guardianId }).orWhere((o) => o.whereIn('recipient', recipients).whereIn('kind', filter.kinds)))
        .update({ recipient: ERASED_RECIPIENT, subject: ERASED_SUBJECT, text: '', html: '', headers: null, last_error: null, guardian_id: null });
    },

    /** The guardians following the child, and the follows' school. */
    async followersOfStudent(studentId: number, tx?: Tx | null): Promise<{ guardianId: number; schoolId: number }[]> {
      const rows = (await runner(knex, tx)('guardian_follows').where({ student_id: studentId }).select('guardian_id', 'school_id')) as { guardian_id: number; school_id: number }[];
      return rows.map((row) => ({ guardianId: Number(row.guardian_id), schoolId: Number(row.school_id) }));
    },

    async deleteFollowsOfStudent(studentId: number, tx?: Tx | null): Promise<number> {
      return runner(knex, tx)('guardian_follows').where({ student_id: studentId }).delete();
    },

    async followsInSchool(guardianId: number, schoolId: number, tx?: Tx | null): Promise<number> {
      const row = (await runner(knex, tx)('guardian_follows').where({ guardian_id: guardianId, school_id: schoolId }).count({ count: '*' }).first()) as { count: number | string } | undefined;
      return Number(row?.count ?? 0);
    },

    /** Whether another child of the school (not `exceptStudentId`) has this guardian e-mail on the class list. */
    async rosterAddressInSchool(email: string, schoolId: number, exceptStudentId: number, tx?: Tx | null): Promise<boolean> {
      return Boolean(
        await runner(knex, tx)('students')
          .join('albums', 'albums.id', 'students.album_id')
          .where('albums.school_id', schoolId)
          .whereNot('students.id', exceptStudentId)
          .whereRaw('lower(students.guardian_email) = ?', [email.toLowerCase()])
          .first('students.id'),
      );
    },
  };
}
export type GuardianRepository = ReturnType<typeof createGuardianRepository>;

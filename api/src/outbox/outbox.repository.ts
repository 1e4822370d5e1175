import type { Connection } from '../db/knex';
import { runner, type Tx } from '../db/database';
import type { OutboxKind } from '../../contract/outreach';

/** How a message goes out: e-mail, or SMS (docs/sms.md, "Sending"). */
export type OutboxChannel = 'email' | 'sms';
/** What an SMS's delivery receipt said (docs/sms.md, "Delivery receipts"). */
export type SmsDeliveryStatus = 'delivered' | 'failed' | 'expired';

/** One outbox row as the sender sees it (docs/email.md, "The outbox"). */
export interface OutboxRecord {
  id: number;
  messageId: string;
  channel: OutboxChannel;
  kind: OutboxKind;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  dedupeKey: string | null;
  schoolId: number | null;
  guardianId: number | null;
  orderId: string | null;
  status: 'queued' | 'sending' | 'sent' | 'failed' | 'cancelled';
  attempts: number;
  notBefore: number;
  createdAt: number;
  sentAt: number | null;
  failedAt: number | null;
  lastError: string | null;
  /** SMS: the SMS centre's id for the message (its submit_sm_resp), which its receipt names. */
  smscMessageId: string | null;
  deliveryStatus: SmsDeliveryStatus | null;
  deliveredAt: number | null;
}

export interface NewOutboxRow {
  messageId: string;
  /** 'email' when absent. */
  channel?: OutboxChannel;
  kind: OutboxKind;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string> | null;
  dedupeKey: string | null;
  schoolId: number | null;
  guardianId: number | null;
  orderId: string | null;
  notBefore: number;
  createdAt: number;
}

interface OutboxRow {
  id: number;
  message_id: string;
  channel: string;
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  headers: string | null;
  dedupe_key: string | null;
  school_id: number | null;
  guardian_id: number | null;
  order_id: string | null;
  status: string;
  attempts: number;
  not_before: number | string;
  created_at: number | string;
  sent_at: number | string | null;
  failed_at: number | string | null;
  last_error: string | null;
  smsc_message_id: string | null;
  delivery_status: string | null;
  delivered_at: number | string | null;
}

const toRecord = (row: OutboxRow): OutboxRecord => ({
  id: row.id,
  messageId: row.message_id,
  channel: row.channel === 'sms' ? 'sms' : 'email',
  kind: row.kind as OutboxKind,
  recipient: row.recipient,
  subject: row.subject,
  text: row.text,
  html: row.html,
  headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {},
  dedupeKey: row.dedupe_key,
  schoolId: row.school_id,
  guardianId: row.guardian_id,
  orderId: row.order_id,
  status: row.status as OutboxRecord['status'],
  attempts: Number(row.attempts),
  notBefore: Number(row.not_before),
  createdAt: Number(row.created_at),
  sentAt: row.sent_at === null ? null : Number(row.sent_at),
  failedAt: row.failed_at === null ? null : Number(row.failed_at),
  lastError: row.last_error,
  smscMessageId: row.smsc_message_id,
  deliveryStatus: row.delivery_status as SmsDeliveryStatus | null,
  deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
});

/** Rows due now: queued and past their not-before, or left `sending` by a process whose claim ran out. */
function due(q: ReturnType<Connection>, now: number) {
  // One group: ANDed with whatever else the query asks (a claim's id), never ORed past it.
  return q.where((w) =>
    w.where((queued) => queued.where({ status: 'queued' }).andWhere('not_before', '<=', now)).orWhere((lapsed) => lapsed.where({ status: 'sending' }).andWhere('lease_until', '<', now)),
  );
}

export function createOutboxRepository(knex: Connection) {
  return {
    /** Inserts the row in the caller's transaction. */
    async insert(row: NewOutboxRow, tx?: Tx | null): Promise<void> {
      await runner(knex, tx)('outbox_messages').insert({
        message_id: row.messageId,
        channel: row.channel ?? 'email',
        kind: row.kind,
        recipient: row.recipient,
        subject: row.subject,
        text: row.text,
        html: row.html,
        headers: row.headers ? JSON.stringify(row.headers) : null,
        dedupe_key: row.dedupeKey,
        school_id: row.schoolId,
        guardian_id: row.guardianId,
        order_id: row.orderId,
        status: 'queued',
        attempts: 0,
        not_before: row.notBefore,
        created_at: row.createdAt,
      });
    },

    async hasDedupeKey(key: string, tx?: Tx | null): Promise<boolean> {
      return Boolean(await runner(knex, tx)('outbox_messages').where({ dedupe_key: key }).first('id'));
    },

    /** Up to `limit` due rows (of one channel, when named), oldest first (a row's content never changes once written). */
    async dueRows(now: number, limit: number, channel?: OutboxChannel): Promise<OutboxRecord[]> {
      // The ids first: ordering thousands of due rows with their bodies would move megabytes per read.
      const query = due(knex('outbox_messages'), now);
      if (channel) query.andWhere({ channel });
      const ids = ((await query.orderBy('not_before').orderBy('id').limit(limit).select('id')) as { id: number }[]).map((row) => row.id);
      if (ids.length === 0) return [];
      const rows = (await knex('outbox_messages').whereIn('id', ids).select()) as OutboxRow[];
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.flatMap((id) => {
        const row = byId.get(id);
        return row ? [toRecord(row)] : [];
      });
    },

    /**
     * Claims one row for `claimer` until `leaseUntil` with a conditional update: of two processes
     * that try at once, exactly one gets it. True when this claim won.
     */
    async claim(id: number, claimer: string, now: number, leaseUntil: number): Promise<boolean> {
      const won = await due(knex('outbox_messages').where({ id }), now)
        .update({ status: 'sending', claimed_by: claimer, lease_until: leaseUntil, attempts: knex.raw('attempts + 1') });
      return won === 1;
    },

    /**
     * The commit point (docs/email.md, "The outbox"): `sending` to `sent` only while the row is still
     * this claimer's, run right before the message's end goes to the server. False when another
     * process has taken the row over: then the end is never sent. `claimed_by` stays: who sent it.
     */
    async commitSent(id: number, claimer: string, now: number): Promise<boolean> {
      const n = await knex('outbox_messages')
        .where({ id, status: 'sending', claimed_by: claimer })
        .update({ status: 'sent', sent_at: now, lease_until: null, last_error: null });
      return n === 1;
    },

    /**
     * An SMS's claim and commit point in one (docs/sms.md, "Sending"): a due row becomes `sent`,
     * this claimer's, with the attempt counted, by one conditional update run immediately before
     * its submit is written. False when it was not due any more (another process sent it, or it was
     * withdrawn): then nothing is submitted.
     */
    async claimSent(id: number, claimer: string, now: number): Promise<boolean> {
      const won = await due(knex('outbox_messages').where({ id }), now).update({
        status: 'sent',
        claimed_by: claimer,
        sent_at: now,
        lease_until: null,
        last_error: null,
        attempts: knex.raw('attempts + 1'),
      });
      return won === 1;
    },

    /** A due row nobody has claimed, put off until `notBefore` with the attempt counted (an SMS whose SMS centre was not reachable). */
    async putOff(id: number, now: number, notBefore: number, error: string): Promise<boolean> {
      const n = await due(knex('outbox_messages').where({ id }), now).update({
        status: 'queued',
        not_before: notBefore,
        claimed_by: null,
        lease_until: null,
        last_error: error.slice(0, 500),
        attempts: knex.raw('attempts + 1'),
      });
      return n === 1;
    },

    /** Back to the queue until `notBefore` (a retry), or `failed` for good when `notBefore` is null. */
    async markUnsent(id: number, claimer: string, now: number, notBefore: number | null, error: string, from: 'sending' | 'sent' = 'sending'): Promise<void> {
      await knex('outbox_messages')
        .where({ id, status: from, claimed_by: claimer })
        .update(
          notBefore === null
            ? { status: 'failed', failed_at: now, sent_at: null, claimed_by: null, lease_until: null, last_error: error.slice(0, 500) }
            : { status: 'queued', not_before: notBefore, sent_at: null, claimed_by: null, lease_until: null, last_error: error.slice(0, 500) },
        );
    },

    /** How many rows are in each status (the bench and the tests look). */
    /**
     * E-mails due and not sent yet (queued, or claimed and being sent) and the oldest one's due
     * time, for the metrics; the (status, not_before) index answers it without reading the rows.
     */
    async backlog(now: number): Promise<{ due: number; oldestDueAt: number | null }> {
      const row = (await knex('outbox_messages')
        .whereIn('status', ['queued', 'sending'])
        .andWhere('not_before', '<=', now)
        .first()
        .count({ n: '*' })
        .min({ oldest: 'not_before' })) as { n: number | string; oldest: number | string | null } | undefined;
      return { due: Number(row?.n ?? 0), oldestDueAt: row?.oldest == null ? null : Number(row.oldest) };
    },

    async countByStatus(): Promise<Record<string, number>> {
      const rows = (await knex('outbox_messages').groupBy('status').select('status').count({ n: '*' })) as { status: string; n: number | string }[];
      return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
    },

    /**
     * When the messages of `kinds` to `recipient`, or to the same guardian on either channel, from
     * `since` on go (or went) out, failed ones left out: the per-day rule counts them.
     */
    async sendTimes(who: { recipient: string; guardianId?: number | null }, kinds: readonly string[], since: number, tx?: Tx | null): Promise<number[]> {
      const rows = (await runner(knex, tx)('outbox_messages')
        .where((w) => {
          w.where({ recipient: who.recipient });
          if (who.guardianId != null) w.orWhere({ guardian_id: who.guardianId });
        })
        .whereIn('kind', kinds)
        .whereNot({ status: 'failed' })
        .andWhere('not_before', '>=', since)
        .select('not_before', 'sent_at')) as { not_before: number | string; sent_at: number | string | null }[];
      return rows.map((row) => Number(row.sent_at ?? row.not_before));
    },

    /** Whether the address unsubscribed (docs/outreach.md, "Unsubscribe in one click"). */
    async unsubscribed(recipient: string, tx?: Tx | null): Promise<boolean> {
      return Boolean(await runner(knex, tx)('guardians').where({ email: recipient.trim().toLowerCase() }).whereNotNull('unsubscribed_at').first('id'));
    },

    /** Whether the guardian with this phone (E.164) unsubscribed (docs/sms.md, "Sending"). */
    async phoneUnsubscribed(phone: string, tx?: Tx | null): Promise<boolean> {
      return Boolean(await runner(knex, tx)('guardians').where({ phone }).whereNotNull('unsubscribed_at').first('id'));
    },

    /** Stores the SMS centre's ids for submitted SMS, which their delivery receipts name: one statement for many. */
    async recordSmscIds(entries: readonly { id: number; smscId: string }[]): Promise<void> {
      if (entries.length === 0) return;
      const cases = entries.map(() => 'WHEN ? THEN ?').join(' ');
      const bindings = entries.flatMap((entry) => [entry.id, entry.smscId.slice(0, 65)]);
      await knex('outbox_messages')
        .whereIn(
          'id',
          entries.map((entry) => entry.id),
        )
        .update({ smsc_message_id: knex.raw(`CASE id ${cases} END`, bindings) });
    },

    /** Records a delivery receipt on the SMS with that id; false when no row has it (yet). */
    async recordDelivery(smscId: string, status: 'delivered' | 'failed' | 'expired', at: number): Promise<boolean> {
      const n = await knex('outbox_messages').where({ smsc_message_id: smscId, channel: 'sms' }).update({ delivery_status: status, delivered_at: at });
      return n > 0;
    },

    /** SMS set back because the SMS centre could not be reached become due now (it is back). */
    async retrySmsNow(now: number): Promise<number> {
      return knex('outbox_messages')
        .where({ status: 'queued', channel: 'sms' })
        .andWhere('not_before', '>', now)
        .andWhere('last_error', 'like', 'the SMS centre is not available%')
        .update({ not_before: now });
    },

    /**
     * Withdraws the queued (not yet claimed) messages that match: a reminder whose reason went away
     * (the family paid, the guardian unsubscribed or was erased). They become `cancelled`.
     */
    async cancelQueued(filter: { kinds: readonly string[]; recipient?: string; schoolId?: number; guardianId?: number; orderId?: string }, tx?: Tx | null): Promise<number> {
      const q = runner(knex, tx)('outbox_messages').where({ status: 'queued' }).whereIn('kind', filter.kinds);
      if (filter.recipient !== undefined) q.andWhere({ recipient: filter.recipient });
      if (filter.schoolId !== undefined) q.andWhere({ school_id: filter.schoolId });
      if (filter.guardianId !== undefined) q.andWhere({ guardian_id: filter.guardianId });
      if (filter.orderId !== undefined) q.andWhere({ order_id: filter.orderId });
      return q.update({ status: 'cancelled', claimed_by: null, lease_until: null });
    },

    async get(id: number): Promise<OutboxRecord | null> {
      const row = (await knex('outbox_messages').where({ id }).first()) as OutboxRow | undefined;
      return row ? toRecord(row) : null;
    },
  };
}
export type OutboxRepository = ReturnType<typeof createOutboxRepository>;

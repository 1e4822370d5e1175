import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Deps } from '../deps';
import { afterCommit, type Tx } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import { NON_TRANSACTIONAL_KINDS, type NonTransactionalKind, type OutboxKind } from '../../contract/outreach';
import { unsubscribeHeaders, unsubscribeToken } from '../outreach/unsubscribe';
import { localDayStart, planSend, type SendWindow } from '../outreach/send-window';
import { SendAbortedError, type SmtpTimeouts } from '../mail/mailer';
import { loggableError } from '../mail/log-safe';
import { createOutboxRepository, type OutboxChannel, type OutboxRecord } from './outbox.repository';
import { SmsCentreUnavailableError, SmsRefusedError } from '../sms/errors';
import { watchLoopLoad, type LoopLoad } from '../lib/loop-load';

/**
 * A message to write to the outbox (docs/email.md, "The outbox"). An SMS (docs/sms.md, "Sending")
 * has `channel: 'sms'`, `to` the E.164 number, `text` the SMS body, and an empty subject and html.
 */
export interface OutboxMessage {
  /** 'email' unless said. */
  channel?: OutboxChannel;
  kind: OutboxKind;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post for non-transactional mail. */
  headers?: Record<string, string>;
  /** A message that must exist once at most (a reminder per guardian and date): a second enqueue with the same key is a no-op. */
  dedupeKey?: string | null;
  schoolId?: number | null;
  guardianId?: number | null;
  orderId?: string | null;
  /** Not sent before this time (epoch ms); now by default. */
  notBefore?: number;
}

/**
 * While this process's event loop has been at least this busy, each of the sender's workers waits
 * BUSY_PAUSE_MS before its next message, so a rush of requests is answered first and mail still
 * goes out (docs/email.md, "Sending while the server is busy").
 */
export const OUTBOX_BUSY_UTILIZATION = 0.8;
export const OUTBOX_BUSY_PAUSE_MS = 100;
/**
 * The same pause for an SMS worker: an SMS costs a small part of an e-mail's CPU (no MIME, 160
 * characters), so its workers pause less and still leave the loop to the requests; even paused,
 * SMS_WINDOW workers pass more than the 10-100 messages/s an SMS centre account takes
 * (docs/sms.md, "Sending").
 */
export const OUTBOX_BUSY_SMS_PAUSE_MS = 20;

/** Rows one run reads at most before it looks again. */
const BATCH = 100;
/** Retries wait 30 s, 1 min, 2 min, … up to 6 h; after this many attempts a message has failed for good. */
export const OUTBOX_MAX_ATTEMPTS = 8;
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_MAX_MS = 6 * 60 * 60_000;

export const retryDelayMs = (attempts: number): number => Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));

/**
 * An attempt is given up (its connection closed, nothing committed) once it has used this share of
 * its lease without reaching the commit point, so it never outlives the claim it started under.
 */
const ATTEMPT_SHARE_OF_LEASE = 0.6;

/**
 * The SMTP timeouts for a lease (docs/email.md, "The outbox"): every step of an attempt fails well
 * within the lease, so a hung relay never keeps a claimed message from the others.
 */
export function smtpTimeoutsFor(leaseMs: number): SmtpTimeouts {
  return {
    connectMs: Math.min(10_000, Math.floor(leaseMs / 4)),
    greetingMs: Math.min(10_000, Math.floor(leaseMs / 4)),
    socketMs: Math.min(15_000, Math.floor(leaseMs / 3)),
  };
}

/** SMTP's 5xx answers are permanent (RFC 5321 §4.2.1): retrying cannot help. */
function isPermanent(err: unknown): boolean {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** Another process holds the row now (this one's claim ran out): this attempt must not end the message. */
class ClaimLostError extends Error {
  constructor() {
    super('the outbox row was claimed by another process');
  }
}

type Outcome = 'sent' | 'retry' | 'failed' | 'lost-claim';

export interface OutboxOptions {
  /** How long a claim holds (OUTBOX_LEASE_MS). */
  leaseMs?: number;
  /** Messages sent at once (OUTBOX_CONCURRENCY). */
  concurrency?: number;
  /** SMS sent at once: the SMS centre's window (SMS_WINDOW). */
  smsConcurrency?: number;
}

/**
 * While the SMS centre cannot be reached a message waits at most this long between tries, and is
 * never failed for it (docs/sms.md, "Sending"); a bind made again sends the waiting ones at once.
 */
const SMS_CENTRE_DOWN_MAX_DELAY_MS = 5 * 60_000;

export function createOutbox(deps: Pick<Deps, 'knex' | 'mailer' | 'sms' | 'logger' | 'jobLock' | 'config' | 'metrics'>, options: OutboxOptions = {}) {
  const repo = createOutboxRepository(deps.knex);
  const host = new URL(deps.config.publicUrl).hostname;
  const leaseMs = options.leaseMs ?? deps.config.outboxLeaseMs;
  const concurrency = options.concurrency ?? deps.config.outboxConcurrency;
  const smsConcurrency = options.smsConcurrency ?? deps.config.smsWindow;
  /** This process, as named in the rows it claims. */
  const claimer = `${os.hostname().slice(0, 30)}:${process.pid}:${randomBytes(4).toString('hex')}`;
  let kickTimer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let again = false;
  let stopping = false;
  /** Watched while the sender runs (start() to its stop). */
  let load: LoopLoad | null = null;
  const busy = () => load !== null && load.utilization() >= OUTBOX_BUSY_UTILIZATION;
  const smscIds = smscIdWriter(repo, deps.logger);

  /**
   * One attempt at one claimed row. "Sent" is committed at the commit point, right before the
   * message's end goes out, and only while the claim is still this process's; a failure after it
   * puts the row back (docs/email.md, "The outbox").
   */
  async function attempt(row: OutboxRecord, at: () => number): Promise<Outcome> {
    return row.channel === 'sms' ? attemptSms(row, at) : attemptEmail(row);
  }

  /**
   * One attempt at one due SMS row (docs/sms.md, "Sending"). Nothing goes to the SMS centre
   * before the commit point, so the claim and the commit are one conditional update, made once a
   * place in the window and a bind are there, immediately before the submit_sm is written; of two
   * processes exactly one makes it. A refusal from the SMS centre (it did not take the message)
   * sets the row back for a retry or fails it for good; a submit written and never answered stays
   * sent. A failure before the commit point (no bind) puts the row off.
   */
  async function attemptSms(row: OutboxRecord, at: () => number): Promise<Outcome> {
    const attempts = row.attempts + 1;
    let committed = false;
    const giveUp = new AbortController();
    const timer = setTimeout(() => giveUp.abort(new Error('the attempt ran out of its share of the lease')), Math.floor(leaseMs * ATTEMPT_SHARE_OF_LEASE));
    try {
      const { smscId } = await deps.sms.send(
        { to: row.recipient, text: row.text, messageId: row.messageId },
        {
          signal: giveUp.signal,
          describe: { kind: row.kind, outboxId: row.id },
          beforeFinal: async () => {
            giveUp.signal.throwIfAborted();
            if (!(await repo.claimSent(row.id, claimer, at()))) throw new ClaimLostError();
            committed = true;
          },
        },
      );
      if (smscId) smscIds.add(row.id, smscId);
      return 'sent';
    } catch (err) {
      if (err instanceof SendAbortedError && err.cause instanceof ClaimLostError) {
        // Another process sent it first (or it was withdrawn): nothing was submitted here.
        deps.logger.debug({ outboxId: row.id, kind: row.kind }, 'SMS taken by another process first: not submitted here');
        return 'lost-claim';
      }
      const message = err instanceof Error ? err.message : String(err);
      const now = at();
      const centreDown = err instanceof SmsCentreUnavailableError;
      const permanent = committed && !centreDown && ((err instanceof SmsRefusedError && err.permanent) || attempts >= OUTBOX_MAX_ATTEMPTS);
      const delay = centreDown ? Math.min(SMS_CENTRE_DOWN_MAX_DELAY_MS, retryDelayMs(attempts)) : retryDelayMs(attempts);
      if (committed) await repo.markUnsent(row.id, claimer, now, permanent ? null : now + delay, message, 'sent');
      else if (!(await repo.putOff(row.id, now, now + delay, message))) return 'lost-claim';
      // Logged without the number (docs/email.md, "What the logs say").
      deps.logger.warn({ err: loggableError(err), outboxId: row.id, kind: row.kind, attempts, permanent }, permanent ? 'SMS failed for good' : 'SMS not sent, will retry');
      return permanent ? 'failed' : 'retry';
    } finally {
      clearTimeout(timer);
    }
  }

  async function attemptEmail(row: OutboxRecord): Promise<Outcome> {
    const attempts = row.attempts + 1;
    let committed = false;
    const giveUp = new AbortController();
    const timer = setTimeout(() => giveUp.abort(new Error('the attempt ran out of its share of the lease')), Math.floor(leaseMs * ATTEMPT_SHARE_OF_LEASE));
    try {
      await deps.mailer.send(
        { to: row.recipient, subject: row.subject, text: row.text, html: row.html, headers: row.headers, messageId: row.messageId },
        {
          signal: giveUp.signal,
          describe: { kind: row.kind, outboxId: row.id },
          beforeFinal: async () => {
            giveUp.signal.throwIfAborted();
            if (!(await repo.commitSent(row.id, claimer, Date.now()))) throw new ClaimLostError();
            committed = true;
          },
        },
      );
      return 'sent';
    } catch (err) {
      if (err instanceof SendAbortedError && err.cause instanceof ClaimLostError) {
        deps.logger.warn({ outboxId: row.id, kind: row.kind }, 'outbox message taken over by another process: this attempt ended it unsent');
        return 'lost-claim';
      }
      const message = err instanceof Error ? err.message : String(err);
      const permanent = isPermanent(err) || attempts >= OUTBOX_MAX_ATTEMPTS;
      const now = Date.now();
      await repo.markUnsent(row.id, claimer, now, permanent ? null : now + retryDelayMs(attempts), message, committed ? 'sent' : 'sending');
      // The relay's answer may quote the recipient: logged without addresses (docs/email.md, "What the logs say").
      deps.logger.warn({ err: loggableError(err), outboxId: row.id, kind: row.kind, attempts, permanent }, permanent ? 'e-mail failed for good' : 'e-mail failed, will retry');
      return permanent ? 'failed' : 'retry';
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One pass: claims due rows and sends them until none is due, e-mail `concurrency` at a time and
   * SMS `smsConcurrency` at a time (the SMS centre's window: docs/sms.md, "Sending"), side by side.
   */
  async function drain(at: () => number): Promise<{ sent: number; retried: number; failed: number }> {
    const [email, sms] = await Promise.all([drainChannel('email', concurrency, at), drainChannel('sms', smsConcurrency, at)]);
    return { sent: email.sent + sms.sent, retried: email.retried + sms.retried, failed: email.failed + sms.failed };
  }

  /**
   * One channel's pass: `workers` at a time. The workers share one list, read again whenever it
   * runs dry, so none waits for the others.
   */
  async function drainChannel(channel: OutboxChannel, workers: number, at: () => number): Promise<{ sent: number; retried: number; failed: number }> {
    const result = { sent: 0, retried: 0, failed: 0 };
    /** SMS rows a worker of this pass holds: due until sent, so a second read must not hand them out again. */
    const holding = new Set<number>();
    let rows: OutboxRecord[] = [];
    let reading: Promise<void> | null = null;
    let exhausted = false;
    const take = async (): Promise<OutboxRecord | null> => {
      for (;;) {
        if (stopping) return null;
        const row = rows.shift();
        if (row && holding.has(row.id)) continue;
        if (row) return row;
        if (exhausted) return null;
        reading ??= repo
          .dueRows(at(), BATCH, channel)
          .then((found) => {
            rows = found;
            // Rows this pass's workers hold are still due until sent: read again, they would be
            // handed out again and again, with no I/O between the reads (better-sqlite3 answers at
            // once), starving the attempts that hold them. Nothing else due: this worker is done.
            exhausted = found.every((row) => holding.has(row.id));
          })
          .finally(() => (reading = null));
        await reading;
      }
    };
    const worker = async () => {
      for (let row = await take(); row; row = await take()) {
        if (busy()) {
          await new Promise((resolve) => setTimeout(resolve, channel === 'sms' ? OUTBOX_BUSY_SMS_PAUSE_MS : OUTBOX_BUSY_PAUSE_MS));
          if (stopping) return;
        }
        const now = at();
        // An SMS is claimed at its commit point (attemptSms); an e-mail here, for its whole conversation.
        if (channel === 'sms') holding.add(row.id);
        else if (!(await repo.claim(row.id, claimer, now, now + leaseMs))) continue;
        const outcome = await attempt(row, at).finally(() => holding.delete(row.id));
        if (outcome === 'sent') result.sent++;
        else if (outcome === 'retry') result.retried++;
        else if (outcome === 'failed') result.failed++;
        if (outcome !== 'lost-claim') {
          if (row.channel === 'sms') deps.metrics.sms(outcome, row.kind);
          else deps.metrics.email(outcome, row.kind);
        }
      }
    };
    await Promise.all(Array.from({ length: workers }, worker));
    return result;
  }

  const outbox = {
    /**
     * Writes the message as an outbox row in `tx`, the transaction of what caused it, so it exists
     * exactly when that change does. Answers false (and writes nothing) when `dedupeKey` is already
     * there. Call `kick()` after the commit to send it at once.
     */
    async enqueue(message: OutboxMessage, tx?: Tx | null): Promise<boolean> {
      if (message.dedupeKey && (await repo.hasDedupeKey(message.dedupeKey, tx))) return false;
      try {
        await repo.insert(
          {
            messageId: `<${randomUUID()}@${host}>`,
            channel: message.channel ?? 'email',
            kind: message.kind,
            recipient: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html,
            headers: message.headers ?? null,
            dedupeKey: message.dedupeKey ?? null,
            schoolId: message.schoolId ?? null,
            guardianId: message.guardianId ?? null,
            orderId: message.orderId ?? null,
            notBefore: message.notBefore ?? Date.now(),
            createdAt: Date.now(),
          },
          tx,
        );
      } catch (err) {
        if (message.dedupeKey && isUniqueViolation(err)) return false;
        throw err;
      }
      // Counted once the row exists for good: a rolled-back cause leaves no e-mail.
      afterCommit(tx, () => (message.channel === 'sms' ? deps.metrics.sms('queued', message.kind) : deps.metrics.email('queued', message.kind)));
      return true;
    },

    /** Asks this process's sender to look soon (after the caller's transaction has committed). */
    kick(): void {
      if (kickTimer || stopping) return;
      kickTimer = setTimeout(() => {
        kickTimer = null;
        void outbox.deliverDue().catch((err: unknown) => deps.logger.warn({ err: loggableError(err) }, 'outbox sender failed'));
      }, 10);
      kickTimer.unref();
    },

    /**
     * Sends what is due, under the job lock; a call while a run is on makes that run look once more.
     * `now` lets a test look as if later (a retry's backoff, a message planned for tomorrow).
     */
    async deliverDue(now?: number): Promise<boolean> {
      const offset = now === undefined ? 0 : now - Date.now();
      const at = () => Date.now() + offset;
      if (running) {
        again = true;
        await running;
        return true;
      }
      const run = (async () => {
        do {
          again = false;
          await deps.jobLock.runExclusive(
            'outbox-sender',
            async () => {
              const result = await drain(at);
              if (result.sent + result.retried + result.failed > 0) deps.logger.debug(result, 'outbox delivered');
            },
            { leaseMs },
          );
        } while (again);
      })();
      running = run;
      try {
        await run;
      } finally {
        running = null;
      }
      return true;
    },

    /** Looks every `pollMs` (for rows other processes wrote, retries and scheduled messages); returns what stops it. */
    start(pollMs: number): () => Promise<void> {
      const timer = setInterval(() => outbox.kick(), pollMs);
      // SMS receipts are recorded on their rows; a bind made again sends the SMS that waited for it (docs/sms.md).
      deps.sms.onReceipt(async (receipt) => {
        const found = await repo.recordDelivery(receipt.smscId, receipt.status, receipt.at);
        if (found) deps.metrics.smsReceipt(receipt.status);
        return found;
      });
      deps.sms.onAvailable(() => {
        void repo
          .retrySmsNow(Date.now())
          .then(() => outbox.kick())
          .catch((err: unknown) => deps.logger.warn({ err: loggableError(err) }, 'outbox: the SMS waiting for the SMS centre were not released'));
      });
      timer.unref();
      load = watchLoopLoad();
      outbox.kick();
      return async () => {
        // Graceful stop: no new claims; the attempts under way finish (each within its lease).
        stopping = true;
        clearInterval(timer);
        load?.stop();
        load = null;
        if (kickTimer) clearTimeout(kickTimer);
        kickTimer = null;
        await running;
        await smscIds.flush();
      };
    },

    /**
     * When the next non-transactional message to `recipient` may go out, at or after `earliest`:
     * inside `window`, on a Botswana day with no other such message to that address, nor to the
     * same guardian on either channel (docs/outreach.md, "The sending window"; docs/sms.md,
     * "Sending"). Call it in the transaction that enqueues.
     */
    async planNonTransactional(recipient: string | { recipient: string; guardianId?: number | null }, earliest: number, window: SendWindow, tx?: Tx | null): Promise<number> {
      const who = typeof recipient === 'string' ? { recipient } : recipient;
      const times = await repo.sendTimes(who, NON_TRANSACTIONAL_KINDS, localDayStart(earliest), tx);
      return planSend(earliest, new Set(times.map(localDayStart)), window);
    },

    /**
     * Writes a non-transactional message (docs/outreach.md, "Unsubscribe in one click" and "The
     * sending window"), in `tx`: nothing for an address that unsubscribed (checked here, in the
     * transaction that writes, so an unsubscribe a moment ago wins); sent at the first moment in
     * `window` at or after `earliest` on a day with no other such message to that address; with the
     * List-Unsubscribe headers. False when nothing was written: unsubscribed, already there (its
     * dedupe key), or the planned time would not be before `latest`.
     */
    async enqueueNonTransactional(
      message: Omit<OutboxMessage, 'kind' | 'headers' | 'notBefore'> & { kind: NonTransactionalKind },
      plan: { window: SendWindow; earliest: number; latest?: number | null },
      tx: Tx,
    ): Promise<boolean> {
      const sms = message.channel === 'sms';
      if (await (sms ? repo.phoneUnsubscribed(message.to, tx) : repo.unsubscribed(message.to, tx))) return false;
      const notBefore = await outbox.planNonTransactional({ recipient: message.to, guardianId: message.guardianId ?? null }, plan.earliest, plan.window, tx);
      if (plan.latest != null && notBefore >= plan.latest) return false;
      // An SMS has no headers: its opt-out is a link in its text (docs/sms.md, "Sending").
      if (sms) return outbox.enqueue({ ...message, notBefore }, tx);
      const headers = unsubscribeHeaders(deps.config.publicUrl, unsubscribeToken(deps.config.jwtSecret, message.to));
      return outbox.enqueue({ ...message, headers, notBefore }, tx);
    },

    /** Withdraws queued messages whose reason went away (docs/outreach.md, "Stopping once the family pays"). */
    cancelQueued: (filter: Parameters<typeof repo.cancelQueued>[0], tx?: Tx | null): Promise<number> => repo.cancelQueued(filter, tx),

    get: (id: number) => repo.get(id),
    countByStatus: () => repo.countByStatus(),
  };
  return outbox;
}
export type Outbox = ReturnType<typeof createOutbox>;

/** SMS centre ids are written this long after their answers at most, many in one statement. */
const SMSC_ID_FLUSH_MS = 25;
const SMSC_ID_BATCH = 200;

/**
 * Stores the SMS centre's ids of submitted SMS a few at a time (docs/sms.md, "Delivery receipts"):
 * the row is `sent` already, and one statement for many keeps the sender's writes to the claim and
 * the commit point. A receipt that comes before its id is stored is tried again by the transport.
 */
function smscIdWriter(repo: ReturnType<typeof createOutboxRepository>, logger: Deps['logger']) {
  let pending: { id: number; smscId: string }[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = pending;
    pending = [];
    if (batch.length > 0) {
      writing = writing
        .then(() => repo.recordSmscIds(batch))
        .catch((err: unknown) => logger.warn({ err: loggableError(err), count: batch.length }, 'SMS centre ids not stored'));
    }
    return writing;
  };
  return {
    add(id: number, smscId: string) {
      pending.push({ id, smscId });
      if (pending.length >= SMSC_ID_BATCH) void flush();
      else timer ??= setTimeout(() => void flush(), SMSC_ID_FLUSH_MS);
    },
    flush,
  };
}

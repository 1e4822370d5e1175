import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { OUTBOX_KINDS } from '../../contract/outreach';
import type { PoolStats } from '../db/pool';
import { createHttpSeries } from './http-series';

/**
 * What the server counts for Prometheus (docs/operations.md, "Metrics"). Every label value comes
 * from a short fixed list (a route template, a method, a status, an outcome, a job or e-mail
 * kind), never from a request's path, body or the database, so no e-mail address, code, slug or
 * order id can reach a label and the number of series stays bounded.
 */
export type UploadOutcome = 'stored' | 'partial' | 'refused' | 'failed';
export type PhotoOutcome = 'stored' | 'refused' | 'resent';
/** wait: for a decoder slot; render: decode and renditions; store: the four objects written. */
export type IngestStage = 'wait' | 'render' | 'store';
export type PaymentOutcome =
  | 'initiated'
  | 'initiation_failed'
  | 'free'
  | 'received'
  | 'completed'
  | 'failed'
  | 'expired'
  | 'refund_needed'
  | 'callback_refused';
export type EmailEvent = 'queued' | 'sent' | 'retry' | 'failed';
/** An SMS delivery receipt's outcome (docs/sms.md, "Delivery receipts"). */
export type SmsReceiptStatus = 'delivered' | 'failed' | 'expired';
export type JobOutcome = 'ran' | 'skipped' | 'failed';

export const PAYMENT_OUTCOMES: readonly PaymentOutcome[] = [
  'initiated',
  'initiation_failed',
  'free',
  'received',
  'completed',
  'failed',
  'expired',
  'refund_needed',
  'callback_refused',
];
const EMAIL_EVENTS: readonly EmailEvent[] = ['queued', 'sent', 'retry', 'failed'];
const UPLOAD_OUTCOMES: readonly UploadOutcome[] = ['stored', 'partial', 'refused', 'failed'];
const PHOTO_OUTCOMES: readonly PhotoOutcome[] = ['stored', 'refused', 'resent'];

/** The methods counted by name; anything else a client sends is `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Where the gauges read their values at each scrape. */
export interface MetricsSources {
  pool(): PoolStats | null;
  /** E-mails due and not yet sent, and the oldest one's due time (epoch ms). */
  outboxBacklog(now: number): Promise<{ due: number; oldestDueAt: number | null }>;
}

export interface Metrics {
  /** The Content-Type of the exposition (Prometheus text format 0.0.4). */
  readonly contentType: string;
  /** The process's metrics and this runtime's, in the text format. */
  exposition(): Promise<string>;
  /** One answered HTTP request; `route` is the router's template, never the path. Costs no allocation once its series exists. */
  request(method: string, route: string, status: number, seconds: number): void;
  /** One upload request (a batch of photos) and how it ended. */
  upload(outcome: UploadOutcome): void;
  photos(outcome: PhotoOutcome, count: number): void;
  /** One photo's time in a stage of the ingest pipeline. */
  ingest(stage: IngestStage, seconds: number): void;
  payment(outcome: PaymentOutcome): void;
  email(event: EmailEvent, kind: string): void;
  /** The same events for SMS through the outbox (docs/sms.md, "Sending"). */
  sms(event: EmailEvent, kind: string): void;
  /** One SMS delivery receipt recorded. */
  smsReceipt(status: SmsReceiptStatus): void;
  /** One run of a background job (`skipped`: another process held its lock). */
  job(name: string, outcome: JobOutcome, seconds: number): void;
  /** A 429 from the rate limits, by kind of check. */
  rateLimitBlock(kind: string): void;
}

/**
 * Node's process metrics (CPU, memory, event loop lag, GC, handles) describe the process, not a
 * runtime: one registry for them per process, made once, whose collectors (a GC observer, an
 * event-loop monitor) are never started twice however many runtimes a test process builds.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * A runtime's metrics in a registry of its own, not prom-client's global one: tests build several
 * runtimes in one process, and each must count only its own requests.
 */
export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  const registers = [registry];

  const http = createHttpSeries();
  const uploads = new Counter({
    name: 'photo_uploads_total',
    help: 'Upload requests (one batch of photos each) by outcome: stored, partial (some files refused), refused (every file refused), failed.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const photos = new Counter({
    name: 'photos_processed_total',
    help: 'Uploaded photos by outcome: stored, refused (the file itself was bad), resent (already stored by an earlier try of the batch).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const ingest = new Histogram({
    name: 'photo_ingest_duration_seconds',
    help: 'Time of one photo in each stage of the ingest pipeline: wait (for a decoder), render (decode and renditions), store (the objects written).',
    labelNames: ['stage'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64],
    registers,
  });
  const payments = new Counter({
    name: 'payments_total',
    help: 'Payment events by outcome; each counted once, when it changed a payment (repeated gateway answers are not counted again).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const emails = new Counter({
    name: 'outbox_emails_total',
    help: 'E-mails through the outbox by event (queued: committed to the outbox; sent; retry: an attempt failed, tried again later; failed: given up) and kind.',
    labelNames: ['event', 'kind'] as const,
    registers,
  });
  const sms = new Counter({
    name: 'outbox_sms_total',
    help: 'SMS through the outbox by event (queued, sent: submitted to the SMS centre, retry, failed: given up or refused for good) and kind.',
    labelNames: ['event', 'kind'] as const,
    registers,
  });
  const smsReceipts = new Counter({
    name: 'sms_receipts_total',
    help: "SMS delivery receipts recorded, by the SMS centre's outcome (delivered, failed, expired).",
    labelNames: ['status'] as const,
    registers,
  });
  const jobs = new Counter({
    name: 'background_job_runs_total',
    help: 'Background job runs by job and outcome (skipped: another process held the job lock).',
    labelNames: ['job', 'outcome'] as const,
    registers,
  });
  const jobDuration = new Histogram({
    name: 'background_job_duration_seconds',
    help: 'How long the runs of each background job took (skipped runs not included).',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 1800],
    registers,
  });
  const rateLimitBlocks = new Counter({
    name: 'rate_limit_blocks_total',
    help: 'Requests refused with 429 by the rate limits, by kind of check.',
    labelNames: ['kind'] as const,
    registers,
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database connections by state: used (lent to a query), free (open and idle), pending (requests waiting for one).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.reset();
      const stats = sources.pool();
      if (!stats) return;
      this.set({ state: 'used' }, stats.used);
      this.set({ state: 'free' }, stats.free);
      this.set({ state: 'pending' }, stats.pending);
    },
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'The most connections the pool opens.',
    registers,
    collect() {
      this.set(sources.pool()?.max ?? 0);
    },
  });
  // Read from the database at each scrape (one read serves both gauges): every process of a
  // deployment reports the same value. A database that does not answer leaves them out.
  let backlog: { at: number; value: Promise<{ due: number; oldestDueAt: number | null } | null> } | null = null;
  const readBacklog = () => {
    const now = Date.now();
    if (!backlog || now - backlog.at > 1000) backlog = { at: now, value: sources.outboxBacklog(now).catch(() => null) };
    return backlog.value;
  };
  new Gauge({
    name: 'outbox_due_emails',
    help: 'E-mails due and not sent yet (queued or being sent), for the whole deployment.',
    registers,
    async collect() {
      const value = await readBacklog();
      if (value) this.set(value.due);
      else this.reset();
    },
  });
  new Gauge({
    name: 'outbox_oldest_due_seconds',
    help: 'How long the oldest due e-mail has waited (0 when none is due), for the whole deployment.',
    registers,
    async collect() {
      const value = await readBacklog();
      if (!value) this.reset();
      else this.set(value.oldestDueAt === null ? 0 : Math.max(0, (Date.now() - value.oldestDueAt) / 1000));
    },
  });

  // Series of the fixed lists exist from the start at 0, so rate() and increase() see their first event.
  for (const outcome of PAYMENT_OUTCOMES) payments.inc({ outcome }, 0);
  for (const outcome of UPLOAD_OUTCOMES) uploads.inc({ outcome }, 0);
  for (const outcome of PHOTO_OUTCOMES) photos.inc({ outcome }, 0);
  for (const event of EMAIL_EVENTS) for (const kind of OUTBOX_KINDS) emails.inc({ event, kind }, 0);
  for (const event of EMAIL_EVENTS) sms.inc({ event, kind: 'photos_online' }, 0);
  for (const status of ['delivered', 'failed', 'expired'] as const) smsReceipts.inc({ status }, 0);

  return {
    contentType: registry.contentType,
    async exposition() {
      return `${await processMetrics().metrics()}\n${http.exposition()}\n${await registry.metrics()}`;
    },
    request(method, route, status, seconds) {
      http.observe(METHODS.has(method) ? method : 'other', route, status, seconds);
    },
    upload: (outcome) => uploads.inc({ outcome }),
    photos(outcome, count) {
      if (count > 0) photos.inc({ outcome }, count);
    },
    ingest: (stage, seconds) => ingest.observe({ stage }, seconds),
    payment: (outcome) => payments.inc({ outcome }),
    email: (event, kind) => emails.inc({ event, kind }),
    sms: (event, kind) => sms.inc({ event, kind }),
    smsReceipt: (status) => smsReceipts.inc({ status }),
    job(name, outcome, seconds) {
      jobs.inc({ job: name, outcome });
      if (outcome !== 'skipped') jobDuration.observe({ job: name }, seconds);
    },
    rateLimitBlock: (kind) => rateLimitBlocks.inc({ kind }),
  };
}

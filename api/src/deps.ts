import type { Config } from './config';
import type { Connection, Dialect } from './db/knex';
import type { Logger } from './logger';
import type { TokenService } from './http/auth';
import type { AccessService } from './http/access';
import type { RateLimits } from './http/rate-limit';
import type { MediaService } from './media/media.types';
import type { Gateway } from './payments/payments.service';
import type { SandboxGateway } from './payments/paygate/sandbox';
import type { ObjectStorage } from './storage';
import type { JobLock } from './jobs/job-lock';
import type { HealthCheck } from './health/health';
import type { Metrics } from './metrics/metrics';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
  /** The Message-ID header: the outbox row's, kept across retries. */
  messageId?: string;
}

export interface SendOptions {
  /**
   * Runs when all of the message but its end has been handed over (SMTP: before the terminating
   * dot); the end follows only if it resolves. The outbox commits "sent" here (docs/email.md,
   * "The outbox"); if it throws, the server never gets the end and keeps nothing.
   */
  beforeFinal?: () => Promise<void>;
  /** Gives the attempt up (closing its connection) unless it is already past `beforeFinal`. */
  signal?: AbortSignal;
  /** What the log line names: the message's kind and outbox id, never its recipient (docs/email.md, "What the logs say"). */
  describe?: { kind: string; outboxId: number };
}

/**
 * Delivers e-mail (api/src/mail): over SMTP when SMTP_URL is set, else into data/outbox. Only the
 * outbox's sender calls it: everything else writes an outbox row (docs/email.md, "The outbox").
 */
export interface Mailer {
  send(message: MailMessage, options?: SendOptions): Promise<void>;
  /** Closes the idle connections; sends under way finish. */
  close(): Promise<void>;
}

/** An SMS as the outbox hands it over (docs/sms.md, "Sending"). */
export interface SmsMessage {
  /** E.164: "+26771234567". */
  to: string;
  /** The body, already in GSM letters (toGsm7); UCS-2 is used if it still needs it. */
  text: string;
  /** The outbox row's message id, carried in the submit (docs/sms.md, "Sending"). */
  messageId: string;
}

/** A delivery receipt as the SMS centre reported it (docs/sms.md, "Delivery receipts"). */
export interface SmsReceipt {
  smscId: string;
  status: 'delivered' | 'failed' | 'expired';
  at: number;
}

/**
 * Delivers SMS (api/src/sms): over SMPP when SMS_URL is set, else into data/sms-outbox. Only the
 * outbox's sender calls `send`. `beforeFinal` runs immediately before the submit is written (the
 * outbox's commit point); once it has been written, `send` resolves even if no answer comes
 * (`smscId` null then), since sending again could deliver the message twice. It rejects with an
 * SmsRefusedError when the SMS centre answered the submit with an error.
 */
export interface SmsSender {
  send(message: SmsMessage, options?: SendOptions): Promise<{ smscId: string | null }>;
  /**
   * Who records the delivery receipts: called for each one, answered to the SMS centre once the
   * promise settles. True when a row was found for it.
   */
  onReceipt(listener: (receipt: SmsReceipt) => Promise<boolean>): void;
  /** Called each time a bind is made after the SMS centre could not be reached, so waiting messages go at once. */
  onAvailable(listener: () => void): void;
  /** Unbinds and closes; sends under way finish or fail. */
  close(): Promise<void>;
}

/** Everything a feature needs, wired once at the edge (createApp). No module-level singletons. */
export interface Deps {
  config: Config;
  knex: Connection;
  dialect: Dialect;
  /** Database name (MySQL) or file (SQLite). */
  database: string;
  logger: Logger;
  tokens: TokenService;
  access: AccessService;
  limits: RateLimits;
  media: MediaService;
  /** The folder or bucket of STORAGE_URL; only media/ and the storage tools use it. */
  storage: ObjectStorage;
  /** Lets one process at a time run each background job. */
  jobLock: JobLock;
  /** Probes the database, the storage and Redis for GET /api/health. */
  health: HealthCheck;
  mailer: Mailer;
  /** SMS over SMPP, or files in data/sms-outbox (docs/sms.md, "Sending"). */
  sms: SmsSender;
  /** PayGate PayWeb3, or the built-in sandbox when PAYGATE_ID is unset (docs/payments.md, "The built-in sandbox"). */
  gateway: Gateway & { sandbox: SandboxGateway | null };
  /** What Prometheus scrapes: counters and histograms of this runtime (docs/operations.md, "Metrics"). */
  metrics: Metrics;
  /** The built PWA to serve (pwa/dist), when it exists. */
  appDir?: string | null;
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_BUSINESS_NAME } from '../contract/brand';
import { parsePaymentMethods, type BankAccount, type PaymentMethodId } from '../contract/payment-methods';
import { staffRegisterSchema, type StaffRegisterInput } from '../contract/auth';
import { parseStorageTarget, type StorageTarget } from './storage/storage-target';

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : ['true', '1', 'yes'].includes(value)));

/** BACKUP_KEY: at least 32 characters (openssl rand -base64 32), so the MAC cannot be guessed. */
export const backupKeySchema = z.string().min(32, 'use at least 32 characters (openssl rand -base64 32)');

/** BACKUP_KEY from the environment, checked as the server checks it; null when unset. */
export function loadBackupKey(env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = env.BACKUP_KEY;
  if (raw === undefined || raw === '') return null;
  const parsed = backupKeySchema.safeParse(raw);
  if (!parsed.success) throw new Error(`Invalid environment: BACKUP_KEY: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/**
 * The environment, parsed once; a bad value stops the server with a clear message (docs/architecture.md,
 * "Configuration").
 */
const envSchema = z.object({
  NODE_ENV: z.string().optional().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_URL: z.url().optional(),
  DATABASE_URL: z.string().min(1).default('sqlite:data/app.sqlite'),
  STORAGE_DIR: z.string().min(1).default('data/storage'),
  /** `file:` (STORAGE_DIR), `file:<folder>` or `s3://bucket/prefix` with the S3_* settings below. */
  STORAGE_URL: z.string().optional(),
  S3_ENDPOINT: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: boolish,
  DATA_DIR: z.string().min(1).default('data'),
  SEED_DEMO: boolish.transform((value) => value ?? true),
  JWT_SECRET: z.string().optional(),
  BUSINESS_NAME: z.string().trim().min(1).max(60).default(DEFAULT_BUSINESS_NAME),
  PAYGATE_ID: z.string().optional(),
  PAYGATE_SECRET: z.string().optional(),
  /** What the checkout offers: `card` (default), `ewallet`, `bank_transfer`, comma-separated (docs/payments.md, "Payment methods"). */
  PAYMENT_METHODS: z.string().optional(),
  /**
   * The shop's bank account, shown to a parent whose bank transfer is awaited (docs/payments.md,
   * "Paying by bank transfer"): the first three together or none; the branch code only with them.
   */
  BANK_ACCOUNT_NAME: z.string().trim().min(1).max(100, 'use at most 100 characters').optional(),
  BANK_NAME: z.string().trim().min(1).max(100, 'use at most 100 characters').optional(),
  BANK_ACCOUNT_NUMBER: z
    .string()
    .trim()
    .regex(/^[0-9](?:[0-9 -]{2,28})[0-9]$/, 'must be the account number: 4 to 30 digits, optionally grouped by spaces or dashes')
    .optional(),
  BANK_BRANCH_CODE: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z](?:[0-9A-Za-z -]{0,18}[0-9A-Za-z])?$/, 'must be the branch code: up to 20 letters or digits')
    .optional(),
  /** An unconfirmed bank transfer expires to failed after this many days (docs/payments.md, "Payments that settle later"). */
  BANK_TRANSFER_EXPIRY_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  /** An unpaid order's coupon use lapses this many minutes after it was placed with no payment open (docs/packages-and-coupons.md, "Holds that lapse"). */
  COUPON_HOLD_MINUTES: z.coerce.number().int().min(30).max(10_080).default(60),
  /** Orders one client (address and gallery grant) may place in 10 minutes (docs/access.md, "Placing orders"). */
  ORDER_LIMIT_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(10),
  /** The first administrator, made at start on a database with no staff (docs/accounts.md, "The first administrator"). */
  INITIAL_ADMIN_EMAIL: z.string().optional(),
  INITIAL_ADMIN_PASSWORD: z.string().optional(),
  INITIAL_ADMIN_FIRST_NAME: z.string().optional(),
  INITIAL_ADMIN_LAST_NAME: z.string().optional(),
  SMTP_URL: z.string().optional(),
  /**
   * The SMS centre: `smpp://system_id:password@host:port` (or `ssmpp://` over TLS); unset, SMS are
   * written to data/sms-outbox as files (docs/sms.md, "Sending").
   */
  SMS_URL: z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const problem = smsUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  /** The sender an SMS shows: up to 11 letters, digits and spaces, or a number of up to 15 digits (docs/sms.md, "Sending"). */
  SMS_SENDER_ID: z
    .string()
    .trim()
    .regex(/^(?:[A-Za-z0-9][A-Za-z0-9 ]{0,10}|\+?[0-9]{1,15})$/, 'must be up to 11 letters, digits and spaces (starting with a letter or digit), or a number of up to 15 digits')
    .optional(),
  /** What one SMS segment costs, in thebe (the staff preview's estimate). */
  SMS_COST_THEBE: z.coerce.number().int().min(0).max(100_000).default(25),
  /** Submits sent to the SMS centre before their answers come (SMPP's window). */
  SMS_WINDOW: z.coerce.number().int().min(1).max(100).default(10),
  REDIS_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Trust X-Forwarded-For only behind a known proxy (docs/access.md, "The client address"). */
  TRUST_PROXY: boolish.transform((value) => value ?? false),
  /** A request body that brings less than 4 KiB in this long is cut off with 408 (slow-body attacks). */
  REQUEST_BODY_TIMEOUT_MS: z.coerce.number().int().min(0).default(60_000),
  /** On SIGTERM, how long requests under way (uploads too) may take to finish (docs/operations.md, "Stopping cleanly"). */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(25_000).default(20_000),
  /** How often a pending payment may be queried when its order is read (docs/payments.md, "Query"). */
  PAYMENT_QUERY_INTERVAL_MS: z.coerce.number().int().min(0).default(5000),
  /** How often a process looks for scheduled classes whose publish time has come (docs/access.md, "Draft and published classes"). */
  PUBLISH_CHECK_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  /** How often each process looks for e-mails to send that it was not told about (docs/email.md, "The outbox"). */
  OUTBOX_POLL_MS: z.coerce.number().int().min(50).default(1_000),
  /**
   * How long a sender's claim on a message holds: a process that died mid-send leaves its messages
   * to the others (or to itself, restarted) after this (docs/email.md, "The outbox").
   */
  OUTBOX_LEASE_MS: z.coerce.number().int().min(2_000).max(10 * 60_000).default(30_000),
  /** Messages each process sends at once, over as many SMTP connections kept open. */
  OUTBOX_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  /** Sandbox switches for tests and demos (ignored with real credentials). */
  SANDBOX_NOTIFY_RETRY_MS: z.coerce.number().int().min(1).default(30 * 60_000),
  SANDBOX_DUPLICATE_NOTIFIES: z.coerce.number().int().min(0).max(50).default(0),
  SANDBOX_NOTIFY_DELAY_MS: z.coerce.number().int().min(0).default(0),
  SANDBOX_SUPPRESS_NOTIFY: boolish.transform((value) => value ?? false),
  SANDBOX_CANCEL_STATUS: z.enum(['3', '4']).default('4').transform((v) => Number(v) as 3 | 4),
  /** Bank transfer: the final notify comes this long after the pending answer. */
  SANDBOX_FINAL_NOTIFY_MS: z.coerce.number().int().min(0).default(5000),
  /** Bank transfer's final notify: `approve` (default), `decline`, or `none` (never sent: the transfer stays pending). */
  SANDBOX_FINAL_NOTIFY: z.enum(['approve', 'decline', 'none']).default('approve'),
  /** E-wallet: the wait before the "confirmed on the phone" answer. */
  SANDBOX_EWALLET_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /** Serves GET /metrics on a listener of its own at this port (docs/operations.md, "Metrics"). */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /**
   * The address the metrics listener binds: loopback unless another is named (0.0.0.0 for every
   * interface, e.g. inside a container Prometheus reaches over the compose network).
   */
  METRICS_HOST: z
    .string()
    .trim()
    .refine((value) => isIP(value) !== 0, 'must be an IP address: 127.0.0.1 (the default), or 0.0.0.0 / :: to listen on every interface')
    .default('127.0.0.1'),
  /**
   * The key `npm run backup` signs each manifest with and `npm run restore` checks it against
   * (docs/operations.md, "Backup and restore"). Kept outside the backup; unset, backups are unsigned.
   */
  BACKUP_KEY: backupKeySchema.optional(),
  /** Serves GET /metrics on the main port to `Authorization: Bearer <this>` (docs/operations.md, "Metrics"). */
  METRICS_TOKEN: z.string().min(16, 'use at least 16 characters (openssl rand -hex 24)').optional(),
});

export interface Config {
  nodeEnv: string;
  port: number;
  publicUrl: string;
  databaseUrl: string;
  /** Where photos are stored: a folder or an S3-compatible bucket. */
  storage: StorageTarget;
  /** The folder of a `file:` store (STORAGE_DIR unless STORAGE_URL names another). */
  storageDir: string;
  dataDir: string;
  seedDemo: boolean;
  jwtSecret: string;
  /** Production with a shared database, bucket or Redis: possibly one of several processes. */
  sharedDeployment: boolean;
  businessName: string;
  paygate: { id: string; secret: string } | null;
  /** INITIAL_ADMIN_*: created at start only while no staff account exists; never logged whole. */
  initialAdmin: StaffRegisterInput | null;
  /** The payment methods the checkout offers, in PAYMENT_METHOD_IDS order. */
  paymentMethods: PaymentMethodId[];
  bankTransferExpiryDays: number;
  /** BANK_ACCOUNT_*: the account a bank transfer is paid into, or null (none configured). */
  bankAccount: BankAccount | null;
  /** Minutes an unpaid order with no payment open holds its coupon use (30 to 10,080; default 60). */
  couponHoldMinutes: number;
  /** Orders one client may place in 10 minutes before 429 (default 10). */
  orderLimitPerClient: number;
  smtpUrl: string | null;
  /** SMS_URL: the SMS centre (smpp://system_id:password@host:port), or null (files in data/sms-outbox). */
  smsUrl: string | null;
  /** SMS_SENDER_ID: the sender an SMS shows (default: the business name cut to 11 letters, digits and spaces). */
  smsSenderId: string;
  /** SMS_COST_THEBE: one segment's cost in thebe (default 25). */
  smsCostThebe: number;
  /** SMS_WINDOW: submits outstanding at once (default 10). */
  smsWindow: number;
  redisUrl: string | null;
  logLevel: string;
  trustProxy: boolean;
  paymentQueryIntervalMs: number;
  /** How often the scheduled-publication job runs. */
  publishCheckIntervalMs: number;
  outboxPollMs: number;
  outboxLeaseMs: number;
  outboxConcurrency: number;
  requestBodyTimeoutMs: number;
  /** METRICS_PORT: the metrics listener's port, or null (none). */
  metricsPort: number | null;
  /** METRICS_HOST: the address it listens on (127.0.0.1 unless set). */
  metricsHost: string;
  /** METRICS_TOKEN: the bearer that opens /metrics on the main port, or null (404 there). */
  metricsToken: string | null;
  shutdownGraceMs: number;
  sandbox: {
    notifyRetryMs: number;
    duplicateNotifies: number;
    notifyDelayMs: number;
    suppressNotify: boolean;
    cancelStatus: 3 | 4;
    finalNotifyMs: number;
    finalNotify: 'approve' | 'decline' | 'none';
    ewalletDelayMs: number;
  };
}

const BANK_ACCOUNT_REQUIRED = ['BANK_ACCOUNT_NAME', 'BANK_NAME', 'BANK_ACCOUNT_NUMBER'] as const;

/** The bank account settings: the name, bank and number together or none; the branch code only with them. */
function bankAccountOf(e: z.infer<typeof envSchema>): BankAccount | null {
  const { BANK_ACCOUNT_NAME: accountName, BANK_NAME: bankName, BANK_ACCOUNT_NUMBER: accountNumber, BANK_BRANCH_CODE: branchCode } = e;
  const missing = BANK_ACCOUNT_REQUIRED.filter((name) => e[name] === undefined);
  if (accountName === undefined || bankName === undefined || accountNumber === undefined) {
    if (missing.length === BANK_ACCOUNT_REQUIRED.length && branchCode === undefined) return null;
    if (missing.length === BANK_ACCOUNT_REQUIRED.length) throw new Error('Invalid environment: BANK_BRANCH_CODE is set without BANK_ACCOUNT_NAME, BANK_NAME and BANK_ACCOUNT_NUMBER');
    throw new Error(`Invalid environment: ${missing.join(', ')} must be set too: the bank account needs BANK_ACCOUNT_NAME, BANK_NAME and BANK_ACCOUNT_NUMBER together (or none of them)`);
  }
  return { accountName, bankName, accountNumber, branchCode: branchCode ?? null };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): Config {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(root, e.DATA_DIR);
  const paygate = e.PAYGATE_ID ? { id: e.PAYGATE_ID, secret: e.PAYGATE_SECRET ?? '' } : null;
  if (paygate && !paygate.secret) throw new Error('PAYGATE_SECRET is required when PAYGATE_ID is set');
  const paymentMethods = parsePaymentMethods(e.PAYMENT_METHODS);
  const storageDir = path.resolve(root, e.STORAGE_DIR);
  const storage = parseStorageTarget({ ...e, storageDir }, root);
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) throw new Error('Invalid environment: METRICS_PORT must differ from PORT');
  const sharedDeployment = isSharedDeployment({ nodeEnv: e.NODE_ENV, databaseUrl: e.DATABASE_URL, storage, redisUrl: e.REDIS_URL });
  if (sharedDeployment) assertSharedSettings(e);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL,
    storage,
    storageDir: storage.kind === 'file' ? storage.root : storageDir,
    dataDir,
    // Demo data (a known admin password) never reaches production (docs/accounts.md, "Production defaults").
    seedDemo: e.NODE_ENV === 'production' ? false : e.SEED_DEMO,
    jwtSecret: e.JWT_SECRET ?? loadOrCreateSecret(dataDir),
    sharedDeployment,
    businessName: e.BUSINESS_NAME,
    paygate,
    initialAdmin: initialAdmin(e),
    paymentMethods,
    bankTransferExpiryDays: e.BANK_TRANSFER_EXPIRY_DAYS,
    bankAccount: bankAccountOf(e),
    couponHoldMinutes: e.COUPON_HOLD_MINUTES,
    orderLimitPerClient: e.ORDER_LIMIT_PER_CLIENT,
    smtpUrl: e.SMTP_URL ?? null,
    smsUrl: e.SMS_URL ?? null,
    smsSenderId: e.SMS_SENDER_ID ?? defaultSmsSender(e.BUSINESS_NAME),
    smsCostThebe: e.SMS_COST_THEBE,
    smsWindow: e.SMS_WINDOW,
    redisUrl: e.REDIS_URL ?? null,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    paymentQueryIntervalMs: e.PAYMENT_QUERY_INTERVAL_MS,
    publishCheckIntervalMs: e.PUBLISH_CHECK_INTERVAL_MS,
    outboxPollMs: e.OUTBOX_POLL_MS,
    outboxLeaseMs: e.OUTBOX_LEASE_MS,
    outboxConcurrency: e.OUTBOX_CONCURRENCY,
    requestBodyTimeoutMs: e.REQUEST_BODY_TIMEOUT_MS,
    metricsPort: e.METRICS_PORT ?? null,
    metricsHost: e.METRICS_HOST,
    metricsToken: e.METRICS_TOKEN ?? null,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    sandbox: {
      notifyRetryMs: e.SANDBOX_NOTIFY_RETRY_MS,
      duplicateNotifies: e.SANDBOX_DUPLICATE_NOTIFIES,
      notifyDelayMs: e.SANDBOX_NOTIFY_DELAY_MS,
      suppressNotify: e.SANDBOX_SUPPRESS_NOTIFY,
      cancelStatus: e.SANDBOX_CANCEL_STATUS,
      finalNotifyMs: e.SANDBOX_FINAL_NOTIFY_MS,
      finalNotify: e.SANDBOX_FINAL_NOTIFY,
      ewalletDelayMs: e.SANDBOX_EWALLET_DELAY_MS,
    },
  };
}

/**
 * What is wrong with an SMS_URL, or null: an smpp:// or ssmpp:// URL with a host and the account's
 * system_id (at most 15 characters) and password (at most 8): SMPP 3.4's fields of 16 and 9 octets
 * end with a zero.
 */
function smsUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL: smpp://system_id:password@host:port';
  }
  if (url.protocol !== 'smpp:' && url.protocol !== 'ssmpp:') return 'must start with smpp:// (or ssmpp:// for TLS): smpp://system_id:password@host:port';
  if (!url.hostname) return 'must name the SMS centre\'s host: smpp://system_id:password@host:port';
  if (!url.username) return 'must carry the system_id: smpp://system_id:password@host:port';
  if (decodeURIComponent(url.username).length > 15) return 'the system_id has at most 15 characters';
  if (decodeURIComponent(url.password).length > 8) return 'the password has at most 8 characters (SMPP 3.4)';
  return null;
}

/** The business name as an alphanumeric sender: letters, digits and spaces, cut to 11 (docs/sms.md, "Sending"). */
export function defaultSmsSender(businessName: string): string {
  const cleaned = businessName
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.slice(0, 11).trim() || 'Photos';
}

/**
 * INITIAL_ADMIN_EMAIL and INITIAL_ADMIN_PASSWORD come together or not at all, and pass the rules of
 * a staff account (the password's strength included); a refusal names the variable, never its value.
 */
function initialAdmin(e: z.infer<typeof envSchema>): StaffRegisterInput | null {
  if (e.INITIAL_ADMIN_EMAIL === undefined && e.INITIAL_ADMIN_PASSWORD === undefined) return null;
  if (e.INITIAL_ADMIN_EMAIL === undefined || e.INITIAL_ADMIN_PASSWORD === undefined) {
    throw new Error('INITIAL_ADMIN_EMAIL and INITIAL_ADMIN_PASSWORD must be set together (or neither)');
  }
  const parsed = staffRegisterSchema.safeParse({
    email: e.INITIAL_ADMIN_EMAIL,
    password: e.INITIAL_ADMIN_PASSWORD,
    firstName: e.INITIAL_ADMIN_FIRST_NAME ?? 'Studio',
    lastName: e.INITIAL_ADMIN_LAST_NAME ?? 'Administrator',
  });
  if (!parsed.success) {
    const variable = { email: 'INITIAL_ADMIN_EMAIL', password: 'INITIAL_ADMIN_PASSWORD', firstName: 'INITIAL_ADMIN_FIRST_NAME', lastName: 'INITIAL_ADMIN_LAST_NAME' };
    const problems = parsed.error.issues.map((issue) => `${variable[issue.path[0] as keyof typeof variable] ?? 'INITIAL_ADMIN'}: ${issue.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data;
}

/**
 * Only the storage settings (STORAGE_URL, STORAGE_DIR, S3_*, DATA_DIR), for tools that move
 * photos and need neither the database nor the secrets.
 */
export function loadStorageSettings(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): { storage: StorageTarget; storageDir: string; dataDir: string } {
  const storageSchema = envSchema.pick({
    STORAGE_DIR: true,
    DATA_DIR: true,
    STORAGE_URL: true,
    S3_ENDPOINT: true,
    S3_REGION: true,
    S3_ACCESS_KEY_ID: true,
    S3_SECRET_ACCESS_KEY: true,
    S3_FORCE_PATH_STYLE: true,
  });
  const parsed = storageSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) throw new Error(`Invalid environment: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  const storageDir = path.resolve(root, parsed.data.STORAGE_DIR);
  return { storage: parseStorageTarget({ ...parsed.data, storageDir }, root), storageDir, dataDir: path.resolve(root, parsed.data.DATA_DIR) };
}

/**
 * Several API processes are possible only when what they share lives outside any one of them:
 * under NODE_ENV=production, a MySQL/MariaDB database, an S3 bucket or Redis. SQLite with the
 * local folder and no Redis is one process on one machine, and may keep its state in data/.
 */
function isSharedDeployment(settings: { nodeEnv: string; databaseUrl: string; storage: StorageTarget; redisUrl?: string }): boolean {
  if (settings.nodeEnv !== 'production') return false;
  return /^(mysql|mariadb):/.test(settings.databaseUrl) || settings.storage.kind === 's3' || Boolean(settings.redisUrl);
}

/**
 * What must be the same in every process of a shared deployment: a generated JWT secret lives in
 * one process's data/ folder, so each replica would sign with its own key and refuse the others'
 * tokens; the e-mail outbox folder is on one process's disk, where nobody reads it.
 */
function assertSharedSettings(e: { JWT_SECRET?: string; SMTP_URL?: string }): void {
  const why = 'NODE_ENV=production with a shared database, bucket or Redis (a MySQL DATABASE_URL, an s3:// STORAGE_URL or REDIS_URL) may run as several processes';
  if (!e.JWT_SECRET) {
    throw new Error(`Refusing to start: JWT_SECRET is required. ${why}, and every one must sign with the same key (openssl rand -base64 32).`);
  }
  if (!e.SMTP_URL) {
    throw new Error(`Refusing to start: SMTP_URL is required. ${why}; the data/outbox folder is for development on one machine.`);
  }
}

/** JWT_SECRET unset: a 256-bit secret generated once and kept in data/ (docs/accounts.md, "The signing secret"). */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 43) return existing;
  } catch {
    // not created yet
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * Production takes real credentials only: without them payments would run on the built-in sandbox,
 * whose key is public, so anyone could forge a paid notify; the public PayWeb3 test credentials must
 * never take real orders either (docs/payments.md, "Test credentials in production").
 */
export function assertProductionPayments(config: Config): void {
  if (config.nodeEnv !== 'production') return;
  if (!config.paygate) {
    throw new Error(
      'Refusing to start: NODE_ENV=production needs PAYGATE_ID and PAYGATE_SECRET (your PayGate merchant id and encryption key). ' +
        'Without them payments run on the built-in sandbox, whose public key would let anyone mark an order paid.',
    );
  }
  if (config.paygate.id === '10011072130' || config.paygate.secret === 'secret') {
    throw new Error('Refusing to start: NODE_ENV=production with the public PayGate test credentials. Set your own PAYGATE_ID and PAYGATE_SECRET.');
  }
}

export function assertSecretStrength(secret: string): void {
  if (Buffer.byteLength(secret, 'utf8') < 32) {
    throw new Error('JWT_SECRET must be at least 32 bytes of random data (openssl rand -base64 32)');
  }
}

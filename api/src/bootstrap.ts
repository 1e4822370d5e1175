import type { Knex } from 'knex';
import path from 'node:path';
import type { Config } from './config';
import { assertProductionPayments, assertSecretStrength } from './config';
import { createKnex, databaseTarget } from './db/knex';
import { migrationSource } from '../../db/migrations/index';
import type { Logger } from './logger';
import type { Deps } from './deps';
import { createTokenService } from './http/auth';
import { createAccessService } from './http/access';
import { createRateLimits } from './http/rate-limit';
import { createMediaService } from './media/media.service';
import { createMailer } from './mail/mailer';
import { createPayGateClient } from './payments/paygate/client';
import { createSandboxGateway } from './payments/paygate/sandbox';
import { createObjectStorage } from './storage';
import { createJobLock } from './jobs/job-lock';
import { createHealthCheck } from './health/health';
import { connectRedis, createRedis } from './redis';
import { PAYGATE_LIVE_URL, PUBLIC_TEST_PAYGATE_ID, PUBLIC_TEST_SECRET } from './payments/paygate/codes';

/** How long a starting process waits for another one that is migrating the same database. */
const MIGRATION_WAIT_MS = 120_000;

/** Whether another process holds knex's migration lock (false while its table does not exist yet). */
async function migrationLockHeld(knex: Knex): Promise<boolean> {
  try {
    const row = await knex('knex_migrations_lock').first('is_locked');
    return Number(row?.is_locked) === 1;
  } catch {
    return false;
  }
}

/**
 * Two processes creating knex's tables at the same moment can both insert the lock row; knex then
 * never takes its lock again (its update must touch exactly one row). While nobody holds it, the
 * extra rows are dropped.
 */
async function repairMigrationLock(knex: Knex): Promise<void> {
  const rows: { index: number; is_locked: number }[] = await knex('knex_migrations_lock').select('index', 'is_locked').catch(() => []);
  if (rows.length < 2 || rows.some((row) => Number(row.is_locked) !== 0)) return;
  const keep = Math.min(...rows.map((row) => Number(row.index)));
  await knex('knex_migrations_lock').whereNot('index', keep).where('is_locked', 0).delete();
}

/**
 * Runs the pending migrations. Several processes starting together on one database: one takes
 * knex's migration lock (or creates its tables) and the others wait for it and then find nothing
 * left to do. A held lock is waited for before asking knex, which would print a warning per try.
 */
export async function migrate(knex: Knex, logger?: Logger, waitMs = MIGRATION_WAIT_MS): Promise<void> {
  const deadline = Date.now() + waitMs;
  let told = false;
  const waitOrGiveUp = async (cause: unknown) => {
    if (Date.now() > deadline) {
      throw new Error(
        `The database stayed locked for migrations for ${waitMs / 1000} s. If no other process is migrating it, one stopped halfway: clear the lock with UPDATE knex_migrations_lock SET is_locked = 0`,
        { cause },
      );
    }
    if (!told) logger?.info('another process is migrating the database; waiting for it');
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  };
  for (;;) {
    if (await migrationLockHeld(knex)) {
      await waitOrGiveUp(null);
      continue;
    }
    try {
      await knex.migrate.latest({ migrationSource });
      return;
    } catch (err) {
      const e = err as { name?: string; code?: string; message?: string };
      // Locked, the other process created knex's own tables a moment before this one tried, or
      // this one waited too long for the other's write (SQLite has one writer at a time).
      const anotherProcess =
        e.name === 'MigrationLocked' ||
        ['ER_TABLE_EXISTS_ERROR', 'ER_DUP_ENTRY', 'ER_LOCK_WAIT_TIMEOUT', 'ER_LOCK_DEADLOCK'].includes(e.code ?? '') ||
        (e.code ?? '').startsWith('SQLITE_BUSY') ||
        /table `?knex_migrations(_lock)?`? already exists/.test(e.message ?? '');
      if (!anotherProcess) throw err;
      if (e.name === 'MigrationLocked') await repairMigrationLock(knex);
      await waitOrGiveUp(err);
    }
  }
}

export interface Runtime extends Deps {
  close(): Promise<void>;
}

/** Connects, migrates and wires the dependencies once (server, tests and benchmark share this). */
export async function buildRuntime(config: Config, logger: Logger): Promise<Runtime> {
  assertSecretStrength(config.jwtSecret);
  assertProductionPayments(config);
  const target = databaseTarget(config.databaseUrl);
  const knex = createKnex(target);
  await migrate(knex, logger);
  const redis = config.redisUrl ? createRedis(config.redisUrl, logger) : null;
  const storage = createObjectStorage(config.storage, config.dataDir);
  try {
    if (redis && config.redisUrl) await connectRedis(redis, config.redisUrl);
    await storage.ensureReady();
  } catch (err) {
    storage.close();
    redis?.disconnect();
    await knex.destroy();
    throw err;
  }
  if (!config.smtpUrl && config.nodeEnv === 'production') {
    logger.warn('SMTP_URL is not set: e-mails are written to the outbox folder, which is for development only');
  }
  const media = await createMediaService({ storage, businessName: config.businessName, logger });
  const gateway = createGateway(config, logger);
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, 'outbox'),
    from: `${config.businessName} <no-reply@${new URL(config.publicUrl).hostname}>`,
    logger,
  });
  const deps: Deps = {
    config,
    knex,
    dialect: target.dialect,
    database: target.database,
    logger,
    tokens: createTokenService(config.jwtSecret, knex),
    access: createAccessService(config.jwtSecret),
    limits: createRateLimits({ knex, dialect: target.dialect, database: target.database, redis }),
    media,
    storage,
    jobLock: createJobLock({ knex, dialect: target.dialect, database: target.database, redis, logger }),
    health: createHealthCheck({ knex, storage, redis }),
    mailer,
    gateway,
  };
  return {
    ...deps,
    async close() {
      gateway.sandbox?.close();
      mailer.close();
      redis?.disconnect();
      storage.close();
      await knex.destroy();
    },
  };
}

/** Real PayGate with PAYGATE_ID/PAYGATE_SECRET; otherwise the built-in sandbox on our own origin (D6). */
function createGateway(config: Config, logger: Logger): Deps['gateway'] {
  if (config.paygate) {
    const { id, secret } = config.paygate;
    return {
      kind: 'paygate',
      paygateId: id,
      secret,
      client: createPayGateClient({ paygateId: id, secret, baseUrl: PAYGATE_LIVE_URL }),
      sandbox: null,
    };
  }
  logger.warn(
    'PAYMENTS RUN ON THE BUILT-IN SANDBOX GATEWAY: no real money moves. Set PAYGATE_ID and PAYGATE_SECRET to take real payments.',
  );
  const sandbox = createSandboxGateway({
    paygateId: PUBLIC_TEST_PAYGATE_ID,
    secret: PUBLIC_TEST_SECRET,
    logger,
    notifyRetryDelayMs: config.sandbox.notifyRetryMs,
    duplicateNotifies: config.sandbox.duplicateNotifies,
    notifyDelayMs: config.sandbox.notifyDelayMs,
    suppressNotify: config.sandbox.suppressNotify,
    cancelStatus: config.sandbox.cancelStatus,
  });
  return {
    kind: 'sandbox',
    paygateId: PUBLIC_TEST_PAYGATE_ID,
    secret: PUBLIC_TEST_SECRET,
    client: createPayGateClient({ paygateId: PUBLIC_TEST_PAYGATE_ID, secret: PUBLIC_TEST_SECRET, baseUrl: config.publicUrl }),
    sandbox,
  };
}

import path from 'node:path';
import type { Config } from './config';
import { assertProductionPayments, assertSecretStrength } from './config';
import { createKnex, databaseTarget } from './db/knex';
import { migrate } from './db/migrate';
import { pingDatabase } from './db/ping';
import { startSqliteCheckpointer, type SqliteCheckpointer } from './db/sqlite-checkpoint';
import type { Logger } from './logger';
import type { Deps } from './deps';
import { createServices, type Services } from './services';
import { ensureInitialAdmin } from './staff/staff.service';
import { createTokenService } from './http/auth';
import { createPrincipalsRepository } from './http/principals.repository';
import { createAccessService } from './http/access';
import { createGrantCredentialsRepository } from './http/grant-credentials.repository';
import { createRateLimits } from './http/rate-limit';
import { createRateLimitsRepository } from './http/rate-limits.repository';
import { createMediaService } from './media/media.service';
import { createMailer } from './mail/mailer';
import { createSmsSender } from './sms/sms-sender';
import { smtpTimeoutsFor } from './outbox/outbox.service';
import { createPayGateClient } from './payments/paygate/client';
import { createSandboxGateway } from './payments/paygate/sandbox';
import { createObjectStorage } from './storage';
import { createJobLock } from './jobs/job-lock';
import { createHealthCheck } from './health/health';
import { connectRedis, createRedis } from './redis';
import { createMetrics } from './metrics/metrics';
import { countedJobLock } from './metrics/jobs';
import { poolStats, warmPool } from './db/pool';
import { createOutboxRepository } from './outbox/outbox.repository';
import { PAYGATE_LIVE_URL, PUBLIC_TEST_PAYGATE_ID, PUBLIC_TEST_SECRET } from './payments/paygate/codes';

export interface Runtime extends Deps {
  /** Every service, built once (services.ts). */
  services: Services;
  /** SQLite's checkpoints on a worker thread (docs/operations.md, "SQLite's checkpoints"); null on MySQL and `:memory:`. */
  checkpointer: SqliteCheckpointer | null;
  close(): Promise<void>;
}

/** Connects, migrates and wires the dependencies once (server, tests and benchmark share this). */
export async function buildRuntime(config: Config, logger: Logger): Promise<Runtime> {
  assertSecretStrength(config.jwtSecret);
  assertProductionPayments(config);
  const target = databaseTarget(config.databaseUrl);
  const knex = createKnex(target);
  await migrate(knex, logger);
  // Before the first request: every pool connection open (docs/operations.md, "What the server does before it answers").
  await warmPool(knex);
  // Checkpoints off the event loop, the serving connection's own turned off (docs/operations.md, "SQLite's checkpoints").
  const checkpointer =
    target.dialect === 'sqlite' && target.database !== ':memory:'
      ? await startSqliteCheckpointer({ knex, file: target.database, logger }).catch((err: unknown) => {
          logger.warn({ err }, "SQLite's checkpoint worker did not start: the serving connection checkpoints in its commits");
          return null;
        })
      : null;
  const redis = config.redisUrl ? createRedis(config.redisUrl, logger) : null;
  const storage = createObjectStorage(config.storage, config.dataDir);
  try {
    if (redis && config.redisUrl) await connectRedis(redis, config.redisUrl);
    await storage.ensureReady();
  } catch (err) {
    storage.close();
    redis?.disconnect();
    await checkpointer?.close();
    await knex.destroy();
    throw err;
  }
  if (!config.smtpUrl && config.nodeEnv === 'production') {
    logger.warn('SMTP_URL is not set: e-mails are written to the outbox folder, which is for development only');
  }
  if (!config.smsUrl && config.nodeEnv === 'production') {
    logger.warn('SMS_URL is not set: SMS are written to the sms-outbox folder, which is for development only');
  }
  // One registry per runtime (docs/operations.md, "Metrics"); its gauges read the pool and the outbox at each scrape.
  const outboxRows = createOutboxRepository(knex);
  const metrics = createMetrics({ pool: () => poolStats(knex), outboxBacklog: (now) => outboxRows.backlog(now) });
  const media = await createMediaService({ storage, businessName: config.businessName, logger, onIngest: (stage, seconds) => metrics.ingest(stage, seconds) });
  const gateway = createGateway(config, logger);
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, 'outbox'),
    from: `${config.businessName} <no-reply@${new URL(config.publicUrl).hostname}>`,
    logger,
    logLinks: config.nodeEnv !== 'production',
    connections: config.outboxConcurrency,
    timeouts: smtpTimeoutsFor(config.outboxLeaseMs),
  });
  const sms = createSmsSender({
    smsUrl: config.smsUrl,
    outboxDir: path.join(config.dataDir, 'sms-outbox'),
    senderId: config.smsSenderId,
    window: config.smsWindow,
    logger,
    logLinks: config.nodeEnv !== 'production',
    bindWaitMs: Math.min(7_500, Math.floor(config.outboxLeaseMs / 4)),
  });
  const deps: Deps = {
    config,
    knex,
    dialect: target.dialect,
    database: target.database,
    logger,
    tokens: createTokenService(config.jwtSecret, createPrincipalsRepository(knex)),
    access: createAccessService(config.jwtSecret, createGrantCredentialsRepository(knex)),
    limits: createRateLimits({
      counters: createRateLimitsRepository(knex, target.dialect, target.database),
      database: target.database,
      redis,
      logger,
      onBlock: (kind) => metrics.rateLimitBlock(kind),
      ordersPerClient: config.orderLimitPerClient,
    }),
    media,
    storage,
    jobLock: countedJobLock(createJobLock({ knex, dialect: target.dialect, database: target.database, redis, logger }), metrics),
    health: createHealthCheck({ pingDatabase: () => pingDatabase(knex), storage, redis }),
    mailer,
    sms,
    gateway,
    metrics,
  };
  if (config.initialAdmin) await ensureInitialAdmin(deps, config.initialAdmin);
  const services = createServices(deps);
  // Every process sends the outbox's due e-mails (docs/email.md, "The outbox").
  const stopOutbox = services.outbox.start(config.outboxPollMs);
  return {
    ...deps,
    services,
    checkpointer,
    async close() {
      gateway.sandbox?.close();
      // The sender stops claiming and finishes what it has under way, then the connections close.
      await stopOutbox();
      await mailer.close();
      await sms.close();
      await media.close();
      redis?.disconnect();
      storage.close();
      // The worker's connection closes first, so the server's, the last, folds the WAL back in as it closes.
      await checkpointer?.close();
      await knex.destroy();
    },
  };
}

/**
 * Real PayGate with PAYGATE_ID/PAYGATE_SECRET; otherwise the built-in sandbox on our own origin
 * (docs/payments.md, "The built-in sandbox").
 */
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
    paymentMethods: config.paymentMethods,
    finalNotifyMs: config.sandbox.finalNotifyMs,
    finalNotify: config.sandbox.finalNotify,
    ewalletDelayMs: config.sandbox.ewalletDelayMs,
  });
  return {
    kind: 'sandbox',
    paygateId: PUBLIC_TEST_PAYGATE_ID,
    secret: PUBLIC_TEST_SECRET,
    // The server's own calls (initiate, query) are answered in this process: over HTTP they went
    // out to PUBLIC_URL and back into this same event loop (docs/payments.md, "The built-in sandbox").
    client: createPayGateClient({ paygateId: PUBLIC_TEST_PAYGATE_ID, secret: PUBLIC_TEST_SECRET, baseUrl: config.publicUrl, answer: (path, body) => sandbox.answer(path, body) }),
    sandbox,
  };
}

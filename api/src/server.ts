import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import { loadConfig } from './config';
import { createLogger, prettyLogStream, wantsPrettyLogs } from './logger';
import { buildRuntime } from './bootstrap';
import { createApp } from './app';
import { seedDemo } from '../../db/seeds/demo';
import { createMaintenance } from './jobs/maintenance';
import { missingProcessEnv } from './process-env';
import { listenMetrics } from './metrics/http';

/** Reads config, migrates, seeds demo data, listens, shuts down on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, wantsPrettyLogs(config.nodeEnv) ? prettyLogStream() : undefined);
  if (config.nodeEnv === 'production') for (const line of missingProcessEnv()) logger.warn(line);
  const runtime = await buildRuntime(config, logger);
  if (config.nodeEnv === 'production' && /^(true|1|yes)$/.test(process.env.SEED_DEMO ?? '')) {
    logger.warn('SEED_DEMO is ignored under NODE_ENV=production: demo data is never seeded there (docs/accounts.md, "Production defaults")');
  }
  if (config.seedDemo) {
    // Processes starting together on an empty database: one of them seeds it.
    await runtime.jobLock.runExclusive('demo-seed', async () => {
      const seeded = await seedDemo(runtime);
      if (seeded) logger.info(seeded, 'demo data created');
    });
  }
  const distDir = path.resolve('pwa/dist');
  const appDir = fs.existsSync(path.join(distDir, 'index.html')) ? distDir : null;
  if (!appDir) logger.warn('pwa/dist is not built: serving the API only (npm run build builds the PWA)');
  const app = createApp({ ...runtime, appDir });
  const server: Server = app.listen(config.port, () => {
    logger.info({ url: config.publicUrl, database: runtime.dialect }, `listening on port ${config.port}`);
  });
  server.requestTimeout = 10 * 60_000;
  // Prometheus scrapes this port, never published (docs/operations.md, "Metrics").
  const metricsServer = config.metricsPort ? await listenMetrics(runtime.metrics, config.metricsPort, logger) : null;
  if (metricsServer) logger.info(`metrics on port ${config.metricsPort} at /metrics`);

  // Sweeps and the thumbnail backfill: timers in every process, one process at a time per job.
  const stopMaintenance = createMaintenance(runtime).start();
  logger.info({ jobLock: runtime.jobLock.kind, storage: runtime.storage.location }, 'background jobs started');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    stopMaintenance();
    metricsServer?.close();
    server.close(() => {
      runtime.close().finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  if (err instanceof Error && err.stack && process.env.LOG_LEVEL === 'debug') console.error(err.stack);
  process.exit(1);
});

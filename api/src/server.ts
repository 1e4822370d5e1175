import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { loadConfig } from './config';
import { createLogger, prettyLogStream, wantsPrettyLogs } from './logger';
import { buildRuntime } from './bootstrap';
import { createApp } from './app';
import { seedDemo } from '../../db/seeds/demo';
import { createMaintenance } from './jobs/maintenance';
import { missingProcessEnv } from './process-env';
import { listenMetrics } from './metrics/http';
import { createDrain } from './http/drain';

/** SIGTERM to exit: a process manager's usual grace is 30 s (docs/operations.md, "Stopping cleanly"). */
const STOP_LIMIT_MS = 29_000;
/** After the grace, connections still open are cut; their handlers get this long to notice. */
const CUT_SETTLE_MS = 1_000;
/** Background jobs under way may run until this long after the signal; then the database closes. */
const JOBS_LIMIT_MS = 24_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  const drain = createDrain();
  const server = http.createServer(drain.wrap(app.callback()));
  server.listen(config.port, () => {
    logger.info({ url: config.publicUrl, database: runtime.dialect }, `listening on port ${config.port}`);
  });
  server.requestTimeout = 10 * 60_000;
  // Prometheus scrapes this port, never published (docs/operations.md, "Metrics").
  const metricsServer = config.metricsPort ? await listenMetrics(runtime.metrics, config.metricsPort, logger, config.metricsHost) : null;
  if (metricsServer) logger.info({ host: config.metricsHost, port: config.metricsPort }, `metrics on ${config.metricsHost} port ${config.metricsPort} at /metrics`);

  // Sweeps and the thumbnail backfill: timers in every process, one process at a time per job.
  const stopMaintenance = createMaintenance(runtime).start();
  logger.info({ jobLock: runtime.jobLock.kind, storage: runtime.storage.location }, 'background jobs started');

  let stopping = false;
  /**
   * Stops taking requests, lets those under way finish (up to SHUTDOWN_GRACE_MS), waits for the
   * background job and the e-mail sends under way, closes the database and exits 0
   * (docs/operations.md, "Stopping cleanly").
   */
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    setTimeout(() => {
      logger.error({ inFlight: drain.inFlight }, 'did not stop in time: exiting anyway');
      process.exit(1);
    }, STOP_LIMIT_MS).unref();
    logger.info({ signal, inFlight: drain.inFlight }, 'stopping: no new requests; finishing those under way');
    drain.begin();
    metricsServer?.close();
    server.close();
    server.closeIdleConnections();
    const jobs = stopMaintenance();
    const idleTimer = setInterval(() => server.closeIdleConnections(), 100);
    let finished = await drain.idle(config.shutdownGraceMs);
    clearInterval(idleTimer);
    if (!finished) {
      logger.warn({ inFlight: drain.inFlight, graceMs: config.shutdownGraceMs }, 'requests still under way at the end of the grace: their connections are cut');
      server.closeAllConnections();
      finished = await drain.idle(CUT_SETTLE_MS);
    }
    // A job run under way ends by itself (each writes whole rows and files); one that would outlast
    // the limit (a long thumbnail backfill) is left to the next start, which picks it up again.
    const jobsEnded = await Promise.race([jobs.then(() => true), sleep(Math.max(0, started + JOBS_LIMIT_MS - Date.now())).then(() => false)]);
    if (!jobsEnded) logger.warn('a background job is still running: closing under it (it starts again with the server)');
    await runtime.close();
    logger.info({ ms: Date.now() - started, requestsFinished: finished }, 'stopped');
    process.exit(0);
  };
  const onSignal = (signal: string) => {
    stop(signal).catch((err: unknown) => {
      logger.error({ err }, 'stopping failed');
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  if (err instanceof Error && err.stack && process.env.LOG_LEVEL === 'debug') console.error(err.stack);
  process.exit(1);
});

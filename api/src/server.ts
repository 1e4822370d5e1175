import type { Server } from 'node:http';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { buildRuntime } from './bootstrap';
import { createApp } from './app';
import { seedDemo } from '../../db/seeds/demo';

/** Reads config, migrates, seeds demo data, listens, shuts down on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const runtime = await buildRuntime(config, logger);
  if (config.seedDemo) {
    const seeded = await seedDemo(runtime);
    if (seeded) logger.info(seeded, 'demo data created');
  }
  const app = createApp(runtime);
  const server: Server = app.listen(config.port, () => {
    logger.info({ url: config.publicUrl, database: runtime.dialect }, `listening on port ${config.port}`);
  });
  server.requestTimeout = 10 * 60_000;

  const maintenance = setInterval(() => {
    runtime.limits.sweep().catch((err: unknown) => logger.warn({ err }, 'rate limit sweep failed'));
  }, 5 * 60_000);
  maintenance.unref();

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    clearInterval(maintenance);
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

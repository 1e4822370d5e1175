import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { buildRuntime } from './bootstrap';
import { createApp } from './app';
import { seedDemo } from '../../db/seeds/demo';
import { createCommerce } from './orders/commerce';
import { createPhotoService } from './photos/photos.service';

/** Reads config, migrates, seeds demo data, listens, shuts down on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const runtime = await buildRuntime(config, logger);
  if (config.seedDemo) {
    const seeded = await seedDemo(runtime);
    if (seeded) logger.info(seeded, 'demo data created');
  }
  const distDir = path.resolve('pwa/dist');
  const appDir = fs.existsSync(path.join(distDir, 'index.html')) ? distDir : null;
  if (!appDir) logger.warn('pwa/dist is not built: serving the API only (npm run build builds the PWA)');
  const app = createApp({ ...runtime, appDir });
  const server: Server = app.listen(config.port, () => {
    logger.info({ url: config.publicUrl, database: runtime.dialect }, `listening on port ${config.port}`);
  });
  server.requestTimeout = 10 * 60_000;

  // Photos stored before the small thumbnail existed get it in the background, one at a time.
  createPhotoService(runtime)
    .backfillSmallThumbnails()
    .then((result) => {
      if (result.made > 0 || result.skipped > 0) logger.info(result, 'small thumbnails backfilled');
    })
    .catch((err: unknown) => logger.warn({ err }, 'small thumbnail backfill stopped'));

  // Lost notifies are settled by asking the gateway about payments still open after 2 minutes.
  const { payments } = createCommerce(runtime);
  const reconcile = setInterval(() => {
    payments.sweep(2 * 60_000).catch((err: unknown) => logger.warn({ err }, 'payment sweep failed'));
  }, 60_000);
  reconcile.unref();
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
    clearInterval(reconcile);
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

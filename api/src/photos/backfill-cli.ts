/**
 * `npm run media:backfill`: makes the small thumbnail of every photo stored before it existed,
 * against DATABASE_URL and STORAGE_DIR. Safe to run any time and again: only photos without one
 * are touched. The server also runs it in the background at start.
 */
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { buildRuntime } from '../bootstrap';

const config = loadConfig();
const logger = createLogger(config.logLevel);
const runtime = await buildRuntime(config, logger);
try {
  const started = Date.now();
  const result = await runtime.services.photos.backfillSmallThumbnails();
  console.log(
    `small thumbnails: ${result.made} made, ${result.skipped} skipped (original missing or unreadable) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} finally {
  await runtime.close();
}

/**
 * `npm run storage:migrate [-- --from <folder>] [--dry-run]`: copies a storage folder (by default
 * STORAGE_DIR, i.e. data/storage) into the store STORAGE_URL names (an s3:// bucket), reading
 * every object back to verify it. Safe to repeat: objects already there are checked, not copied.
 * Exits with 1 when any object failed, listing them.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadStorageSettings } from '../config';
import { createObjectStorage } from './index';
import { migrateStorage } from './migrate';

const { values } = parseArgs({ options: { from: { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, concurrency: { type: 'string' } } });
const settings = loadStorageSettings();
const sourceDir = path.resolve(values.from ?? settings.storageDir);
if (settings.storage.kind === 'file' && path.resolve(settings.storage.root) === sourceDir) {
  console.error(`STORAGE_URL names the folder ${sourceDir} itself: set STORAGE_URL=s3://bucket/prefix and the S3_* settings of the target.`);
  process.exit(2);
}
const target = createObjectStorage(settings.storage, settings.dataDir);
try {
  await target.ensureReady();
  console.log(`${values['dry-run'] ? 'Comparing' : 'Copying'} ${sourceDir} -> ${target.location}`);
  const started = Date.now();
  let shown = 0;
  const report = await migrateStorage(sourceDir, target, {
    dryRun: values['dry-run'],
    concurrency: values.concurrency ? Number(values.concurrency) : undefined,
    onProgress(done, total) {
      if (done === total || Date.now() - shown > 2000) {
        shown = Date.now();
        console.log(`  ${done}/${total}`);
      }
    },
  });
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `${report.objects} objects (${(report.bytes / 1024 / 1024).toFixed(1)} MB): ${report.copied} copied and verified, ${report.present} already there and verified, ${report.failed.length} failed, in ${seconds.toFixed(1)} s`,
  );
  for (const failure of report.failed) console.error(`  FAILED ${failure.key}: ${failure.reason}`);
  if (report.failed.length > 0) process.exitCode = 1;
} finally {
  target.close();
}

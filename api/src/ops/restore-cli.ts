/**
 * `npm run restore -- <folder>`: restores a backup made by `npm run backup` into an empty data
 * folder (DATABASE_URL, STORAGE_DIR/STORAGE_URL and DATA_DIR as the server reads them), checking
 * every file against the manifest's size and SHA-256 (docs/operations.md, "Backup and restore").
 * Refuses a data folder that holds anything. Exit 0 done, 1 refused or failed, 2 usage.
 */
import { OpsError, restoreDataFolder } from './backup.service';
import { dataSettingsFromEnv } from './data-settings';

const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

const folder = process.argv[2];
if (!folder || process.argv.length > 3) {
  console.error('usage: npm run restore -- <folder>   (restores into the empty data folder the server settings name)');
  process.exit(2);
}
try {
  const result = await restoreDataFolder(dataSettingsFromEnv(), folder, say);
  say(`restored ${result.objects} objects and the database (${(result.bytes / 1024 / 1024).toFixed(1)} MB) in ${result.seconds.toFixed(1)} s; start the server`);
} catch (err) {
  // A sentence for the operator, never a stack trace (docs/operations.md, "Backup and restore").
  console.error(err instanceof OpsError ? err.message : `The restore stopped: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}

/**
 * `npm run backup -- <folder>`: an online backup of the embedded default (the SQLite database and
 * the storage folder) into a new or empty folder, with a manifest of every file's size and SHA-256
 * (docs/operations.md, "Backup and restore"). Safe while the server runs and takes orders. Says
 * which parts it does not cover (a MySQL database, an S3 bucket). Exit 0 done, 1 failed, 2 usage.
 */
import { backupDataFolder, OpsError } from './backup.service';
import { dataSettingsFromEnv } from './data-settings';

const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

const folder = process.argv[2];
if (!folder || process.argv.length > 3) {
  console.error('usage: npm run backup -- <folder>   (a new or empty folder, outside the data folder)');
  process.exit(2);
}
try {
  const result = await backupDataFolder(dataSettingsFromEnv(), folder, say);
  const { manifest } = result;
  say(
    `backup of ${manifest.takenAt} written to ${folder}: ${manifest.database ? 'database, ' : ''}${manifest.objects.length} objects, ${(result.bytes / 1024 / 1024).toFixed(1)} MB in ${result.seconds.toFixed(1)} s`,
  );
} catch (err) {
  // A sentence for the operator, never a stack trace (docs/operations.md, "Backup and restore").
  console.error(err instanceof OpsError ? err.message : `The backup stopped: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}

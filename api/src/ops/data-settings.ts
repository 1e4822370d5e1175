import { loadBackupKey, loadStorageSettings } from '../config';
import type { DataSettings } from './backup.service';

/** The data the server's own settings name: DATABASE_URL, STORAGE_URL/STORAGE_DIR, DATA_DIR, JWT_SECRET; and BACKUP_KEY. */
export function dataSettingsFromEnv(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): DataSettings {
  const storage = loadStorageSettings(env, root);
  return {
    databaseUrl: env.DATABASE_URL || 'sqlite:data/app.sqlite',
    storage: storage.storage,
    dataDir: storage.dataDir,
    jwtSecretFromEnv: Boolean(env.JWT_SECRET),
    backupKey: loadBackupKey(env),
  };
}

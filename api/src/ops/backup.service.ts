import fs from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { databaseTarget } from '../db/knex';
import { integrityCheck, snapshotSqlite } from '../db/sqlite-backup';
import { createFileStorage } from '../storage/file-storage';
import { heldPath, takeHold } from '../storage/backup-hold';
import type { StorageTarget } from '../storage/storage-target';
import { EXTENSION_BY_MIME, exampleKey, objectKey } from '../media/storage';
import type { AcceptedImageType } from '../../contract/constants';
import { databaseIdentity, readStorageReferences } from './backup.repository';
import { migrationSource } from '../../../db/migrations/index';

/**
 * `npm run backup` and `npm run restore` (docs/operations.md, "Backup and restore"): an online
 * backup of the embedded default (the SQLite file and the `file:` storage folder) into a folder
 * with a manifest of every file's size and SHA-256, and its restore into an empty data folder.
 * Nothing here exits the process: failures are OpsErrors the CLIs print.
 */

export const MANIFEST = 'manifest.json';
export const BACKUP_FORMAT = 'school-photos-backup';
const DATABASE_FILE = 'database.sqlite';
const STORAGE_FOLDER = 'storage';
const SECRET_FILE = 'jwt-secret';
const COPIES_AT_ONCE = 4;
/** Only the operator reads a backup: folders 0700, files 0600 (it holds every child's photos and the signing secret). */
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;
const MAC_ALGORITHM = 'HMAC-SHA256';
/** This product's first migration: a database without it in knex_migrations is not this product's. */
const FIRST_MIGRATION = '20261122120000_create_staff';

/** What an operator must read: the command stops and says why, nothing half done is left. */
export class OpsError extends Error {}

/** What the commands need of the configuration: the same variables the server reads. */
export interface DataSettings {
  databaseUrl: string;
  storage: StorageTarget;
  dataDir: string;
  /** JWT_SECRET is set in the environment: the data folder's generated secret is not in use. */
  jwtSecretFromEnv: boolean;
  /**
   * BACKUP_KEY: signs the manifest (backup) and is required to match it (restore). Null: backups are
   * unsigned and a restore trusts the backup store (docs/operations.md, "Backup and restore").
   */
  backupKey: string | null;
}

export interface ManifestEntry {
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  /** When the database copy was taken: the moment the backup stands for. */
  takenAt: string;
  finishedAt: string;
  database: ManifestEntry | null;
  /** Storage objects by key; `path` is the key. */
  objects: ManifestEntry[];
  /** Other files of the data folder (the generated signing secret). */
  files: ManifestEntry[];
  /** What this backup does not hold, and how to back it up instead. */
  notCovered: string[];
  /** Objects the database refers to that were already gone from storage when the backup ran. */
  missingBeforeBackup: string[];
  /** HMAC-SHA256 under BACKUP_KEY of the manifest without this field; absent when no key was set. */
  mac?: { algorithm: typeof MAC_ALGORITHM; value: string };
}

/** The MAC of a manifest: over its JSON without `mac`, in the order its fields were written (and read back). */
export function manifestMac(manifest: Manifest, key: string): string {
  const { mac: _mac, ...signed } = manifest;
  return createHmac('sha256', key).update(JSON.stringify(signed)).digest('hex');
}

/** Printed by both commands when BACKUP_KEY is unset. */
export const UNSIGNED_WARNING =
  'WARNING: BACKUP_KEY is not set, so this manifest carries no MAC: a restore trusts whatever the backup store holds. Set BACKUP_KEY (kept outside the backup) to sign and check backups.';

export const NOT_COVERED = {
  mysql:
    'The database is MySQL/MariaDB: not in this backup. Dump it with `mysqldump --single-transaction --routines --triggers <database>` BEFORE running this command, so every photo the dump refers to is in the storage copy (README, "Backup and restore").',
  s3: 'Photos are in an S3 bucket: not in this backup. Turn on bucket versioning, or copy the bucket with `mc mirror` AFTER the database dump (README, "Backup and restore").',
} as const;

/** Progress lines; awaited, so a slow writer (or a test) holds the backup at that point. */
type Report = (line: string) => void | Promise<void>;

export interface BackupResult {
  manifest: Manifest;
  bytes: number;
  seconds: number;
}

/**
 * Backs up while the server runs. The order is what makes it consistent: removals from storage
 * are held first, then the database is copied at one moment, then storage is copied. Every object
 * that moment's database refers to was written before its row was committed (the upload writes
 * files, then rows), and none of them can be removed before it is copied (the hold), so all are
 * in the backup; objects written later may be there too and are simply unused.
 */
export async function backupDataFolder(settings: DataSettings, folder: string, report: Report = () => undefined): Promise<BackupResult> {
  const started = Date.now();
  const target = databaseTarget(settings.databaseUrl);
  const sqliteFile = target.dialect === 'sqlite' ? target.database : null;
  const storageRoot = settings.storage.kind === 'file' ? settings.storage.root : null;
  const notCovered = [...(sqliteFile ? [] : [NOT_COVERED.mysql]), ...(storageRoot ? [] : [NOT_COVERED.s3])];
  if (!sqliteFile && !storageRoot) throw new OpsError(`Nothing to back up here.\n${notCovered.join('\n')}`);
  if (sqliteFile === ':memory:') throw new OpsError('DATABASE_URL is an in-memory database: there is nothing on disk to back up.');
  if (sqliteFile && !(await exists(sqliteFile))) throw new OpsError(`No database at ${sqliteFile}: check DATABASE_URL (the server's own setting).`);

  const out = path.resolve(folder);
  for (const inside of [storageRoot, settings.dataDir]) {
    if (inside && isWithin(out, inside)) throw new OpsError(`The backup folder ${out} is inside ${inside}: put it outside the data folder.`);
  }
  if ((await filesUnder(out)).length > 0) throw new OpsError(`${out} is not empty: back up into a new or empty folder.`);
  await fs.mkdir(out, { recursive: true, mode: FOLDER_MODE });
  // A folder made beforehand keeps its own mode otherwise.
  await fs.chmod(out, FOLDER_MODE);
  await fs.mkdir(path.join(out, STORAGE_FOLDER), { recursive: true, mode: FOLDER_MODE });

  const hold = storageRoot ? await takeHold(createFileStorage(storageRoot).scratchDir) : null;
  try {
    // 1. The database, at one moment.
    const takenAt = new Date().toISOString();
    let database: ManifestEntry | null = null;
    if (sqliteFile) {
      const partial = path.join(out, `${DATABASE_FILE}.part`);
      const { pages } = await snapshotSqlite(sqliteFile, partial);
      await fs.chmod(partial, FILE_MODE);
      const check = integrityCheck(partial);
      if (check !== 'ok') throw new OpsError(`The database copy fails PRAGMA integrity_check: ${check}`);
      await fs.rename(partial, path.join(out, DATABASE_FILE));
      database = { path: DATABASE_FILE, ...(await hashFile(path.join(out, DATABASE_FILE))) };
      await report(`database: ${pages} pages, ${mb(database.size)}, integrity ok`);
    }

    // 2. Storage: every object there now, which includes every object the copy refers to.
    const objects: ManifestEntry[] = [];
    const missingBeforeBackup: string[] = [];
    if (storageRoot) {
      const store = createFileStorage(storageRoot);
      const keys: string[] = [];
      for await (const object of store.list()) keys.push(object.key);
      keys.sort();
      let shown = Date.now();
      await eachLimited(keys, COPIES_AT_ONCE, async (key) => {
        const entry = await copyObject(storageRoot, store.scratchDir, key, out);
        if (entry) objects.push(entry);
        if (Date.now() - shown > 2000) {
          shown = Date.now();
          await report(`storage: ${objects.length}/${keys.length}`);
        }
      });
      // An object the database refers to that the listing did not see (held since) is copied now.
      if (database) {
        const copied = new Set(objects.map((object) => object.path));
        for (const key of referencedKeys(path.join(out, DATABASE_FILE))) {
          if (copied.has(key)) continue;
          const entry = await copyObject(storageRoot, store.scratchDir, key, out);
          if (entry) objects.push(entry);
          else missingBeforeBackup.push(key);
        }
      }
      objects.sort((a, b) => a.path.localeCompare(b.path));
      await report(`storage: ${objects.length} objects, ${mb(objects.reduce((sum, o) => sum + o.size, 0))}`);
      if (missingBeforeBackup.length > 0) {
        await report(`WARNING: ${missingBeforeBackup.length} objects the database refers to were already missing from storage (Photos > Missing photos lists them): ${missingBeforeBackup.slice(0, 10).join(', ')}`);
      }
    }

    // 3. The generated signing secret, without which every session and gallery cookie would end.
    const files: ManifestEntry[] = [];
    const secret = path.join(settings.dataDir, SECRET_FILE);
    if (!settings.jwtSecretFromEnv && (await exists(secret))) {
      await fs.copyFile(secret, path.join(out, SECRET_FILE));
      await fs.chmod(path.join(out, SECRET_FILE), FILE_MODE);
      files.push({ path: SECRET_FILE, ...(await hashFile(path.join(out, SECRET_FILE))) });
    }

    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: 1,
      takenAt,
      finishedAt: new Date().toISOString(),
      database,
      objects,
      files,
      notCovered,
      missingBeforeBackup,
    };
    if (settings.backupKey) manifest.mac = { algorithm: MAC_ALGORITHM, value: manifestMac(manifest, settings.backupKey) };
    // Written last: a folder without a manifest is a backup that did not finish.
    await fs.writeFile(path.join(out, `${MANIFEST}.part`), `${JSON.stringify(manifest, null, 1)}\n`, { mode: FILE_MODE });
    await fs.rename(path.join(out, `${MANIFEST}.part`), path.join(out, MANIFEST));
    for (const line of notCovered) await report(`NOT COVERED: ${line}`);
    await report(settings.backupKey ? 'manifest signed with BACKUP_KEY' : UNSIGNED_WARNING);
    const bytes = (database?.size ?? 0) + objects.reduce((sum, o) => sum + o.size, 0);
    return { manifest, bytes, seconds: (Date.now() - started) / 1000 };
  } finally {
    await hold?.release();
  }
}

export interface RestoreResult {
  objects: number;
  bytes: number;
  seconds: number;
  notCovered: string[];
}

/**
 * Restores a backup into an empty data folder: the database file, the storage objects and the
 * signing secret, each checked against the manifest's size and SHA-256 as it is copied. A data
 * folder that holds anything (a live server's database, photos, secret) is refused, and a restore
 * that fails removes what it wrote, so it can simply be run again.
 */
export async function restoreDataFolder(settings: DataSettings, folder: string, report: Report = () => undefined): Promise<RestoreResult> {
  const started = Date.now();
  const from = path.resolve(folder);
  const manifest = await readManifest(from, settings.backupKey);
  if (!manifest.mac) await report(UNSIGNED_WARNING);
  const target = databaseTarget(settings.databaseUrl);
  const storageRoot = settings.storage.kind === 'file' ? settings.storage.root : null;
  if (manifest.database && target.dialect !== 'sqlite') throw new OpsError('The backup holds an SQLite database but DATABASE_URL names MySQL/MariaDB: restore with the embedded settings.');
  if (target.dialect === 'sqlite' && target.database === ':memory:') throw new OpsError('DATABASE_URL is an in-memory database: restore into a file.');
  if (manifest.objects.length > 0 && !storageRoot) throw new OpsError('The backup holds storage objects but STORAGE_URL names a bucket: restore into a folder, then `npm run storage:migrate`.');

  // Refuse anything but an empty data folder: a live server's files are never overwritten.
  const dbFile = manifest.database ? target.database : null;
  const occupied = [
    ...(dbFile ? (await Promise.all(['', '-wal', '-shm', '-journal'].map(async (s) => ((await exists(`${dbFile}${s}`)) ? [`${dbFile}${s}`] : [])))).flat() : []),
    ...(storageRoot ? await filesUnder(storageRoot) : []),
    ...(await filesUnder(settings.dataDir)),
  ];
  if (occupied.length > 0) {
    throw new OpsError(`Refusing to restore: the data folder is not empty (${occupied.length} files, e.g. ${occupied[0]}). Restore only into an empty data folder, with the server stopped.`);
  }

  const written: string[] = [];
  try {
    // The database first checked in the backup (size, hash, integrity), written last.
    if (manifest.database) {
      const file = await insideBackup(from, manifest.database.path);
      await verifyFile(file, manifest.database);
      await assertProductDatabase(file);
      const check = integrityCheck(file);
      if (check !== 'ok') throw new OpsError(`The backup's database fails PRAGMA integrity_check: ${check}`);
    }
    let bytes = 0;
    if (storageRoot) {
      let done = 0;
      let shown = Date.now();
      await eachLimited(manifest.objects, COPIES_AT_ONCE, async (object) => {
        const to = path.join(storageRoot, ...safeKey(object.path).split('/'));
        await copyVerified(await insideBackup(from, `${STORAGE_FOLDER}/${object.path}`), to, object, written);
        bytes += object.size;
        done += 1;
        if (Date.now() - shown > 2000) {
          shown = Date.now();
          await report(`storage: ${done}/${manifest.objects.length}`);
        }
      });
      await report(`storage: ${manifest.objects.length} objects verified, ${mb(bytes)}`);
    }
    for (const file of manifest.files) {
      if (file.path !== SECRET_FILE) throw new OpsError(`The manifest names an unknown file: ${file.path}`);
      if (settings.jwtSecretFromEnv) continue;
      await copyVerified(await insideBackup(from, file.path), path.join(settings.dataDir, SECRET_FILE), file, written);
    }
    if (manifest.database && dbFile) {
      await copyVerified(await insideBackup(from, manifest.database.path), dbFile, manifest.database, written);
      bytes += manifest.database.size;
      if (storageRoot) {
        const restored = new Set(manifest.objects.map((object) => object.path));
        const absent = referencedKeys(dbFile).filter((key) => !restored.has(key) && !manifest.missingBeforeBackup.includes(key));
        if (absent.length > 0) throw new OpsError(`The backup lacks ${absent.length} objects its database refers to, e.g. ${absent[0]}`);
      }
      await report(`database: ${mb(manifest.database.size)} verified`);
    }
    if (manifest.missingBeforeBackup.length > 0) {
      await report(`WARNING: ${manifest.missingBeforeBackup.length} objects were already missing when the backup was taken (Photos > Missing photos lists them).`);
    }
    for (const line of manifest.notCovered) await report(`NOT COVERED: ${line}`);
    return { objects: manifest.objects.length, bytes, seconds: (Date.now() - started) / 1000, notCovered: manifest.notCovered };
  } catch (err) {
    // The target was empty: everything in it now is ours.
    await Promise.all(written.map((file) => fs.rm(file, { force: true })));
    throw err;
  }
}

/**
 * The manifest, checked for shape, its MAC (under BACKUP_KEY) and every path it names, which must
 * stay inside the backup; an absent one is a backup that never finished.
 */
export async function readManifest(folder: string, key: string | null = null): Promise<Manifest> {
  let text: string;
  try {
    text = await fs.readFile(path.join(folder, MANIFEST), 'utf8');
  } catch {
    throw new OpsError(`${folder} has no ${MANIFEST}: it is not a backup, or one that did not finish.`);
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new OpsError(`${MANIFEST} in ${folder} is not valid JSON.`);
  }
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== 1 || !Array.isArray(manifest.objects) || !Array.isArray(manifest.files)) {
    throw new OpsError(`${MANIFEST} in ${folder} is not a backup of this product (format ${BACKUP_FORMAT}, version 1).`);
  }
  checkMac(manifest, folder, key);
  manifest.missingBeforeBackup ??= [];
  manifest.notCovered ??= [];
  checkPaths(manifest);
  return manifest;
}

function checkMac(manifest: Manifest, folder: string, key: string | null): void {
  const mac = manifest.mac as unknown;
  if (mac === undefined) {
    if (key) throw new OpsError(`${MANIFEST} in ${folder} is not signed, but BACKUP_KEY is set: refusing a backup whose origin cannot be checked. (Unset BACKUP_KEY only if you trust where this backup was kept.)`);
    return;
  }
  if (!key) throw new OpsError(`${MANIFEST} in ${folder} is signed: set BACKUP_KEY to the key the backup was made with.`);
  const value = (mac as { algorithm?: unknown; value?: unknown } | null)?.value;
  const algorithm = (mac as { algorithm?: unknown } | null)?.algorithm;
  const expected = Buffer.from(manifestMac(manifest, key), 'hex');
  const given = typeof value === 'string' && /^[0-9a-f]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.alloc(0);
  if (algorithm !== MAC_ALGORITHM || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new OpsError(`${MANIFEST} in ${folder} does not match its MAC under BACKUP_KEY: the backup was changed, or made with another key. Nothing was restored.`);
  }
}

const isEntry = (entry: unknown): entry is ManifestEntry => {
  const e = entry as ManifestEntry | null;
  return typeof e === 'object' && e !== null && typeof e.path === 'string' && Number.isSafeInteger(e.size) && e.size >= 0 && typeof e.sha256 === 'string' && /^[0-9a-f]{64}$/.test(e.sha256);
};

/** Every path the manifest names is one this command writes, so none can point outside the backup. */
function checkPaths(manifest: Manifest): void {
  if (manifest.database !== null && manifest.database !== undefined) {
    if (!isEntry(manifest.database) || manifest.database.path !== DATABASE_FILE) throw new OpsError(`The manifest names an invalid database file: ${String((manifest.database as { path?: unknown }).path)} (expected ${DATABASE_FILE}).`);
  } else {
    manifest.database = null;
  }
  for (const file of manifest.files) {
    if (!isEntry(file) || file.path !== SECRET_FILE) throw new OpsError(`The manifest names an unknown file: ${String((file as { path?: unknown } | null)?.path)}`);
  }
  for (const object of manifest.objects) {
    if (!isEntry(object)) throw new OpsError('The manifest lists an object without a path, size and SHA-256.');
    safeKey(object.path);
  }
  if (!Array.isArray(manifest.missingBeforeBackup) || !manifest.missingBeforeBackup.every((key) => typeof key === 'string')) throw new OpsError('The manifest\'s missingBeforeBackup is not a list of keys.');
  if (!Array.isArray(manifest.notCovered) || !manifest.notCovered.every((line) => typeof line === 'string')) throw new OpsError('The manifest\'s notCovered is not a list of lines.');
}

/**
 * A path the manifest names, as a file of the backup folder: refused when it, or a link on the way
 * to it, leads outside the folder. A file that is not there is returned as is (its copy says so).
 */
async function insideBackup(root: string, relative: string): Promise<string> {
  const file = path.join(root, ...relative.split('/'));
  if (!isWithin(file, root) || file === root) throw new OpsError(`The manifest names a path outside the backup: ${relative}`);
  let real: string;
  try {
    real = await fs.realpath(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return file;
    throw err;
  }
  if (!isWithin(real, await fs.realpath(root))) throw new OpsError(`${relative} in the backup leads outside it (a link to ${real}): refusing it.`);
  return real;
}

/**
 * The backup's database must be an SQLite database of this product, at a version this code knows:
 * anything else is refused with a message, before anything is written.
 */
async function assertProductDatabase(file: string): Promise<void> {
  const identity = databaseIdentity(file, FIRST_MIGRATION);
  if (identity.kind === 'not-sqlite') throw new OpsError(`The backup's ${DATABASE_FILE} is not an SQLite database: this is not a backup of this product.`);
  if (identity.kind === 'foreign') throw new OpsError(`The backup's ${DATABASE_FILE} is an SQLite database, but not one of this product (it has no ${FIRST_MIGRATION} migration): refusing to restore it.`);
  const known = new Set(await migrationSource.getMigrations([]));
  const unknown = identity.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new OpsError(`The backup's database was made by a newer version of this product (migration ${unknown[0]} is unknown here): restore it with that version.`);
  }
}

/** Every object key a database file refers to: each photo's original and renditions, example images. */
function referencedKeys(databaseFile: string): string[] {
  const { photos, exampleImages } = readStorageReferences(databaseFile);
  const keys: string[] = [];
  for (const photo of photos) {
    const ext = EXTENSION_BY_MIME[photo.mimeType as AcceptedImageType] ?? 'bin';
    keys.push(
      objectKey('originals', photo.storageKey, ext),
      objectKey('thumbnails', photo.storageKey, 'webp'),
      objectKey('small-thumbnails', photo.storageKey, 'webp'),
      objectKey('previews', photo.storageKey, 'webp'),
    );
  }
  for (const name of exampleImages) keys.push(exampleKey(name));
  return keys;
}

/** Copies one object into the backup, hashing it on the way; null when it is gone (and not held). */
async function copyObject(root: string, scratchDir: string, key: string, out: string): Promise<ManifestEntry | null> {
  const to = path.join(out, STORAGE_FOLDER, ...safeKey(key).split('/'));
  await fs.mkdir(path.dirname(to), { recursive: true, mode: FOLDER_MODE });
  for (const from of [path.join(root, ...key.split('/')), heldPath(scratchDir, key)]) {
    try {
      return { path: key, ...(await copyHashed(from, to)) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return null;
}

/** Copies a file whole, returning the size and SHA-256 of exactly the bytes written. */
async function copyHashed(from: string, to: string): Promise<{ size: number; sha256: string }> {
  const handle = await fs.open(from, 'r');
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(handle.createReadStream({ highWaterMark: 1024 * 1024 }), tap, createWriteStream(to, { mode: FILE_MODE }));
  return { size, sha256: hash.digest('hex') };
}

/** Copies into place through a temporary name, and only when size and SHA-256 match the manifest. */
async function copyVerified(from: string, to: string, expected: ManifestEntry, written: string[]): Promise<void> {
  await fs.mkdir(path.dirname(to), { recursive: true });
  const temp = `${to}.${randomBytes(6).toString('hex')}.part`;
  written.push(temp);
  let got: { size: number; sha256: string };
  try {
    got = await copyHashed(from, temp);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new OpsError(`The backup lacks ${expected.path}, which its manifest lists.`);
    throw err;
  }
  if (got.size !== expected.size || got.sha256 !== expected.sha256) {
    throw new OpsError(`${expected.path} does not match the manifest (size ${got.size} for ${expected.size}, or its SHA-256 differs): the backup is damaged.`);
  }
  await fs.rename(temp, to);
  written.push(to);
}

async function verifyFile(file: string, expected: ManifestEntry): Promise<void> {
  let got: { size: number; sha256: string };
  try {
    got = await hashFile(file);
  } catch {
    throw new OpsError(`The backup lacks ${expected.path}, which its manifest lists.`);
  }
  if (got.size !== expected.size || got.sha256 !== expected.sha256) throw new OpsError(`${expected.path} does not match the manifest: the backup is damaged.`);
}

async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** A key from a manifest, refused when it could climb out of the storage folder. */
function safeKey(key: string): string {
  if (!/^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new OpsError(`The manifest names an invalid object key: ${key}`);
  }
  return key;
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => !entry.isDirectory()).map((entry) => path.join(entry.parentPath, entry.name));
}

function isWithin(child: string, parent: string): boolean {
  const relative = path.relative(path.resolve(parent), child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Runs `work` on the items, `limit` at a time. The first failure stops the others from taking
 * more, and is thrown only once every copy under way has ended, so a cleanup after it sees every
 * file written.
 */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const results = await Promise.allSettled(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (!failed && next < items.length) {
        try {
          await work(items[next++] as T);
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    }),
  );
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

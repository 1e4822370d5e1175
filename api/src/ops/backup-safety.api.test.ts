import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB, startTestServer, staffClient, type TestServer } from '../../test/harness';
import { insertSchoolAndAlbum } from '../photos/photos.test-helpers';
import { runCli, uploadForm } from '../../test/live-shop';
import { manifestMac, readManifest, restoreDataFolder, type DataSettings, type Manifest } from './backup.service';

const KEY = 'backup-key-for-tests-0123456789-abcdef';
const OTHER_KEY = 'another-backup-key-0123456789-abcdefgh';

/**
 * What a backup may be trusted with (docs/operations.md, "Backup and restore"): only its owner reads
 * it, its manifest is signed under BACKUP_KEY (kept outside it), every path the manifest names stays
 * inside it, and a restore refuses what is not this product's database with a sentence and exit 1.
 * The embedded default only: a MySQL database is backed up with mysqldump.
 */
const suite = TEST_DB === 'sqlite' ? describe : describe.skip;
suite('backup safety', () => {
  let server: TestServer;
  let root: string;
  let signed: string;
  let unsigned: string;
  let counter = 0;

  /** The server's own data settings, as the commands read them from the environment. */
  const env = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: server.config.databaseUrl,
    STORAGE_DIR: server.storageDir,
    DATA_DIR: server.config.dataDir,
    JWT_SECRET: server.config.jwtSecret,
    ...extra,
  });
  /** An empty data folder to restore into. */
  const target = (backupKey: string | null): DataSettings & { dir: string } => {
    const dir = path.join(root, `target-${++counter}`);
    return { dir, databaseUrl: `sqlite:${path.join(dir, 'app.sqlite')}`, storage: { kind: 'file', root: path.join(dir, 'storage') }, dataDir: dir, jwtSecretFromEnv: true, backupKey };
  };
  const targetEnv = (settings: { dir: string }, extra: Record<string, string> = {}) => ({
    DATABASE_URL: `sqlite:${path.join(settings.dir, 'app.sqlite')}`,
    STORAGE_DIR: path.join(settings.dir, 'storage'),
    DATA_DIR: settings.dir,
    JWT_SECRET: server.config.jwtSecret,
    ...extra,
  });
  const filesIn = async (dir: string) => (await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])).filter((entry) => entry.isFile());
  /** A copy of a backup folder to spoil. */
  async function copyOf(folder: string): Promise<string> {
    const copy = path.join(root, `copy-${++counter}`);
    await fs.cp(folder, copy, { recursive: true });
    return copy;
  }
  const manifestOf = async (folder: string) => JSON.parse(await fs.readFile(path.join(folder, 'manifest.json'), 'utf8')) as Manifest;
  const writeManifest = (folder: string, manifest: Manifest) => fs.writeFile(path.join(folder, 'manifest.json'), JSON.stringify(manifest));
  const sha256 = async (file: string) => (await import('node:crypto')).createHash('sha256').update(await fs.readFile(file)).digest('hex');

  beforeAll(async () => {
    server = await startTestServer();
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'photos-backup-safety-'));
    const staff = await staffClient(server, 'admin');
    const { albumId } = await insertSchoolAndAlbum(server);
    expect((await staff.post('/api/photos/upload-batch', await uploadForm(albumId, 2))).status).toBe(201);
    signed = path.join(root, 'signed');
    const made = await runCli('api/src/ops/backup-cli.ts', [signed], env({ BACKUP_KEY: KEY }));
    expect(made.code, made.output).toBe(0);
    expect(made.output).toContain('manifest signed with BACKUP_KEY');
    unsigned = path.join(root, 'unsigned');
    const plain = await runCli('api/src/ops/backup-cli.ts', [unsigned], env());
    expect(plain.code, plain.output).toBe(0);
    expect(plain.output).toContain('BACKUP_KEY is not set');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('writes folders 0700 and files 0600, even into a folder made beforehand', async () => {
    const made = path.join(root, 'premade');
    await fs.mkdir(made, { mode: 0o755 });
    await fs.chmod(made, 0o755);
    const run = await runCli('api/src/ops/backup-cli.ts', [made], env({ BACKUP_KEY: KEY }));
    expect(run.code, run.output).toBe(0);
    for (const folder of [signed, made]) {
      expect((await fs.stat(folder)).mode & 0o777).toBe(0o700);
      const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true });
      expect(entries.filter((entry) => entry.isFile()).length).toBeGreaterThan(8);
      for (const entry of entries) {
        const mode = (await fs.stat(path.join(entry.parentPath, entry.name))).mode & 0o777;
        expect([entry.name, mode.toString(8)]).toEqual([entry.name, entry.isDirectory() ? '700' : '600']);
      }
    }
  });

  it('signs the manifest under BACKUP_KEY and restores it only under the same key', async () => {
    const manifest = await manifestOf(signed);
    expect(manifest.mac).toEqual({ algorithm: 'HMAC-SHA256', value: manifestMac(manifest, KEY) });

    const wrong = target(OTHER_KEY);
    const refused = await runCli('api/src/ops/restore-cli.ts', [signed], targetEnv(wrong, { BACKUP_KEY: OTHER_KEY }));
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('does not match its MAC under BACKUP_KEY');
    expect(refused.output).not.toMatch(/\n\s+at /);
    expect(await filesIn(wrong.dir)).toEqual([]);

    await expect(restoreDataFolder(target(null), signed)).rejects.toThrow('is signed: set BACKUP_KEY');

    // A manifest changed after the backup (here: an object's hash and size, to match a swapped file) is refused.
    const tampered = await copyOf(signed);
    const changed = await manifestOf(tampered);
    const object = changed.objects[0]!;
    const file = path.join(tampered, 'storage', ...object.path.split('/'));
    await fs.writeFile(file, 'not the photo');
    changed.objects[0] = { ...object, size: 13, sha256: await sha256(file) };
    await writeManifest(tampered, changed);
    await expect(restoreDataFolder(target(KEY), tampered)).rejects.toThrow('does not match its MAC');

    const good = target(KEY);
    const restored = await runCli('api/src/ops/restore-cli.ts', [signed], targetEnv(good, { BACKUP_KEY: KEY }));
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).not.toContain('BACKUP_KEY is not set');
  }, 60_000);

  it('restores an unsigned backup only without BACKUP_KEY, saying it trusts the backup store', async () => {
    await expect(restoreDataFolder(target(KEY), unsigned)).rejects.toThrow('is not signed, but BACKUP_KEY is set');
    const lines: string[] = [];
    await restoreDataFolder(target(null), unsigned, (line) => void lines.push(line));
    expect(lines.join('\n')).toContain('trusts whatever the backup store holds');
  });

  it('refuses a manifest path that leads outside the backup, before writing anything', async () => {
    const outside = path.join(root, 'outside');
    await fs.mkdir(outside, { recursive: true });
    const base = await manifestOf(unsigned);

    const climbing = await copyOf(unsigned);
    await fs.copyFile(path.join(unsigned, 'database.sqlite'), path.join(outside, 'database.sqlite'));
    await writeManifest(climbing, { ...base, database: { ...base.database!, path: '../outside/database.sqlite' } });
    const settings = target(null);
    const run = await runCli('api/src/ops/restore-cli.ts', [climbing], targetEnv(settings));
    expect(run.code).toBe(1);
    expect(run.output).toContain('The manifest names an invalid database file: ../outside/database.sqlite');
    expect(run.output).not.toMatch(/\n\s+at /);
    expect(await filesIn(settings.dir)).toEqual([]);

    const objectOut = await copyOf(unsigned);
    await writeManifest(objectOut, { ...base, objects: [...base.objects, { path: '../../outside/x', size: 1, sha256: 'a'.repeat(64) }] });
    await expect(restoreDataFolder(target(null), objectOut)).rejects.toThrow('invalid object key: ../../outside/x');

    await expect(
      restoreDataFolder(target(null), await (async () => {
        const folder = await copyOf(unsigned);
        await writeManifest(folder, { ...base, files: [{ path: '/etc/passwd', size: 1, sha256: 'a'.repeat(64) }] });
        return folder;
      })()),
    ).rejects.toThrow('unknown file: /etc/passwd');

    // A link inside the backup to a file outside it, even one with the expected bytes, is refused.
    const linked = await copyOf(unsigned);
    const object = base.objects[0]!;
    const inside = path.join(linked, 'storage', ...object.path.split('/'));
    await fs.copyFile(inside, path.join(outside, 'object'));
    await fs.rm(inside);
    await fs.symlink(path.join(outside, 'object'), inside);
    const linkTarget = target(null);
    await expect(restoreDataFolder(linkTarget, linked)).rejects.toThrow('leads outside it');
    expect(await filesIn(linkTarget.dir)).toEqual([]);
  }, 60_000);

  it('refuses a database that is not this product\'s, or of a newer version, with a sentence and exit 1', async () => {
    const base = await manifestOf(unsigned);
    /** The unsigned backup with its database replaced by `write`, the manifest's size and hash updated to match. */
    async function withDatabase(write: (file: string) => Promise<void> | void): Promise<string> {
      const folder = await copyOf(unsigned);
      const file = path.join(folder, 'database.sqlite');
      await fs.rm(file);
      await write(file);
      await writeManifest(folder, { ...base, database: { path: 'database.sqlite', size: (await fs.stat(file)).size, sha256: await sha256(file) } });
      return folder;
    }

    const foreign = await withDatabase((file) => {
      const db = new Database(file);
      db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER)');
      db.close();
    });
    const settings = target(null);
    const run = await runCli('api/src/ops/restore-cli.ts', [foreign], targetEnv(settings));
    expect(run.code).toBe(1);
    expect(run.output).toContain("is an SQLite database, but not one of this product");
    expect(run.output).not.toMatch(/\n\s+at /);
    expect(run.output).not.toContain('SqliteError');
    expect(await filesIn(settings.dir)).toEqual([]);

    const garbage = await withDatabase((file) => fs.writeFile(file, Buffer.alloc(8192, 7)));
    const notDb = await runCli('api/src/ops/restore-cli.ts', [garbage], targetEnv(target(null)));
    expect(notDb.code).toBe(1);
    expect(notDb.output).toContain('is not an SQLite database');
    expect(notDb.output).not.toMatch(/\n\s+at /);

    const newer = await withDatabase(async (file) => {
      await fs.copyFile(path.join(unsigned, 'database.sqlite'), file);
      const db = new Database(file);
      db.prepare('INSERT INTO knex_migrations (name, batch, migration_time) VALUES (?, 99, 0)').run('29991231000000_from_the_future');
      db.close();
    });
    await expect(restoreDataFolder(target(null), newer)).rejects.toThrow('newer version of this product (migration 29991231000000_from_the_future');

    // The manifest's own checks run whatever is asked of it.
    await expect(readManifest(foreign)).resolves.toMatchObject({ format: 'school-photos-backup' });
  }, 90_000);
});

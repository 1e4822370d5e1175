/**
 * `npm run build:server`: compiles the server and its command-line tools into dist/ with esbuild,
 * so production runs plain `node` on JavaScript (docs/operations.md, "The compiled server").
 * Packages stay in node_modules (imported, not bundled): native ones (sharp, better-sqlite3,
 * argon2) and those that read their own files at run time (pdfkit, the DejaVu fonts) work as they
 * do under tsx. Migrations are imported by db/migrations/index.ts, so they are part of the bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');

/**
 * What dist/ holds: the server, and the tools an operator runs inside the image. The card scan's
 * worker thread is an entry of its own, at the top of dist/, where the bundled code that starts it
 * looks for it (api/src/media/card-scan-thread.ts).
 */
export const SERVER_ENTRIES = {
  server: 'api/src/server.ts',
  'card-scan-worker': 'api/src/media/card-scan.worker.ts',
  'cli/migrate': 'api/src/db/migrate-cli.ts',
  'cli/create-admin': 'api/src/staff/create-admin-cli.ts',
  'cli/storage-migrate': 'api/src/storage/migrate-cli.ts',
  'cli/media-backfill': 'api/src/photos/backfill-cli.ts',
  'cli/backup': 'api/src/ops/backup-cli.ts',
  'cli/restore': 'api/src/ops/restore-cli.ts',
} as const;

/** The files the compiled output is made from: dist/ is stale when any of them is newer. */
export const SERVER_SOURCES = ['api/src', 'api/contract', 'db', 'package.json', 'scripts/build-server.ts'];

/**
 * Builds into a fresh folder beside dist/ and then swaps it in, so a server starting meanwhile (or
 * a second build, e.g. two test runs) never finds dist/ half written.
 */
export async function buildServer(): Promise<void> {
  const outdir = path.join(root, 'dist');
  const fresh = path.join(root, `.dist-${process.pid}`);
  fs.rmSync(fresh, { recursive: true, force: true });
  try {
    await build({
      absWorkingDir: root,
      entryPoints: SERVER_ENTRIES,
      outdir: fresh,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      packages: 'external',
      // Stack traces name the TypeScript files and lines (node --enable-source-maps).
      sourcemap: true,
      logLevel: 'warning',
      chunkNames: 'chunks/[name]-[hash]',
    });
    const old = path.join(root, `.dist-old-${process.pid}`);
    if (fs.existsSync(outdir)) fs.renameSync(outdir, old);
    fs.renameSync(fresh, outdir);
    fs.rmSync(old, { recursive: true, force: true });
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const started = Date.now();
  await buildServer();
  const tools = Object.keys(SERVER_ENTRIES).filter((name) => name.startsWith('cli/')).length;
  console.log(`dist/: the server, its card scan worker and ${tools} tools compiled in ${Date.now() - started} ms`);
}

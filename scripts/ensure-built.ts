/**
 * Runs before the server in `npm start`: builds what is missing or older than its sources, so
 * `npm install && npm start` runs the current product. The PWA (pwa/dist) is built with
 * `npm run build`, which compiles the server too; when only the server's sources changed, only the
 * server is compiled (about a second). See docs/operations.md, "The compiled server".
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { SERVER_SOURCES, buildServer } from './build-server';

const root = path.resolve(import.meta.dirname, '..');
const pwaSources = ['pwa/src', 'pwa/index.html', 'pwa/manifest.ts', 'pwa/prerender-plugin.ts', 'pwa/public/favicon.svg', 'api/contract', 'vite.config.ts', 'scripts/precompress.ts'];

function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(target).reduce((max, name) => Math.max(max, newestMtime(path.join(target, name))), stat.mtimeMs);
}

/** 'missing', 'stale' or null (up to date) for an output built from these sources. */
function staleness(output: string, sources: string[]): 'missing' | 'stale' | null {
  const built = fs.statSync(path.join(root, output), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built === 0) return 'missing';
  return Math.max(...sources.map((source) => newestMtime(path.join(root, source)))) > built ? 'stale' : null;
}

const pwa = staleness('pwa/dist/index.html', pwaSources);
const server = staleness('dist/server.js', SERVER_SOURCES);
if (pwa) {
  console.warn(pwa === 'missing' ? 'pwa/dist is missing: building the PWA and the server…' : 'PWA sources changed: rebuilding the PWA and the server…');
  // Test runners set NODE_ENV=test, which would make Vite emit React's development build.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', env, shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
} else if (server) {
  console.warn(server === 'missing' ? 'dist/ is missing: compiling the server…' : 'server sources changed: compiling the server…');
  await buildServer();
}

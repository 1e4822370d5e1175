/**
 * Runs before the server in `npm start`: builds the PWA when pwa/dist is missing or older than any
 * source under pwa/ (or the contract it imports), so `npm install && npm start` shows the product.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const distIndex = path.resolve('pwa/dist/index.html');
const sources = ['pwa/src', 'pwa/index.html', 'pwa/manifest.ts', 'pwa/prerender-plugin.ts', 'pwa/public/favicon.svg', 'api/contract', 'vite.config.ts', 'scripts/precompress.ts'];

function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(target).reduce((max, name) => Math.max(max, newestMtime(path.join(target, name))), stat.mtimeMs);
}

const built = fs.statSync(distIndex, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const changed = Math.max(...sources.map((source) => newestMtime(path.resolve(source))));
if (built === 0 || changed > built) {
  console.warn(built === 0 ? 'pwa/dist is missing: building the PWA…' : 'PWA sources changed: rebuilding…');
  // Test runners set NODE_ENV=test, which would make Vite emit React's development build.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env, shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

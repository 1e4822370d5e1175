/** Builds the PWA (and the compiled server) once when missing or stale, so the server serves the current app. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-built.ts'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('Building the PWA for the e2e journeys failed');
}

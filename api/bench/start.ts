/**
 * Start-time benchmark (`npm run bench:start`): how long the server takes from the process's spawn
 * to its first answer (`GET /api/health` 200), run from the TypeScript sources through tsx (how
 * production ran before the compiled server) and as `npm start` and the image run it now, plain
 * node on dist/ (docs/operations.md, "The compiled server"). Both start on the same SQLite database,
 * already migrated by a first, unmeasured start, so the figure is a restart's (a deploy, a crash,
 * a scale-up), not a first install's. The two alternate for BENCH_RUNS rounds (5); the medians are
 * compared, with the resident memory right after the first answer.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { benchEnv, freePort, memoryOf, stop } from './server-process';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ROOT = path.resolve(import.meta.dirname, '../..');

const VARIANTS = {
  'tsx api/src/server.ts': ['--import', 'tsx', 'api/src/server.ts'],
  'node dist/server.js': ['--enable-source-maps', 'dist/server.js'],
} as const;
type Variant = keyof typeof VARIANTS;

/** Spawns the server and polls /api/health every 5 ms: milliseconds to the first 200, and the memory then. */
async function startOnce(variant: Variant, env: Record<string, string> & { PUBLIC_URL: string }): Promise<{ ms: number; rssMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...VARIANTS[variant]], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', MALLOC_ARENA_MAX: '2', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${variant} exited with code ${child.exitCode}`);
      if (performance.now() - started > 60_000) throw new Error(`${variant} did not answer within 60 s`);
      const ok = await fetch(`${env.PUBLIC_URL}/api/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) {
        const ms = performance.now() - started;
        return { ms, rssMb: child.pid ? (await memoryOf(child.pid)).rssMb : 0 };
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    await stop(child);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const at = (index: number) => sorted[index] ?? Number.NaN;
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
};

const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { cwd: ROOT, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'photos-bench-start-'));
try {
  const env = benchEnv(dir, await freePort());
  // Migrates the database (and warms tsx's transform cache, as any second start finds it).
  await startOnce('tsx api/src/server.ts', env);
  const results: Record<Variant, { ms: number[]; rssMb: number[] }> = {
    'tsx api/src/server.ts': { ms: [], rssMb: [] },
    'node dist/server.js': { ms: [], rssMb: [] },
  };
  for (let run = 1; run <= RUNS; run++) {
    for (const variant of Object.keys(VARIANTS) as Variant[]) {
      const { ms, rssMb } = await startOnce(variant, env);
      results[variant].ms.push(ms);
      results[variant].rssMb.push(rssMb);
      console.log(`run ${run} ${variant}: ${ms.toFixed(0)} ms, ${rssMb.toFixed(0)} MB resident`);
    }
  }
  console.log(`\nstart to first answer, median of ${RUNS} (a migrated SQLite database, NODE_ENV=production):`);
  for (const [variant, { ms, rssMb }] of Object.entries(results)) {
    console.log(`  ${variant.padEnd(24)} ${median(ms).toFixed(0).padStart(6)} ms   ${median(rssMb).toFixed(0).padStart(4)} MB resident   (runs: ${ms.map((value) => value.toFixed(0)).join(', ')} ms)`);
  }
  const before = median(results['tsx api/src/server.ts'].ms);
  const after = median(results['node dist/server.js'].ms);
  console.log(`  compiled: ${(before - after).toFixed(0)} ms sooner (${((after / before) * 100).toFixed(0)} % of the tsx start)`);
} finally {
  await fs.rm(dir, { recursive: true, force: true });
}

/** Helpers for benchmarks that run the server as its own process and watch it. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import fs from 'node:fs/promises';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { createKnex, createMysqlDatabase, databaseTarget, dropMysqlDatabase } from '../src/db/knex';
import { SERVER_PROCESS_ENV } from '../src/process-env';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * The checkout whose server is started: this one, or BENCH_SERVER_ROOT=<checkout> (the code before
 * a change, measured by this benchmark's client right before the change's own figures).
 */
const SERVER_ROOT = process.env.BENCH_SERVER_ROOT ? path.resolve(process.env.BENCH_SERVER_ROOT) : ROOT;
let compiled = false;

/**
 * Starts the server as `npm start` runs it: the compiled dist/server.js (compiled first, once a
 * run, from the current sources) under `node --enable-source-maps` with MALLOC_ARENA_MAX=2, what a
 * deployment runs (docs/operations.md, "The compiled server"). `nodeOptions` go before the script
 * (a CPU profile); `env` overrides this process's own, which the server inherits unless
 * `inheritEnv` is false. The child is node itself, so its /proc figures are the server's.
 */
export function startCompiledServer(
  env: Record<string, string>,
  options: { nodeOptions?: string[]; inheritEnv?: boolean; stdout?: 'inherit' | 'ignore' } = {},
): ChildProcess {
  if (!compiled) {
    const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { cwd: SERVER_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (built.status !== 0) throw new Error('compiling the server failed (npm run build:server)');
    compiled = true;
  }
  const inherited = options.inheritEnv === false ? { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } : process.env;
  return spawn(process.execPath, [...(options.nodeOptions ?? []), '--enable-source-maps', 'dist/server.js'], {
    cwd: SERVER_ROOT,
    env: { ...SERVER_PROCESS_ENV, ...inherited, ...env },
    stdio: ['ignore', options.stdout ?? 'inherit', 'inherit'],
  });
}

/** `node --cpu-prof` into BENCH_CPU_PROF=<dir> when it is set: one profile per server start. */
export function profileOptions(): string[] {
  return process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_CPU_PROF)] : [];
}

/** Resolves once the server answers /api/health; fails if it exits or takes over 60 s. */
export async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not become healthy within 60 s');
}

/** The process's peak (VmHWM) and current (VmRSS) resident memory in MB, from /proc. */
export async function memoryOf(pid: number): Promise<{ hwmMb: number; rssMb: number }> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { hwmMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}

/** CPU seconds (user + system) a process has used so far, all its threads, from /proc. */
export async function cpuSecondsOf(pid: number): Promise<number> {
  const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of the line, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The JSON body of an answer; anything but a 2xx fails with the status and the body. */
export async function json<T>(res: Response): Promise<T> {
  const body = (await res.json()) as T;
  if (!res.ok) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** The benchmarks' administrator: production opens no registration, so the server makes it at start from these. */
export const BENCH_ADMIN = { email: 'bench@example.com', password: 'bench-password' };
export const BENCH_ADMIN_ENV = { INITIAL_ADMIN_EMAIL: BENCH_ADMIN.email, INITIAL_ADMIN_PASSWORD: BENCH_ADMIN.password };

/** Signs the benchmark's administrator in (a server started with BENCH_ADMIN_ENV) and resolves its bearer token. */
export async function loginBenchAdmin(url: string): Promise<string> {
  const { token } = await json<{ token: string }>(
    await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(BENCH_ADMIN) }),
  );
  return token;
}

/** A port nobody listens on now, for a server started next. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * The bucket of STORAGE_URL when it names one (with the S3_* settings as the server takes them):
 * the benchmarks then measure an S3 side beside the folder. Null for `file:` or unset.
 */
export function s3Settings(env: NodeJS.ProcessEnv = process.env): Record<string, string> | null {
  if (!env.STORAGE_URL?.startsWith('s3://')) return null;
  const names = ['STORAGE_URL', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'];
  return {
    ...Object.fromEntries(names.flatMap((name) => (env[name] ? [[name, env[name]]] : []))),
    // A production process on a bucket must name a mail server; the benchmarks send no mail.
    SMTP_URL: 'smtp://127.0.0.1:9',
  };
}

/**
 * The environment of a benchmark's server: its own port, data folder, SQLite file and storage
 * under `dir`, no demo data, a fresh secret, production mode; `extra` overrides any of it.
 */
export function benchEnv(dir: string, port: number, extra: Record<string, string> = {}): Record<string, string> & { PUBLIC_URL: string } {
  return {
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dir,
    STORAGE_DIR: path.join(dir, 'storage'),
    DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}`,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    // Every simulated parent orders from this one machine: the per-client order limit would stop the run.
    ORDER_LIMIT_PER_CLIENT: '100000',
    JWT_SECRET: randomBytes(32).toString('base64url'),
    NODE_ENV: 'production',
    // Production starts only with PayGate credentials; these benchmarks take no payments (a
    // benchmark that pays runs in development, on the built-in sandbox).
    ...(extra.NODE_ENV && extra.NODE_ENV !== 'production' ? {} : { PAYGATE_ID: '1000000001', PAYGATE_SECRET: randomBytes(12).toString('hex') }),
    ...extra,
  };
}

/** Stops a server process (SIGTERM) and waits until it has exited. */
export async function stop(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Whether a MySQL/MariaDB server answers at `url`: the benches that use one skip it with a notice when none does. */
export async function mysqlReachable(url: string): Promise<boolean> {
  const knex = createKnex(databaseTarget(url));
  try {
    await knex.raw('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await knex.destroy();
  }
}

/** Polls `done` every 20 ms until it holds, or throws after `timeoutMs`. */
export async function waitFor(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A benchmark's own folder and empty database: a SQLite file in the folder, or with `mysqlServer`
 * a new database on that server. `drop` removes both.
 */
export async function benchDatabase(prefix: string, mysqlServer: string | null): Promise<{ dir: string; databaseUrl: string; drop(): Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  let mysqlName: string | null = null;
  let databaseUrl = `sqlite:${path.join(dir, 'bench.sqlite')}`;
  if (mysqlServer) {
    mysqlName = `bench_${randomBytes(5).toString('hex')}`;
    await createMysqlDatabase(mysqlServer, mysqlName);
    const url = new URL(mysqlServer);
    url.pathname = `/${mysqlName}`;
    databaseUrl = url.toString();
  }
  return {
    dir,
    databaseUrl,
    async drop() {
      if (mysqlServer && mysqlName) await dropMysqlDatabase(mysqlServer, mysqlName);
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

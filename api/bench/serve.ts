/**
 * Image serving benchmark: the 40 photos of one class fetched through the image endpoints with a
 * real gallery cookie, against a bare Node `http.createServer` + `fs.createReadStream` sending the
 * very same files, in the same run, with autocannon at the same load (64 connections, 10 s per
 * measurement after a short warm-up). Three kinds, each against its own files on the bare server:
 * thumbnails (`/api/images/{id}/thumbnail`), small thumbnails (`?size=small`) and previews
 * (`/api/images/{id}/watermarked`), with the cookie of a family that unlocked the school with its
 * password; and thumbnails once more with the cookie of a family that gave a child's code (the
 * photos are that child's). Both servers run as their own processes; the sides alternate for
 * BENCH_ROUNDS rounds (3) and the medians are compared. Prints requests/s, p50/p99 latency, the
 * ratio API/bare of requests/s (target >= 0.8) and of p99 (target <= 2) for each
 * (docs/performance.md, "Serving images").
 *
 * BENCH_CPU_PROF=<dir> starts the API with `node --cpu-prof` and writes its profile there (open it
 * in Chrome DevTools or speedscope) to see where the time goes.
 *
 * STORAGE_URL=s3://bucket/prefix (with S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY,
 * S3_FORCE_PATH_STYLE as the server takes them) adds a third side: the same class stored in that
 * bucket and served by another API process, measured in the same rounds and printed beside the
 * folder's figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { buildRuntime } from '../src/bootstrap';
import { insertedId } from '../src/db/knex';
import { hashPassword } from '../src/http/passwords';
import { generateDemoPhoto } from '../src/media/generate';
import { createStorage } from '../src/media/storage';
import { createPhotoRepository } from '../src/photos/photos.repository';
import { newStudentCode } from '../src/students/student-code';
import { bareFileServer } from './bare';
import { benchEnv, freePort, memoryOf, s3Settings, stop, waitForHealth, startCompiledServer } from './server-process';

const PHOTOS = 40;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SCHOOL_PASSWORD = 'bench-school-1';
const RPS_TARGET = 0.8;
const P99_TARGET = 2;
/** The renditions measured: the folder each is stored in and the API path of a photo's. */
const KINDS = [
  { name: 'thumbnails', folder: 'thumbnails', path: (id: number) => `/api/images/${id}/thumbnail` },
  { name: 'small thumbnails', folder: 'small-thumbnails', path: (id: number) => `/api/images/${id}/thumbnail?size=small` },
  { name: 'previews', folder: 'previews', path: (id: number) => `/api/images/${id}/watermarked` },
] as const;
type Kind = (typeof KINDS)[number];
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Prepared {
  env: Record<string, string>;
  url: string;
  albumId: number;
  /** The child whose photos these are, and their code. */
  studentCode: string;
  /** Each kind's files on disk, in photo id order. */
  files: Record<Kind['folder'], string[]>;
  sizes: Record<Kind['folder'], number[]>;
}

/**
 * One school behind its password with a class of 40 photos, stored as an upload stores them, all
 * of one child (so the child's code shows all 40 too).
 */
async function prepare(dir: string, storageEnv: Record<string, string> = { STORAGE_URL: 'file:' }): Promise<Prepared> {
  const port = await freePort();
  const env = benchEnv(dir, port, storageEnv);
  const config = loadConfig(env, dir);
  const runtime = await buildRuntime(config, createLogger('warn'));
  try {
    const { knex, media } = runtime;
    const at = Date.now();
    const schoolId = insertedId(
      await knex('schools').insert({ name: 'Bench Primary School', slug: 'bench-primary', password_hash: await hashPassword(SCHOOL_PASSWORD), contact_email: 'office@bench.example', created_at: at }),
    );
    const albumId = insertedId(await knex('albums').insert({ school_id: schoolId, name: 'Class 4B', password_hash: null, created_at: at }));
    const photos = createPhotoRepository(knex);
    const storage = createStorage(config.storageDir);
    const studentCode = newStudentCode();
    const studentId = insertedId(await knex('students').insert({ album_id: albumId, name: 'Bench Child', code: studentCode, do_not_publish: false, created_at: at, updated_at: at }));
    const files: Prepared['files'] = { thumbnails: [], 'small-thumbnails': [], previews: [] };
    for (let i = 0; i < PHOTOS; i++) {
      const upload = path.join(media.tmpDir, `bench-${i}.jpg`);
      await fs.writeFile(upload, await generateDemoPhoto({ seed: 500 + i, label: `Student ${i + 1}`, width: 1800, height: 2400 }));
      const stored = await media.ingestPhoto({ path: upload, originalName: `IMG_${1000 + i}.JPG`, size: 0 });
      await photos.insertMany([{ albumId, originalName: `IMG_${1000 + i}.JPG`, originalNumber: String(1000 + i), stored }]);
      if (config.storage.kind === 'file') for (const kind of KINDS) files[kind.folder].push(storage.filePath(kind.folder, stored.storageKey, 'webp'));
    }
    await knex('photos').where({ album_id: albumId }).update({ student_id: studentId });
    const sizeOf = async (list: string[]) => Promise.all(list.map(async (file) => (await fs.stat(file)).size));
    const sizes = { thumbnails: await sizeOf(files.thumbnails), 'small-thumbnails': await sizeOf(files['small-thumbnails']), previews: await sizeOf(files.previews) };
    return { env, url: env.PUBLIC_URL, albumId, studentCode, files, sizes };
  } finally {
    await runtime.close();
  }
}

/** The child is node itself (not an npx wrapper), so its /proc status is the server's memory. */
function startApi(env: Record<string, string>, profileDir: string | undefined): ChildProcess {
  // The compiled server as `npm start` runs it.
  return startCompiledServer(env, { nodeOptions: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [] });
}

/** The bare file server runs as its own process too, started by this file with `bare <port> <list>`. */
function startBare(port: number, listFile: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'bare', String(port), listFile], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
}

async function waitForBare(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`bare server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/0`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('bare server did not answer within 30 s');
}


/** Unlocks the school (or, given a code, the child) like a parent does and returns the cookie header the browser would send. */
async function galleryCookie(url: string, studentCode?: string): Promise<string> {
  const res = studentCode
    ? await fetch(`${url}/api/students/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: studentCode }) })
    : await fetch(`${url}/api/schools/bench-primary/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ password: SCHOOL_PASSWORD }) });
  if (!res.ok) throw new Error(`unlocking answered ${res.status}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  if (!cookie) throw new Error('unlocking the school set no cookie');
  return cookie;
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  mbPerS: number;
}

/** Each figure's median over the rounds. */
function median(runs: Load[]): Load {
  const mid = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  };
  return { rps: mid(runs.map((r) => r.rps)), p50: mid(runs.map((r) => r.p50)), p99: mid(runs.map((r) => r.p99)), mbPerS: mid(runs.map((r) => r.mbPerS)) };
}

async function load(url: string, paths: string[], headers: Record<string, string>, seconds: number): Promise<Load> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers,
    requests: paths.map((p) => ({ method: 'GET', path: p })),
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, mbPerS: result.throughput.average / 1024 / 1024 };
}

interface Side {
  label: string;
  url: string;
  paths: string[];
  headers: Record<string, string>;
  runs: Load[];
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-serve-'));
  let api: ChildProcess | null = null;
  let bare: ChildProcess | null = null;
  let apiS3: ChildProcess | null = null;
  try {
    console.log(`Storing a class of ${PHOTOS} photos`);
    const prepared = await prepare(dir);
    const s3Env = s3Settings();
    const onS3 = s3Env ? await prepare(path.join(dir, 's3'), s3Env) : null;
    const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;
    api = startApi(prepared.env, profileDir);
    await waitForHealth(prepared.url, api);
    const cookie = await galleryCookie(prepared.url);
    const codeCookie = await galleryCookie(prepared.url, prepared.studentCode);
    const list = (await (await fetch(`${prepared.url}/api/albums/${prepared.albumId}/photos`, { headers: { Cookie: cookie } })).json()) as { id: number }[];
    if (list.length !== PHOTOS) throw new Error(`the class lists ${list.length} photos, expected ${PHOTOS}`);
    const ids = list.map((photo) => photo.id).sort((a, b) => a - b);

    // The answers must be the same bytes as the files the bare server sends, for either family,
    // revalidation must work, and without a grant the photo is not there.
    for (const kind of KINDS) {
      for (const family of [cookie, codeCookie]) {
        const first = await fetch(`${prepared.url}${kind.path(ids[0] ?? 0)}`, { headers: { Cookie: family } });
        const bytes = Buffer.from(await first.arrayBuffer());
        if (!bytes.equals(await fs.readFile(prepared.files[kind.folder][0] ?? ''))) throw new Error(`the API sent other bytes than the stored ${kind.name}`);
        const etag = first.headers.get('etag') ?? '';
        const again = await fetch(`${prepared.url}${kind.path(ids[0] ?? 0)}`, { headers: { Cookie: family, 'If-None-Match': etag } });
        if (again.status !== 304) throw new Error(`revalidation of ${kind.name} answered ${again.status}, expected 304`);
      }
      const locked = await fetch(`${prepared.url}${kind.path(ids[0] ?? 0)}`);
      if (locked.status !== 404) throw new Error(`without the cookie ${kind.name} answered ${locked.status}, expected 404`);
    }

    // One bare server for every kind: each kind's files follow the previous kind's in its list.
    const listFile = path.join(dir, 'files.json');
    const bareFiles = KINDS.flatMap((kind) => prepared.files[kind.folder]);
    const bareSizes = KINDS.flatMap((kind) => prepared.sizes[kind.folder]);
    await fs.writeFile(listFile, JSON.stringify({ files: bareFiles, sizes: bareSizes }));
    const barePort = await freePort();
    const bareUrl = `http://127.0.0.1:${barePort}`;
    bare = startBare(barePort, listFile);
    await waitForBare(bareUrl, bare);

    const averageKb = (sizes: number[]) => (sizes.reduce((a, b) => a + b, 0) / sizes.length / 1024).toFixed(1);
    console.log(`${PHOTOS} photos: ${KINDS.map((kind) => `${kind.name} ${averageKb(prepared.sizes[kind.folder])} KB`).join(', ')} on average; ${CONNECTIONS} connections, ${DURATION_S} s per measurement after ${WARMUP_S} s of warm-up`);
    /** For each kind: the bare server's side and the API's sides measured against it. */
    const groups = KINDS.map((kind, k) => {
      const offset = k * PHOTOS;
      const apiPaths = ids.map((id) => kind.path(id));
      const sides: Side[] = [{ label: 'API, school password', url: prepared.url, paths: apiPaths, headers: { Cookie: cookie }, runs: [] }];
      if (kind.folder === 'thumbnails') sides.push({ label: "API, a child's code", url: prepared.url, paths: apiPaths, headers: { Cookie: codeCookie }, runs: [] });
      return { kind, bare: { label: 'bare Node file server', url: bareUrl, paths: ids.map((_, i) => `/${offset + i}`), headers: {}, runs: [] } as Side, sides };
    });
    // The same class in the bucket, served by its own API process: the same bytes must come back.
    let s3Side: Side | null = null;
    if (onS3) {
      apiS3 = startApi(onS3.env, undefined);
      await waitForHealth(onS3.url, apiS3);
      const s3Cookie = await galleryCookie(onS3.url);
      const s3List = (await (await fetch(`${onS3.url}/api/albums/${onS3.albumId}/photos`, { headers: { Cookie: s3Cookie } })).json()) as { id: number }[];
      const s3Paths = [...s3List].sort((a, b) => a.id - b.id).map((photo) => `/api/images/${photo.id}/thumbnail`);
      const s3First = Buffer.from(await (await fetch(`${onS3.url}${s3Paths[0]}`, { headers: { Cookie: s3Cookie } })).arrayBuffer());
      if (!s3First.equals(await fs.readFile(prepared.files.thumbnails[0] ?? ''))) throw new Error('the API on the bucket sent other bytes than the stored thumbnail');
      s3Side = { label: 'API on S3', url: onS3.url, paths: s3Paths, headers: { Cookie: s3Cookie }, runs: [] };
      groups[0]?.sides.push(s3Side);
      console.log(`S3 side: ${process.env.STORAGE_URL} at ${process.env.S3_ENDPOINT ?? 'AWS'}`);
    }
    for (const group of groups) for (const side of [group.bare, ...group.sides]) await load(side.url, side.paths, side.headers, WARMUP_S);
    // The machine is shared, so its load drifts: each kind's sides take turns, and medians are compared.
    for (let round = 1; round <= ROUNDS; round++) {
      const figures: string[] = [];
      for (const group of groups) {
        const all = [group.bare, ...group.sides];
        const order = round % 2 === 1 ? all : [...all].reverse();
        for (const side of order) side.runs.push(await load(side.url, side.paths, side.headers, DURATION_S));
        figures.push(`${group.kind.name}: ${all.map((side) => `${side.label === group.bare.label ? 'bare' : side.label} ${side.runs.at(-1)?.rps.toFixed(0)}`).join(', ')}`);
      }
      console.log(`  round ${round} (req/s): ${figures.join('; ')}`);
    }
    const memory = await memoryOf(api.pid ?? 0);

    const row = (label: string, l: Load) =>
      console.log(`  ${label.padEnd(24)} ${l.rps.toFixed(0).padStart(7)} req/s   p50 ${String(l.p50).padStart(4)} ms   p99 ${String(l.p99).padStart(4)} ms   ${l.mbPerS.toFixed(1)} MB/s`);
    console.log('');
    console.log(`medians of ${ROUNDS} rounds:`);
    for (const group of groups) {
      const bareLoad = median(group.bare.runs);
      console.log(`${group.kind.name}:`);
      row(group.bare.label, bareLoad);
      for (const side of group.sides) {
        const sideLoad = median(side.runs);
        row(side.label, sideLoad);
        const p99Ratio = sideLoad.p99 / Math.max(bareLoad.p99, 1);
        console.log(`    ratio req/s ${(sideLoad.rps / bareLoad.rps).toFixed(3)} (target >= ${RPS_TARGET}), ratio p99 ${p99Ratio.toFixed(2)} (target <= ${P99_TARGET})`);
      }
    }
    console.log(`API peak RSS MB:          ${memory.hwmMb.toFixed(1)}`);
    if (s3Side) console.log(`API on S3 peak RSS MB:    ${(await memoryOf(apiS3?.pid ?? 0)).hwmMb.toFixed(1)}`);
    if (profileDir) console.log(`CPU profile of the API: ${profileDir}`);
  } finally {
    await stop(bare);
    await stop(api);
    await stop(apiS3);
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function serveBare(port: number, listFile: string): Promise<void> {
  const { files, sizes } = JSON.parse(await fs.readFile(listFile, 'utf8')) as { files: string[]; sizes: number[] };
  const server = bareFileServer(files, sizes, 'image/webp');
  server.listen(port, '127.0.0.1');
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

const [mode, port, listFile] = process.argv.slice(2);
const run = mode === 'bare' ? serveBare(Number(port), listFile ?? '') : main();
run.catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

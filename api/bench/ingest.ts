/**
 * Ingest benchmark: 200 twelve-megapixel JPEGs uploaded through the real server in batches of 10,
 * against the same renditions made by a bare sharp loop. Prints throughput, their ratio and the
 * server's peak RSS (VmHWM). Targets: ratio >= 0.8, peak RSS <= 400 MB.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { createKnex, databaseTarget, insertedId } from '../src/db/knex';
import { generateDemoPhoto } from '../src/media/generate';
import { bareRenditions } from './bare';
import { freePort, memoryOf, waitForHealth } from './server-process';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 200);
const BATCH = 10;
const WIDTH = 4000;
const HEIGHT = 3000;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function generatePhotos(dir: string): Promise<string[]> {
  // One shared grain layer: upscaled drawings compress far better than camera photos, so noise
  // brings file size and decode cost close to real 12 MP JPEGs (3-6 MB each).
  const grain = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 28 } } })
    .raw()
    .toBuffer();
  const files: string[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    const scene = await generateDemoPhoto({ seed: 1000 + i, label: `Student ${i + 1}`, width: 1000, height: 750 });
    const file = path.join(dir, `IMG_${String(i + 1).padStart(4, '0')}.JPG`);
    let pipeline = sharp(scene)
      .resize(WIDTH, HEIGHT)
      .composite([{ input: grain, raw: { width: WIDTH, height: HEIGHT, channels: 3 }, blend: 'soft-light' }])
      .jpeg({ quality: 90 });
    // Every fifth photo was taken in portrait: stored landscape with an EXIF rotation.
    if (i % 5 === 4) pipeline = pipeline.withMetadata({ orientation: 6 });
    await pipeline.toFile(file);
    files.push(file);
    if ((i + 1) % 50 === 0) console.log(`  generated ${i + 1}/${PHOTOS}`);
  }
  return files;
}

/** The child is node itself (not an npx wrapper), so its /proc status is the server's memory. */
function startServer(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return child;
}

async function json<T>(res: Response): Promise<T> {
  const body = (await res.json()) as T;
  if (!res.ok) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function runApi(files: string[], dir: string): Promise<{ seconds: number; peakMb: number; idleMb: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const databaseUrl = `sqlite:${path.join(dir, 'bench.sqlite')}`;
  const child = startServer({
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dir,
    STORAGE_DIR: path.join(dir, 'storage'),
    DATABASE_URL: databaseUrl,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    JWT_SECRET: randomBytes(32).toString('base64url'),
    NODE_ENV: 'production',
  });
  try {
    await waitForHealth(url, child);
    const { token } = await json<{ token: string }>(
      await fetch(`${url}/api/auth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password', firstName: 'Bench', lastName: 'Admin' }),
      }),
    );
    const albumId = await insertAlbum(databaseUrl);
    const idleMb = (await memoryOf(child.pid ?? 0)).rssMb;

    const started = performance.now();
    let uploaded = 0;
    for (let i = 0; i < files.length; i += BATCH) {
      const form = new FormData();
      form.append('albumId', String(albumId));
      for (const file of files.slice(i, i + BATCH)) form.append('photos', await openAsBlob(file, { type: 'image/jpeg' }), path.basename(file));
      const res = await fetch(`${url}/api/photos/upload-batch`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
      uploaded += (await json<{ uploaded: number }>(res)).uploaded;
    }
    const seconds = (performance.now() - started) / 1000;
    if (uploaded !== files.length) throw new Error(`uploaded ${uploaded} of ${files.length}`);
    return { seconds, peakMb: (await memoryOf(child.pid ?? 0)).hwmMb, idleMb };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** The schools and albums endpoints are not needed to measure ingest: rows go straight in. */
async function insertAlbum(databaseUrl: string): Promise<number> {
  const knex = createKnex(databaseTarget(databaseUrl));
  try {
    const schoolId = insertedId(
      await knex('schools').insert({ name: 'Bench School', slug: 'bench-school', password_hash: 'x', contact_email: 'bench@school.example', created_at: Date.now() }),
    );
    return insertedId(await knex('albums').insert({ school_id: schoolId, name: 'Bench Class', password_hash: null, created_at: Date.now() }));
  } finally {
    await knex.destroy();
  }
}

async function runBare(files: string[], dir: string): Promise<number> {
  const out = path.join(dir, 'bare');
  await fs.mkdir(out, { recursive: true });
  const started = performance.now();
  for (const file of files) await bareRenditions(file, out);
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-ingest-'));
  try {
    console.log(`Generating ${PHOTOS} JPEGs of ${WIDTH}x${HEIGHT} in ${dir}`);
    const input = path.join(dir, 'input');
    await fs.mkdir(input);
    const files = await generatePhotos(input);
    const sizes = await Promise.all(files.map(async (f) => (await fs.stat(f)).size));
    console.log(`  average size ${(sizes.reduce((a, b) => a + b, 0) / sizes.length / 1e6).toFixed(2)} MB`);

    console.log(`Uploading through the API in batches of ${BATCH}`);
    const api = await runApi(files, dir);
    console.log('Making the same renditions with a bare sharp loop');
    const bareSeconds = await runBare(files, dir);

    const apiRate = files.length / api.seconds;
    const bareRate = files.length / bareSeconds;
    console.log('');
    console.log(`photos/s API:          ${apiRate.toFixed(2)}  (${api.seconds.toFixed(1)} s for ${files.length})`);
    console.log(`photos/s bare:         ${bareRate.toFixed(2)}  (${bareSeconds.toFixed(1)} s)`);
    console.log(`ratio API/bare:        ${(apiRate / bareRate).toFixed(3)}  (target >= 0.8)`);
    console.log(`server peak RSS MB:    ${api.peakMb.toFixed(1)}  (target <= 400; idle before uploads ${api.idleMb.toFixed(1)})`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

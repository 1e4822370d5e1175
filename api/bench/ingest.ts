/**
 * Ingest benchmark: 200 twelve-megapixel JPEGs, in one run and at the server's concurrency
 * (MEDIA_JOBS decodes at once):
 *   (a) uploaded through the real server in batches of 10, one batch at a time as the PWA's
 *       upload queue sends them, by a client that read the photos into memory first (not timed,
 *       as (b) copies its files first);
 *   (b) the same upload pipeline called directly in this process (checks, renditions with the
 *       watermark, temp files, commit into storage), without HTTP, multipart or the database;
 *   (c) the minimal libvips work: one decode, the resizes and the WebP encodes, no watermark.
 * The photos go through in BENCH_ROUNDS parts (4), each part through all three in alternating
 * order, so a drifting load on a shared machine falls on all three alike (BENCH_PASSES=n goes
 * through all of that n times). Each round's ratios are printed too, to show the spread. One batch
 * through each before the rounds is not counted (warm-up). Prints photos/s of each with its CPU
 * time per photo, the ratios (a)/(b) (target >= 0.9), (b)/(c) (target >= 0.8) and (a)/(c), the API
 * against the minimal libvips work (target >= 0.8, judged in every round too), and the
 * server's peak RSS (VmHWM; target <= 400 MB), then the watermark's weight: the preview, thumbnail
 * and small thumbnail of 40 of the photos with and without it, as bytes, their ratio (target <= 1.5
 * for the preview and the thumbnail) and the share of pixels it covers. BENCH_INPUT=<dir> keeps the generated photos there
 * for the next run; BENCH_CPU_PROF=<dir> profiles the server.
 *
 * STORAGE_URL=s3://bucket/prefix (with the S3_* settings as the server takes them) adds (a'): a
 * second server storing into that bucket, in the same rounds, printed beside (a).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_BUSINESS_NAME } from '../contract/brand';
import { createKnex, databaseTarget, insertedId } from '../src/db/knex';
import type { UploadedFile } from '../src/http/multipart';
import { createLogger } from '../src/logger';
import { generateGrainedPhoto, photoGrain } from '../src/media/generate';
import { createMediaService, MEDIA_JOBS } from '../src/media/media.service';
import type { MediaService } from '../src/media/media.types';
import { createUploadPipeline } from '../src/media/upload-pipeline';
import { renderPhoto } from '../src/media/renditions';
import { watermarkCoverage } from '../src/media/watermark';
import { createFileStorage } from '../src/storage/file-storage';
import { cleanRenditions, minimalRenditions, pool } from './bare';
import { BENCH_ADMIN_ENV, cpuSecondsOf, freePort, loginBenchAdmin, memoryOf, s3Settings, waitForHealth, profileOptions, startCompiledServer } from './server-process';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const PASSES = Number(process.env.BENCH_PASSES ?? 1);
const BATCH = 10;
const WIDTH = 4000;
const HEIGHT = 3000;

async function generatePhotos(dir: string): Promise<string[]> {
  const grain = await photoGrain(WIDTH, HEIGHT);
  const files: string[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    const file = path.join(dir, `IMG_${String(i + 1).padStart(4, '0')}.JPG`);
    // BENCH_INPUT keeps the photos between runs: making them takes longer than the benchmark.
    if (process.env.BENCH_INPUT && (await fs.stat(file).catch(() => null))) {
      files.push(file);
      continue;
    }
    let pipeline = await generateGrainedPhoto({ seed: 1000 + i, label: `Student ${i + 1}`, width: WIDTH, height: HEIGHT }, grain);
    // Every fifth photo was taken in portrait: stored landscape with an EXIF rotation.
    if (i % 5 === 4) pipeline = pipeline.withMetadata({ orientation: 6 });
    await pipeline.toFile(file);
    files.push(file);
    if ((i + 1) % 50 === 0) console.log(`  generated ${i + 1}/${PHOTOS}`);
  }
  return files;
}

/** The compiled server as `npm start` runs it; BENCH_CPU_PROF=<dir> profiles it. */
function startServer(env: Record<string, string>): ChildProcess {
  return startCompiledServer(env, { nodeOptions: profileOptions() });
}

/** A photo as the client sends it: read into memory before the timed part, as (b) copies its files before. */
interface ClientPhoto {
  name: string;
  data: Buffer;
}

/**
 * One batch as multipart/form-data over node:http, each photo written to the socket in one call:
 * the lightest client at hand, since client and server share the machine's cores and what is
 * measured is the server. (Reading each file from disk as it was sent, in 1 MB chunks, cost the
 * client 6.5 CPU ms a photo, taken from the server's two cores; from memory it costs about 1.)
 * Resolves the answer's body; anything but 201 fails.
 */
async function postBatch(url: string, token: string, albumId: number, photos: ClientPhoto[]): Promise<string> {
  const boundary = `----bench${randomBytes(12).toString('hex')}`;
  const field = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="albumId"\r\n\r\n${albumId}\r\n`);
  const parts = photos.map((photo) => ({
    data: photo.data,
    head: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="${photo.name}"\r\nContent-Type: image/jpeg\r\n\r\n`),
  }));
  const crlf = Buffer.from('\r\n');
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const length = field.length + parts.reduce((sum, part) => sum + part.head.length + part.data.length + crlf.length, 0) + tail.length;
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': length } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode === 201) resolve(body);
        else reject(new Error(`${response.statusCode}: ${body}`));
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    const send = async () => {
      request.write(field);
      for (const part of parts) {
        request.write(part.head);
        if (!request.write(part.data)) await new Promise((drained) => request.once('drain', drained));
        request.write(crlf);
      }
      request.end(tail);
    };
    send().catch((err: unknown) => request.destroy(err as Error));
  });
}

interface Timed {
  seconds: number;
  cpuSeconds: number;
}


/** (a): the real server, started once; each call uploads its files one batch at a time. */
async function startApi(dir: string, storageEnv: Record<string, string> = { STORAGE_URL: 'file:' }) {
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
    // Production starts only with PayGate credentials; these benchmarks take no payments.
    PAYGATE_ID: '1000000001',
    PAYGATE_SECRET: randomBytes(12).toString('hex'),
    // Production opens no registration: the server makes its first administrator from these.
    ...BENCH_ADMIN_ENV,
    ...storageEnv,
  });
  const pid = child.pid ?? 0;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForHealth(url, child);
    const token = await loginBenchAdmin(url);
    const albumId = await insertAlbum(databaseUrl);
    const idleMb = (await memoryOf(pid)).rssMb;
    return {
      idleMb,
      peakMb: async () => (await memoryOf(pid)).hwmMb,
      stop,
      async upload(files: string[]): Promise<Timed> {
        const photos = await Promise.all(files.map(async (file) => ({ name: path.basename(file), data: await fs.readFile(file) })));
        const cpuBefore = await cpuSecondsOf(pid);
        const started = performance.now();
        let uploaded = 0;
        for (let i = 0; i < photos.length; i += BATCH) {
          const answer = await postBatch(`${url}/api/photos/upload-batch`, token, albumId, photos.slice(i, i + BATCH));
          uploaded += (JSON.parse(answer) as { uploaded: number }).uploaded;
        }
        const seconds = (performance.now() - started) / 1000;
        if (uploaded !== files.length) throw new Error(`uploaded ${uploaded} of ${files.length}`);
        return { seconds, cpuSeconds: (await cpuSecondsOf(pid)) - cpuBefore };
      },
    };
  } catch (err) {
    await stop();
    throw err;
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

/** CPU seconds this process spends in `task` (libvips' threads included). */
async function timed(task: () => Promise<unknown>): Promise<Timed> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await task();
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

/**
 * (b): each batch as the upload route runs it, minus HTTP and the database: the files are first
 * copied where multipart parsing would have streamed them (not timed), then the cheap checks, the
 * pipeline and the commits are timed.
 */
async function runPipeline(media: MediaService, files: string[]): Promise<Timed> {
  const total: Timed = { seconds: 0, cpuSeconds: 0 };
  for (let i = 0; i < files.length; i += BATCH) {
    const uploads: UploadedFile[] = [];
    for (const file of files.slice(i, i + BATCH)) {
      const temp = path.join(media.tmpDir, `upload-${randomBytes(8).toString('hex')}`);
      await fs.copyFile(file, temp);
      uploads.push({ path: temp, originalName: path.basename(file), size: (await fs.stat(temp)).size });
    }
    const batch = await timed(async () => {
      // The bench class has no roster, so, as the upload route does for it, no card scan.
      const pipeline = createUploadPipeline(media, undefined, { cardScan: () => false });
      for (const upload of uploads) void pipeline.add(upload);
      for (const upload of uploads) await media.checkUpload(upload);
      const prepared = [];
      for (const upload of uploads) prepared.push(await pipeline.prepared(upload));
      await Promise.all(prepared.map((photo) => photo.commit()));
      await pipeline.discard();
    });
    total.seconds += batch.seconds;
    total.cpuSeconds += batch.cpuSeconds;
  }
  return total;
}

/** The API at least this share of the minimal libvips work's pace, (a)/(c) (issue 44, point 5). */
const API_TO_MINIMAL_TARGET = 0.8;
const verdict = (ratio: number, target: number) => (ratio >= target ? 'PASS' : 'FAIL');

/** How many photos the renditions' weights are measured on, spread evenly over the set. */
const WEIGHED_PHOTOS = 40;
/** The watermarked preview and thumbnail may weigh this many times their clean encode (docs/images.md, "The watermark"). */
const WATERMARK_WEIGHT_TARGET = 1.5;

/**
 * The weight of the watermark: each rendition as the product stores it against the same pixels
 * encoded without the watermark at the same WebP settings (`cleanRenditions`, the reference (c)
 * encodes), with the share of the image's pixels the watermark touches and its mean opacity.
 * Not timed: it runs after the rounds.
 */
async function weighWatermark(files: string[]): Promise<void> {
  const step = Math.max(1, files.length / WEIGHED_PHOTOS);
  const sample = Array.from({ length: Math.min(WEIGHED_PHOTOS, files.length) }, (_, i) => files[Math.floor(i * step)] as string);
  const kinds = [
    { key: 'preview', label: 'preview', target: WATERMARK_WEIGHT_TARGET },
    { key: 'thumbnail', label: 'thumbnail', target: WATERMARK_WEIGHT_TARGET },
    { key: 'smallThumbnail', label: 'small thumbnail', target: null },
  ] as const;
  const sums = kinds.map(() => ({ marked: 0, clean: 0, touched: 0, opacity: 0 }));
  for (const file of sample) {
    const [marked, clean] = await Promise.all([renderPhoto(file, DEFAULT_BUSINESS_NAME), cleanRenditions(file)]);
    for (const [i, kind] of kinds.entries()) {
      const rendition = marked[kind.key];
      const sum = sums[i] as (typeof sums)[number];
      const coverage = await watermarkCoverage(rendition.width, rendition.height, DEFAULT_BUSINESS_NAME);
      sum.marked += rendition.data.length;
      sum.clean += clean[kind.key].length;
      sum.touched += coverage.touched;
      sum.opacity += coverage.opacity;
    }
  }
  console.log(`watermark weight over ${sample.length} photos (mean bytes watermarked / clean at the same WebP settings; pixels touched, mean opacity):`);
  for (const [i, kind] of kinds.entries()) {
    const sum = sums[i] as (typeof sums)[number];
    const ratio = sum.marked / sum.clean;
    const verdict = kind.target === null ? '(no target)' : `(target <= ${kind.target}) ${ratio <= kind.target ? 'PASS' : 'FAIL'}`;
    const kb = (bytes: number) => (bytes / sample.length / 1000).toFixed(1);
    console.log(
      `  ${kind.label.padEnd(16)} ${kb(sum.marked).padStart(6)} kB / ${kb(sum.clean).padStart(6)} kB = ${ratio.toFixed(2)}  ${verdict};` +
        ` touches ${((sum.touched / sample.length) * 100).toFixed(0)}% of pixels, mean opacity ${((sum.opacity / sample.length) * 100).toFixed(1)}%`,
    );
  }
}

/** (c): the minimal libvips work, MEDIA_JOBS photos at a time like the server's limiter. */
function runMinimal(files: string[]): Promise<Timed> {
  return timed(() => pool(files, MEDIA_JOBS, minimalRenditions));
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-ingest-'));
  try {
    const input = process.env.BENCH_INPUT ? path.resolve(process.env.BENCH_INPUT) : path.join(dir, 'input');
    console.log(`Generating ${PHOTOS} JPEGs of ${WIDTH}x${HEIGHT} in ${input}`);
    await fs.mkdir(input, { recursive: true });
    const files = await generatePhotos(input);
    const sizes = await Promise.all(files.map(async (f) => (await fs.stat(f)).size));
    console.log(`  average size ${(sizes.reduce((a, b) => a + b, 0) / sizes.length / 1e6).toFixed(2)} MB`);

    const api = await startApi(dir);
    const s3Env = s3Settings();
    const apiS3 = s3Env ? await startApi(path.join(dir, 's3'), s3Env).catch(async (err: unknown) => {
      await api.stop();
      throw err;
    }) : null;
    try {
      const media = await createMediaService({ storage: createFileStorage(path.join(dir, 'pipeline-storage')), businessName: DEFAULT_BUSINESS_NAME, logger: createLogger('warn') });
      const sides = {
        api: { label: '(a) API', run: (chunk: string[]) => api.upload(chunk), total: { seconds: 0, cpuSeconds: 0 } },
        pipeline: { label: '(b) pipeline directly', run: (chunk: string[]) => runPipeline(media, chunk), total: { seconds: 0, cpuSeconds: 0 } },
        minimal: { label: '(c) minimal libvips', run: (chunk: string[]) => runMinimal(chunk), total: { seconds: 0, cpuSeconds: 0 } },
      };
      // The machine may be shared, so its load drifts: the photos go in ROUNDS parts, and each part
      // goes through all three in an order that turns round every time.
      const onS3 = apiS3 && { label: "(a') API on S3", run: (chunk: string[]) => apiS3.upload(chunk), total: { seconds: 0, cpuSeconds: 0 } };
      if (onS3) console.log(`(a') stores into ${process.env.STORAGE_URL} at ${process.env.S3_ENDPOINT ?? 'AWS'}`);
      const order = onS3 ? [sides.api, onS3, sides.pipeline, sides.minimal] : [sides.api, sides.pipeline, sides.minimal];
      // One batch through each first, not counted: what a server pays once (the watermark's masks
      // rasterised, code compiled, memory first mapped) is not what a day of uploads runs at.
      for (const side of order) await side.run(files.slice(0, BATCH));
      const part = Math.ceil(files.length / ROUNDS);
      const rounds = ROUNDS * PASSES;
      for (let round = 0; round < rounds; round++) {
        const chunk = files.slice((round % ROUNDS) * part, ((round % ROUNDS) + 1) * part);
        const seconds = new Map<object, number>();
        for (const side of round % 2 === 0 ? order : [...order].reverse()) {
          const result = await side.run(chunk);
          side.total.seconds += result.seconds;
          side.total.cpuSeconds += result.cpuSeconds;
          seconds.set(side, result.seconds);
        }
        const ratio = (x: object, y: object) => (seconds.get(y) ?? 0) / (seconds.get(x) ?? 1);
        const apiToMinimal = ratio(sides.api, sides.minimal);
        console.log(
          `  round ${round + 1}/${rounds}: ${chunk.length} photos through each; (a)/(b) ${ratio(sides.api, sides.pipeline).toFixed(3)}, (b)/(c) ${ratio(sides.pipeline, sides.minimal).toFixed(3)},` +
            ` (a)/(c) ${apiToMinimal.toFixed(3)} ${verdict(apiToMinimal, API_TO_MINIMAL_TARGET)}`,
        );
      }
      const peakMb = await api.peakMb();

      const photos = files.length * PASSES;
      const rate = (t: Timed) => photos / t.seconds;
      const cpuMs = (t: Timed) => (t.cpuSeconds * 1000) / photos;
      console.log('');
      for (const side of order) {
        console.log(`photos/s ${side.label.padEnd(22)} ${rate(side.total).toFixed(2).padStart(7)}  (${side.total.seconds.toFixed(1)} s for ${photos}; ${cpuMs(side.total).toFixed(0)} CPU ms a photo)`);
      }
      console.log(`ratio (a)/(b):                  ${(rate(sides.api.total) / rate(sides.pipeline.total)).toFixed(3).padStart(7)}  (target >= 0.9)`);
      console.log(`ratio (b)/(c):                  ${(rate(sides.pipeline.total) / rate(sides.minimal.total)).toFixed(3).padStart(7)}  (target >= 0.8)`);
      const apiToMinimal = rate(sides.api.total) / rate(sides.minimal.total);
      console.log(`ratio (a)/(c):                  ${apiToMinimal.toFixed(3).padStart(7)}  (target >= ${API_TO_MINIMAL_TARGET}) ${verdict(apiToMinimal, API_TO_MINIMAL_TARGET)}`);
      console.log(`CPU per photo (c)/(b), (c)/(a): ${(cpuMs(sides.minimal.total) / cpuMs(sides.pipeline.total)).toFixed(3).padStart(7)}, ${(cpuMs(sides.minimal.total) / cpuMs(sides.api.total)).toFixed(3)}  (less sensitive to a busy machine)`);
      console.log(`server peak RSS MB:             ${peakMb.toFixed(1).padStart(7)}  (target <= 400; idle before uploads ${api.idleMb.toFixed(1)})`);
      if (onS3 && apiS3) {
        console.log(`ratio (a')/(a), S3/folder:      ${(rate(onS3.total) / rate(sides.api.total)).toFixed(3).padStart(7)}`);
        console.log(`server on S3 peak RSS MB:       ${(await apiS3.peakMb()).toFixed(1).padStart(7)}  (idle before uploads ${apiS3.idleMb.toFixed(1)})`);
      }
      await weighWatermark(files);
    } finally {
      await api.stop();
      await apiS3?.stop();
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

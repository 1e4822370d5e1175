/**
 * Print batch benchmark: a batch of 1,000 print lines over about 2 GB of originals, downloaded as
 * files.zip over real HTTP from the server running as its own process, against reading the same
 * files from disk in the same run, one after another as the ZIP does. Prints MB/s of both, their
 * ratio (target >= 0.8) and the server's peak RSS (VmHWM; target < 300 MB).
 *
 * Both with the files on the disk (evicted from the page cache before each round: what a batch at
 * the end of a season meets) and in the page cache. In the page cache, a read costs one memory
 * copy while any HTTP download costs three (into the socket, out of it in the client, plus the
 * checksum) on the same two cores, so a third reference is measured there: a bare Node HTTP
 * server streaming the same files one after another in one answer (each file read when its turn
 * comes), what plain HTTP of these files gets on this machine.
 *
 * The data is made directly through the repositories and the print batch service, not by 1,000
 * uploads: the originals are noisy camera-sized JPEGs copied into storage where the media service
 * keeps them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { buildRuntime, type Runtime } from '../src/bootstrap';
import { insertedId } from '../src/db/knex';
import { createStorage, newStorageKey } from '../src/media/storage';
import type { StoredPhoto } from '../src/media/media.types';
import { createPhotoRepository } from '../src/photos/photos.repository';
import { createOrdersRepository } from '../src/orders/orders.repository';
import { newOrderId } from '../src/orders/order-id';
import type { PhotoInfo } from '../src/orders/pricing';
import { createPrintBatchService } from '../src/print-batches/print-batches.service';
import { benchEnv, freePort, memoryOf, stop, waitForHealth, startCompiledServer } from './server-process';

const LINES = Number(process.env.BENCH_LINES ?? 1000);
const TARGET_BYTES = Number(process.env.BENCH_BYTES ?? 2 * 1024 ** 3);
const LINES_PER_ORDER = 2;
const SOURCES = 8;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MB = 1024 * 1024;
/** Enough of the ZIP's end to hold its central directory's closing records. */
const TAIL = 64 * 1024;
/** The server reads originals in chunks of this size; the reference does the same. */
const CHUNK = 1024 * 1024;
const COLD_ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 2);
const WARM_ROUNDS = Number(process.env.BENCH_WARM_ROUNDS ?? 3);

interface Run {
  seconds: number;
  bytes: number;
}
const rate = (run: Run | undefined): number => (run ? run.bytes / MB / run.seconds : 0);
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** A handful of distinct noisy JPEGs near the wanted size: noise keeps JPEG from shrinking them. */
async function makeSources(dir: string, bytesEach: number): Promise<string[]> {
  const noisy = (width: number, i: number) =>
    sharp({ create: { width, height: Math.round((width * 3) / 4), channels: 3, background: { r: 30 * i, g: 120, b: 200 - 20 * i }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg({ quality: 92 });
  // JPEG size grows with the pixel count: one trial image tells the width that gives the size.
  const trialWidth = 1000;
  const trial = (await noisy(trialWidth, 0).toBuffer()).length;
  const width = Math.round(trialWidth * Math.sqrt(bytesEach / trial));
  const files: string[] = [];
  for (let i = 0; i < SOURCES; i++) {
    const file = path.join(dir, `source-${i}.jpg`);
    await noisy(width, i).toFile(file);
    files.push(file);
  }
  return files;
}

interface Prepared {
  env: Record<string, string>;
  url: string;
  token: string;
  batchId: number;
  files: string[];
  totalBytes: number;
}

async function prepare(dir: string): Promise<Prepared> {
  const port = await freePort();
  const env = benchEnv(dir, port);
  const config = loadConfig(env, dir);
  const runtime: Runtime = await buildRuntime(config, createLogger('warn'));
  try {
    const { knex } = runtime;
    const at = Date.now();
    const schoolId = insertedId(await knex('schools').insert({ name: 'Bench Primary School', slug: 'bench-primary', password_hash: 'x', contact_email: 'office@bench.example', created_at: at }));
    const albumId = insertedId(await knex('albums').insert({ school_id: schoolId, name: 'Class 4B', password_hash: null, created_at: at }));
    const staffId = insertedId(await knex('staff').insert({ email: 'bench@example.com', password_hash: 'x', first_name: 'Bench', last_name: 'Admin', role: 'admin', created_at: at }));

    console.log(`Making ${LINES} originals of about ${(TARGET_BYTES / LINES / MB).toFixed(1)} MB in storage`);
    const sources = await Promise.all((await makeSources(dir, TARGET_BYTES / LINES)).map(async (file) => ({ file, size: (await fs.stat(file)).size })));
    const photos = createPhotoRepository(knex);
    const files: string[] = [];
    const photoInfos: PhotoInfo[] = [];
    let totalBytes = 0;
    for (let i = 0; i < LINES; i++) {
      const storageKey = newStorageKey();
      const source = sources[i % sources.length];
      if (!source) throw new Error('no source images');
      // Written straight into the storage folder: the bare reference reads the same files.
      const target = createStorage(config.storageDir).filePath('originals', storageKey, 'jpg');
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.copyFile(source.file, target);
      files.push(target);
      totalBytes += source.size;
      const originalName = `IMG_${String(i + 1).padStart(4, '0')}.JPG`;
      const stored: StoredPhoto = {
        storageKey,
        filename: `${storageKey}.jpg`,
        mimeType: 'image/jpeg',
        fileSize: source.size,
        width: 1,
        height: 1,
        thumbWidth: 1,
        thumbHeight: 1,
        thumbEtag: storageKey,
        previewEtag: storageKey,
        smallThumbWidth: 1,
        smallThumbHeight: 1,
        smallThumbEtag: storageKey,
      };
      const originalNumber = String(i + 1).padStart(4, '0');
      const [row] = await photos.insertMany([{ albumId, originalName, originalNumber, stored }]);
      if (!row) throw new Error('photo row not stored');
      photoInfos.push({ id: Number(row.id), albumId, schoolId, albumName: 'Class 4B', albumHasPassword: false, accessMode: 'school_password', studentId: null, doNotPublish: false, withheld: false, albumPublished: true, originalName, originalNumber, filename: stored.filename });
      if ((i + 1) % 250 === 0) console.log(`  ${i + 1}/${LINES}`);
    }

    const product = { id: 'print_10x15', name: '10x15 Print', description: 'Glossy', priceThebe: 2500, kind: 'print' as const };
    const ids: string[] = [];
    await knex.transaction(async (trx) => {
      for (let start = 0; start < photoInfos.length; start += LINES_PER_ORDER) {
        const id = newOrderId();
        ids.push(id);
        const lines = photoInfos.slice(start, start + LINES_PER_ORDER).map((photo) => ({ photo, product, quantity: 1, unitThebe: 2500, totalThebe: 2500, digital: false, childHeld: false }));
        await createOrdersRepository(trx).insert({
          id,
          schoolId,
          customerId: null,
          customerName: `Parent ${start}`,
          customerEmail: `parent${start}@bench.example`,
          customerPhone: null,
          studentName: `Student ${start / LINES_PER_ORDER + 1}`,
          notes: null,
          idempotencyKey: null,
          idempotencyHash: null,
          totalThebe: 2500 * lines.length,
          lines,
          packages: [],
          subtotalThebe: 2500 * lines.length,
          siblingDiscountThebe: 0,
          coupon: null,
        });
      }
    });
    // Paid as the gateway's notify would leave them.
    for (let start = 0; start < ids.length; start += 500) {
      await knex('orders').whereIn('id', ids.slice(start, start + 500)).update({ payment_status: 'completed', order_status: 'paid' });
    }
    const batch = await createPrintBatchService({ ...runtime, businessName: config.businessName }).create(schoolId);
    if (batch.orderCount !== ids.length) throw new Error(`the batch took ${batch.orderCount} of ${ids.length} orders`);
    return { env, url: env.PUBLIC_URL, token: runtime.tokens.signStaff({ id: staffId, role: 'admin' }), batchId: batch.id, files, totalBytes };
  } finally {
    await runtime.close();
  }
}

/**
 * The child is node itself (not an npx wrapper), so its /proc status is the server's memory.
 * BENCH_NODE_ARGS adds node flags to the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
 */
function startServer(env: Record<string, string>): ChildProcess {
  // The compiled server as `npm start` runs it.
  return startCompiledServer(env, { nodeOptions: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean) });
}

/**
 * Drops the files from the kernel's page cache (GNU dd's nocache flag asks for exactly that), so
 * a read comes from the disk. Only these files are affected. False when dd cannot do it.
 */
async function evictFromPageCache(files: string[], dir: string): Promise<boolean> {
  const list = path.join(dir, 'evict.txt');
  await fs.writeFile(list, files.join('\n'));
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn('xargs', ['-a', list, '-I{}', 'dd', 'if={}', 'iflag=nocache', 'count=0', 'status=none'], { stdio: 'ignore' });
    child.once('error', () => resolve(null));
    child.once('exit', resolve);
  });
  return code === 0;
}

/**
 * The bare HTTP reference, run as its own process like the API (`batch.ts bare <port> <list>`):
 * `GET /` streams every listed file, one after another, in one answer, in the same chunk size.
 */
async function bareServer(port: number, listFile: string): Promise<void> {
  const files = (await fs.readFile(listFile, 'utf8')).split('\n').filter(Boolean);
  const server = http.createServer((req, res) => {
    if (req.url === '/api/health') return void res.end('ok');
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    void (async () => {
      for (const file of files) {
        for await (const chunk of createReadStream(file, { highWaterMark: CHUNK })) {
          if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
        }
      }
      res.end();
    })().catch((err: unknown) => res.destroy(err instanceof Error ? err : new Error(String(err))));
  });
  server.listen(port, '127.0.0.1');
}

/** The reference: the same files read from disk in the same order, one at a time, bytes counted. */
async function readFromDisk(files: string[]): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  let bytes = 0;
  for (const file of files) {
    for await (const chunk of createReadStream(file, { highWaterMark: CHUNK })) bytes += (chunk as Buffer).length;
  }
  return { seconds: (performance.now() - started) / 1000, bytes };
}

/** Entries the ZIP's end-of-central-directory record declares (its Zip64 form when present). */
function zipEntryCount(tail: Buffer): number {
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('no end of central directory: the ZIP is cut short');
  const entries = tail.readUInt16LE(eocd + 10);
  if (entries !== 0xffff) return entries;
  const zip64 = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]));
  return Number(tail.readBigUInt64LE(zip64 + 32));
}

/**
 * Downloads with node:http, the lightest client at hand: client and server share the machine's
 * cores, and what is measured is the server.
 */
async function download(url: string, token: string): Promise<{ seconds: number; bytes: number; tail: Buffer }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { Authorization: `Bearer ${token}` } }, (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`${url} answered ${res.statusCode}`));
          res.resume();
          return;
        }
        let bytes = 0;
        // The last chunks, as received (no copies while counting): enough to hold the tail.
        const recent: Buffer[] = [];
        let recentBytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          recent.push(chunk);
          recentBytes += chunk.length;
          while (recent.length > 1 && recentBytes - (recent[0]?.length ?? 0) >= TAIL) recentBytes -= recent.shift()?.length ?? 0;
        });
        res.on('error', reject);
        res.on('end', () => {
          try {
            const seconds = (performance.now() - started) / 1000;
            resolve({ seconds, bytes, tail: Buffer.concat(recent) });
          } catch (err) {
            reject(err);
          }
        });
      })
      .on('error', reject);
  });
}

async function downloadZip(url: string, token: string): Promise<{ seconds: number; bytes: number; entries: number }> {
  const { seconds, bytes, tail } = await download(url, token);
  return { seconds, bytes, entries: zipEntryCount(tail) };
}


async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-batch-'));
  let child: ChildProcess | null = null;
  let bare: ChildProcess | null = null;
  try {
    const prepared = await prepare(dir);
    console.log(`  ${prepared.files.length} originals, ${(prepared.totalBytes / MB).toFixed(0)} MB; batch #${prepared.batchId}`);
    child = startServer(prepared.env);
    const url = prepared.url;
    await waitForHealth(url, child);
    const idle = await memoryOf(child.pid ?? 0);
    const zipUrl = `${url}/api/print-batches/${prepared.batchId}/files.zip`;
    const listFile = path.join(dir, 'files.txt');
    await fs.writeFile(listFile, prepared.files.join('\n'));
    const barePort = await freePort();
    bare = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'bare', String(barePort), listFile], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    await waitForHealth(`http://127.0.0.1:${barePort}`, bare);
    const bareUrl = `http://127.0.0.1:${barePort}/`;
    const expectedEntries = prepared.files.length + 1;
    const check = (zip: { bytes: number; entries: number }) => {
      if (zip.entries !== expectedEntries) throw new Error(`the ZIP declares ${zip.entries} entries, expected ${expectedEntries}`);
      if (zip.bytes < prepared.totalBytes) throw new Error(`the ZIP has ${zip.bytes} bytes, less than the originals' ${prepared.totalBytes}`);
    };

    // The machine is shared, so load drifts during the run: the two sides alternate, several
    // rounds each, and medians are compared.
    const canEvict = await evictFromPageCache(prepared.files, dir);
    if (!canEvict) console.log('GNU dd with iflag=nocache is not available: the cold-cache comparison is skipped.');
    const cold = { disk: [] as Run[], zip: [] as Run[] };
    const warm = { disk: [] as Run[], zip: [] as Run[], http: [] as Run[] };
    for (let round = 1; canEvict && round <= COLD_ROUNDS; round++) {
      // From the disk itself: each side starts with the originals evicted from the page cache.
      await evictFromPageCache(prepared.files, dir);
      cold.disk.push(await readFromDisk(prepared.files));
      await evictFromPageCache(prepared.files, dir);
      const zip = await downloadZip(zipUrl, prepared.token);
      check(zip);
      cold.zip.push(zip);
      console.log(`  cold round ${round}: disk ${rate(cold.disk.at(-1)).toFixed(0)} MB/s, files.zip ${rate(zip).toFixed(0)} MB/s`);
    }
    await readFromDisk(prepared.files);
    for (let round = 1; round <= WARM_ROUNDS; round++) {
      // From the page cache: the files were read just before.
      warm.disk.push(await readFromDisk(prepared.files));
      warm.http.push(await download(bareUrl, ''));
      const zip = await downloadZip(zipUrl, prepared.token);
      check(zip);
      warm.zip.push(zip);
      console.log(`  warm round ${round}: disk ${rate(warm.disk.at(-1)).toFixed(0)} MB/s, bare HTTP ${rate(warm.http.at(-1)).toFixed(0)} MB/s, files.zip ${rate(zip).toFixed(0)} MB/s`);
    }
    const peak = await memoryOf(child.pid ?? 0);

    const line = (label: string, runs: { disk: Run[]; zip: Run[]; http?: Run[] }) => {
      const disk = median(runs.disk.map(rate));
      const zip = median(runs.zip.map(rate));
      console.log(`${label} disk read MB/s:   ${disk.toFixed(1).padStart(8)}  (median of ${runs.disk.length})`);
      if (runs.http) console.log(`${label} bare HTTP MB/s:   ${median(runs.http.map(rate)).toFixed(1).padStart(8)}  (median of ${runs.http.length})`);
      console.log(`${label} files.zip MB/s:   ${zip.toFixed(1).padStart(8)}  (median of ${runs.zip.length}, ${((runs.zip[0]?.bytes ?? 0) / MB).toFixed(0)} MB each)`);
      console.log(`${label} ratio ZIP/disk:   ${(zip / disk).toFixed(3).padStart(8)}  (target >= 0.8)`);
      if (runs.http) console.log(`${label} ratio ZIP/HTTP:   ${(zip / median(runs.http.map(rate))).toFixed(3).padStart(8)}  (the same files over bare HTTP)`);
    };
    console.log('');
    console.log(`print lines:                 ${prepared.files.length} in ${prepared.files.length / LINES_PER_ORDER} orders, ${(prepared.totalBytes / MB).toFixed(0)} MB of originals, ${expectedEntries} ZIP entries`);
    if (cold.zip.length > 0) line('cold cache', cold);
    line('warm cache', warm);
    console.log(`server peak RSS MB:          ${peak.hwmMb.toFixed(1)}  (target < 300; ${idle.rssMb.toFixed(1)} before the downloads)`);
  } finally {
    await stop(child);
    await stop(bare);
    await fs.rm(dir, { recursive: true, force: true });
  }
}

const [mode, port, list] = process.argv.slice(2);
(mode === 'bare' ? bareServer(Number(port), list ?? '') : main()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

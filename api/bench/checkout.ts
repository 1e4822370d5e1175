/**
 * Checkout benchmark: 50 parents at once, each having unlocked the school, place an order (a cart
 * of LINES photos, prints and digital copies, as a new customer) and open its payment through the
 * built-in PayWeb3 sandbox, against the server running as its own process, compiled and started
 * as `npm start` starts it: in waves (all 50 together, the next wave when the last is done) and
 * held (each parent again as soon as its last checkout is done). On SQLite and on MariaDB/MySQL
 * (TEST_MYSQL_URL, default mysql://root@127.0.0.1:3306; a bench database is created and dropped;
 * skipped with a notice when none answers). Prints
 * checkouts/s and the p50/p99 of one checkout (both requests). The parents are node:http clients
 * with kept-alive connections that accept brotli and gzip, as browsers do. These two runs come after
 * a first wave that is not counted (the server's warm-up).
 *
 * Then the same from a fresh start, nothing excluded: the server process started anew, and as
 * soon as /api/health answers, 50 parents at once, each with its own fetch client (undici, its own
 * Agent and connections, as each parent's browser is its own), unlock the school and check out
 * CHECKOUTS each, one after another; every request is timed from the very first. Prints
 * p50/p95/p99/max of a checkout, of every request and of each parent's first checkout, checkouts/s,
 * for reference: on two shared cores it is not a target (docs/operations.md, "What the server does
 * before it answers"). The parents' own CPU time per checkout is printed too: they run on the same
 * two cores. So is where the CPU of the fresh start went, per checkout: the server's event-loop
 * thread, its other threads (V8's compilers and garbage collector, libuv's pool), the local
 * database server's process on MariaDB/MySQL, and the parents; and what that allows: the most
 * checkouts a second the cores and the event loop can do, and by Little's law the least average
 * wait of 50 parents.
 *
 * Last, the target: the same fetch parents, held (each again as soon as its last checkout is
 * done), 500 checkouts against the server that has just served the held run, nothing cold. Its p99
 * is judged PASS/FAIL against 300 ms (docs/performance.md, "Checkout tails on a warm server"). On
 * SQLite the largest the WAL grew during the held runs is printed too (docs/operations.md,
 * "SQLite's checkpoints").
 * BENCH_CPU_PROF=<dir> profiles the server (one profile per server start).
 *
 * The reference, in the same run at the same concurrency: the rows a checkout writes (customer,
 * order with its lines, payment) inserted straight through the repositories, one transaction per
 * checkout, with no HTTP, validation, pricing or reads: the database's own cost of a checkout.
 * For the fresh start, the same rows through a fresh connection pool, also with nothing excluded.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Knex } from 'knex';
import { Agent, fetch as undiciFetch } from 'undici';
import { thebeToDecimal } from '../contract/money';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { buildRuntime } from '../src/bootstrap';
import { createKnex, createMysqlDatabase, databaseTarget, dropMysqlDatabase, insertedId } from '../src/db/knex';
import { hashPassword } from '../src/http/passwords';
import { createCustomersRepository } from '../src/customers/customers.repository';
import { createOrdersRepository } from '../src/orders/orders.repository';
import { newOrderId } from '../src/orders/order-id';
import type { PhotoInfo, PricedLine } from '../src/orders/pricing';
import { createPaymentsRepository } from '../src/payments/payments.repository';
import { generateDemoPhoto } from '../src/media/generate';
import { createPhotoRepository } from '../src/photos/photos.repository';
import { benchEnv, freePort, memoryOf, stop, waitForHealth, mysqlReachable, profileOptions, startCompiledServer } from './server-process';

const PARENTS = Number(process.env.BENCH_PARENTS ?? 50);
const CHECKOUTS_PER_PARENT = Number(process.env.BENCH_CHECKOUTS ?? 10);
const LINES = Number(process.env.BENCH_LINES ?? 4);
const PHOTOS = 12;
const SCHOOL_PASSWORD = 'bench-school-1';
const MYSQL_SERVER_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

interface Product {
  id: string;
  name: string;
  description: string;
  priceThebe: number;
  kind: 'print' | 'digital';
}

interface Prepared {
  env: Record<string, string>;
  url: string;
  schoolId: number;
  albumId: number;
  photos: PhotoInfo[];
  products: Product[];
}

/** A school with a price list and a class of photos stored as an upload stores them. */
async function prepare(dir: string, databaseUrl: string): Promise<Prepared> {
  const port = await freePort();
  const env = benchEnv(dir, port, { DATABASE_URL: databaseUrl, NODE_ENV: 'development' });
  const config = loadConfig(env, dir);
  const runtime = await buildRuntime(config, createLogger('warn'));
  try {
    const { knex, media } = runtime;
    const at = Date.now();
    const priceListId = insertedId(await knex('price_lists').insert({ name: 'Standard', description: '', created_at: at, updated_at: at }));
    const products: Product[] = [];
    for (const [position, [name, description, priceThebe]] of ([
      ['Glossy Print', '10x15', 3000],
      ['HD Download', 'Digital copy', 1750],
    ] as const).entries()) {
      const id = insertedId(await knex('price_list_items').insert({ price_list_id: priceListId, product_type: name, description, price_thebe: priceThebe, position }));
      products.push({ id: String(id), name, description, priceThebe, kind: 'print' });
    }
    const closing = new Date(Date.now() + 30 * 24 * 3600_000).toISOString().slice(0, 10);
    const schoolId = insertedId(
      await knex('schools').insert({ name: 'Bench Primary School', slug: 'bench-primary', password_hash: await hashPassword(SCHOOL_PASSWORD), contact_email: 'office@bench.example', closing_date: closing, price_list_id: priceListId, created_at: at }),
    );
    const albumId = insertedId(await knex('albums').insert({ school_id: schoolId, name: 'Class 4B', password_hash: null, created_at: at }));
    const repo = createPhotoRepository(knex);
    const photos: PhotoInfo[] = [];
    for (let i = 0; i < PHOTOS; i++) {
      const upload = path.join(media.tmpDir, `bench-${i}.jpg`);
      await fs.mkdir(media.tmpDir, { recursive: true });
      await fs.writeFile(upload, await generateDemoPhoto({ seed: 900 + i, label: `Student ${i + 1}`, width: 600, height: 800 }));
      const originalName = `IMG_${2000 + i}.JPG`;
      const stored = await media.ingestPhoto({ path: upload, originalName, size: 0 });
      const [row] = await repo.insertMany([{ albumId, originalName, originalNumber: String(2000 + i), stored }]);
      if (!row) throw new Error('photo row not stored');
      photos.push({ id: Number(row.id), albumId, schoolId, albumName: 'Class 4B', albumHasPassword: false, accessMode: 'school_password', studentId: null, doNotPublish: false, withheld: false, albumPublished: true, originalName, originalNumber: String(2000 + i), filename: stored.filename });
    }
    return { env, url: env.PUBLIC_URL, schoolId, albumId, photos, products };
  } finally {
    await runtime.close();
  }
}

/** The cart of checkout `n`: LINES photos, prints and digital copies alternating. */
function cart(prepared: Prepared, n: number): { photo: PhotoInfo; product: Product; quantity: number }[] {
  return Array.from({ length: LINES }, (_, i) => ({
    photo: prepared.photos[(n + i) % prepared.photos.length] as PhotoInfo,
    product: prepared.products[i % prepared.products.length] as Product,
    quantity: 1 + (i % 2),
  }));
}

function orderBody(prepared: Prepared, n: number) {
  const lines = cart(prepared, n);
  return {
    schoolId: prepared.schoolId,
    customerName: `Parent ${n}`,
    customerEmail: `parent-${n}-${randomBytes(4).toString('hex')}@bench.example`,
    customerPhone: '+267 71 000 000',
    studentName: `Student ${n}`,
    totalAmount: thebeToDecimal(lines.reduce((sum, line) => sum + line.product.priceThebe * line.quantity, 0)),
    items: lines.map((line) => ({
      photoId: line.photo.id,
      albumId: line.photo.albumId,
      productType: line.product.id,
      productName: line.product.name,
      productDescription: line.product.description,
      quantity: line.quantity,
      unitPrice: thebeToDecimal(line.product.priceThebe),
      totalPrice: thebeToDecimal(line.product.priceThebe * line.quantity),
    })),
    notes: '',
  };
}

/** Kept-alive connections, one per parent, as each parent's browser keeps its own. */
const agent = new http.Agent({ keepAlive: true, maxSockets: PARENTS });

/**
 * A JSON POST over node:http, accepting brotli and gzip as a browser does: the lightest client at
 * hand, since the parents' side shares the machine's cores with the server being measured.
 */
function postJson(url: string, payload: unknown, cookie: string): Promise<{ status: number; body: unknown }> {
  const data = Buffer.from(JSON.stringify(payload));
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': data.length, 'Accept-Encoding': 'br, gzip', Cookie: cookie } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            const raw = Buffer.concat(chunks);
            const encoding = response.headers['content-encoding'];
            const text = (encoding === 'br' ? zlib.brotliDecompressSync(raw) : encoding === 'gzip' ? zlib.gunzipSync(raw) : raw).toString('utf8');
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown });
          } catch (err) {
            reject(err as Error);
          }
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(data);
  });
}

/** One parent's checkout over HTTP: the order, then its payment request. */
async function checkout(url: string, cookie: string, prepared: Prepared, n: number): Promise<void> {
  const placed = await postJson(`${url}/api/orders`, orderBody(prepared, n), cookie);
  const body = placed.body as { order?: { id: string }; message?: string };
  if (placed.status !== 201 || !body.order) throw new Error(`POST /api/orders answered ${placed.status}: ${body.message}`);
  const paying = await postJson(`${url}/api/payment/initiate`, { orderId: body.order.id }, cookie);
  const initiated = paying.body as { success?: boolean; processUrl?: string };
  if (!initiated.success || !initiated.processUrl) throw new Error(`POST /api/payment/initiate answered ${paying.status}`);
}

/** The reference: the rows of one checkout, written straight through the repositories. */
async function bareCheckout(knex: Knex, prepared: Prepared, n: number): Promise<void> {
  const lines: PricedLine[] = cart(prepared, n).map(({ photo, product, quantity }) => ({
    photo,
    product,
    quantity,
    unitThebe: product.priceThebe,
    totalThebe: product.priceThebe * quantity,
    digital: product.name === 'HD Download',
    childHeld: false,
  }));
  const id = newOrderId();
  const email = `bare-${n}-${randomBytes(4).toString('hex')}@bench.example`;
  await knex.transaction(async (trx) => {
    const customer = await createCustomersRepository(trx).insert({ email, passwordHash: null, firstName: 'Bare', lastName: `Parent ${n}`, phone: null });
    await createOrdersRepository(trx).insert({
      id,
      schoolId: prepared.schoolId,
      customerId: customer.id,
      customerName: `Bare Parent ${n}`,
      customerEmail: email,
      customerPhone: null,
      studentName: `Student ${n}`,
      notes: null,
      idempotencyKey: null,
      idempotencyHash: null,
      totalThebe: lines.reduce((sum, line) => sum + line.totalThebe, 0),
      lines,
      packages: [],
      subtotalThebe: lines.reduce((sum, line) => sum + line.totalThebe, 0),
      siblingDiscountThebe: 0,
      coupon: null,
    });
  });
  await createPaymentsRepository(knex).insert({
    orderId: id,
    gateway: 'sandbox',
    paygateId: '10011072130',
    payRequestId: randomBytes(16).toString('hex').toUpperCase(),
    reference: id,
    amountThebe: lines.reduce((sum, line) => sum + line.totalThebe, 0),
    currency: 'BWP',
    method: 'card',
  });
}

interface Run {
  checkouts: number;
  seconds: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** The quantiles of a set of latencies in ms (nearest rank). */
function quantiles(values: number[]): { p50: number; p95: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 };
}

/**
 * PARENTS parents at once, `rounds` checkouts each, every checkout timed. In waves, all of them
 * check out together and the next wave starts when the last one is done (a rush of parents who
 * each pay once); otherwise each parent starts its next checkout as soon as its last one is done
 * (the same load held without a pause).
 */
async function rush(rounds: number, one: (n: number) => Promise<void>, mode: 'waves' | 'continuous'): Promise<Run> {
  const latencies: number[] = [];
  const timedOne = async (n: number) => {
    const begun = performance.now();
    await one(n);
    latencies.push(performance.now() - begun);
  };
  const parents = Array.from({ length: PARENTS }, (_, parent) => parent);
  const started = performance.now();
  if (mode === 'waves') {
    for (let round = 0; round < rounds; round++) await Promise.all(parents.map((parent) => timedOne(round * PARENTS + parent)));
  } else {
    await Promise.all(
      parents.map(async (parent) => {
        for (let round = 0; round < rounds; round++) await timedOne(round * PARENTS + parent);
      }),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  return { checkouts: latencies.length, seconds, ...quantiles(latencies) };
}

/** CPU seconds (user + system) a process, or with `thread` one of its threads, has used so far, from /proc. */
async function cpuSecondsOf(pid: number, thread?: number): Promise<number> {
  const file = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  const fields = (await fs.readFile(file, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of the line, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The local MariaDB/MySQL server's process, if one runs on this machine: its CPU counts against the same cores. */
async function databaseServerPid(): Promise<number | null> {
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const name = await fs.readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '');
    if (name.trim() === 'mariadbd' || name.trim() === 'mysqld') return Number(entry);
  }
  return null;
}

/** Where the CPU of a run went, per checkout, in ms: every process on the machine's cores that serves it. */
interface CpuBudget {
  /** The server's event-loop thread: every request's JavaScript runs here, one at a time. */
  serverMain: number;
  /** The server's other threads: V8's compilers and garbage collector helpers, libuv's pool. */
  serverOther: number;
  /** The database server's process; null on SQLite, which runs inside the server (or a MySQL server elsewhere). */
  database: number | null;
  /** The parents' fetch clients, all in this process. */
  parents: number;
}

/** Starts counting the CPU of the server `pid`, of the database server when `mysql` says it is local, and of this process. */
async function countCpu(pid: number, mysql: boolean): Promise<() => Promise<(checkouts: number) => CpuBudget>> {
  const databasePid = mysql ? await databaseServerPid() : null;
  const read = async () => ({
    main: await cpuSecondsOf(pid, pid),
    all: await cpuSecondsOf(pid),
    database: databasePid === null ? null : await cpuSecondsOf(databasePid),
  });
  const before = await read();
  const parents = process.cpuUsage();
  return async () => {
    const used = process.cpuUsage(parents);
    const after = await read();
    return (checkouts: number) => ({
      serverMain: ((after.main - before.main) * 1000) / checkouts,
      serverOther: ((after.all - after.main - (before.all - before.main)) * 1000) / checkouts,
      database: after.database === null || before.database === null ? null : ((after.database - before.database) * 1000) / checkouts,
      parents: (used.user + used.system) / 1000 / checkouts,
    });
  };
}

/** The compiled server as `npm start` runs it; BENCH_CPU_PROF=<dir> profiles it. */
function startServer(env: Record<string, string>): ChildProcess {
  return startCompiledServer(env, { nodeOptions: profileOptions() });
}


async function unlock(url: string): Promise<string> {
  const res = await fetch(`${url}/api/schools/bench-primary/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ password: SCHOOL_PASSWORD }) });
  if (!res.ok) throw new Error(`unlocking the school answered ${res.status}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

interface ColdRun {
  /** Spawn to the first 200 from /api/health, polled as waitForHealth polls. */
  readyMs: number;
  checkout: Run;
  /** Every request of the run (unlocks, orders, payments), each timed alone. */
  requests: Run;
  /** Each parent's first checkout: the ones that meet the server cold. */
  first: Run;
  /** The CPU each checkout cost, the server's and everything else's on the same cores. */
  cpu: CpuBudget;
}

/** A JSON POST through one parent's own fetch client; the answer's status, body and cookies. */
async function fetchJson(client: Agent, url: string, payload: unknown, cookie: string): Promise<{ status: number; body: unknown; cookies: string[] }> {
  const res = await undiciFetch(url, {
    method: 'POST',
    dispatcher: client,
    headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as unknown, cookies: res.headers.getSetCookie() };
}

/**
 * The server started anew, then at once PARENTS parents, each with its own fetch client: unlock,
 * then CHECKOUTS_PER_PARENT checkouts one after another. Nothing is excluded: the first request
 * after /api/health answers is counted like the last. With `running`, the same parents meet a
 * server that has already served: what is left when nothing is cold.
 */
async function fromStart(prepared: Prepared, mysql: boolean, running?: ChildProcess): Promise<ColdRun> {
  const spawned = performance.now();
  const server = running ?? startServer(prepared.env);
  const clients = Array.from({ length: PARENTS }, () => new Agent({ keepAliveTimeout: 30_000 }));
  try {
    await waitForHealth(prepared.url, server);
    const readyMs = performance.now() - spawned;
    const checkouts: number[] = [];
    const firsts: number[] = [];
    const requests: number[] = [];
    const timed = async <T>(request: () => Promise<T>): Promise<T> => {
      const begun = performance.now();
      const result = await request();
      requests.push(performance.now() - begun);
      return result;
    };
    const started = performance.now();
    const counted = await countCpu(server.pid ?? 0, mysql);
    await Promise.all(
      clients.map(async (client, parent) => {
        const unlocked = await timed(() => fetchJson(client, `${prepared.url}/api/schools/bench-primary/verify`, { password: SCHOOL_PASSWORD }, ''));
        if (unlocked.status !== 200) throw new Error(`unlocking the school answered ${unlocked.status}`);
        const cookie = unlocked.cookies.map((c) => c.split(';')[0]).join('; ');
        for (let round = 0; round < CHECKOUTS_PER_PARENT; round++) {
          const n = (running ? 9_000_000 : 7_000_000) + round * PARENTS + parent;
          const begun = performance.now();
          const placed = await timed(() => fetchJson(client, `${prepared.url}/api/orders`, orderBody(prepared, n), cookie));
          const order = placed.body as { order?: { id: string }; message?: string };
          if (placed.status !== 201 || !order.order) throw new Error(`POST /api/orders answered ${placed.status}: ${order.message}`);
          const paying = await timed(() => fetchJson(client, `${prepared.url}/api/payment/initiate`, { orderId: order.order?.id }, cookie));
          const initiated = paying.body as { success?: boolean; processUrl?: string };
          if (!initiated.success || !initiated.processUrl) throw new Error(`POST /api/payment/initiate answered ${paying.status}`);
          checkouts.push(performance.now() - begun);
          if (round === 0) firsts.push(performance.now() - begun);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = (await counted())(checkouts.length);
    return {
      readyMs,
      checkout: { checkouts: checkouts.length, seconds, ...quantiles(checkouts) },
      requests: { checkouts: requests.length, seconds, ...quantiles(requests) },
      first: { checkouts: firsts.length, seconds, ...quantiles(firsts) },
      cpu,
    };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    if (!running) await stop(server);
  }
}

/** Samples the size of SQLite's WAL file every 20 ms until the returned function is called, which gives the largest seen, in bytes. */
function watchWal(databaseUrl: string): () => Promise<number | null> {
  if (!databaseUrl.startsWith('sqlite:')) return async () => null;
  const wal = `${databaseTarget(databaseUrl).database}-wal`;
  let most = 0;
  let sampling: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    sampling = fs.stat(wal).then((stat) => void (most = Math.max(most, stat.size)), () => undefined);
  }, 20);
  return async () => {
    clearInterval(timer);
    await sampling;
    return most;
  };
}

/** The reference for a fresh start: the rows of each checkout through a new pool, nothing excluded. */
async function bareFromStart(databaseUrl: string, prepared: Prepared): Promise<Run> {
  const knex = createKnex(databaseTarget(databaseUrl));
  try {
    return await rush(CHECKOUTS_PER_PARENT, (n) => bareCheckout(knex, prepared, 8_000_000 + n), 'continuous');
  } finally {
    await knex.destroy();
  }
}

async function measure(label: string, databaseUrl: string, dir: string): Promise<void> {
  console.log(`${label}: preparing the school`);
  const prepared = await prepare(dir, databaseUrl);
  // First, while the server has never run on this database: from the start, nothing excluded.
  // The database server's CPU is counted when it runs on this machine, sharing its cores.
  const localMysql = databaseUrl.startsWith('mysql:') && ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(databaseUrl).hostname);
  const cold = await fromStart(prepared, localMysql);
  const bareCold = await bareFromStart(databaseUrl, prepared);
  const server = startServer(prepared.env);
  try {
    await waitForHealth(prepared.url, server);
    // Every parent unlocks the school in their own browser before the rush.
    const cookies: string[] = [];
    for (let i = 0; i < PARENTS; i++) cookies.push(await unlock(prepared.url));
    const viaApi = (n: number) => checkout(prepared.url, cookies[n % PARENTS] as string, prepared, n);
    await rush(1, (n) => viaApi(1_000_000 + n), 'waves');
    const cpuBefore = await cpuSecondsOf(server.pid ?? 0);
    const clientBefore = process.cpuUsage();
    const apiWaves = await rush(CHECKOUTS_PER_PARENT, (n) => viaApi(2_000_000 + n), 'waves');
    const clientUsed = process.cpuUsage(clientBefore);
    const clientCpuMs = (clientUsed.user + clientUsed.system) / 1000 / apiWaves.checkouts;
    const apiCpuMs = (((await cpuSecondsOf(server.pid ?? 0)) - cpuBefore) * 1000) / apiWaves.checkouts;
    const walWatch = watchWal(databaseUrl);
    const apiHeld = await rush(CHECKOUTS_PER_PARENT, (n) => viaApi(3_000_000 + n), 'continuous');
    // The fresh start's parents again, now against this server, which has served 1,050 checkouts: the target.
    const warm = await fromStart(prepared, localMysql, server);
    const mostWal = await walWatch();
    const memory = await memoryOf(server.pid ?? 0);
    await stop(server);

    const knex = createKnex(databaseTarget(databaseUrl));
    let bareWaves: Run;
    let bareHeld: Run;
    try {
      await rush(1, (n) => bareCheckout(knex, prepared, 4_000_000 + n), 'waves');
      bareWaves = await rush(CHECKOUTS_PER_PARENT, (n) => bareCheckout(knex, prepared, 5_000_000 + n), 'waves');
      bareHeld = await rush(CHECKOUTS_PER_PARENT, (n) => bareCheckout(knex, prepared, 6_000_000 + n), 'continuous');
    } finally {
      await knex.destroy();
    }

    const rate = (run: Run) => run.checkouts / run.seconds;
    const ms = (value: number) => `${value.toFixed(0).padStart(4)} ms`;
    const row = (name: string, run: Run) =>
      console.log(`  ${name} ${rate(run).toFixed(1).padStart(7)} checkouts/s   p50 ${ms(run.p50)}   p95 ${ms(run.p95)}   p99 ${ms(run.p99)}   max ${ms(run.max)}   (${run.checkouts} in ${run.seconds.toFixed(1)} s)`);
    console.log('');
    console.log(`${label}: ${PARENTS} parents, ${LINES} lines a cart, ${CHECKOUTS_PER_PARENT} checkouts each`);
    console.log(`  all ${PARENTS} at once, wave after wave:`);
    row('  API (order + payment):', apiWaves);
    row('  rows written directly:', bareWaves);
    console.log(`    ratio API/direct:      ${(rate(apiWaves) / rate(bareWaves)).toFixed(3)}`);
    console.log(`  each parent again at once, held:`);
    row('  API (order + payment):', apiHeld);
    row('  rows written directly:', bareHeld);
    console.log(`    ratio API/direct:      ${(rate(apiHeld) / rate(bareHeld)).toFixed(3)}`);
    console.log(`  from a fresh start (ready in ${cold.readyMs.toFixed(0)} ms), each parent its own fetch client, nothing excluded (for reference, not a target on two shared cores):`);
    row('  API (order + payment):', cold.checkout);
    row('  rows written directly:', bareCold);
    console.log(`    every request (${cold.requests.checkouts}: unlocks, orders, payments):  p50 ${ms(cold.requests.p50)}   p95 ${ms(cold.requests.p95)}   p99 ${ms(cold.requests.p99)}   max ${ms(cold.requests.max)}`);
    console.log(`    each parent's first checkout (${cold.first.checkouts}):           p50 ${ms(cold.first.p50)}   p95 ${ms(cold.first.p95)}   p99 ${ms(cold.first.p99)}   max ${ms(cold.first.max)}`);
    console.log(`    ratio API/direct:      ${(rate(cold.checkout) / rate(bareCold)).toFixed(3)}`);
    const budget = cold.cpu;
    const total = budget.serverMain + budget.serverOther + (budget.database ?? 0) + budget.parents;
    const cores = os.cpus().length;
    // The rate the cores allow if nothing else ran, and the one thread every request's JavaScript shares allows.
    const ceiling = Math.min((cores * 1000) / total, 1000 / budget.serverMain);
    console.log(
      `    CPU a checkout from the start: server's event loop ${budget.serverMain.toFixed(2)} ms, its other threads ${budget.serverOther.toFixed(2)} ms, ` +
        `database server ${budget.database === null ? (databaseUrl.startsWith('mysql:') ? '(not counted: no local server process)' : '(in the server)') : `${budget.database.toFixed(2)} ms`}, parents (fetch) ${budget.parents.toFixed(2)} ms: ${total.toFixed(2)} ms in all`,
    );
    console.log(
      `    on ${cores} cores at most ${ceiling.toFixed(0)} checkouts/s, so ${PARENTS} parents wait at least ${((PARENTS / ceiling) * 1000).toFixed(0)} ms a checkout on average (Little's law); ` +
        `a p99 under 300 ms needs about ${(PARENTS / 0.25).toFixed(0)}/s, at most ${((cores * 1000 * 0.25) / PARENTS).toFixed(1)} ms of CPU a checkout in all`,
    );
    console.log(`  THE TARGET: the same fetch parents, held, ${warm.checkout.checkouts} checkouts against this server when it has already served (nothing cold, the cores still shared):`);
    row('  API (order + payment):', warm.checkout);
    console.log(`    each parent's first checkout (${warm.first.checkouts}):           p50 ${ms(warm.first.p50)}   p95 ${ms(warm.first.p95)}   p99 ${ms(warm.first.p99)}   max ${ms(warm.first.max)}`);
    console.log(
      `    CPU a checkout: server's event loop ${warm.cpu.serverMain.toFixed(2)} ms, its other threads ${warm.cpu.serverOther.toFixed(2)} ms, ` +
        `database server ${warm.cpu.database === null ? '-' : `${warm.cpu.database.toFixed(2)} ms`}, parents ${warm.cpu.parents.toFixed(2)} ms`,
    );
    console.log(`    ${label}, held, warm, ${PARENTS} fetch parents: p99 ${warm.checkout.p99.toFixed(0)} ms; p99 < 300 ms: ${warm.checkout.p99 < 300 ? 'PASS' : 'FAIL'}`);
    if (mostWal !== null) console.log(`  the WAL during the held runs: at most ${(mostWal / 1024 / 1024).toFixed(1)} MB`);
    console.log(`  server CPU per checkout: ${apiCpuMs.toFixed(2)} ms (less sensitive to a busy machine than the rates)`);
    console.log(`  the parents' CPU per checkout: ${clientCpuMs.toFixed(2)} ms in waves (node:http), ${cold.cpu.parents.toFixed(2)} ms from the start (fetch); they share the two cores`);
    console.log(`  server peak RSS MB:      ${memory.hwmMb.toFixed(1)}`);
    console.log('');
  } finally {
    await stop(server);
  }
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-checkout-'));
  try {
    await measure('SQLite', `sqlite:${path.join(dir, 'sqlite', 'bench.sqlite')}`, path.join(dir, 'sqlite'));
    if (await mysqlReachable(MYSQL_SERVER_URL)) {
      const name = `bench_checkout_${randomBytes(4).toString('hex')}`;
      await createMysqlDatabase(MYSQL_SERVER_URL, name);
      try {
        const url = new URL(MYSQL_SERVER_URL);
        url.pathname = `/${name}`;
        await measure('MariaDB', url.toString(), path.join(dir, 'mysql'));
      } finally {
        await dropMysqlDatabase(MYSQL_SERVER_URL, name);
      }
    } else {
      console.log(`NOTICE: no MariaDB/MySQL answers at ${MYSQL_SERVER_URL}: the MariaDB run is skipped.`);
    }
  } finally {
    agent.destroy();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

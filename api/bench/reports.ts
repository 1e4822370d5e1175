/**
 * Season reports benchmark (docs/reports.md#how-the-figures-stay-fast): 200 schools, 2,000 classes,
 * 60,000 children on rosters, 60,000 photos, 200,000 orders with their sale lines and about
 * 120,000 gallery visits, seeded straight through SQL (not the HTTP API), then
 * `GET /api/reports/schools` and `GET /api/reports/sales` measured over real HTTP against the server
 * running as its own process, on SQLite and on MariaDB/MySQL (TEST_MYSQL_URL, default
 * mysql://root@127.0.0.1:3306; a bench database is created and dropped; skipped with a notice when
 * none answers). Prints p50/p95 per query shape against the target (p95 < 500 ms).
 *
 * After seeding, the season totals are rolled up as the server's job does within a minute of each
 * payment (the time is printed), so the whole-season report reads them as it would in production.
 *
 * Two honest references in the same run: `GET /api/health` (the HTTP and auth floor: a request
 * that does one trivial query) and a bare `SELECT COUNT(*), SUM(revenue_thebe)` over every paid
 * sale line through a knex connection of the bench itself (the cheapest pass over the same rows,
 * with no grouping and no HTTP). Each shape prints its ratio to both.
 *
 * BENCH_REPORTS_KEEP=<dir> keeps the seeded data (the SQLite file in <dir>, the MariaDB database
 * bench_reports_keep) and reuses it on the next run; migrations still run, so a new index is
 * measured without seeding again.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { buildRuntime } from '../src/bootstrap';
import { createKnex, createMysqlDatabase, databaseTarget, dropMysqlDatabase } from '../src/db/knex';
import { benchEnv, freePort, stop, waitForHealth, mysqlReachable, startCompiledServer } from './server-process';
// The seeded generator the test images use, so every run seeds the same data.
import { random } from '../src/media/generate';

const SCHOOLS = 200;
const CLASSES_PER_SCHOOL = 10;
const CHILDREN_PER_CLASS = 30;
const ORDERS = Number(process.env.BENCH_ORDERS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const WARMUP = 3;
const TARGET_P95_MS = 500;
const MYSQL_SERVER_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const KEEP_DIR = process.env.BENCH_REPORTS_KEEP ?? null;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The season: classes publish over its first 60 days, sales run on for about four months. */
const SEASON_START = Date.UTC(2026, 1, 2) - 2 * 3600_000;
const DAY_MS = 24 * 3600_000;

/** YYYYMMDD of an epoch-ms time in Botswana (UTC+2). */
const dayOf = (ms: number): number => Number(new Date(ms + 2 * 3600_000).toISOString().slice(0, 10).replaceAll('-', ''));

async function insertChunked(knex: Knex, table: string, rows: Record<string, unknown>[], size = 500): Promise<void> {
  for (let start = 0; start < rows.length; start += size) await knex(table).insert(rows.slice(start, start + size));
}

const PRODUCTS = [
  { key: 'product:Glossy Print', name: 'Glossy Print', kind: 'print', digital: false, price: 3000 },
  { key: 'product:Large Print', name: 'Large Print', kind: 'print', digital: false, price: 6500 },
  { key: 'product:HD Download', name: 'HD Download', kind: 'digital', digital: true, price: 1750 },
  { key: 'product:Class Photo', name: 'Class Photo', kind: 'print', digital: false, price: 4000 },
  { key: 'package:1', name: 'Family Package', kind: 'package', digital: false, price: 15000 },
  { key: 'package:2', name: 'Digital Bundle', kind: 'package', digital: true, price: 5000 },
] as const;

/** Seeds the whole season through SQL; the orders in chunks of 2,000 (one transaction each). */
async function seed(knex: Knex): Promise<void> {
  const rand = random(26);
  const at = SEASON_START;
  const schools: Record<string, unknown>[] = [];
  const albums: Record<string, unknown>[] = [];
  const students: Record<string, unknown>[] = [];
  const photos: Record<string, unknown>[] = [];
  const publishAt = new Map<number, number | null>();
  for (let s = 1; s <= SCHOOLS; s++) {
    const mode = s % 2 === 0 ? 'student_codes' : 'school_password';
    schools.push({ id: s, name: `School ${s}`, slug: `school-${s}`, password_hash: 'x', contact_email: `office${s}@bench.example`, closing_date: '2026-06-30', access_mode: mode, created_at: at });
    for (let c = 1; c <= CLASSES_PER_SCHOOL; c++) {
      const albumId = (s - 1) * CLASSES_PER_SCHOOL + c;
      const published = at + ((s * 7 + c) % 60) * DAY_MS + 9 * 3600_000;
      // One class in twenty is not published: its publish day is its first photo's.
      const publishedAt = albumId % 20 === 0 ? null : published;
      publishAt.set(albumId, published);
      albums.push({ id: albumId, school_id: s, name: `Class ${c}`, status: publishedAt === null ? 'draft' : 'published', published_at: publishedAt, archived_at: albumId % 50 === 0 ? published + 90 * DAY_MS : null, created_at: at });
      for (let k = 1; k <= CHILDREN_PER_CLASS; k++) {
        const studentId = (albumId - 1) * CHILDREN_PER_CLASS + k;
        students.push({ id: studentId, album_id: albumId, name: `Child ${studentId}`, code: `C${String(studentId).padStart(7, '0')}`, created_at: at, updated_at: at });
        // A hex key as storage keys are; the small thumbnail is marked made, so the server's backfill leaves these rows alone.
        const key = `be7c${String(studentId).padStart(16, '0')}`;
        photos.push({
          album_id: albumId,
          filename: `${key}.jpg`,
          storage_key: key,
          original_name: `IMG_${studentId}.JPG`,
          file_size: 1,
          mime_type: 'image/jpeg',
          width: 1,
          height: 1,
          thumb_width: 1,
          thumb_height: 1,
          thumb_etag: key,
          preview_etag: key,
          small_thumb_width: 1,
          small_thumb_height: 1,
          small_thumb_etag: key,
          student_id: studentId,
          created_at: published - DAY_MS + k * 60_000,
        });
      }
    }
  }
  await insertChunked(knex, 'schools', schools);
  await insertChunked(knex, 'albums', albums);
  await insertChunked(knex, 'students', students);
  await insertChunked(knex, 'photos', photos, 400);
  console.log(`  ${SCHOOLS} schools, ${albums.length} classes, ${students.length} children, ${photos.length} photos`);

  const visits: Record<string, unknown>[] = [];
  for (const student of students) {
    const studentId = Number(student.id);
    const albumId = Number(student.album_id);
    const schoolId = Math.ceil(albumId / CLASSES_PER_SCHOOL);
    if (rand() > 0.7) continue;
    const codes = schoolId % 2 === 0;
    const first = dayOf((publishAt.get(albumId) ?? at) + Math.floor(rand() * 10) * DAY_MS);
    const visitor = codes ? `c:${studentId}` : `g${randomBytes(12).toString('hex')}`;
    const kind = codes ? 'child' : 'grant';
    visits.push({ school_id: schoolId, album_id: codes ? albumId : null, student_id: codes ? studentId : null, kind, visitor, day: first, subject: `${visitor}:0:${first}`, created_at: at });
    visits.push({ school_id: schoolId, album_id: albumId, student_id: codes ? studentId : null, kind, visitor, day: first, subject: `${visitor}:${albumId}:${first}`, created_at: at });
  }
  await insertChunked(knex, 'gallery_visits', visits);
  console.log(`  ${visits.length} gallery visits`);

  for (let start = 0; start < ORDERS; start += 2000) {
    const orders: Record<string, unknown>[] = [];
    const lines: Record<string, unknown>[] = [];
    for (let n = start; n < Math.min(ORDERS, start + 2000); n++) {
      const schoolId = 1 + Math.floor(rand() * SCHOOLS);
      const albumId = (schoolId - 1) * CLASSES_PER_SCHOOL + 1 + Math.floor(rand() * CLASSES_PER_SCHOOL);
      const studentId = (albumId - 1) * CHILDREN_PER_CLASS + 1 + Math.floor(rand() * CHILDREN_PER_CLASS);
      const published = publishAt.get(albumId) ?? at;
      // Most sales come in the first days after publishing, then a long tail.
      const offset = Math.min(150, Math.floor(-Math.log(1 - rand()) * 9));
      const placedAt = published + offset * DAY_MS + Math.floor(rand() * DAY_MS);
      const roll = rand();
      const paid = roll < 0.8;
      const status = paid ? 'paid' : roll < 0.9 ? 'pending' : roll < 0.95 ? 'cancelled' : 'pending';
      const payment = paid ? 'completed' : roll < 0.9 ? 'pending' : 'failed';
      const id = `b${String(n).padStart(15, '0')}`;
      const count = 1 + Math.floor(rand() * 3);
      let total = 0;
      const picked = Array.from({ length: count }, () => PRODUCTS[Math.floor(rand() * PRODUCTS.length)] ?? PRODUCTS[0]);
      for (const product of picked) total += product.price;
      // One order in ten has a coupon of 10%: revenue is shared out below the list prices.
      const charged = n % 10 === 0 ? total - Math.floor(total / 10) : total;
      let given = 0;
      picked.forEach((product, i) => {
        const share = i === picked.length - 1 ? charged - given : Math.floor((product.price * charged) / total);
        given += share;
        lines.push({
          order_id: id,
          school_id: schoolId,
          album_id: albumId,
          student_id: studentId,
          item_kind: product.kind,
          item_key: product.key,
          item_name: product.name,
          digital: product.digital,
          digital_thebe: product.digital ? share : 0,
          order_first: i === 0,
          class_first: i === 0,
          quantity: 1,
          list_thebe: product.price,
          revenue_thebe: share,
          placed_day: dayOf(placedAt),
          paid_day: paid ? dayOf(placedAt + 60_000) : null,
          paid_at: paid ? placedAt + 60_000 : null,
          publish_offset: paid ? offset : null,
        });
      });
      orders.push({
        id,
        school_id: schoolId,
        album_id: albumId,
        customer_name: `Parent ${n}`,
        customer_email: `parent${n}@bench.example`,
        student_name: `Child ${studentId}`,
        total_thebe: charged,
        order_status: status,
        payment_status: payment,
        duplicate_payments: paid && n % 500 === 0 ? 1 : 0,
        paid_after_cancel: status === 'cancelled' && n % 100 === 0 ? 1 : 0,
        created_at: placedAt,
        updated_at: placedAt,
      });
    }
    await knex.transaction(async (trx) => {
      await insertChunked(trx, 'orders', orders);
      await insertChunked(trx, 'sales_lines', lines);
    });
    if ((start + 2000) % 50_000 === 0) console.log(`  ${start + 2000}/${ORDERS} orders`);
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function getTimed(url: string, token: string): Promise<{ ms: number; status: number; bytes: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    request.on('error', reject);
  });
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

interface Timing {
  p50: number;
  p95: number;
}

async function timeRounds(run: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < WARMUP; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

function startServer(env: Record<string, string>): ChildProcess {
  // The compiled server as `npm start` runs it.
  return startCompiledServer(env);
}

async function measure(label: string, databaseUrl: string, dir: string): Promise<boolean> {
  await fs.mkdir(dir, { recursive: true });
  const port = await freePort();
  const secret = randomBytes(32).toString('base64url');
  // Production on MySQL requires SMTP_URL; this bench sends no e-mail, so nothing ever connects to it.
  const mail: Record<string, string> = databaseUrl.startsWith('mysql') ? { SMTP_URL: 'smtp://127.0.0.1:9' } : {};
  const env = benchEnv(dir, port, { DATABASE_URL: databaseUrl, JWT_SECRET: secret, ...mail });
  const config = loadConfig(env, dir);
  const runtime = await buildRuntime(config, createLogger('warn'));
  let token: string;
  try {
    const { knex } = runtime;
    const seeded = Number((await knex('schools').count({ count: '*' }).first())?.count ?? 0);
    if (seeded === 0) {
      console.log(`${label}: seeding`);
      const started = performance.now();
      await seed(knex);
      console.log(`  seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    } else {
      console.log(`${label}: reusing the seeded data in ${KEEP_DIR}`);
    }
    // The season totals, as the server's roll-up job keeps them (a minute behind the sales at most).
    const rollStarted = performance.now();
    let rolled = 0;
    for (let run = await runtime.services.reports.rollUpSeasonTotals(); run > 0; run = await runtime.services.reports.rollUpSeasonTotals()) rolled += run;
    if (rolled > 0) console.log(`  season totals: ${rolled} paid lines rolled up in ${((performance.now() - rollStarted) / 1000).toFixed(1)} s`);
    const [staff] = (await knex('staff').where({ email: 'bench@example.com' }).select('id')) as { id: number }[];
    const staffId = staff ? Number(staff.id) : Number((await knex('staff').insert({ email: 'bench@example.com', password_hash: 'x', first_name: 'Bench', last_name: 'Admin', role: 'admin', created_at: Date.now() }))[0]);
    token = runtime.tokens.signStaff({ id: staffId, role: 'admin' });
  } finally {
    await runtime.close();
  }

  const bare = createKnex(databaseTarget(databaseUrl, ROOT));
  const server = startServer(env);
  let ok = true;
  try {
    await waitForHealth(env.PUBLIC_URL, server);
    const lines = await bare('sales_lines').whereNotNull('paid_day').count({ count: '*' }).first();
    console.log(`${label}: ${Number(lines?.count ?? 0)} paid sale lines; p50 / p95 of ${ROUNDS} sequential requests after ${WARMUP} warm-up`);
    const health = await timeRounds(() => getTimed(`${env.PUBLIC_URL}/api/health`, token));
    const scan = await timeRounds(() => bare('sales_lines').whereNotNull('paid_day').count({ count: '*' }).sum({ revenue: 'revenue_thebe' }).first());
    console.log(`  reference GET /api/health                       p50 ${health.p50.toFixed(1).padStart(7)} ms  p95 ${health.p95.toFixed(1).padStart(7)} ms`);
    console.log(`  reference SELECT COUNT, SUM over paid lines     p50 ${scan.p50.toFixed(1).padStart(7)} ms  p95 ${scan.p95.toFixed(1).padStart(7)} ms`);
    const shapes: [string, string][] = [
      ['schools, whole season', '/api/reports/schools'],
      ['schools, 30 days', '/api/reports/schools?from=2026-03-01&to=2026-03-30'],
      ['schools, 7 days', '/api/reports/schools?from=2026-03-02&to=2026-03-08'],
      ['sales by day, whole season', '/api/reports/sales'],
      ['sales by week, whole season', '/api/reports/sales?by=week'],
      ['sales by day, 30 days', '/api/reports/sales?from=2026-03-01&to=2026-03-30'],
      ['sales by week, one school', '/api/reports/sales?schoolId=17&by=week'],
      ['sales by day, one class, 30 days', '/api/reports/sales?schoolId=17&albumId=163&from=2026-03-01&to=2026-03-30'],
    ];
    for (const [name, route] of shapes) {
      const first = await getTimed(`${env.PUBLIC_URL}${route}`, token);
      if (first.status !== 200) throw new Error(`${route} answered ${first.status}`);
      const timing = await timeRounds(() => getTimed(`${env.PUBLIC_URL}${route}`, token));
      const pass = timing.p95 < TARGET_P95_MS;
      ok &&= pass;
      console.log(
        `  ${name.padEnd(40)}   p50 ${timing.p50.toFixed(1).padStart(7)} ms  p95 ${timing.p95.toFixed(1).padStart(7)} ms  ` +
          `(${(timing.p95 / health.p95).toFixed(1)}x health, ${(timing.p95 / scan.p95).toFixed(1)}x bare scan; ${(first.bytes / 1024).toFixed(0)} KB)  ${pass ? 'PASS' : 'FAIL'} (p95 < ${TARGET_P95_MS} ms)`,
      );
    }
  } finally {
    await stop(server);
    await bare.destroy();
  }
  return ok;
}

async function main(): Promise<void> {
  const dir = KEEP_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'bench-reports-')));
  let ok = true;
  try {
    ok = (await measure('SQLite', `sqlite:${path.join(dir, 'sqlite', 'bench.sqlite')}`, path.join(dir, 'sqlite'))) && ok;
    if (await mysqlReachable(MYSQL_SERVER_URL)) {
      const name = KEEP_DIR ? 'bench_reports_keep' : `bench_reports_${randomBytes(4).toString('hex')}`;
      if (KEEP_DIR) {
        const admin = createKnex(databaseTarget(MYSQL_SERVER_URL));
        try {
          await admin.raw(`create database if not exists \`${name}\` character set utf8mb4 collate utf8mb4_unicode_ci`);
        } finally {
          await admin.destroy();
        }
      } else {
        await createMysqlDatabase(MYSQL_SERVER_URL, name);
      }
      try {
        const url = new URL(MYSQL_SERVER_URL);
        url.pathname = `/${name}`;
        ok = (await measure('MariaDB', url.toString(), path.join(dir, 'mysql'))) && ok;
      } finally {
        if (!KEEP_DIR) await dropMysqlDatabase(MYSQL_SERVER_URL, name);
      }
    } else {
      console.log(`NOTICE: no MariaDB/MySQL answers at ${MYSQL_SERVER_URL}: the MariaDB run is skipped.`);
    }
  } finally {
    agent.destroy();
    if (!KEEP_DIR) await fs.rm(dir, { recursive: true, force: true });
  }
  if (!ok) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

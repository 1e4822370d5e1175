/**
 * What matching at the shoot costs ingest: the same 12-megapixel JPEGs (a flyer card photographed
 * from 3 m before every few photos, as at a real shoot) uploaded through one real server, in
 * batches of 10 with the PWA's capture list, into two classes of one school:
 *   off: a class without a roster, so no photo is looked at for a card and nothing is matched;
 *   on:  a class with a roster, so every photo is scanned for a QR card and the session is matched
 *        again after every batch.
 * The two uploads alternate batch by batch, so both meet the same machine load; one batch through
 * each first is not counted (warm-up: the card scan's thread starting, code compiled). The batches
 * go in BENCH_ROUNDS parts (4): the target (on/off >= 0.9) holds in every run, so each round's ratio
 * is judged, not only the whole run's. Prints, per round and overall, photos/s of each, the server's
 * CPU time a photo for each, the ratio on/off with PASS or FAIL, and what matching found.
 * BENCH_MATCHING_PHOTOS sets the number of photos (120); BENCH_INPUT=<dir> keeps the generated shoot
 * there (with its students' codes) for the next run; BENCH_CPU_PROF=<dir> profiles the server (its
 * event loop and the card scan's thread).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createKnex, databaseTarget, insertedId } from '../src/db/knex';
import { generateDemoPhoto } from '../src/media/generate';
import { generateCardPhoto } from '../src/media/generate-card';
import { FLYER_LAYOUT, codeUrl } from '../src/students/flyers';
import { BENCH_ADMIN_ENV, cpuSecondsOf, freePort, json, loginBenchAdmin, waitForHealth, profileOptions, startCompiledServer } from './server-process';

const PHOTOS = Number(process.env.BENCH_MATCHING_PHOTOS ?? 120);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
/** Matching on at least this share of the pace without it, in every round (issue 44, point 5). */
const TARGET = 0.9;
/** A card before every this many photos. */
const CARD_EVERY = 6;
const BATCH = 10;
const WIDTH = 4000;
const HEIGHT = 3000;
const mm = (points: number) => (points * 25.4) / 72;

interface Shot {
  file: string;
  name: string;
  size: number;
}

/** Portraits with camera-like grain (3-6 MB each, like real 12 MP JPEGs), a card of the next child before every few. */
async function generateShoot(dir: string, cardTexts: string[], reuse: boolean): Promise<Shot[]> {
  const grain = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 28 } } })
    .raw()
    .toBuffer();
  const shots: Shot[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    const name = `IMG_${String(i + 1).padStart(4, '0')}.JPG`;
    const file = path.join(dir, name);
    const child = Math.floor(i / CARD_EVERY);
    const kept = reuse ? await fs.stat(file).catch(() => null) : null;
    if (kept) {
      shots.push({ file, name, size: kept.size });
      continue;
    }
    if (i % CARD_EVERY === 0) {
      const bytes = await generateCardPhoto({
        text: cardTexts[child % cardTexts.length] as string,
        seed: 500 + i,
        width: WIDTH,
        height: HEIGHT,
        distanceMm: 3000,
        qrMm: mm(FLYER_LAYOUT.qrSize),
        cardMm: { width: mm(FLYER_LAYOUT.cardWidth), height: mm(FLYER_LAYOUT.cardHeight) },
        qrOffsetMm: { x: mm(FLYER_LAYOUT.padding), y: mm(FLYER_LAYOUT.padding) },
        yaw: ((i * 7) % 60) - 30,
        pitch: ((i * 3) % 20) - 10,
        roll: ((i * 5) % 30) - 15,
      });
      await fs.writeFile(file, bytes);
    } else {
      const scene = await generateDemoPhoto({ seed: 2000 + i, label: `Student ${child + 1}`, width: 1000, height: 750 });
      await sharp(scene)
        .resize(WIDTH, HEIGHT)
        .composite([{ input: grain, raw: { width: WIDTH, height: HEIGHT, channels: 3 }, blend: 'soft-light' }])
        .jpeg({ quality: 90 })
        .toFile(file);
    }
    shots.push({ file, name, size: (await fs.stat(file)).size });
    if ((i + 1) % 40 === 0) console.log(`  generated ${i + 1}/${PHOTOS}`);
  }
  return shots;
}

async function insertSchool(databaseUrl: string): Promise<{ off: number; on: number }> {
  const knex = createKnex(databaseTarget(databaseUrl));
  try {
    const at = Date.now();
    const schoolId = insertedId(await knex('schools').insert({ name: 'Bench School', slug: 'bench-school', password_hash: 'x', contact_email: 'bench@school.example', created_at: at }));
    const off = insertedId(await knex('albums').insert({ school_id: schoolId, name: 'No roster', password_hash: null, created_at: at }));
    const on = insertedId(await knex('albums').insert({ school_id: schoolId, name: 'With roster', password_hash: null, created_at: at }));
    return { off, on };
  } finally {
    await knex.destroy();
  }
}

async function uploadBatch(url: string, token: string, albumId: number, sessionId: string, batch: Shot[], firstSeq: number): Promise<{ seconds: number; matching: unknown }> {
  const form = new FormData();
  form.append('albumId', String(albumId));
  form.append('capture', JSON.stringify({ sessionId, files: batch.map((shot, i) => ({ name: shot.name, size: shot.size, seq: firstSeq + i })) }));
  for (const shot of batch) form.append('photos', new Blob([new Uint8Array(await fs.readFile(shot.file))], { type: 'image/jpeg' }), shot.name);
  const started = performance.now();
  const res = await fetch(`${url}/api/photos/upload-batch`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  const body = await json<{ uploaded: number; matching: unknown }>(res);
  if (body.uploaded !== batch.length) throw new Error(`uploaded ${body.uploaded} of ${batch.length}`);
  return { seconds: (performance.now() - started) / 1000, matching: body.matching };
}

/**
 * Where the shoot is, and the card texts to print: with BENCH_INPUT, a shoot kept there by an
 * earlier run is used again with its students' codes and PUBLIC_URL (what its cards carry); the
 * server only writes that URL into links, so it need not be this run's.
 */
interface KeptShoot {
  publicUrl: string;
  codes: string[];
}

async function keptShoot(input: string): Promise<KeptShoot | null> {
  if (!process.env.BENCH_INPUT) return null;
  const text = await fs.readFile(path.join(input, 'shoot.json'), 'utf8').catch(() => null);
  return text === null ? null : (JSON.parse(text) as KeptShoot);
}

/** The students' codes in the order they were made, as the database holds them. */
async function studentCodes(databaseUrl: string, albumId: number): Promise<{ id: number; code: string }[]> {
  const knex = createKnex(databaseTarget(databaseUrl));
  try {
    return ((await knex('students').where({ album_id: albumId }).orderBy('id').select('id', 'code')) as { id: number; code: string }[]).map((row) => ({ id: Number(row.id), code: row.code }));
  } finally {
    await knex.destroy();
  }
}

async function setStudentCodes(databaseUrl: string, students: { id: number }[], codes: string[]): Promise<void> {
  const knex = createKnex(databaseTarget(databaseUrl));
  try {
    for (const [i, student] of students.entries()) await knex('students').where({ id: student.id }).update({ code: codes[i] });
  } finally {
    await knex.destroy();
  }
}

const verdict = (ratio: number) => (ratio >= TARGET ? 'PASS' : 'FAIL');

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-matching-'));
  const input = process.env.BENCH_INPUT ? path.resolve(process.env.BENCH_INPUT) : path.join(dir, 'input');
  await fs.mkdir(input, { recursive: true });
  const kept = await keptShoot(input);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const publicUrl = kept?.publicUrl ?? url;
  const databaseUrl = `sqlite:${path.join(dir, 'bench.sqlite')}`;
  let child: ChildProcess | null = null;
  try {
    // The compiled server as `npm start` runs it; BENCH_CPU_PROF=<dir>: a CPU profile there, one per thread.
    child = startCompiledServer(
      {
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        DATA_DIR: dir,
        STORAGE_DIR: path.join(dir, 'storage'),
        // The folder: a STORAGE_URL given for bench:ingest's S3 side is not this measurement's.
        STORAGE_URL: 'file:',
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
      },
      { nodeOptions: profileOptions() },
    );
    await waitForHealth(url, child);
    const pid = child.pid ?? 0;
    const token = await loginBenchAdmin(url);
    const albums = await insertSchool(databaseUrl);
    const children = Math.ceil(PHOTOS / CARD_EVERY);
    await json(
      await fetch(`${url}/api/albums/${albums.on}/students`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ students: Array.from({ length: children }, (_, i) => ({ name: `Student ${i + 1}` })) }),
      }),
    );
    const students = await studentCodes(databaseUrl, albums.on);
    if (kept && kept.codes.length >= students.length) await setStudentCodes(databaseUrl, students, kept.codes);
    else if (kept) throw new Error(`the shoot in ${input} has cards for ${kept.codes.length} children, not ${students.length}: empty the folder`);
    const codes = kept?.codes ?? students.map((student) => student.code);

    console.log(`Generating ${PHOTOS} JPEGs of ${WIDTH}x${HEIGHT}, a card photographed from 3 m before every ${CARD_EVERY}, in ${input}`);
    const shots = await generateShoot(
      input,
      codes.map((code) => codeUrl(publicUrl, code)),
      kept !== null,
    );
    if (process.env.BENCH_INPUT && !kept) await fs.writeFile(path.join(input, 'shoot.json'), JSON.stringify({ publicUrl, codes } satisfies KeptShoot));

    const sessions = { off: `bench-off-${randomBytes(6).toString('hex')}`, on: `bench-on-${randomBytes(6).toString('hex')}` };
    const modes = ['off', 'on'] as const;
    // One batch through each first, in a session of its own, not counted: the card scan's thread
    // starting and the code compiling are paid once a process, not by a day of uploads.
    const warmUp = shots.slice(0, BATCH);
    for (const mode of modes) await uploadBatch(url, token, albums[mode], `warm-up-${sessions[mode]}`, warmUp, 0);

    const batches = Math.ceil(shots.length / BATCH);
    const perRound = Math.ceil(batches / ROUNDS);
    console.log(`Uploading to both classes through one server, alternating batches of ${BATCH}, in ${Math.ceil(batches / perRound)} rounds of ${perRound * BATCH} photos`);
    const total = { off: { seconds: 0, cpu: 0 }, on: { seconds: 0, cpu: 0 } };
    let summary: unknown = null;
    let failedRounds = 0;
    for (let round = 0, first = 0; first < batches; round++, first += perRound) {
      const spent = { off: { seconds: 0, cpu: 0 }, on: { seconds: 0, cpu: 0 } };
      let photos = 0;
      for (let b = first; b < Math.min(batches, first + perRound); b++) {
        const batch = shots.slice(b * BATCH, (b + 1) * BATCH);
        photos += batch.length;
        // Which class goes first alternates too, so neither always meets a warmer cache.
        const order = b % 2 === 0 ? modes : ([...modes].reverse() as ('off' | 'on')[]);
        for (const mode of order) {
          const cpuBefore = await cpuSecondsOf(pid);
          const result = await uploadBatch(url, token, albums[mode], sessions[mode], batch, b * BATCH);
          spent[mode].cpu += (await cpuSecondsOf(pid)) - cpuBefore;
          spent[mode].seconds += result.seconds;
          if (mode === 'on') summary = result.matching;
          else if (result.matching !== null) throw new Error('the class without a roster was matched');
        }
      }
      for (const mode of modes) {
        total[mode].seconds += spent[mode].seconds;
        total[mode].cpu += spent[mode].cpu;
      }
      const ratio = spent.off.seconds / spent.on.seconds;
      if (ratio < TARGET) failedRounds += 1;
      const cpuMs = (mode: 'off' | 'on') => ((spent[mode].cpu * 1000) / photos).toFixed(0);
      console.log(
        `  round ${round + 1}: ${photos} photos; off ${(photos / spent.off.seconds).toFixed(2)}/s (${cpuMs('off')} CPU ms a photo), on ${(photos / spent.on.seconds).toFixed(2)}/s (${cpuMs('on')} CPU ms a photo);` +
          ` on/off ${ratio.toFixed(3)} ${verdict(ratio)}`,
      );
    }
    const rate = (s: number) => shots.length / s;
    const cpuMs = (mode: 'off' | 'on') => ((total[mode].cpu * 1000) / shots.length).toFixed(0);
    const ratio = rate(total.on.seconds) / rate(total.off.seconds);
    const found = summary as { cards: number; byCard: number; inTray: number; photos: number };
    console.log('');
    console.log(`photos/s matching off (no roster):  ${rate(total.off.seconds).toFixed(2).padStart(7)}  (${total.off.seconds.toFixed(1)} s for ${shots.length}; ${cpuMs('off')} CPU ms a photo)`);
    console.log(`photos/s matching on (roster, QR):  ${rate(total.on.seconds).toFixed(2).padStart(7)}  (${total.on.seconds.toFixed(1)} s for ${shots.length}; ${cpuMs('on')} CPU ms a photo)`);
    console.log(`ratio on/off:                       ${ratio.toFixed(3).padStart(7)}  (target >= ${TARGET} overall and in every round) ${verdict(ratio)}; rounds failed: ${failedRounds}`);
    console.log(`matching found: ${found.cards} of ${Math.ceil(PHOTOS / CARD_EVERY)} cards, ${found.byCard} of ${found.photos} photos matched by card, ${found.inTray} in the tray`);
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

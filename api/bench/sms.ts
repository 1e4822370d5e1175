/**
 * SMS benchmark (docs/sms.md, "Measured"): 10,000 closing reminders by SMS (one GSM-7 segment
 * each, with a short link and the opt-out link) written to the outbox and delivered by a real
 * server process (its outbox sender, SMPP over SMS_URL with a window of SMS_WINDOW submits) to a
 * real SMPP server in a third process (the test SMS centre, the `smpp` package's server), which
 * answers each submit after BENCH_SMS_LATENCY_MS (10 ms by default: an SMS centre across a
 * network). Prints messages/s.
 *
 * The reference, in the same run: the same `smpp` client submitting the same 10,000 messages to
 * the same server with the same window, with no database. The outbox must reach 0.8 of it (exit 1
 * otherwise). The same pair is also printed at latency 0, for reference only.
 *
 * Then the sender is killed with SIGKILL midway and started again: the SMS centre keeps the
 * outbox message id each submit carries (the TLV 0x1400, docs/sms.md, "Sending"), so every
 * message is counted at the server; lost and duplicated must both be 0 (exit 1 otherwise).
 *
 * SQLite by default; `--mysql` (the server at BENCH_DATABASE_URL or TEST_MYSQL_URL, default
 * mysql://root@127.0.0.1:3306/test) runs it on MySQL/MariaDB in a database of its own.
 * BENCH_MESSAGES, BENCH_SMS_WINDOW and BENCH_SMS_LATENCY_MS change the sizes.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import smpp, { type PDU } from 'smpp';
import { createKnex, databaseTarget } from '../src/db/knex';
import { migrate } from '../src/db/migrate';
import { createLogger } from '../src/logger';
import { OUTBOX_ID_TLV, registerSmppTlvs } from '../src/sms/smpp-protocol';
import { smsSegments, toGsm7 } from '../contract/sms-text';
import { benchDatabase, benchEnv, freePort, stop, waitFor, waitForHealth, startCompiledServer } from './server-process';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10_000);
const WINDOW = Number(process.env.BENCH_SMS_WINDOW ?? 10);
const LATENCY_MS = Number(process.env.BENCH_SMS_LATENCY_MS ?? 10);
const TARGET_RATIO = 0.8;
const SENDER_ID = 'Lesedi';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

interface Sms {
  messageId: string;
  to: string;
  text: string;
}

/** A closing reminder as the season sends it by SMS: one GSM-7 segment, two short links. */
function reminders(publicUrl: string, prefix: string): Sms[] {
  const host = new URL(publicUrl).hostname;
  return Array.from({ length: MESSAGES }, (_, i) => {
    const link = `https://photos.example.bw/s/${randomBytes(9).toString('base64url')}`;
    const stopLink = `https://photos.example.bw/s/${randomBytes(9).toString('base64url')}`;
    const text = toGsm7(`${SENDER_ID}: Ṱhabo's school photos close Fri 20 Nov. Order: ${link} Stop SMS: ${stopLink}`);
    return { messageId: `<${prefix}-${randomUUID()}@${host}>`, to: `+2677${String(1_000_000 + i).slice(-7)}`, text };
  });
}

async function queue(knex: Knex, batch: Sms[]): Promise<void> {
  const at = Date.now();
  await knex.transaction(async (trx) => {
    for (let i = 0; i < batch.length; i += 200) {
      await trx('outbox_messages').insert(
        batch.slice(i, i + 200).map((m) => ({
          message_id: m.messageId,
          channel: 'sms',
          kind: 'closing_reminder',
          recipient: m.to,
          subject: '',
          text: m.text,
          html: '',
          status: 'queued',
          attempts: 0,
          not_before: at,
          created_at: at,
        })),
      );
    }
  });
}

/** The SMS centre's process and a way to ask it. */
async function startSmscProcess(): Promise<{ url: string; ask<T>(question: Record<string, unknown>): Promise<T>; child: ChildProcess }> {
  const child = fork(path.join(HERE, 'smsc-process.ts'), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_SMSC_LATENCY_MS: String(LATENCY_MS) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`the SMS centre process exited (${code})`)));
  });
  let chain: Promise<unknown> = Promise.resolve();
  const ask = <T>(question: Record<string, unknown>): Promise<T> => {
    const answer = chain.then(
      () =>
        new Promise<T>((resolve) => {
          child.once('message', (message) => resolve(message as T));
          child.send(question);
        }),
    );
    chain = answer.catch(() => undefined);
    return answer;
  };
  return { url, ask, child };
}

/** The reference: the same smpp client, bound as the server binds, submitting `batch` with `WINDOW` outstanding. */
async function submitDirect(url: string, batch: Sms[]): Promise<number> {
  registerSmppTlvs();
  const target = new URL(url);
  const session = smpp.connect({ host: target.hostname, port: Number(target.port) });
  session.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    session.on('connect', () =>
      session.bind_transceiver({ system_id: decodeURIComponent(target.username), password: decodeURIComponent(target.password), interface_version: 0x34 }, (resp: PDU) =>
        resp.command_status === 0 ? resolve() : reject(new Error('bind refused')),
      ),
    );
  });
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    let next = 0;
    let answered = 0;
    const submit = () => {
      const m = batch[next++];
      if (!m) return;
      session.submit_sm(
        {
          source_addr_ton: 5,
          source_addr_npi: 0,
          source_addr: SENDER_ID,
          dest_addr_ton: 1,
          dest_addr_npi: 1,
          destination_addr: m.to.slice(1),
          registered_delivery: 1,
          data_coding: 0,
          short_message: m.text,
          [OUTBOX_ID_TLV]: m.messageId,
        },
        (resp: PDU) => {
          if (resp.command_status !== 0) return reject(new Error(`refused: ${resp.command_status}`));
          answered++;
          if (answered === batch.length) resolve();
          else submit();
        },
      );
    };
    for (let i = 0; i < WINDOW; i++) submit();
  });
  const ms = performance.now() - t0;
  await new Promise<void>((resolve) => {
    session.once('close', () => resolve());
    session.unbind(() => session.close());
  });
  return ms;
}

async function main(): Promise<void> {
  const mysqlServer = process.argv.includes('--mysql') ? (process.env.BENCH_DATABASE_URL ?? process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test') : null;
  const { dir, databaseUrl, drop } = await benchDatabase('bench-sms-', mysqlServer);
  const knex = createKnex(databaseTarget(databaseUrl));
  await migrate(knex, createLogger('warn'));
  const smsc = await startSmscProcess();
  const count = async () => (await smsc.ask<{ count: number }>({ ask: 'count' })).count;
  const setLatency = (ms: number) => smsc.ask({ ask: 'latency', ms });
  const port = await freePort();
  const env = benchEnv(dir, port, {
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'development',
    SMS_URL: smsc.url,
    SMS_SENDER_ID: SENDER_ID,
    SMS_WINDOW: String(WINDOW),
    OUTBOX_POLL_MS: '100',
    OUTBOX_LEASE_MS: '5000',
  });
  const url = env.PUBLIC_URL;
  let child: ChildProcess | null = null;
  const sample = reminders(url, 'sample')[0] as Sms;
  const segments = smsSegments(sample.text);
  console.log(
    `SMS benchmark: ${MESSAGES} closing reminders (${segments.encoding}, ${segments.units} characters, ${segments.segments} segment), window ${WINDOW}, ` +
      `SMS centre answering after ${LATENCY_MS} ms in its own process, ${mysqlServer ? 'MySQL/MariaDB' : 'SQLite'}, Node ${process.version}, ${os.cpus().length} CPUs`,
  );
  let failed = false;
  try {
    child = startCompiledServer(env, { inheritEnv: false, stdout: 'ignore' });
    await waitForHealth(url, child);

    /** The outbox: rows queued in one transaction, timed to the last submit the SMS centre took. */
    const throughOutbox = async (prefix: string): Promise<{ ms: number; batch: Sms[] }> => {
      const batch = reminders(url, prefix);
      const before = await count();
      await queue(knex, batch);
      const t0 = performance.now();
      await waitFor('the outbox to deliver', async () => (await count()) - before >= MESSAGES);
      return { ms: performance.now() - t0, batch };
    };
    const rate = (ms: number) => MESSAGES / (ms / 1000);
    const results: { latency: number; outbox: number; direct: number }[] = [];
    for (const latency of [LATENCY_MS, 0]) {
      await setLatency(latency);
      const { ms: outboxMs, batch } = await throughOutbox(`l${latency}`);
      const directMs = await submitDirect(smsc.url, batch);
      results.push({ latency, outbox: rate(outboxMs), direct: rate(directMs) });
      console.log(`latency ${latency} ms: outbox (sender process, database, SMPP) ${rate(outboxMs).toFixed(0)} messages/s; reference (smpp client, no database) ${rate(directMs).toFixed(0)} messages/s; ratio ${(rate(outboxMs) / rate(directMs)).toFixed(2)}`);
    }
    const main = results[0] as { latency: number; outbox: number; direct: number };
    const ratio = main.outbox / main.direct;
    console.log(`outbox / reference at ${LATENCY_MS} ms: ${ratio.toFixed(2)} (target at least ${TARGET_RATIO}${ratio >= TARGET_RATIO ? '' : ': BELOW'})`);
    console.log(
      `for scale: an aggregator account is usually allowed 10-100 messages/s (its agreed rate, with the window, bounds real throughput); at ${main.outbox.toFixed(0)} messages/s the sender is not what limits it`,
    );
    if (ratio < TARGET_RATIO) failed = true;

    // Killed midway with SIGKILL, then started again: counted by outbox message id at the SMS centre.
    await setLatency(LATENCY_MS);
    const killed = reminders(url, 'killed');
    const killedIds = new Set(killed.map((m) => m.messageId));
    const before = await count();
    await queue(knex, killed);
    const sent = async () => Number(((await knex('outbox_messages').where({ status: 'sent', channel: 'sms' }).andWhere('message_id', 'like', '<killed-%').count({ n: '*' })) as { n: number | string }[])[0]?.n ?? 0);
    // At a moment of the bench's own choosing: half taken by the SMS centre, whatever is under way.
    await waitFor('half of them', async () => (await count()) - before >= MESSAGES / 2, 600_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
    const atKill = { taken: (await count()) - before, committed: await sent() };
    console.log(`killed (SIGKILL) with ${atKill.taken} taken by the SMS centre and ${atKill.committed} rows sent in the database (the rest of the window in flight); restarting`);
    const t2 = performance.now();
    child = startCompiledServer(env, { inheritEnv: false, stdout: 'ignore' });
    await waitForHealth(url, child);
    await waitFor('the rest', async () => (await count()) - before >= MESSAGES);
    const resumedMs = performance.now() - t2;
    // Anything submitted twice would come within the lease (5 s): watch twice as long.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const { ids } = await smsc.ask<{ ids: string[] }>({ ask: 'ids' });
    const counts = new Map<string, number>();
    for (const id of ids) if (killedIds.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
    const lost = [...killedIds].filter((id) => !counts.has(id)).length;
    const duplicated = [...counts.values()].filter((n) => n > 1).length;
    const left = (await knex('outbox_messages').where({ channel: 'sms' }).whereNot({ status: 'sent' }).count({ n: '*' })) as { n: number | string }[];
    console.log(`after the restart (start, bind and the rest in ${(resumedMs / 1000).toFixed(1)} s): lost ${lost}, duplicated ${duplicated}, rows not sent ${Number(left[0]?.n ?? 0)}`);
    await stop(child);
    child = null;
    if (lost !== 0 || duplicated !== 0) failed = true;
  } finally {
    if (child) child.kill('SIGKILL');
    smsc.child.kill('SIGTERM');
    await knex.destroy();
    await drop();
  }
  if (failed) process.exitCode = 1;
}

await main();

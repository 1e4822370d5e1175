/**
 * Outbox benchmark (docs/email.md, "The outbox"): 10,000 queued "ordering closes in 3 days"
 * reminders (realistic size, with the List-Unsubscribe headers) delivered by a real server process
 * (its outbox sender, OUTBOX_CONCURRENCY connections) to a real SMTP server in this process
 * (smtp-server, the tests' mail catcher). Prints messages/s.
 *
 * The reference, in the same run at the same concurrency: the same 10,000 messages sent straight by
 * nodemailer's pooled SMTP transport (pool: true, as many connections) to the same server, with no
 * database: what the outbox's durability costs is the difference.
 *
 * Then the same again with the sender process killed (SIGKILL) midway and started again: every
 * message counted by its Message-ID at the SMTP server, lost and duplicated must both be 0.
 *
 * SQLite by default; BENCH_DATABASE_URL=mysql://… runs it on MySQL/MariaDB (a database of its own,
 * created and dropped). BENCH_MESSAGES and BENCH_CONCURRENCY change the sizes.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import nodemailer from 'nodemailer';
import type { Knex } from 'knex';
import { createKnex, databaseTarget } from '../src/db/knex';
import { migrate } from '../src/db/migrate';
import { createLogger } from '../src/logger';
import { button, escapeHtml, layout } from '../src/mail/html';
import { unsubscribeHeaders, unsubscribePageUrl, unsubscribeToken } from '../src/outreach/unsubscribe';
import { messageIdOf, startMailCatcher, type MailCatcher } from '../test/mail-catcher';
import { benchDatabase, benchEnv, freePort, stop, waitFor, waitForHealth, startCompiledServer } from './server-process';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const BUSINESS = 'Lesedi School Photos';

interface Reminder {
  messageId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/** A closing reminder as a school's season sends it: a few KB of text and HTML, one-click unsubscribe. */
function reminders(publicUrl: string, secret: string, prefix: string): Reminder[] {
  const host = new URL(publicUrl).hostname;
  return Array.from({ length: MESSAGES }, (_, i) => {
    const to = `${prefix}-${i}@families.example.bw`;
    const token = unsubscribeToken(secret, to);
    const gallery = `${publicUrl}/school/${1 + (i % 40)}`;
    const unsubscribe = unsubscribePageUrl(publicUrl, token);
    const lines = [
      `Dumela,`,
      ``,
      `Ordering for Maru-a-Pula Primary School's 2026 photos closes in 3 days, on Friday 20 November.`,
      `Prints are delivered to the school; digital copies download at once. After the closing date the`,
      `photos can no longer be ordered.`,
      ``,
      `See the photos and order: ${gallery}`,
      ``,
      ...Array.from({ length: 12 }, (_, k) => `- Class ${k + 1}: individual portrait, siblings and the class group are ready to view.`),
      ``,
      `You get this e-mail because you asked to hear when photos are online and before ordering closes.`,
      `Stop these e-mails: ${unsubscribe}`,
    ];
    const text = lines.join('\n');
    const html = layout(
      BUSINESS,
      'Ordering closes in 3 days',
      lines.map((line) => `<p style="margin:0 0 8px">${escapeHtml(line)}</p>`).join('') + button(gallery, 'See the photos') + `<p><a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p>`,
    );
    return { messageId: `<${randomUUID()}@${host}>`, to, subject: `Ordering closes in 3 days: ${BUSINESS}`, text, html, headers: unsubscribeHeaders(publicUrl, token) };
  });
}

async function queue(knex: Knex, batch: Reminder[]): Promise<void> {
  const at = Date.now();
  await knex.transaction(async (trx) => {
    for (let i = 0; i < batch.length; i += 200) {
      await trx('outbox_messages').insert(
        batch.slice(i, i + 200).map((m) => ({
          message_id: m.messageId,
          kind: 'closing_reminder',
          recipient: m.to,
          subject: m.subject,
          text: m.text,
          html: m.html,
          headers: JSON.stringify(m.headers),
          status: 'queued',
          attempts: 0,
          not_before: at,
          created_at: at,
        })),
      );
    }
  });
}

function startSender(env: Record<string, string>): ChildProcess {
  // The compiled server as `npm start` runs it, with nothing of this process's environment.
  return startCompiledServer(env, { inheritEnv: false, stdout: 'ignore' });
}

/** Counts the arrivals among `ids`, reading each captured message once (the catcher shares this event loop). */
function arrivals(mail: MailCatcher, ids: Set<string>): () => number {
  let seen = 0;
  let count = 0;
  return () => {
    for (; seen < mail.messages.length; seen++) if (ids.has(messageIdOf(mail.messages[seen]?.raw ?? '') ?? '')) count++;
    return count;
  };
}

async function main(): Promise<void> {
  const mysqlServer = process.env.BENCH_DATABASE_URL ?? null;
  const { dir, databaseUrl, drop } = await benchDatabase('bench-outbox-', mysqlServer);
  const knex = createKnex(databaseTarget(databaseUrl));
  await migrate(knex, createLogger('warn'));
  const mail = await startMailCatcher();
  const port = await freePort();
  const env = benchEnv(dir, port, {
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'development',
    SMTP_URL: mail.url,
    OUTBOX_CONCURRENCY: String(CONCURRENCY),
    OUTBOX_POLL_MS: '100',
    OUTBOX_LEASE_MS: '5000',
  });
  const url = env.PUBLIC_URL;
  const secret = env.JWT_SECRET ?? '';
  let child: ChildProcess | null = null;
  console.log(`outbox benchmark: ${MESSAGES} closing reminders, ${CONCURRENCY} at a time, ${mysqlServer ? 'MySQL/MariaDB' : 'SQLite'}, Node ${process.version}, ${os.cpus().length} CPUs`);
  try {
    // 1. The outbox: a real sender process, rows queued in one transaction, timed to the last arrival.
    child = startSender(env);
    await waitForHealth(url, child);
    const first = reminders(url, secret, 'outbox');
    const sample = first[0] as Reminder;
    const sizeKb = Buffer.byteLength(sample.text + sample.html) / 1024;
    const firstIds = new Set(first.map((m) => m.messageId));
    const firstArrived = arrivals(mail, firstIds);
    await queue(knex, first);
    const t0 = performance.now();
    await waitFor('the outbox to deliver', () => firstArrived() >= MESSAGES);
    const outboxMs = performance.now() - t0;
    await stop(child);
    child = null;
    const outboxRate = MESSAGES / (outboxMs / 1000);
    console.log(`outbox (sender process, database, SMTP):  ${MESSAGES} in ${(outboxMs / 1000).toFixed(2)} s = ${outboxRate.toFixed(0)} messages/s (each ~${sizeKb.toFixed(1)} KB of text and HTML)`);

    // 2. The reference: nodemailer's pooled transport straight to the same server, same messages, same concurrency.
    const transport = nodemailer.createTransport({ url: mail.url, pool: true, maxConnections: CONCURRENCY, maxMessages: 100 });
    const before = mail.messages.length;
    const t1 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < first.length) {
          const m = first[next++] as Reminder;
          await transport.sendMail({ from: `${BUSINESS} <no-reply@127.0.0.1>`, to: m.to, subject: m.subject, text: m.text, html: m.html, headers: m.headers, messageId: m.messageId });
        }
      }),
    );
    const directMs = performance.now() - t1;
    transport.close();
    if (mail.messages.length - before !== MESSAGES) throw new Error('the reference lost messages');
    const directRate = MESSAGES / (directMs / 1000);
    console.log(`reference (nodemailer pool, no database):  ${MESSAGES} in ${(directMs / 1000).toFixed(2)} s = ${directRate.toFixed(0)} messages/s`);
    console.log(`outbox / reference: ${(outboxRate / directRate).toFixed(2)}`);

    // 3. Killed midway with SIGKILL, then started again: counted by Message-ID at the SMTP server.
    const third = reminders(url, secret, 'killed');
    const thirdIds = new Set(third.map((m) => m.messageId));
    child = startSender(env);
    await waitForHealth(url, child);
    const thirdArrived = arrivals(mail, thirdIds);
    await queue(knex, third);
    const sending = async () => Number(((await knex('outbox_messages').where({ status: 'sending' }).count({ n: '*' })) as { n: number | string }[])[0]?.n ?? 0);
    await waitFor('half of them', async () => thirdArrived() >= MESSAGES / 2 && (await sending()) > 0);
    child.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
    const atKill = { arrived: thirdArrived(), leftSending: await sending() };
    console.log(`killed (SIGKILL) with ${atKill.arrived} delivered and ${atKill.leftSending} claimed mid-send; restarting`);
    const t2 = performance.now();
    child = startSender(env);
    await waitForHealth(url, child);
    await waitFor('the rest', () => thirdArrived() >= MESSAGES);
    const resumedMs = performance.now() - t2;
    // Anything sent twice would arrive within the lease: watch twice as long.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const counts = new Map<string, number>();
    for (const m of mail.messages) {
      const id = messageIdOf(m.raw) ?? '';
      if (thirdIds.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const lost = [...thirdIds].filter((id) => !counts.has(id)).length;
    const duplicated = [...counts.values()].filter((n) => n > 1).length;
    const left = (await knex('outbox_messages').whereNot({ status: 'sent' }).count({ n: '*' })) as { n: number | string }[];
    console.log(`after the restart (start, health and the rest in ${(resumedMs / 1000).toFixed(1)} s): lost ${lost}, duplicated ${duplicated}, rows not sent ${Number(left[0]?.n ?? 0)}`);
    await stop(child);
    child = null;
    if (lost !== 0 || duplicated !== 0) process.exitCode = 1;
  } finally {
    if (child) child.kill('SIGKILL');
    await knex.destroy();
    await mail.close();
    await drop();
  }
}

await main();

import os from 'node:os';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeApi, startTestServer, type TestServer } from '../../test/harness';
import { messageIdOf, startMailCatcher, type MailCatcher } from '../../test/mail-catcher';
import { createJobLock } from '../jobs/job-lock';
import { LOOP_LOAD_WINDOW_MS } from '../lib/loop-load';
import { createMailer } from '../mail/mailer';
import { createOutbox, OUTBOX_BUSY_PAUSE_MS, retryDelayMs } from './outbox.service';

/** The outbox's core: a row written is sent once, with its Message-ID and headers, and marked sent. */
describeApi('the outbox', () => {
  let server: TestServer;
  let mail: MailCatcher;
  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url });
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('delivers an enqueued message once, with its Message-ID and extra headers, and marks it sent', async () => {
    const { outbox } = server.runtime.services;
    const written = await outbox.enqueue({
      kind: 'photos_online',
      to: 'guardian@example.test',
      subject: 'Photos are online',
      text: 'Hello',
      html: '<p>Hello</p>',
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      dedupeKey: 'test:one',
    });
    expect(written).toBe(true);
    expect(await outbox.enqueue({ kind: 'photos_online', to: 'guardian@example.test', subject: 'x', text: 'x', html: 'x', dedupeKey: 'test:one' })).toBe(false);
    outbox.kick();
    const message = await mail.waitFor('guardian@example.test');
    expect(message.subject).toBe('Photos are online');
    expect(message.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const messageId = /^Message-ID: (<[^>]+>)/im.exec(message.raw)?.[1];
    expect(messageId).toMatch(/@127\.0\.0\.1>$/);
    await mail.noMoreThan(1, { to: 'guardian@example.test', within: 1500 });
  });
});

describeApi('the outbox when the relay says no', () => {
  let server: TestServer;
  let mail: MailCatcher;
  beforeAll(async () => {
    let retryAsked = false;
    mail = await startMailCatcher({
      refuse: (message) => {
        if (message.to.includes('retry@example.test') && !retryAsked) {
          retryAsked = true;
          return { code: 451, text: 'Try again later' };
        }
        if (message.to.includes('refused@example.test')) return { code: 550, text: 'No such mailbox' };
        return null;
      },
    });
    server = await startTestServer({ SMTP_URL: mail.url });
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  const idOf = async (dedupeKey: string): Promise<number> => {
    const row = (await server.runtime.knex('outbox_messages').where({ dedupe_key: dedupeKey }).first('id')) as { id: number };
    return row.id;
  };

  it('retries with exponential backoff after a 4xx, with the same Message-ID, and sends it once', async () => {
    const { outbox } = server.runtime.services;
    await outbox.enqueue({ kind: 'password_reset', to: 'retry@example.test', subject: 'Retry', text: 'x', html: 'x', dedupeKey: 'test:retry' });
    const id = await idOf('test:retry');
    const firstTry = Date.now();
    await outbox.deliverDue();
    await vi.waitFor(async () => expect((await outbox.get(id))?.attempts).toBe(1));
    const waiting = await outbox.get(id);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1, sentAt: null });
    expect(waiting?.lastError).toMatch(/451/);
    // The first retry waits 30 s; the next ones twice as long each time.
    expect(retryDelayMs(1)).toBe(30_000);
    expect(retryDelayMs(2)).toBe(60_000);
    expect(waiting?.notBefore).toBeGreaterThanOrEqual(firstTry + 30_000);
    expect(waiting?.notBefore).toBeLessThanOrEqual(Date.now() + 30_000);
    expect(mail.refused.filter((m) => m.to.includes('retry@example.test'))).toHaveLength(1);

    // Not before its time.
    await outbox.deliverDue();
    expect((await outbox.get(id))?.status).toBe('queued');
    // Once it is due, it goes.
    await outbox.deliverDue(Date.now() + 31_000);
    const sent = await outbox.get(id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    const arrived = mail.messages.filter((m) => m.to.includes('retry@example.test'));
    expect(arrived).toHaveLength(1);
    expect(messageIdOf(arrived[0]?.raw ?? '')).toBe(sent?.messageId);
    expect(messageIdOf(mail.refused[0]?.raw ?? '')).toBe(sent?.messageId);
  });

  it('fails a message for good on a 5xx, visible as status failed, and never retries it', async () => {
    const { outbox } = server.runtime.services;
    await outbox.enqueue({ kind: 'order_confirmation', to: 'refused@example.test', subject: 'Refused', text: 'x', html: 'x', dedupeKey: 'test:refused' });
    const id = await idOf('test:refused');
    await outbox.deliverDue();
    await vi.waitFor(async () => expect((await outbox.get(id))?.status).toBe('failed'));
    const failed = await outbox.get(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, sentAt: null });
    expect(failed?.failedAt).not.toBeNull();
    expect(failed?.lastError).toMatch(/550/);
    await outbox.deliverDue(Date.now() + 24 * 3600_000);
    expect((await outbox.get(id))?.attempts).toBe(1);
    expect(mail.refused.filter((m) => m.to.includes('refused@example.test'))).toHaveLength(1);
    expect(mail.messages.filter((m) => m.to.includes('refused@example.test'))).toHaveLength(0);
  });

  it('sends each message exactly once while three senders with their own locks drain one queue at once', async () => {
    const { runtime } = server;
    const senders = [0, 1].map(() => {
      // A sender as another process would run it: its own job lock, its own SMTP connections.
      const jobLock = createJobLock({ knex: runtime.knex, dialect: 'sqlite', database: `other-${Math.random()}`, redis: null, logger: runtime.logger });
      const mailer = createMailer({ smtpUrl: mail.url, outboxDir: os.tmpdir(), from: 'x <no-reply@127.0.0.1>', logger: runtime.logger, connections: 4 });
      return { mailer, outbox: createOutbox({ ...runtime, jobLock, mailer }, { leaseMs: 10_000, concurrency: 4 }) };
    });
    const before = mail.messages.length;
    const count = 240;
    for (let i = 0; i < count; i++) {
      await runtime.services.outbox.enqueue({ kind: 'closing_reminder', to: `race-${i}@example.test`, subject: `Race ${i}`, text: 'x', html: 'x' });
    }
    await Promise.all([runtime.services.outbox.deliverDue(), ...senders.map((sender) => sender.outbox.deliverDue())]);
    await mail.waitForMessages(count, { after: before, match: (m) => m.subject.startsWith('Race ') });
    await mail.noMoreThan(count, { after: before, match: (m) => m.subject.startsWith('Race '), within: 1000 });
    const ids = mail.messages.slice(before).map((m) => messageIdOf(m.raw));
    expect(new Set(ids).size).toBe(count);
    const byClaimer = (await runtime.knex('outbox_messages').where('subject', 'like', 'Race %').groupBy('claimed_by').select('claimed_by').count({ n: '*' })) as { n: number }[];
    // Every sender got some of them (the claims, not a lock, kept them apart).
    expect(byClaimer.length).toBeGreaterThan(1);
    for (const sender of senders) await sender.mailer.close();
  });
});

/**
 * While the server's event loop is busy (a rush of requests), the sender trickles: each worker
 * waits OUTBOX_BUSY_PAUSE_MS before its next message; when the loop is free it sends at once.
 */
describeApi('the outbox while the server is busy', () => {
  let server: TestServer;
  let mail: MailCatcher;
  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url, OUTBOX_CONCURRENCY: '1' });
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  /** Queues `count` messages, kicks the sender and resolves how long until the last one arrived. */
  async function sendBatch(tag: string, count: number): Promise<number> {
    const before = mail.messages.length;
    for (let i = 0; i < count; i++) {
      await server.runtime.services.outbox.enqueue({ kind: 'closing_reminder', to: `${tag}-${i}@example.test`, subject: `${tag} ${i}`, text: 'x', html: 'x' });
    }
    const started = performance.now();
    server.runtime.services.outbox.kick();
    await mail.waitForMessages(count, { after: before, match: (m) => m.subject.startsWith(`${tag} `) });
    const elapsed = performance.now() - started;
    await mail.noMoreThan(count, { after: before, match: (m) => m.subject.startsWith(`${tag} `), within: 300 });
    return elapsed;
  }

  it('sends at once on a free loop, one message per pause and worker on a busy one, and every message once', async () => {
    const count = 6;
    // Quiet for longer than the sender looks back, so the server's start is behind it.
    await new Promise((resolve) => setTimeout(resolve, 2 * LOOP_LOAD_WINDOW_MS));
    const free = await sendBatch('Free', count);
    // The loop always at work, one millisecond a turn, as when it answers a rush of checkouts;
    // sockets are still read every turn, so only the sender's pauses slow the mail down.
    let spinning = true;
    const spin = () => {
      const until = performance.now() + 1;
      while (performance.now() < until);
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    let busy: number;
    try {
      // Busy for longer than the sender looks back, as in a rush: otherwise its first readings
      // still cover the quiet moment before the spin began, and rightly say the loop is free.
      await new Promise((resolve) => setTimeout(resolve, 2 * LOOP_LOAD_WINDOW_MS));
      busy = await sendBatch('Busy', count);
    } finally {
      spinning = false;
    }
    expect(busy).toBeGreaterThanOrEqual((count - 1) * OUTBOX_BUSY_PAUSE_MS);
    expect(free).toBeLessThan((count - 1) * OUTBOX_BUSY_PAUSE_MS);
  });
});

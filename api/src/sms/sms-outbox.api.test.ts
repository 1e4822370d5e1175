import fs from 'node:fs/promises';
import path from 'node:path';
import smpp from 'smpp';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeApi, startTestServer, type TestServer } from '../../test/harness';
import { smsSuite } from '../../test/sms-suite';
import { localDayStart } from '../outreach/send-window';
import { createDatabase } from '../db/database';

const waitUntil = async (check: () => Promise<boolean> | boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const ALWAYS = { from: '00:00', until: '24:00' };

/** SMS through the outbox to a real SMPP server (docs/sms.md, "Sending" and "Delivery receipts"). */
describeApi('SMS through the outbox', () => {
  const suite = smsSuite();
  afterEach(() => suite.smsc.refuseNext(0, 0));

  const rowByText = (text: string) => suite.server.runtime.knex('outbox_messages').where({ text }).first() as Promise<Record<string, unknown>>;

  it('submits an SMS once, stores the SMS centre id and records its delivery receipt', async () => {
    const { outbox } = suite.server.runtime.services;
    expect(await outbox.enqueue({ channel: 'sms', kind: 'photos_online', to: '+26771234567', subject: '', text: 'Photos of Thabo are online', html: '', dedupeKey: 'sms:test:1' })).toBe(true);
    expect(await outbox.enqueue({ channel: 'sms', kind: 'photos_online', to: '+26771234567', subject: '', text: 'again', html: '', dedupeKey: 'sms:test:1' })).toBe(false);
    outbox.kick();
    const [message] = await suite.smsc.waitFor(1);
    const stored = await rowByText('Photos of Thabo are online');
    expect(message).toMatchObject({ to: '+26771234567', from: 'Test Studio', text: 'Photos of Thabo are online', dataCoding: 0, outboxMessageId: stored.message_id });
    await waitUntil(async () => (await rowByText('Photos of Thabo are online')).smsc_message_id === message!.smscId);
    expect(await rowByText('Photos of Thabo are online')).toMatchObject({ channel: 'sms', status: 'sent', delivery_status: null });
    await suite.smsc.deliver(message!.smscId, 'DELIVRD');
    const recorded = await rowByText('Photos of Thabo are online');
    expect(recorded.delivery_status).toBe('delivered');
    expect(Number(recorded.delivered_at)).toBeGreaterThan(0);
    await outbox.deliverDue(Date.now() + 24 * 60 * 60_000);
    expect(suite.smsc.messages.filter((m) => m.outboxMessageId === stored.message_id)).toHaveLength(1);
  });

  it('retries a throttled submit with the backoff and fails a refused one for good', async () => {
    const { outbox } = suite.server.runtime.services;
    suite.smsc.refuseNext(smpp.ESME_RTHROTTLED, 1);
    await outbox.enqueue({ channel: 'sms', kind: 'order_confirmation', to: '+26771234501', subject: '', text: 'throttled once', html: '' });
    await outbox.deliverDue();
    const throttled = await rowByText('throttled once');
    expect(throttled).toMatchObject({ status: 'queued', attempts: 1 });
    expect(String(throttled.last_error)).toMatch(/ESME_RTHROTTLED/);
    await outbox.deliverDue(Date.now() + 31_000);
    expect(await rowByText('throttled once')).toMatchObject({ status: 'sent', attempts: 2 });
    expect(suite.smsc.messages.filter((m) => m.text === 'throttled once')).toHaveLength(1);

    suite.smsc.refuseNext(smpp.ESME_RINVDSTADR, 1);
    await outbox.enqueue({ channel: 'sms', kind: 'order_confirmation', to: '+26771234502', subject: '', text: 'bad number', html: '' });
    await outbox.deliverDue();
    const failed = await rowByText('bad number');
    expect(failed.status).toBe('failed');
    expect(String(failed.last_error)).toMatch(/ESME_RINVDSTADR/);
    await outbox.deliverDue(Date.now() + 7 * 60 * 60_000);
    expect(suite.smsc.messages.filter((m) => m.text === 'bad number')).toHaveLength(0);
  });

  it('while the SMS centre is down, writing SMS succeeds; they go out once it is back', async () => {
    const { outbox } = suite.server.runtime.services;
    await suite.smsc.goDown();
    // The sender has seen its connection close (a submit written just before would be kept as sent: docs/sms.md, "Sending").
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      await createDatabase(suite.server.runtime.knex).transaction(async (tx) => {
        await outbox.enqueue({ channel: 'sms', kind: 'order_confirmation', to: '+26771234503', subject: '', text: 'while down', html: '' }, tx);
      });
      await outbox.deliverDue();
      const waiting = await rowByText('while down');
      expect(waiting.status).toBe('queued');
      expect(String(waiting.last_error)).toMatch(/SMS centre is not available/);
      expect(Number(waiting.not_before)).toBeGreaterThan(Date.now());
    } finally {
      await suite.smsc.comeBack();
    }
    // Bound again (within the rebind backoff), the waiting SMS go at once, not after their retry time.
    await waitUntil(() => suite.smsc.messages.some((m) => m.text === 'while down'), 15_000);
    await waitUntil(async () => (await rowByText('while down')).status === 'sent');
    expect(suite.smsc.messages.filter((m) => m.text === 'while down')).toHaveLength(1);
  });

  it('writes a non-transactional SMS without headers, none to an unsubscribed phone, one a day per guardian across both channels', async () => {
    const { outbox } = suite.server.runtime.services;
    const knex = suite.server.runtime.knex;
    const now = Date.now();
    const [guardianId] = await knex('guardians').insert({
      email: 'naledi@example.test',
      phone: '+26771234504',
      consent_version: '1',
      consent_at: now,
      created_at: now,
      updated_at: now,
    });
    const [unsubscribedId] = await knex('guardians').insert({
      email: null,
      phone: '+26771234505',
      consent_version: '1',
      consent_at: now,
      unsubscribed_at: now,
      created_at: now,
      updated_at: now,
    });
    expect(unsubscribedId).toBeGreaterThan(0);
    const plan = { window: ALWAYS, earliest: now };
    // An e-mail to the guardian today…
    await createDatabase(knex).transaction(async (tx) => {
      expect(await outbox.enqueueNonTransactional({ kind: 'closing_reminder', to: 'naledi@example.test', subject: 'Closing', text: 'x', html: 'x', guardianId: Number(guardianId) }, plan, tx)).toBe(true);
      // …moves their SMS to the next day.
      expect(
        await outbox.enqueueNonTransactional({ channel: 'sms', kind: 'closing_reminder', to: '+26771234504', subject: '', text: 'sms to naledi', html: '', guardianId: Number(guardianId), dedupeKey: 'sms:c:1' }, plan, tx),
      ).toBe(true);
      expect(await outbox.enqueueNonTransactional({ channel: 'sms', kind: 'closing_reminder', to: '+26771234505', subject: '', text: 'unsubscribed', html: '', dedupeKey: 'sms:c:2' }, plan, tx)).toBe(false);
    });
    const sms = await rowByText('sms to naledi');
    expect(sms.headers).toBeNull();
    expect(sms.channel).toBe('sms');
    expect(localDayStart(Number(sms.not_before))).toBeGreaterThan(localDayStart(now));
    expect(await rowByText('unsubscribed')).toBeUndefined();
    const email = await knex('outbox_messages').where({ recipient: 'naledi@example.test' }).first();
    expect(JSON.parse(String(email.headers))).toHaveProperty('List-Unsubscribe');
    await knex('outbox_messages').whereIn('id', [sms.id, email.id]).delete();
  });
});

describeApi('SMS without an SMS centre', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes each SMS as a file to data/sms-outbox and marks it sent', async () => {
    const { outbox } = server.runtime.services;
    await outbox.enqueue({ channel: 'sms', kind: 'order_confirmation', to: '+26771234567', subject: '', text: 'Your photos are paid: http://x/s/abc', html: '' });
    await outbox.deliverDue();
    const dir = path.join(server.config.dataDir, 'sms-outbox');
    const files = (await fs.readdir(dir)).filter((name) => name.endsWith('.txt'));
    expect(files).toHaveLength(1);
    expect(await fs.readFile(path.join(dir, files[0]!), 'utf8')).toContain('To: +26771234567\nFrom: Test Studio\n');
    expect(await server.runtime.knex('outbox_messages').where({ channel: 'sms' }).first()).toMatchObject({ status: 'sent', smsc_message_id: null });
  });
});

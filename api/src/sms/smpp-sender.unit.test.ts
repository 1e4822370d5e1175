import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import smpp from 'smpp';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmsc, type TestSmsc } from '../../test/smsc';
import { createLogger } from '../logger';
import { SendAbortedError } from '../mail/mailer';
import type { SmsReceipt, SmsSender } from '../deps';
import { createSmppSender, type SmppSenderOptions } from './smpp-sender';
import { createFileSmsSender } from './file-sender';
import { SmsCentreUnavailableError, SmsRefusedError } from './errors';

const logger = createLogger('silent');
const waitUntil = async (check: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/** The SMPP transport against a real SMPP server (the test SMS centre), never a mock (docs/sms.md, "Sending"). */
describe('the SMPP transport', () => {
  let smsc: TestSmsc | null = null;
  let sender: SmsSender | null = null;
  afterEach(async () => {
    await sender?.close();
    await smsc?.stop();
    sender = null;
    smsc = null;
  });
  const open = (url: string, options: Partial<SmppSenderOptions> = {}) =>
    (sender = createSmppSender({ url, senderId: 'Lesedi', window: 10, logger, rebindMinMs: 50, rebindMaxMs: 200, ...options }));

  it('binds with the URL\'s account and submits with the sender, the E.164 digits, GSM-7 and a receipt asked for', async () => {
    smsc = await startSmsc();
    const sms = open(smsc.url);
    const answer = await sms.send({ to: '+26771234567', text: 'Photos of Thabo are online: {link} €5 @ 10:00', messageId: '<m1@test>' });
    expect(answer.smscId).toBe(smsc.messages[0]?.smscId);
    expect(smsc.stats.binds).toBe(1);
    expect(smsc.messages).toEqual([
      {
        to: '+26771234567',
        from: 'Lesedi',
        text: 'Photos of Thabo are online: {link} €5 @ 10:00',
        dataCoding: 0,
        smscId: answer.smscId,
        outboxMessageId: '<m1@test>',
        sourceTon: 5,
        sourceNpi: 0,
        destTon: 1,
        destNpi: 1,
        registeredDelivery: 1,
      },
    ]);
  });

  it('carries the outbox id TLV only when SMS_URL asks for it (?outbox_id_tlv=1)', async () => {
    smsc = await startSmsc();
    const plain = new URL(smsc.url);
    plain.search = '';
    const sms = open(plain.toString());
    await sms.send({ to: '+26771234567', text: 'No tag', messageId: '<m0@test>' });
    expect(smsc.messages.map((m) => m.outboxMessageId)).toEqual([null]);
  });

  it('sends a numeric sender as an international number, and a text that still needs UCS-2 as UCS-2', async () => {
    smsc = await startSmsc();
    const sms = open(smsc.url, { senderId: '+26771000000' });
    await sms.send({ to: '+27821234567', text: 'Ṱhabo', messageId: '<m2@test>' });
    expect(smsc.messages[0]).toMatchObject({ from: '26771000000', sourceTon: 1, sourceNpi: 1, to: '+27821234567', dataCoding: 8, text: 'Ṱhabo' });
  });

  it('writes nothing when the commit point refuses', async () => {
    smsc = await startSmsc();
    const sms = open(smsc.url);
    const refused = sms.send({ to: '+26771234567', text: 'x', messageId: '<m3@test>' }, { beforeFinal: () => Promise.reject(new Error('claim lost')) });
    await expect(refused).rejects.toBeInstanceOf(SendAbortedError);
    await sms.send({ to: '+26771234568', text: 'y', messageId: '<m4@test>' });
    expect(smsc.stats.submits).toBe(1);
    expect(smsc.messages.map((m) => m.outboxMessageId)).toEqual(['<m4@test>']);
  });

  it('reports a refused submit, permanent or worth another try', async () => {
    smsc = await startSmsc();
    const sms = open(smsc.url);
    smsc.refuseNext(smpp.ESME_RTHROTTLED);
    const throttled = await sms.send({ to: '+26771234567', text: 'x', messageId: '<m5@test>' }).catch((err: unknown) => err);
    expect(throttled).toBeInstanceOf(SmsRefusedError);
    expect((throttled as SmsRefusedError).permanent).toBe(false);
    expect((throttled as SmsRefusedError).message).toMatch(/ESME_RTHROTTLED/);
    smsc.refuseNext(smpp.ESME_RINVDSTADR);
    const bad = await sms.send({ to: '+26771234567', text: 'x', messageId: '<m6@test>' }).catch((err: unknown) => err);
    expect((bad as SmsRefusedError).permanent).toBe(true);
    expect(smsc.messages).toEqual([]);
  });

  it('keeps at most the window of submits outstanding', async () => {
    smsc = await startSmsc({ latencyMs: 50 });
    const sms = open(smsc.url, { window: 3 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => sms.send({ to: '+26771234567', text: `m${i}`, messageId: `<w${i}@test>` })));
    expect(smsc.messages).toHaveLength(12);
    expect(smsc.stats.maxOutstanding).toBe(3);
  });

  it('is refused a bind with a wrong password, and says the SMS centre is unavailable', async () => {
    smsc = await startSmsc();
    const sms = open(smsc.url.replace(':secret@', ':wrong@'));
    await expect(sms.send({ to: '+26771234567', text: 'x', messageId: '<m7@test>' })).rejects.toBeInstanceOf(SmsCentreUnavailableError);
    expect(smsc.stats.refusedBinds).toBeGreaterThanOrEqual(1);
    expect(smsc.messages).toEqual([]);
  });

  it('binds again after the SMS centre drops the connection, and after it was down', async () => {
    smsc = await startSmsc();
    const sms = open(smsc.url);
    let available = 0;
    sms.onAvailable(() => available++);
    await sms.send({ to: '+26771234567', text: 'one', messageId: '<r1@test>' });
    smsc.dropSessions();
    await waitUntil(() => smsc!.stats.binds === 2);
    await sms.send({ to: '+26771234567', text: 'two', messageId: '<r2@test>' });
    await smsc.goDown();
    await waitUntil(() => false, 100).catch(() => undefined);
    await expect(sms.send({ to: '+26771234567', text: 'lost', messageId: '<r3@test>' })).rejects.toBeInstanceOf(SmsCentreUnavailableError);
    const before = available;
    await smsc.comeBack();
    await waitUntil(() => available > before);
    await sms.send({ to: '+26771234567', text: 'three', messageId: '<r4@test>' });
    expect(smsc.messages.map((m) => m.text)).toEqual(['one', 'two', 'three']);
  });

  it('keeps the bind alive with enquire_link', async () => {
    smsc = await startSmsc();
    open(smsc.url, { enquireLinkMs: 50 });
    await waitUntil(() => smsc!.stats.enquireLinks >= 3);
    expect(smsc.stats.binds).toBe(1);
  });

  it('hands each delivery receipt to the listener and answers it once recorded', async () => {
    smsc = await startSmsc();
    const sms = open(smsc.url);
    const receipts: SmsReceipt[] = [];
    let calls = 0;
    sms.onReceipt(async (receipt) => {
      calls++;
      // The first call finds no row yet (its submit_sm_resp is being stored): it is tried again.
      if (calls === 1) return false;
      receipts.push(receipt);
      return true;
    });
    const { smscId } = await sms.send({ to: '+26771234567', text: 'x', messageId: '<d1@test>' });
    await smsc.deliver(smscId!, 'UNDELIV');
    expect(receipts).toEqual([{ smscId, status: 'failed', at: expect.any(Number) }]);
    const second = await sms.send({ to: '+26771234567', text: 'y', messageId: '<d2@test>' });
    await smsc.deliver(second.smscId!, 'DELIVRD');
    expect(receipts[1]).toMatchObject({ smscId: second.smscId, status: 'delivered' });
  });
});

describe('the SMS outbox folder', () => {
  it('writes one file per SMS, renamed into place after the commit point; none when it refuses', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sms-folder-'));
    const sms = createFileSmsSender({ dir, senderId: 'Lesedi', logger, logLinks: true });
    let committed = false;
    const answer = await sms.send({ to: '+26771234567', text: 'Photos online: http://x/s/abc', messageId: '<f1@test>' }, { beforeFinal: async () => void (committed = true) });
    expect(answer).toEqual({ smscId: null });
    expect(committed).toBe(true);
    await expect(sms.send({ to: '+26771234567', text: 'no', messageId: '<f2@test>' }, { beforeFinal: () => Promise.reject(new Error('lost')) })).rejects.toBeInstanceOf(SendAbortedError);
    const files = await fs.readdir(dir);
    expect(files).toHaveLength(1);
    const body = await fs.readFile(path.join(dir, files[0]!), 'utf8');
    expect(body).toBe('To: +26771234567\nFrom: Lesedi\nMessage-ID: <f1@test>\nEncoding: GSM-7\nSegments: 1 (29 units)\n\nPhotos online: http://x/s/abc\n');
    await fs.rm(dir, { recursive: true, force: true });
  });
});

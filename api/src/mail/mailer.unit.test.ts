import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';
import { createMailer, firstUrl } from './mailer';
import { passwordResetEmail } from './templates';
import { parseEml } from './eml.test-helpers';

const RESET_URL = 'https://photos.example.bw/reset-password?token=abc123&x=1';
const message = {
  to: 'parent@example.bw',
  ...passwordResetEmail({ firstName: 'Naledi', resetUrl: RESET_URL, businessName: 'Lesedi School Photos' }),
};

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

describe('mailer without SMTP (outbox)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'outbox-test-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('writes one parseable .eml per message and logs recipient, subject and the first link', async () => {
    const { logger, lines } = capturingLogger();
    const outboxDir = path.join(dir, 'outbox');
    const mailer = createMailer({ smtpUrl: null, outboxDir, from: 'Lesedi School Photos <no-reply@photos.example.bw>', logger });
    await mailer.send(message);
    await mailer.send({ ...message, to: 'other@example.bw' });
    const files = (await fs.readdir(outboxDir)).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-[0-9a-f]{8}\.eml$/);

    const eml = parseEml(await fs.readFile(path.join(outboxDir, files[0] ?? ''), 'utf8'));
    expect(eml.headers.subject).toBe('Reset your Lesedi School Photos password');
    expect(eml.headers.from).toBe('Lesedi School Photos <no-reply@photos.example.bw>');
    expect(eml.headers.to).toBe('parent@example.bw');
    expect(eml.headers['content-type']).toMatch(/^multipart\/alternative/);
    expect(eml.text).toContain(RESET_URL);
    expect(eml.html).toContain('href="https://photos.example.bw/reset-password?token=abc123&#38;x=1"');

    const logged = lines.filter((line) => line.msg === 'mail written to outbox');
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({ to: 'parent@example.bw', subject: message.subject, link: RESET_URL });
    await mailer.close();
  });

  it('finds the first http(s) link in a text', () => {
    expect(firstUrl('Open https://a.example/x?y=1.\nThen http://b.example')).toBe('https://a.example/x?y=1.');
    expect(firstUrl('no link here')).toBeNull();
  });
});

describe('mailer over SMTP', () => {
  let catcher: MailCatcher;
  beforeAll(async () => {
    catcher = await startMailCatcher();
  });
  afterAll(() => catcher.close());

  it('delivers to a real SMTP server, which receives subject, recipient and the link', async () => {
    const { logger, lines } = capturingLogger();
    const mailer = createMailer({
      smtpUrl: catcher.url,
      outboxDir: path.join(os.tmpdir(), 'unused-outbox'),
      from: 'Lesedi School Photos <no-reply@photos.example.bw>',
      logger,
    });
    await mailer.send(message);
    await mailer.close();
    expect(catcher.messages).toHaveLength(1);
    expect(catcher.messages[0]?.from).toBe('no-reply@photos.example.bw');
    expect(catcher.messages[0]?.to).toEqual(['parent@example.bw']);
    const eml = parseEml(catcher.messages[0]?.raw ?? '');
    expect(eml.headers.subject).toBe('Reset your Lesedi School Photos password');
    expect(eml.headers.to).toBe('parent@example.bw');
    expect(eml.text).toContain(RESET_URL);
    const sent = lines.find((line) => line.msg === 'mail sent over SMTP');
    expect(sent).toMatchObject({ to: 'parent@example.bw' });
    // The link is a password-reset credential: only the outbox mode (development) logs it.
    expect(JSON.stringify(lines)).not.toContain('abc123');
  });

  it('sends queued mails after the answer, and shutdown waits for them', async () => {
    const { logger } = capturingLogger();
    const mailer = createMailer({ smtpUrl: catcher.url, outboxDir: os.tmpdir(), from: 'Lesedi School Photos <no-reply@photos.example.bw>', logger });
    const before = catcher.messages.length;
    const failures: unknown[] = [];
    for (let i = 0; i < 5; i++) mailer.sendLater({ ...message, to: `queued-${i}@example.bw` }, (err) => failures.push(err));
    // Nothing is sent before the caller has gone on.
    expect(catcher.messages).toHaveLength(before);
    await mailer.close();
    expect(failures).toEqual([]);
    expect(catcher.messages.slice(before).map((m) => m.to[0]).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `queued-${i}@example.bw`));
  });

  it('holds queued mails while the server is busy, and sends them once it is quiet', async () => {
    const { logger } = capturingLogger();
    const mailer = createMailer({ smtpUrl: catcher.url, outboxDir: os.tmpdir(), from: 'Lesedi School Photos <no-reply@photos.example.bw>', logger });
    const before = catcher.messages.length;
    mailer.sendLater({ ...message, to: 'after-the-rush@example.bw' }, () => undefined);
    // A rush: the event loop works in 20 ms slices for 600 ms, with only a moment free between them.
    const rushUntil = Date.now() + 600;
    while (Date.now() < rushUntil) {
      const slice = Date.now() + 20;
      while (Date.now() < slice) {
        // busy
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(catcher.messages.slice(before)).toEqual([]);
    const sent = await catcher.waitFor('after-the-rush@example.bw', before, 3_000);
    expect(sent.subject).toBe(message.subject);
    await mailer.close();
  });

  it('tells the caller of a queued mail that could not be sent', async () => {
    const { logger } = capturingLogger();
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', outboxDir: os.tmpdir(), from: 'x@example.bw', logger });
    const failed = new Promise<unknown>((resolve) => mailer.sendLater(message, resolve));
    expect(await failed).toBeInstanceOf(Error);
    await mailer.close();
  });

  it('rejects when the SMTP server is unreachable', async () => {
    const { logger } = capturingLogger();
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', outboxDir: os.tmpdir(), from: 'x@example.bw', logger });
    await expect(mailer.send(message)).rejects.toThrow();
    await mailer.close();
  });
});

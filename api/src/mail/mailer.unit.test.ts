import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';
import { SendAbortedError, createMailer, firstUrl } from './mailer';
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

  it('writes one parseable .eml per message and logs its kind, ids and first link, never its recipient', async () => {
    const { logger, lines } = capturingLogger();
    const outboxDir = path.join(dir, 'outbox');
    const mailer = createMailer({ smtpUrl: null, outboxDir, from: 'Lesedi School Photos <no-reply@photos.example.bw>', logger });
    await mailer.send(message, { describe: { kind: 'password_reset', outboxId: 7 } });
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
    expect(logged[0]).toMatchObject({ kind: 'password_reset', outboxId: 7, link: RESET_URL });
    // docs/email.md, "What the logs say": the kind and ids, never the recipient (nor the subject, which may name a child).
    expect(JSON.stringify(lines)).not.toContain('@example.bw');
    expect(JSON.stringify(lines)).not.toContain(message.subject);
    await mailer.close();
  });

  it('renames the .eml into place only after beforeFinal, and leaves nothing when it throws', async () => {
    const { logger } = capturingLogger();
    const outboxDir = path.join(dir, 'gated');
    const mailer = createMailer({ smtpUrl: null, outboxDir, from: 'Lesedi School Photos <no-reply@photos.example.bw>', logger });
    await expect(mailer.send(message, { beforeFinal: () => Promise.reject(new Error('claim lost')) })).rejects.toBeInstanceOf(SendAbortedError);
    expect(await fs.readdir(outboxDir)).toEqual([]);
    let seen: string[] = [];
    await mailer.send(message, { beforeFinal: async () => {
      seen = (await fs.readdir(outboxDir)).filter((name) => name.endsWith('.eml'));
    } });
    expect(seen).toEqual([]);
    expect((await fs.readdir(outboxDir)).filter((name) => name.endsWith('.eml'))).toHaveLength(1);
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
    await mailer.send(message, { describe: { kind: 'password_reset', outboxId: 9 } });
    await mailer.close();
    expect(catcher.messages).toHaveLength(1);
    expect(catcher.messages[0]?.from).toBe('no-reply@photos.example.bw');
    expect(catcher.messages[0]?.to).toEqual(['parent@example.bw']);
    const eml = parseEml(catcher.messages[0]?.raw ?? '');
    expect(eml.headers.subject).toBe('Reset your Lesedi School Photos password');
    expect(eml.headers.to).toBe('parent@example.bw');
    expect(eml.text).toContain(RESET_URL);
    const sent = lines.find((line) => line.msg === 'mail sent over SMTP');
    expect(sent).toMatchObject({ kind: 'password_reset', outboxId: 9 });
    expect(JSON.stringify(lines)).not.toContain('parent@example.bw');
    // The link is a password-reset credential: only the outbox mode (development) logs it.
    expect(JSON.stringify(lines)).not.toContain('abc123');
  });

  it('sends the end of a message only once beforeFinal has resolved', async () => {
    const { logger } = capturingLogger();
    const mailer = createMailer({ smtpUrl: catcher.url, outboxDir: os.tmpdir(), from: 'Lesedi School Photos <no-reply@photos.example.bw>', logger });
    const before = catcher.messages.length;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let reached = false;
    const sent = mailer.send({ ...message, to: 'gated@example.bw', messageId: '<gated-1@photos.example.bw>' }, { beforeFinal: async () => {
      reached = true;
      await gate;
    } });
    await vi.waitFor(() => expect(reached).toBe(true));
    // The whole message but its end is with the server, which keeps nothing yet.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(catcher.messages.slice(before)).toEqual([]);
    open();
    await sent;
    const received = await catcher.waitFor('gated@example.bw', before);
    expect(received.raw).toMatch(/^Message-ID: <gated-1@photos\.example\.bw>\r?$/m);
    await mailer.close();
  });

  it('never ends a message whose beforeFinal throws: the server keeps nothing, and the next message goes out', async () => {
    const { logger } = capturingLogger();
    const mailer = createMailer({ smtpUrl: catcher.url, outboxDir: os.tmpdir(), from: 'Lesedi School Photos <no-reply@photos.example.bw>', logger, connections: 1 });
    const before = catcher.messages.length;
    const refused = mailer.send({ ...message, to: 'refused@example.bw' }, { beforeFinal: () => Promise.reject(new Error('claim lost')) });
    await expect(refused).rejects.toBeInstanceOf(SendAbortedError);
    await mailer.send({ ...message, to: 'next@example.bw' });
    await catcher.waitFor('next@example.bw', before);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(catcher.messages.slice(before).map((m) => m.to[0])).toEqual(['next@example.bw']);
    await mailer.close();
  });

  it('sends several messages at once over its pool of connections', async () => {
    const { logger } = capturingLogger();
    const mailer = createMailer({ smtpUrl: catcher.url, outboxDir: os.tmpdir(), from: 'Lesedi School Photos <no-reply@photos.example.bw>', logger, connections: 3 });
    const before = catcher.messages.length;
    await Promise.all(Array.from({ length: 12 }, (_, i) => mailer.send({ ...message, to: `pooled-${i}@example.bw` })));
    expect(catcher.messages.slice(before).map((m) => m.to[0]).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `pooled-${i}@example.bw`).sort());
    await mailer.close();
  });

  it('rejects when the SMTP server is unreachable', async () => {
    const { logger } = capturingLogger();
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', outboxDir: os.tmpdir(), from: 'x@example.bw', logger });
    await expect(mailer.send(message)).rejects.toThrow();
    await mailer.close();
  });
});

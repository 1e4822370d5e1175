import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, startTestServer, type TestServer } from '../../test/harness';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';

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

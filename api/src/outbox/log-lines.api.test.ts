import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, describeApi, startTestServer, type TestServer } from '../../test/harness';
import { createCustomer } from '../../test/fixtures';
import { waitUntil } from '../../test/shop';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';

/**
 * docs/email.md, "What the logs say": a sent or failed e-mail's log line names the message's kind
 * and outbox id, never its recipient, even when the relay's refusal quotes the address.
 */
describeApi('e-mail log lines', () => {
  let server: TestServer;
  let catcher: MailCatcher;
  const logs: string[] = [];
  const delivered = 'naledi.parent@family.example';
  const bouncing = 'bounce.parent@family.example';

  beforeAll(async () => {
    catcher = await startMailCatcher({
      refuse: (message) => (message.to.includes(bouncing) ? { code: 550, text: `5.1.1 <${bouncing}>: Recipient address rejected: User unknown` } : null),
    });
    server = await startTestServer({ SMTP_URL: catcher.url, OUTBOX_POLL_MS: '100', LOG_LEVEL: 'info' }, { logs });
  });
  afterAll(async () => {
    await server?.close();
    await catcher?.close();
  });

  const lines = () => logs.map((line) => JSON.parse(line) as Record<string, unknown>);

  it('names the kind and id of a sent and of a refused message, and never the address', async () => {
    await createCustomer(server, { email: delivered, password: 'secret123' });
    await createCustomer(server, { email: bouncing, password: 'secret123' });
    const anon = new Client(server.url);
    for (const email of [delivered, bouncing]) expect((await anon.post('/api/auth/customer/forgot-password', { email })).status).toBe(200);

    await catcher.waitFor(delivered);
    await waitUntil(async () => lines().some((line) => line.msg === 'mail sent over SMTP') && lines().some((line) => line.msg === 'e-mail failed for good'), 15_000);
    const outbox = (await server.runtime.knex('outbox_messages').select('id', 'kind', 'recipient')) as { id: number; kind: string; recipient: string }[];
    const idOf = (address: string) => Number(outbox.find((row) => row.recipient === address)?.id);

    const sent = lines().find((line) => line.msg === 'mail sent over SMTP');
    expect(sent).toMatchObject({ kind: 'password_reset', outboxId: idOf(delivered), messageId: expect.any(String) });
    const failed = lines().find((line) => line.msg === 'e-mail failed for good');
    expect(failed).toMatchObject({ kind: 'password_reset', outboxId: idOf(bouncing), err: { responseCode: 550 } });
    expect(String((failed?.err as { message?: string }).message)).toContain('<address>');

    const all = logs.join('\n');
    expect(all).not.toContain(delivered);
    expect(all).not.toContain(bouncing);
    expect(all).not.toMatch(/naledi\.parent|bounce\.parent/);
  }, 30_000);
});

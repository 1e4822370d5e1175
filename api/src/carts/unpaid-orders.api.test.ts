import { NON_TRANSACTIONAL_KINDS } from '../../contract/outreach';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { CART_REMINDER_MSG } from '../../contract/messages';
import { describeApi, startTestServer, type Client, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, payThroughSandbox, standardLines, type Shop } from '../../test/shop';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';
import { deliverReminders, insertGuardian } from './carts.test-helpers';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const address = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.test`;

/** One reminder for an order left waiting for payment (docs/outreach.md, "Abandoned carts and unpaid orders"). */
describeApi('unpaid-order reminders', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let shop: Shop;
  let parent: Client;
  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url });
    shop = await createShop(server);
    parent = await parentFor(server, shop);
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  async function place(email: string, overrides: Record<string, unknown> = {}): Promise<string> {
    const res = await parent.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: email, ...overrides }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.order?.id ?? res.body.id;
  }
  const age = (orderId: string, placedAt: number) => server.runtime.knex('orders').where({ id: orderId }).update({ created_at: placedAt });
  const reminderRows = (orderId: string) => server.runtime.knex('outbox_messages').where({ order_id: orderId, kind: 'unpaid_order' });

  it('reminds once, with a link to pay and the unsubscribe headers', async () => {
    const email = address('unpaid');
    const orderId = await place(email);
    const now = Date.now();
    // Not before 24 hours.
    expect((await server.runtime.services.reminders.sendDue(now)).orders).toBe(0);
    await age(orderId, now - 25 * HOUR);
    expect((await server.runtime.services.reminders.sendDue(now)).orders).toBe(1);
    expect((await server.runtime.services.reminders.sendDue(now)).orders).toBe(0);
    expect((await server.runtime.services.reminders.sendDue(now + DAY)).orders).toBe(0);
    const rows = await reminderRows(orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0].dedupe_key).toBe(`unpaid_order:${orderId}`);
    expect(rows[0].recipient).toBe(email);

    await deliverReminders(server);
    const reminder = (m: { subject: string }) => m.subject === CART_REMINDER_MSG.unpaidSubject(orderId);
    const [message] = await mail.waitForMessages(1, { to: email, match: reminder });
    if (!message) throw new Error('no reminder');
    expect(message.text).toContain(`${server.url}/order-confirmation/${orderId}`);
    expect(message.text).toContain('Total: P77.50');
    expect(message.text).toContain('2 × Glossy Print, Photo 423: P60.00');
    expect(message.raw).toMatch(/^List-Unsubscribe:\s+<http:\/\/127\.0\.0\.1:\d+\/api\/guardians\/unsubscribe\?token=[^>]+>/m);
    expect(message.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    await mail.noMoreThan(1, { to: email, match: reminder, within: 300 });
  });

  it('sends none for a paid or a cancelled order, nor for one older than 7 days', async () => {
    const now = Date.now();
    const paid = await place(address('paid'));
    await payThroughSandbox(server, paid);
    await age(paid, now - 25 * HOUR);
    const cancelled = await place(address('cancelled'));
    expect((await parent.post(`/api/orders/${cancelled}/cancel`)).status).toBe(200);
    await age(cancelled, now - 25 * HOUR);
    const old = await place(address('old'));
    await age(old, now - 8 * DAY);
    await server.runtime.services.reminders.sendDue(now);
    for (const id of [paid, cancelled, old]) expect(await reminderRows(id)).toHaveLength(0);
  });

  it('sends none when the family has since paid another order for the same child', async () => {
    const now = Date.now();
    const email = address('sibling');
    const first = await place(email, { studentName: 'Neo Kgosi' });
    await age(first, now - 30 * HOUR);
    const second = await place(email, { studentName: 'Neo Kgosi' });
    await payThroughSandbox(server, second);
    await age(second, now - 26 * HOUR);
    await server.runtime.services.reminders.sendDue(now);
    expect(await reminderRows(first)).toHaveLength(0);
  });

  it('withdraws a queued reminder once the order is paid', async () => {
    const orderId = await place(address('later'));
    // Written two days ahead, so it waits in the queue; then the family pays.
    const ahead = Date.now() + 2 * DAY;
    expect((await server.runtime.services.reminders.sendDue(ahead)).orders).toBe(1);
    await payThroughSandbox(server, orderId);
    // The payment itself withdrew it, in its own transaction (docs/outreach.md, "Stopping once the family pays").
    expect((await reminderRows(orderId))[0].status).toBe('cancelled');
    expect((await server.runtime.services.reminders.sendDue(ahead)).withdrawn).toBe(0);
    expect(await reminderRows(orderId)).toHaveLength(1);
  });

  it('never reminds an address that unsubscribed', async () => {
    const email = address('unsubscribed');
    await insertGuardian(server, { email, unsubscribed: true });
    const orderId = await place(email);
    await age(orderId, Date.now() - 25 * HOUR);
    await server.runtime.services.reminders.sendDue(Date.now());
    expect(await reminderRows(orderId)).toHaveLength(0);
    // Nothing but the e-mails of the order itself (its set-password link) reaches that address.
    expect(await server.runtime.knex('outbox_messages').where({ recipient: email }).whereIn('kind', NON_TRANSACTIONAL_KINDS)).toHaveLength(0);
  });
});

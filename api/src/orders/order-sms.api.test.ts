import { afterAll, beforeAll, expect, it } from 'vitest';
import { PHONE_MSG } from '../../contract/phone';
import { smsSegments } from '../../contract/sms-text';
import { Client, describeApi, startTestServer, type TestServer } from '../../test/harness';
import { startSmsc, type TestSmsc } from '../../test/smsc';
import { createShop, initiatePayment, orderBody, parentFor, payByBankTransfer, payInitiated, standardLines, type Shop } from '../../test/shop';
import { createMaintenance } from '../jobs/maintenance';

/** docs/sms.md, "Transactional SMS": the order's own phone gets one SMS when it is paid, and one each when its bank transfer is awaited and when it expires. */
describeApi('transactional SMS of an order', () => {
  let smsc: TestSmsc;
  let server: TestServer;
  let shop: Shop;
  let parent: Client;

  beforeAll(async () => {
    smsc = await startSmsc();
    server = await startTestServer({ SMS_URL: smsc.url, PAYMENT_METHODS: 'card,bank_transfer', SANDBOX_FINAL_NOTIFY: 'none' });
    shop = await createShop(server);
    parent = await parentFor(server, shop);
  });
  afterAll(async () => {
    await server?.close();
    await smsc?.stop();
  });

  const smsTo = (phone: string) => smsc.messages.filter((message) => message.to === phone);
  const linkIn = (text: string): string => {
    const found = new RegExp(`${server.config.publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/s/[A-Za-z0-9_-]+`).exec(text);
    if (!found) throw new Error(`no short link in "${text}"`);
    return found[0];
  };
  /** What a phone's browser does with the SMS's link: follows each redirect with its own cookies. */
  async function open(link: string): Promise<{ browser: Client; landed: string }> {
    const browser = new Client(server.url);
    let url = link.slice(server.url.length);
    for (let hop = 0; hop < 5; hop++) {
      const res = await browser.get(url);
      if (res.status < 300 || res.status >= 400) return { browser, landed: url };
      const location = res.headers.get('location');
      if (!location) throw new Error(`a ${res.status} without Location`);
      expect(location.startsWith(server.url)).toBe(true);
      url = location.slice(server.url.length);
      if (url.startsWith('/order-confirmation/')) return { browser, landed: url };
    }
    throw new Error('too many redirects');
  }
  const place = async (overrides: Record<string, unknown>) => {
    const res = await parent.post('/api/orders', orderBody(shop, standardLines(shop), overrides));
    expect(res.status).toBe(201);
    return res.body.order as { id: string; customerPhone: string | null };
  };

  it('customerPhone: optional; stored E.164; a landline or an impossible number is a 400 naming customerPhone', async () => {
    for (const [typed, message] of [
      ['391 2345', PHONE_MSG.notMobile],
      ['12', PHONE_MSG.invalid],
      ['call me', PHONE_MSG.invalid],
    ] as const) {
      const res = await parent.post('/api/orders', orderBody(shop, standardLines(shop), { customerPhone: typed }));
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ customerPhone: message });
    }
    expect((await place({ customerPhone: '+267 71 234 567' })).customerPhone).toBe('+26771234567');
    expect((await place({ customerPhone: '72 345 678' })).customerPhone).toBe('+26772345678');
    expect((await place({ customerPhone: '' })).customerPhone).toBeNull();
    expect((await place({ customerPhone: undefined })).customerPhone).toBeNull();
  });

  it('paid: one SMS, one segment, whose short link opens the confirmation and downloads as the browser that ordered sees them', async () => {
    const phone = '+26771111001';
    const order = await place({ customerPhone: '71 111 001' });
    expect(smsTo(phone)).toHaveLength(0);
    await payInitiated(server, await initiatePayment(server, order.id));
    await expect.poll(() => smsTo(phone).length, { timeout: 10_000 }).toBe(1);
    const [sms] = smsTo(phone);
    expect(sms!.text).toContain(order.id);
    expect(sms!.dataCoding).toBe(0);
    expect(smsSegments(sms!.text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    const link = linkIn(sms!.text);
    expect(link.length - server.config.publicUrl.length).toBeLessThan(40);

    // A stranger with the order id sees the summary only; the SMS's link opens the family's view.
    const stranger = await new Client(server.url).get(`/api/orders/${order.id}`);
    expect(stranger.body.summary).toBe(true);
    const { browser, landed } = await open(link);
    expect(landed).toBe(`/order-confirmation/${order.id}`);
    const seen = await browser.get(`/api/orders/${order.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.summary).toBeUndefined();
    expect(seen.body).toMatchObject({ id: order.id, paymentStatus: 'completed', customerPhone: phone });
    const downloads = (seen.body.items as { downloadUrl: string | null }[]).flatMap((item) => (item.downloadUrl ? [item.downloadUrl] : []));
    expect(downloads).toHaveLength(1);
    const file = await browser.get(downloads[0]!.slice(server.url.length));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^image\//);

    // A tampered token opens nothing more than the summary, and still lands on the page.
    const target = (await new Client(server.url).get(link.slice(server.url.length))).headers.get('location')!;
    const tampered = new Client(server.url);
    const res = await tampered.get(`${target.slice(server.url.length, -4)}AAAA`);
    expect(res.status).toBe(303);
    expect((await tampered.get(`/api/orders/${order.id}`)).body.summary).toBe(true);

    // Once: the sweep and another look change nothing.
    await createMaintenance(server.runtime).sweepPayments();
    await server.runtime.services.outbox.deliverDue();
    expect(smsTo(phone)).toHaveLength(1);
    expect(await server.runtime.knex('outbox_messages').where({ recipient: phone, channel: 'sms' }).count({ n: '*' }).first()).toMatchObject({ n: 1 });
  });

  it('no phone, no SMS: the e-mail alone; an order from before the number was checked gets one only to a mobile number', async () => {
    const order = await place({ customerPhone: null });
    await payInitiated(server, await initiatePayment(server, order.id));
    await server.runtime.services.outbox.deliverDue();
    expect(await server.runtime.knex('outbox_messages').where({ order_id: order.id, channel: 'sms' })).toEqual([]);

    // Free text then: a landline stays without an SMS; a mobile number typed with spaces gets it in E.164.
    const landline = await place({ customerPhone: null });
    const spaced = await place({ customerPhone: null });
    await server.runtime.knex('orders').where({ id: landline.id }).update({ customer_phone: 'office 391 2345' });
    await server.runtime.knex('orders').where({ id: spaced.id }).update({ customer_phone: '+267 75 333 444' });
    for (const id of [landline.id, spaced.id]) await payInitiated(server, await initiatePayment(server, id));
    await server.runtime.services.outbox.deliverDue();
    expect(await server.runtime.knex('outbox_messages').where({ order_id: landline.id, channel: 'sms' })).toEqual([]);
    await expect.poll(() => smsTo('+26775333444').length, { timeout: 10_000 }).toBe(1);
  });

  it('a bank transfer: one SMS while it is awaited (amount, reference, deadline), one when it expires; each link opens the order', async () => {
    const phone = '+26773222002';
    const order = await place({ customerPhone: '+267 73 222 002' });
    await payByBankTransfer(server, order.id);
    await expect.poll(() => smsTo(phone).length, { timeout: 10_000 }).toBe(1);
    const awaiting = smsTo(phone)[0]!.text;
    expect(awaiting).toContain(`reference ${order.id}`);
    expect(awaiting).toMatch(/P\s?\d+\.\d\d/);
    expect(awaiting).toMatch(/by \d{1,2} [A-Z][a-z]{2}/);
    expect(smsSegments(awaiting)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    const first = await open(linkIn(awaiting));
    expect((await first.browser.get(`/api/orders/${order.id}`)).body.awaitingPayment).toMatchObject({ method: 'bank_transfer', reference: order.id });

    // The deadline passes unconfirmed: the sweep expires it, and the phone is told once.
    const payment = await server.runtime.knex('payments').where({ order_id: order.id }).orderBy('id', 'desc').first();
    const past = Date.now() - 1000;
    await server.runtime.knex('payments').where({ id: payment.id }).update({ expires_at: past, created_at: past - 7 * 24 * 3600_000 });
    const maintenance = createMaintenance(server.runtime);
    await maintenance.sweepPayments();
    await expect.poll(() => smsTo(phone).length, { timeout: 10_000 }).toBe(2);
    const expired = smsTo(phone)[1]!.text;
    expect(expired).toContain(order.id);
    expect(expired).toContain('Pay again');
    expect(smsSegments(expired)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    const second = await open(linkIn(expired));
    expect((await second.browser.get(`/api/orders/${order.id}`)).body).toMatchObject({ id: order.id, paymentStatus: 'failed', customerPhone: phone });
    await maintenance.sweepPayments();
    await server.runtime.services.outbox.deliverDue();
    expect(smsTo(phone)).toHaveLength(2);
    expect((await server.runtime.knex('outbox_messages').where({ order_id: order.id, channel: 'sms' }).orderBy('id')).map((row) => row.kind)).toEqual([
      'transfer_awaiting_sms',
      'transfer_expired_sms',
    ]);
  });
});

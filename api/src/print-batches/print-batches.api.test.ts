import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { createShop, parentFor, type Line, type Shop } from '../../test/shop';
import { MSG, PRINT_BATCH_MSG } from '../../contract/messages';
import { orderStatus, paidOrder, pay, placeOrder } from './print-batches.test-helpers';
import { deleteStaff } from '../../test/fixtures';

describeApi('print batches', () => {
  let server: TestServer;
  let staff: Client & { userId: number };

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'photographer');
  });
  afterAll(async () => server.close());

  const printLine = (shop: Shop, quantity = 1, photo = 0): Line => ({ photoId: shop.photoIds[photo]!, albumId: shop.openAlbumId, product: shop.print, quantity });
  const digitalLine = (shop: Shop): Line => ({ photoId: shop.photoIds[1]!, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 });

  describe('selection', () => {
    let shop: Shop;
    let parent: Client;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      shop = await createShop(server);
      parent = await parentFor(server, shop);
      ids.paidPrint = await paidOrder(server, parent, shop, [printLine(shop, 2), digitalLine(shop)]);
      ids.processing = await paidOrder(server, parent, shop, [printLine(shop, 3, 1)]);
      expect((await staff.put(`/api/orders/${ids.processing}`, { orderStatus: 'being_processed' })).status).toBe(200);
      ids.digitalOnly = await paidOrder(server, parent, shop, [digitalLine(shop)]);
      ids.pending = await placeOrder(parent, shop, [printLine(shop)]);
      ids.failed = await placeOrder(parent, shop, [printLine(shop)]);
      await pay(server, ids.failed, '4000000000000036');
      ids.cancelled = await paidOrder(server, parent, shop, [printLine(shop)]);
      expect((await staff.put(`/api/orders/${ids.cancelled}`, { orderStatus: 'cancelled' })).status).toBe(200);
    });

    it('counts what is ready per school, then takes exactly the paid orders with prints', async () => {
      expect(await server.runtime.knex('orders').where({ id: ids.failed }).first('payment_status')).toEqual({ payment_status: 'failed' });
      const ready = await staff.get('/api/print-batches/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.find((row: { schoolId: number }) => row.schoolId === shop.schoolId)).toEqual({ schoolId: shop.schoolId, schoolName: expect.any(String), orderCount: 2, printCount: 5 });

      const created = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        schoolId: shop.schoolId,
        schoolName: expect.stringMatching(/^Shop School/),
        status: 'at_printers',
        orderCount: 2,
        printCount: 5,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updatedAt: expect.any(String),
        documentsChangedAt: null,
      });
      const batchId = created.body.id;

      for (const key of ['paidPrint', 'processing']) expect(await orderStatus(server, ids[key]!), key).toBe('at_printers');
      expect(await orderStatus(server, ids.digitalOnly!)).toBe('paid');
      expect(await orderStatus(server, ids.pending!)).toBe('pending');
      expect(await orderStatus(server, ids.failed!)).toBe('pending');
      expect(await orderStatus(server, ids.cancelled!)).toBe('cancelled');

      // The staff order view says which batch each order is in.
      const orders = (await staff.get(`/api/orders?school=${shop.schoolId}`)).body as { id: string; printBatchId: number | null }[];
      const batchOf = Object.fromEntries(orders.map((order) => [order.id, order.printBatchId]));
      expect(batchOf[ids.paidPrint!]).toBe(batchId);
      expect(batchOf[ids.processing!]).toBe(batchId);
      for (const key of ['digitalOnly', 'pending', 'failed', 'cancelled']) expect(batchOf[ids[key]!], key).toBeNull();

      const detail = await staff.get(`/api/print-batches/${batchId}`);
      expect(detail.status).toBe(200);
      expect(detail.body.orders.map((order: { id: string }) => order.id).sort()).toEqual([ids.paidPrint, ids.processing].sort());
      const paidPrint = detail.body.orders.find((order: { id: string }) => order.id === ids.paidPrint);
      // Only the print line of the mixed order goes to the lab; the digital copy is downloaded.
      expect(paidPrint.items).toEqual([{ id: expect.any(Number), productName: 'Glossy Print', packageName: null, quantity: 2, photoName: 'IMG_0423.JPG', photoOriginalNumber: '0423', studentName: 'Kagiso Dube' }]);
      expect(paidPrint).toMatchObject({ studentName: 'Kagiso Dube', customerName: 'Mpho Dube', className: 'Class 1A', orderStatus: 'at_printers' });
      expect(detail.body.fileCount).toBe(2);
      expect(detail.body.originalsBytes).toBeGreaterThan(0);

      // Nothing is left, so a second batch is a clear 409 and changes nothing.
      const again = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ message: PRINT_BATCH_MSG.nothingReady, code: 'NOTHING_TO_PRINT' });
      expect(await server.runtime.knex('print_batches').where({ school_id: shop.schoolId }).count({ n: '*' }).first()).toMatchObject({ n: 1 });

      // A late order goes into the next batch, alone: an order is never in two batches.
      const late = await paidOrder(server, parent, shop, [printLine(shop, 1, 1)]);
      const next = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
      expect(next.status).toBe(201);
      expect(next.body).toMatchObject({ orderCount: 1, printCount: 1 });
      expect((await server.runtime.knex('print_batch_orders').where({ batch_id: next.body.id })).map((row: { order_id: string }) => row.order_id)).toEqual([late]);

      const list = await staff.get(`/api/print-batches?school=${shop.schoolId}`);
      expect(list.body.map((batch: { id: number }) => batch.id)).toEqual([next.body.id, batchId]);
      const ready2 = await staff.get('/api/print-batches/ready');
      expect(ready2.body.find((row: { schoolId: number }) => row.schoolId === shop.schoolId)).toMatchObject({ orderCount: 0, printCount: 0 });
    });

    it('answers 409 for a school with nothing ready and 404 for an unknown school', async () => {
      const empty = await createShop(server);
      const res = await staff.post('/api/print-batches', { schoolId: empty.schoolId });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(PRINT_BATCH_MSG.nothingReady);
      const unknown = await staff.post('/api/print-batches', { schoolId: 999_999 });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(MSG.schoolNotFound);
    });
  });

  it('two photographers creating a batch at the same moment get one batch and a clear 409', async () => {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    const orders = [];
    for (let i = 0; i < 3; i++) orders.push(await paidOrder(server, parent, shop, [printLine(shop, i + 1)]));
    const other = await staffClient(server, 'admin');
    const answers = await Promise.all([staff, other, staff, other].map((client) => client.post('/api/print-batches', { schoolId: shop.schoolId })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    for (const refused of answers.filter((answer) => answer.status === 409)) {
      expect([PRINT_BATCH_MSG.nothingReady, PRINT_BATCH_MSG.createRace]).toContain(refused.body.message);
    }
    const batches = await server.runtime.knex('print_batches').where({ school_id: shop.schoolId });
    expect(batches).toHaveLength(1);
    const links = await server.runtime.knex('print_batch_orders').whereIn('order_id', orders);
    expect(links.map((link: { batch_id: number }) => Number(link.batch_id))).toEqual([batches[0].id, batches[0].id, batches[0].id]);
    for (const id of orders) expect(await orderStatus(server, id)).toBe('at_printers');
  });

  it('moves every order of the batch forward only; a cancelled order stays cancelled', async () => {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    const [a, b, c] = [
      await paidOrder(server, parent, shop, [printLine(shop)]),
      await paidOrder(server, parent, shop, [printLine(shop, 2)]),
      await paidOrder(server, parent, shop, [printLine(shop, 4)]),
    ];
    const batch = (await staff.post('/api/print-batches', { schoolId: shop.schoolId })).body;
    expect(batch.orderCount).toBe(3);

    expect((await staff.put(`/api/orders/${c}`, { orderStatus: 'cancelled' })).status).toBe(200);
    const ready = await staff.put(`/api/print-batches/${batch.id}`, { status: 'ready_for_delivery' });
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ id: batch.id, status: 'ready_for_delivery', orderCount: 2, printCount: 3 });
    expect([await orderStatus(server, a!), await orderStatus(server, b!), await orderStatus(server, c!)]).toEqual(['ready_for_delivery', 'ready_for_delivery', 'cancelled']);

    // Moved back by hand with the dropdown: the batch's next move brings it forward again.
    expect((await staff.put(`/api/orders/${a}`, { orderStatus: 'paid' })).status).toBe(200);
    const delivered = await staff.put(`/api/print-batches/${batch.id}`, { status: 'delivered' });
    expect(delivered.status).toBe(200);
    expect(delivered.body.status).toBe('delivered');
    expect([await orderStatus(server, a!), await orderStatus(server, b!), await orderStatus(server, c!)]).toEqual(['delivered', 'delivered', 'cancelled']);

    const back = await staff.put(`/api/print-batches/${batch.id}`, { status: 'ready_for_delivery' });
    expect(back.status).toBe(409);
    expect(back.body).toMatchObject({ code: 'PRINT_BATCH_STATUS_BACKWARDS', message: PRINT_BATCH_MSG.statusBackwards('Delivered', 'Ready For Delivery') });
    expect(await orderStatus(server, b!)).toBe('delivered');
    expect((await staff.put(`/api/print-batches/${batch.id}`, { status: 'delivered' })).status).toBe(200);

    // The parent sees the status in words in My Orders (the status field the screen reads).
    const customer = await server.runtime.knex('orders').where({ id: a }).first('customer_id');
    const mine = await new Client(server.url, server.runtime.tokens.signCustomer({ id: Number(customer.customer_id) })).get('/api/customer/orders');
    expect(mine.body.find((order: { id: string }) => order.id === a)).toMatchObject({ status: 'delivered', orderStatus: 'delivered' });
  });

  describe('access', () => {
    let shop: Shop;
    let batchId: number;
    let customer: Client;

    beforeAll(async () => {
      shop = await createShop(server);
      const parent = await parentFor(server, shop);
      const orderId = await paidOrder(server, parent, shop, [printLine(shop)]);
      batchId = (await staff.post('/api/print-batches', { schoolId: shop.schoolId })).body.id;
      const row = await server.runtime.knex('orders').where({ id: orderId }).first('customer_id');
      customer = new Client(server.url, server.runtime.tokens.signCustomer({ id: Number(row.customer_id) }));
    });

    const calls = (id: number | string): [string, string, unknown?][] => [
      ['GET', '/api/print-batches'],
      ['GET', '/api/print-batches/ready'],
      ['POST', '/api/print-batches', { schoolId: 1 }],
      ['GET', `/api/print-batches/${id}`],
      ['PUT', `/api/print-batches/${id}`, { status: 'ready_for_delivery' }],
      ['POST', `/api/print-batches/${id}/links`, { file: 'files.zip' }],
      ['GET', `/api/print-batches/${id}/files.zip`],
      ['GET', `/api/print-batches/${id}/packing-list.pdf`],
      ['GET', `/api/print-batches/${id}/labels.pdf`],
    ];

    it('refuses anonymous callers with 401 and customers with 403, on every endpoint', async () => {
      const anonymous = new Client(server.url);
      for (const [method, url, body] of calls(batchId)) {
        const res = await anonymous.request(method, url, body);
        expect(res.status, `${method} ${url}`).toBe(401);
        expect(res.body.message).toBe(MSG.authRequired);
        const refused = await customer.request(method, url, body);
        expect(refused.status, `${method} ${url} as a customer`).toBe(403);
        expect(refused.body.message).toBe(MSG.staffOnly);
      }
      expect((await staff.get(`/api/print-batches/${batchId}`)).body.status).toBe('at_printers');
    });

    it('lets photographers and admins in; unknown ids are 404 and bad input 400', async () => {
      const admin = await staffClient(server, 'admin');
      for (const client of [staff, admin]) {
        expect((await client.get(`/api/print-batches/${batchId}`)).status).toBe(200);
        expect((await client.get(`/api/print-batches/${batchId}/labels.pdf`)).status).toBe(200);
      }
      for (const [method, url, body] of calls(987_654).slice(3)) {
        const res = await staff.request(method, url, body);
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.body.message).toBe(PRINT_BATCH_MSG.notFound);
      }
      const bad: [string, string, unknown, string][] = [
        ['POST', '/api/print-batches', {}, PRINT_BATCH_MSG.schoolRequired],
        ['POST', '/api/print-batches', { schoolId: 'abc' }, PRINT_BATCH_MSG.schoolRequired],
        ['PUT', `/api/print-batches/${batchId}`, { status: 'paid' }, PRINT_BATCH_MSG.statusInvalid],
        ['PUT', `/api/print-batches/${batchId}`, { status: 'at_printers' }, PRINT_BATCH_MSG.statusInvalid],
        ['PUT', `/api/print-batches/${batchId}`, {}, PRINT_BATCH_MSG.statusInvalid],
        ['POST', `/api/print-batches/${batchId}/links`, { file: '../../etc/passwd' }, PRINT_BATCH_MSG.fileInvalid],
        ['GET', '/api/print-batches/abc', undefined, 'Print batch id must be a positive whole number'],
        ['GET', '/api/print-batches?school=x', undefined, 'School must be a school id'],
      ];
      for (const [method, url, body, message] of bad) {
        const res = await staff.request(method, url, body);
        expect(res.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
        expect(res.body.message).toBe(message);
      }
      const malformed = await staff.request('POST', '/api/print-batches', '{"schoolId":');
      expect(malformed.status).toBe(400);
      expect(await orderStatusOfBatch(batchId)).toEqual(['at_printers']);
    });

    it('a signed link opens exactly its file of its batch, for a short while', async () => {
      const link = await staff.post(`/api/print-batches/${batchId}/links`, { file: 'packing-list.pdf' });
      expect(link.status).toBe(201);
      expect(link.body.url).toMatch(new RegExp(`^/api/print-batches/${batchId}/packing-list\\.pdf\\?token=`));
      expect(Date.parse(link.body.expiresAt) - Date.now()).toBeGreaterThan(60_000);
      expect(Date.parse(link.body.expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60_000);

      const anonymous = new Client(server.url);
      const ok = await anonymous.get(link.body.url);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('application/pdf');
      const token = new URL(link.body.url, server.url).searchParams.get('token')!;
      const refusedAt = async (url: string) => {
        const res = await anonymous.get(url);
        expect(res.status, url).toBe(403);
        expect(res.body.message).toBe(PRINT_BATCH_MSG.linkInvalid);
      };
      await refusedAt(`/api/print-batches/${batchId}/labels.pdf?token=${token}`);
      await refusedAt(`/api/print-batches/${batchId}/files.zip?token=${token}`);
      await refusedAt(`/api/print-batches/${batchId}/packing-list.pdf?token=not-a-token`);
      const expired = jwt.sign({ b: batchId, f: 'packing-list.pdf', t: Date.now() }, server.config.jwtSecret, {
        algorithm: 'HS256',
        audience: 'print-batch-file',
        subject: String(staff.userId),
        expiresIn: -10,
      });
      await refusedAt(`/api/print-batches/${batchId}/packing-list.pdf?token=${expired}`);
      // A staff session token is not a download link.
      await refusedAt(`/api/print-batches/${batchId}/packing-list.pdf?token=${staff.token}`);

      // The link dies with the account that asked for it.
      const leaving = await staffClient(server, 'photographer');
      const theirs = await leaving.post(`/api/print-batches/${batchId}/links`, { file: 'labels.pdf' });
      expect((await anonymous.get(theirs.body.url)).status).toBe(200);
      await deleteStaff(server, leaving.userId);
      await refusedAt(theirs.body.url);
    });
  });

  it('keeps batches in their own tables, tied to real schools', async () => {
    for (const table of ['print_batches', 'print_batch_orders']) expect(await server.runtime.knex.schema.hasTable(table)).toBe(true);
    const orphan = server.runtime.knex('print_batches').insert({ school_id: 999_999, status: 'at_printers', created_at: 1, updated_at: 1 });
    await expect(orphan).rejects.toThrow();
  });

  async function orderStatusOfBatch(id: number): Promise<string[]> {
    const rows = await server.runtime.knex('print_batch_orders as bo').join('orders as o', 'o.id', 'bo.order_id').where('bo.batch_id', id).select('o.order_status');
    return [...new Set(rows.map((row: { order_status: string }) => row.order_status))];
  }

});

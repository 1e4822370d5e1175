import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeApi, staffClient, startTestServer, type Client, type TestServer } from '../../test/harness';
import { createShop, type Shop } from '../../test/shop';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';
import { addPriceListItem } from '../../test/fixtures';
import { pdfPagesText } from '../../test/pdf';
import { readZip } from '../../test/zip';
import { parseCsv } from '../../../pwa/test/parse-csv';
import { PRINT_BATCH_MSG } from '../../contract/messages';
import { insertedId } from '../db/knex';
import { addAlbum, addPhoto, distinctJpeg, pay } from '../print-batches/print-batches.test-helpers';
import { newOrderId } from './order-id';
import { createOrdersRepository, type NewOrder } from './orders.repository';
import type { PricedLine, PricedPackage, Product } from './pricing';

/**
 * Where a placed package order and its discounts show (docs/packages-and-coupons.md, "Where
 * packages and discounts show"): orders are stored as order creation stores them (the orders
 * repository's insert), paid through the sandbox gateway, and read back as the parent's e-mail and
 * the lab's files.
 */
describeApi('package orders in the e-mail and the print batch', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let staff: Client;
  let shop: Shop;
  let batchId: number;
  const orders = { neo: '', ama: '' };
  const photos: Record<'a' | 'b', { id: number; bytes: Buffer }> = { a: { id: 0, bytes: Buffer.alloc(0) }, b: { id: 0, bytes: Buffer.alloc(0) } };
  const emails = { neo: 'neo.parent@example.test', ama: 'ama.parent@example.test' };

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url, SANDBOX_NOTIFY_RETRY_MS: '50' });
    staff = await staffClient(server, 'photographer');
    shop = await createShop(server);
    const classA = await addAlbum(server, shop.schoolId, 'Class 3A');
    photos.a = await addPhoto(server, classA, 'IMG_0501.JPG', await distinctJpeg(11));
    photos.b = await addPhoto(server, classA, 'IMG_0502.JPG', await distinctJpeg(12));
    const largeId = await addPriceListItem(server, shop.priceListId!, { productName: 'Large Print', description: '15x20', priceThebe: 6000 }, 2);

    const knex = server.runtime.knex;
    const repo = createOrdersRepository(knex);
    const found = await repo.photos([photos.a.id, photos.b.id]);
    const photoA = found.get(photos.a.id)!;
    const photoB = found.get(photos.b.id)!;
    const product = (id: string, name: string, priceThebe: number, kind: 'print' | 'digital'): Product => ({ id, name, description: name, priceThebe, kind });
    const glossy = product(shop.print.id, 'Glossy Print', 3000, 'print');
    const large = product(String(largeId), 'Large Print', 6000, 'print');
    const download = product(shop.digital.id, 'HD Download', 1750, 'digital');
    const content = (photo: typeof photoA, item: Product, quantity: number): PricedLine => ({ photo, product: item, quantity, unitThebe: 0, totalThebe: 0, digital: item.kind === 'digital', childHeld: true });
    // Family Pack: 1 Large Print, 2 Glossy Prints, 1 HD Download (worth P137.50) for P100.00.
    const familyPack = (quantity: number): PricedPackage => ({
      package: {
        id: 77,
        name: 'Family Pack',
        priceThebe: 10000,
        maxPoses: 2,
        items: [
          { product: large, quantity: 1 },
          { product: glossy, quantity: 2 },
          { product: download, quantity: 1 },
        ],
      },
      quantity,
      unitThebe: 10000,
      totalThebe: 10000 * quantity,
      itemsValueThebe: 13750 * quantity,
      studentId: null,
      childHeld: false,
      contents: [content(photoA, large, quantity), content(photoB, glossy, 2 * quantity), content(photoA, download, quantity)],
      prepaid: false,
      albumId: null,
      albumName: null,
    });
    const at = Date.now();
    const couponId = insertedId(
      await knex('coupons').insert({ code: 'SPRING10', school_id: null, kind: 'percent', value: 10, once_per: 'order', excludes_packages: 0, created_at: at, updated_at: at }),
    );
    const base = (id: string, customerEmail: string, studentName: string): Omit<NewOrder, 'totalThebe' | 'lines' | 'packages' | 'subtotalThebe' | 'siblingDiscountThebe' | 'coupon'> => ({
      id,
      schoolId: shop.schoolId,
      customerId: null,
      customerName: 'Mpho Dube',
      customerEmail,
      customerPhone: null,
      studentName,
      notes: null,
      idempotencyKey: null,
      idempotencyHash: null,
    });
    orders.neo = newOrderId();
    orders.ama = newOrderId();
    // Neo: 1 Glossy Print (P30.00) and the pack (P100.00) = P130.00, less P13.00 and the coupon's P11.70 = P105.30.
    await repo.insert({
      ...base(orders.neo, emails.neo, 'Neo Dube'),
      lines: [{ photo: photoB, product: glossy, quantity: 1, unitThebe: 3000, totalThebe: 3000, digital: false, childHeld: true }],
      packages: [familyPack(1)],
      subtotalThebe: 13000,
      siblingDiscountThebe: 1300,
      coupon: { id: couponId, code: 'SPRING10', discountThebe: 1170 },
      totalThebe: 10530,
    });
    // Ama: two packs, no discount.
    await repo.insert({ ...base(orders.ama, emails.ama, 'Ama Dube'), lines: [], packages: [familyPack(2)], subtotalThebe: 20000, siblingDiscountThebe: 0, coupon: null, totalThebe: 20000 });
    await pay(server, orders.neo);
    await pay(server, orders.ama);
    await mail.waitForMessages(2, { match: (message) => message.subject.includes('is confirmed') });

    const batch = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    batchId = batch.body.id;
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  describe('the confirmation e-mail', () => {
    const confirmation = (to: string) => mail.messages.find((message) => message.to.includes(to) && message.subject.includes('is confirmed'))!;

    it('lists the package with its contents and saving, then the subtotal, each discount and the total paid', async () => {
      const text = confirmation(emails.neo).text;
      expect(text).toContain('- 1 x Glossy Print, Photo 502: P30.00');
      expect(text).toContain(
        ['- 1 x Family Pack: P100.00', '    1 x Large Print, Photo 501', '    2 x Glossy Print, Photo 502', '    1 x HD Download, Photo 501', '    You saved P37.50 against single prints'].join('\n'),
      );
      expect(text).toContain(['Subtotal: P130.00', 'Sibling discount: -P13.00', 'Coupon SPRING10: -P11.70', 'Total: P105.30'].join('\n'));
      // The package's digital copy comes with its download link.
      expect(text).toMatch(/Your digital copies:\n- Photo 501: http\S+\/api\/downloads\//);
      const payment = await server.runtime.knex('payments').where({ order_id: orders.neo }).first('amount_thebe');
      expect(Number(payment.amount_thebe)).toBe(10530);
    });

    it('shows a package bought twice with its doubled contents and no discount lines', () => {
      const text = confirmation(emails.ama).text;
      expect(text).toContain(['- 2 x Family Pack: P200.00', '    2 x Large Print, Photo 501', '    4 x Glossy Print, Photo 502', '    2 x HD Download, Photo 501', '    You saved P75.00 against single prints'].join('\n'));
      expect(text).not.toContain('Subtotal');
      expect(text).toContain('Total: P200.00');
    });
  });

  describe('the print batch', () => {
    const file = (orderId: string, student: string, product: string, name: string) => `${product}/${orderId}_${student}_${name}`;
    const expected = () => [
      [file(orders.ama, 'Ama Dube', 'Large Print', 'IMG_0501_qty2.JPG'), photos.a.bytes],
      [file(orders.ama, 'Ama Dube', 'Glossy Print', 'IMG_0502_qty4.JPG'), photos.b.bytes],
      [file(orders.neo, 'Neo Dube', 'Glossy Print', 'IMG_0502.JPG'), photos.b.bytes],
      [file(orders.neo, 'Neo Dube', 'Large Print', 'IMG_0501.JPG'), photos.a.bytes],
      [file(orders.neo, 'Neo Dube', 'Glossy Print', 'IMG_0502_qty2.JPG'), photos.b.bytes],
    ] as [string, Buffer][];

    it('counts the package prints, not its digital copy', async () => {
      const detail = await staff.get(`/api/print-batches/${batchId}`);
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({ orderCount: 2, printCount: 10, fileCount: 5 });
      const neo = detail.body.orders.find((order: { id: string }) => order.id === orders.neo);
      expect(neo.items.map((item: { productName: string; packageName: string | null; quantity: number }) => [item.productName, item.packageName, item.quantity])).toEqual([
        ['Glossy Print', null, 1],
        ['Large Print', 'Family Pack', 1],
        ['Glossy Print', 'Family Pack', 2],
      ]);
    });

    it('puts each package print in its product folder, quantity expanded, with the order sheet naming the package', async () => {
      const res = await staff.get(`/api/print-batches/${batchId}/files.zip`);
      expect(res.status).toBe(200);
      const entries = await readZip(res.body as Buffer);
      const byName = new Map(entries.map((entry) => [entry.name, entry]));
      expect(entries.map((entry) => entry.name).sort()).toEqual([...expected().map(([name]) => name), 'order-sheet.csv'].sort());
      for (const [name, bytes] of expected()) expect(byName.get(name)!.data.equals(bytes), name).toBe(true);
      expect(entries.some((entry) => entry.name.includes('HD Download'))).toBe(false);

      const rows = parseCsv(byName.get('order-sheet.csv')!.data.toString('utf8').slice(1));
      expect(rows[0]).toEqual([...PRINT_BATCH_MSG.orderSheetColumns]);
      const school = shop.schoolName;
      const [amaLarge, amaGlossy, neoSingle, neoLarge, neoGlossy] = expected().map(([name]) => name);
      expect(rows.slice(1)).toEqual([
        [orders.ama, school, 'Class 3A', 'Ama Dube', 'Large Print (Family Pack)', '2', amaLarge, '0501', 'IMG_0501.JPG'],
        [orders.ama, school, 'Class 3A', 'Ama Dube', 'Glossy Print (Family Pack)', '4', amaGlossy, '0502', 'IMG_0502.JPG'],
        [orders.neo, school, 'Class 3A', 'Neo Dube', 'Glossy Print', '1', neoSingle, '0502', 'IMG_0502.JPG'],
        [orders.neo, school, 'Class 3A', 'Neo Dube', 'Large Print (Family Pack)', '1', neoLarge, '0501', 'IMG_0501.JPG'],
        [orders.neo, school, 'Class 3A', 'Neo Dube', 'Glossy Print (Family Pack)', '2', neoGlossy, '0502', 'IMG_0502.JPG'],
      ]);
    });

    it('names the package on the packing list and the labels, beside each of its prints', async () => {
      const list = await staff.get(`/api/print-batches/${batchId}/packing-list.pdf`);
      expect(list.status).toBe(200);
      const text = (await pdfPagesText(list.body as Buffer)).join('\n').replace(/\s+/g, ' ');
      expect(text).toContain('2 order(s) · 10 print(s)');
      for (const line of ['Family Pack: Large Print × 2 · IMG_0501.JPG', 'Family Pack: Glossy Print × 4 · IMG_0502.JPG', 'Family Pack: Large Print × 1 · IMG_0501.JPG', 'Family Pack: Glossy Print × 2 · IMG_0502.JPG']) {
        expect(text).toContain(line);
      }
      // Neo's single print is not part of the package.
      expect(text).toMatch(/(^|[^:] )Glossy Print × 1 · IMG_0502\.JPG/);
      expect(text).not.toContain('HD Download');

      const labels = await staff.get(`/api/print-batches/${batchId}/labels.pdf`);
      expect(labels.status).toBe(200);
      const labelText = (await pdfPagesText(labels.body as Buffer)).join('\n').replace(/\s+/g, ' ');
      expect(labelText.indexOf('Ama Dube')).toBeLessThan(labelText.indexOf('Neo Dube'));
      expect(labelText).toContain('Family Pack: Glossy Print × 4 · IMG_0502.JPG');
      expect(labelText).toContain('Family Pack: Large Print × 1 · IMG_0501.JPG');
    });
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { addPhoto, createShop, orderBody, parentFor, type Shop } from '../../test/shop';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';
import { addChildWithPhotos, addPackage, holdChildByCode, setSiblingDiscount } from '../../test/fixtures';
import { thebeToDecimal } from '../../contract/money';
import { pay } from '../print-batches/print-batches.test-helpers';
import { parseEml } from '../mail/eml.test-helpers';

/**
 * A family never learns whose photo it is unless it holds that child (docs/access.md, "Whose photo
 * it is"). In a school-password school with a class list, a family that holds Neo by code and has
 * the school password for the rest orders photos of Neo, Lesedi and Tumi: every answer it gets
 * (the order, the order read again, My Orders, the quote, the confirmation e-mail) names Neo and no
 * other child, and the family discount and a once-per-child coupon count Neo alone. Staff keep
 * every name.
 */
describeApi('whose photo it is, in orders', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let shop: Shop;
  /** School password, and Neo by code. */
  let family: Client;
  let neo: { id: number; photo: number };
  let lesedi: { id: number; photos: [number, number] };
  let tumi: { id: number; photo: number };
  let groupPhoto: number;
  /** 1 x Glossy Print + 1 x HD Download, P40.00, up to 2 poses. */
  let pair: number;
  const typedName = 'The Dube children';
  const hidden = ['Lesedi', 'Tumi'];

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url, SANDBOX_NOTIFY_RETRY_MS: '50' });
    shop = await createShop(server);
    const lesediSecond = await addPhoto(server, shop.openAlbumId, 'IMG_0425.JPG');
    const tumiPhoto = await addPhoto(server, shop.openAlbumId, 'IMG_0426.JPG');
    groupPhoto = await addPhoto(server, shop.openAlbumId, 'IMG_0500.JPG');
    neo = { id: await addChildWithPhotos(server, shop.openAlbumId, 'Neo Dube', [shop.photoIds[0]!]), photo: shop.photoIds[0]! };
    lesedi = { id: await addChildWithPhotos(server, shop.openAlbumId, 'Lesedi Molefe', [shop.photoIds[1]!, lesediSecond]), photos: [shop.photoIds[1]!, lesediSecond] };
    tumi = { id: await addChildWithPhotos(server, shop.openAlbumId, 'Tumi Kgosi', [tumiPhoto]), photo: tumiPhoto };
    pair = await addPackage(server, shop.priceListId!, { name: 'Pair', priceThebe: 4000, maxPoses: 2, items: [{ itemId: Number(shop.print.id), quantity: 1 }, { itemId: Number(shop.digital.id), quantity: 1 }] });
    await setSiblingDiscount(server, shop.priceListId!, { percent: 20, maxChildren: 3 });
    family = await parentFor(server, shop);
    await holdChildByCode(server, family, neo.id);
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  const print = (photoId: number) => orderBody(shop, [{ photoId, albumId: shop.openAlbumId, product: shop.print, quantity: 1 }]).items[0]!;
  const download = (photoId: number) => orderBody(shop, [{ photoId, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 }]).items[0]!;
  const pairOf = (photos: number[]) => ({ packageId: pair, photos, quantity: 1, unitPrice: '40.00', totalPrice: '40.00' });
  /** Neo's print P30.00; Lesedi's print and download P47.50; Tumi's pair P40.00; a group print P30.00: P147.50. */
  const mixed = () => [print(neo.photo), print(lesedi.photos[0]), download(lesedi.photos[1]), pairOf([tumi.photo]), print(groupPhoto)];
  const body = (items: unknown[], totalThebe: number, overrides: Record<string, unknown> = {}) => ({
    ...orderBody(shop, [], { studentName: typedName }),
    items,
    totalAmount: thebeToDecimal(totalThebe),
    ...overrides,
  });

  type Line = { studentId: number | null; studentName: string; photoId?: number | null };
  /** Every child an answer tells the family: each line's and package's id and name. */
  function childrenShown(order: { items: Line[]; packages: Line[] }) {
    return [...order.items, ...order.packages].map((line) => [line.studentId, line.studentName]);
  }
  function namesOnlyNeo(order: { items: Line[]; packages: Line[]; studentName: string }) {
    const text = JSON.stringify(order);
    for (const name of hidden) expect(text).not.toContain(name);
    for (const [studentId, studentName] of childrenShown(order)) {
      if (studentId === null) expect(studentName).toBe(typedName);
      else expect([studentId, studentName]).toEqual([neo.id, 'Neo Dube']);
    }
    // The name the parent typed stays theirs.
    expect(order.studentName).toBe(typedName);
  }

  let orderId = '';
  let customerEmail = '';

  it('the quote names only the child the family holds, and no family discount for the others', async () => {
    const res = await family.post('/api/orders/quote', { schoolId: shop.schoolId, items: mixed() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.lines.map((line: { studentId: number | null }) => line.studentId)).toEqual([neo.id, null, null, null, null]);
    // Neo is the only child the family holds: there is no second child to discount.
    expect(res.body).toMatchObject({ subtotal: '147.50', siblingDiscount: '0.00', siblingPercent: null, total: '147.50' });
  });

  it('the placed order, read again and in My Orders, names Neo and no other child', async () => {
    const placed = await family.post('/api/orders', body(mixed(), 14750));
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const order = placed.body.order;
    orderId = order.id;
    customerEmail = order.customerEmail;
    expect(order).toMatchObject({ subtotal: '147.50', siblingDiscount: '0.00', totalAmount: '147.50' });
    namesOnlyNeo(order);
    expect(order.items.find((item: Line) => item.photoId === neo.photo)).toMatchObject({ studentId: neo.id, studentName: 'Neo Dube' });
    expect(order.packages).toEqual([expect.objectContaining({ name: 'Pair', studentId: null, studentName: typedName })]);

    const again = await family.get(`/api/orders/${orderId}`);
    expect(again.status).toBe(200);
    expect(again.body.items).toHaveLength(order.items.length);
    namesOnlyNeo(again.body);

    // The order's customer, signed in on another device: the same as the browser that placed it.
    const row = await server.runtime.knex('orders').where({ id: orderId }).first('customer_id');
    const customer = new Client(server.url, server.runtime.tokens.signCustomer({ id: Number(row.customer_id) }));
    const mine = await customer.get('/api/customer/orders');
    expect(mine.status).toBe(200);
    const listed = mine.body.find((candidate: { id: string }) => candidate.id === orderId);
    expect(listed).toBeDefined();
    namesOnlyNeo(listed);
    namesOnlyNeo((await customer.get(`/api/orders/${orderId}`)).body);
  });

  it('staff answers keep every child and the lines stored keep theirs', async () => {
    const staff = await staffClient(server, 'photographer');
    const res = await staff.get(`/api/orders/${orderId}`);
    expect(res.status).toBe(200);
    const byPhoto = new Map(res.body.items.filter((item: { packageLineId: number | null }) => item.packageLineId === null).map((item: Line) => [item.photoId, [item.studentId, item.studentName]]));
    expect(byPhoto.get(neo.photo)).toEqual([neo.id, 'Neo Dube']);
    expect(byPhoto.get(lesedi.photos[0])).toEqual([lesedi.id, 'Lesedi Molefe']);
    expect(byPhoto.get(lesedi.photos[1])).toEqual([lesedi.id, 'Lesedi Molefe']);
    expect(byPhoto.get(groupPhoto)).toEqual([null, typedName]);
    expect(res.body.packages).toEqual([expect.objectContaining({ studentId: tumi.id, studentName: 'Tumi Kgosi' })]);
    const list = await staff.get(`/api/orders?school=${shop.schoolId}`);
    expect(JSON.stringify(list.body.find((candidate: { id: string }) => candidate.id === orderId))).toContain('Lesedi Molefe');
    const stored = await server.runtime.knex('order_items').where({ order_id: orderId }).orderBy('id').select('student_id', 'child_held');
    expect(stored.map((item) => [item.student_id === null ? null : Number(item.student_id), Boolean(Number(item.child_held))])).toEqual([
      [neo.id, true],
      [lesedi.id, false],
      [lesedi.id, false],
      [null, false],
      [tumi.id, false],
      [tumi.id, false],
    ]);
  });

  it('the confirmation e-mail names no child the family does not hold', async () => {
    await pay(server, orderId);
    const [message] = await mail.waitForMessages(1, { to: customerEmail, match: (candidate) => candidate.subject.includes('is confirmed') });
    if (!message) throw new Error('no confirmation');
    const { text, html } = parseEml(message.raw);
    for (const name of hidden) {
      expect(text).not.toContain(name);
      expect(html).not.toContain(name);
    }
    expect(message.text).toContain(`Student: ${typedName}`);
    // The package is "Pair", never "Pair for Tumi Kgosi".
    expect(message.text).toContain('- 1 x Pair: P40.00');
  });

  it('a family holding two children by code gets their names and the family discount', async () => {
    const both = await parentFor(server, shop);
    await holdChildByCode(server, both, neo.id);
    await holdChildByCode(server, both, lesedi.id);
    // Lesedi's P47.50 is the highest and pays in full; Neo's P30.00 is the second child's: 20% = P6.00.
    const res = await both.post('/api/orders/quote', { schoolId: shop.schoolId, items: [print(neo.photo), print(lesedi.photos[0]), download(lesedi.photos[1])] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.lines.map((line: { studentId: number | null }) => line.studentId)).toEqual([neo.id, lesedi.id, lesedi.id]);
    expect(res.body).toMatchObject({ siblingDiscount: '6.00', siblingPercent: 20, total: '71.50' });
    // Holding Neo's code again brought no new child: the first family still is not told.
    expect((await family.post('/api/orders/quote', { schoolId: shop.schoolId, items: [print(lesedi.photos[0])] })).body.lines[0].studentId).toBeNull();
  });

  it('a package of photos of children the family does not hold is not refused as "two children"', async () => {
    // Lesedi's and Tumi's photos, and Lesedi's with a group photo: to this family they are all just photos.
    for (const photos of [[lesedi.photos[0], tumi.photo], [lesedi.photos[0], groupPhoto]]) {
      const res = await family.post('/api/orders/quote', { schoolId: shop.schoolId, items: [pairOf(photos)] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.lines[0].studentId).toBeNull();
    }
    // With the child it holds, a photo of another child is still refused (it is not Neo's).
    const refused = await family.post('/api/orders/quote', { schoolId: shop.schoolId, items: [pairOf([neo.photo, tumi.photo])] });
    expect([refused.status, refused.body.code]).toEqual([400, 'PACKAGE_ONE_CHILD']);
  });

  it("a once-per-child coupon counts only children the family holds, so it never tells two photos' child apart", async () => {
    const staff = await staffClient(server, 'photographer');
    const created = await staff.post('/api/coupons', { code: `CHILD-${Date.now().toString(36).toUpperCase()}`, schoolId: shop.schoolId, kind: 'percent', value: 10, oncePer: 'child' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const code = created.body.code;
    // A family with only the school password uses it on one of Lesedi's photos (one use per e-mail, then).
    const stranger = await parentFor(server, shop);
    const first = await stranger.post('/api/orders', body([print(lesedi.photos[0])], 2700, { couponCode: code }));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.order.couponDiscount).toBe('3.00');
    // Quoting Lesedi's other photo with it does not say "already used for this child".
    const probe = await stranger.post('/api/orders/quote', { schoolId: shop.schoolId, items: [download(lesedi.photos[1])], couponCode: code });
    expect(probe.status, JSON.stringify(probe.body)).toBe(200);
    expect(probe.body.couponCode).toBe(code);
    // Its use was kept per e-mail: no child was recorded.
    expect(await server.runtime.knex('coupon_redemption_children').count({ n: '*' }).first()).toMatchObject({ n: 0 });
    // Lesedi's own family, holding her code, may still use it for her.
    const own = await parentFor(server, shop);
    await holdChildByCode(server, own, lesedi.id);
    const theirs = await own.post('/api/orders', body([print(lesedi.photos[0])], 2700, { couponCode: code }));
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    expect(theirs.body.order.items[0]).toMatchObject({ studentId: lesedi.id, studentName: 'Lesedi Molefe' });
    // And only once.
    const twice = await own.post('/api/orders', body([print(lesedi.photos[1])], 2700, { couponCode: code }));
    expect([twice.status, twice.body.code]).toEqual([409, 'COUPON_ALREADY_USED']);
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, TEST_DB, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { addPhoto, createShop, orderBody, payThroughSandbox, type Shop } from '../../test/shop';
import { addChildWithPhotos, addPackage, createCustomer, holdChildByCode, updateSchool } from '../../test/fixtures';
import { setAccessMode } from '../students/students.test-helpers';
import { PREPAID_MSG } from '../../contract/prepaid';
import { thebeToDecimal } from '../../contract/money';
import { createMaintenance } from '../jobs/maintenance';
import { createSeasonRepository } from '../season/season.repository';
import { closingDay } from './prepaid.service';

const DAY_MS = 24 * 3600_000;

/**
 * Ordering before picture day over HTTP (docs/prepaid.md): a package paid for a child held by code
 * before the child has photos, its photos chosen once they are released, the family told they are
 * online, the studio's fill at the closing date (with a fake clock and two processes), the lab, the
 * reports and the dashboard.
 */
describeApi('packages ordered before picture day', () => {
  let server: TestServer;
  const logs: string[] = [];
  let second: TestServer;
  let shop: Shop;
  let staff: Client & { userId: number };
  let family: Client;
  /** Children of Class 1A without photos yet. */
  let thabo: number;
  let naledi: number;
  let absent: number;
  /** 2 x Glossy Print + 1 x HD Download, up to 2 poses, P60.00. */
  let familyPack: number;

  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'error' }, { logs });
    second = await startTestServer({}, { sharedWith: server });
    staff = await staffClient(server);
    shop = await createShop(server);
    await setAccessMode(staff, shop.schoolId, 'student_codes');
    thabo = await addChildWithPhotos(server, shop.openAlbumId, 'Thabo Moyo', []);
    naledi = await addChildWithPhotos(server, shop.openAlbumId, 'Naledi Moyo', []);
    absent = await addChildWithPhotos(server, shop.openAlbumId, 'Absent Child', []);
    family = new Client(server.url);
    for (const child of [thabo, naledi, absent]) await holdChildByCode(server, family, child);
    familyPack = await addPackage(server, shop.priceListId!, {
      name: 'Family Pack',
      priceThebe: 6000,
      maxPoses: 2,
      items: [
        { itemId: Number(shop.print.id), quantity: 2 },
        { itemId: Number(shop.digital.id), quantity: 1 },
      ],
    });
  });
  afterAll(async () => {
    await second?.close();
    await server?.close();
  });

  const prepaidLine = (studentId: number, quantity = 1) => ({ packageId: familyPack, studentId, photos: [], quantity, unitPrice: '60.00', totalPrice: thebeToDecimal(6000 * quantity) });
  const body = (items: unknown[], totalAmount: string, overrides: Record<string, unknown> = {}) => ({ ...orderBody(shop, []), items, totalAmount, ...overrides });
  const outbox = (orderId: string) => server.runtime.knex('outbox_messages').where({ order_id: orderId }).orderBy('id').select('kind', 'channel', 'recipient', 'text', 'dedupe_key');

  async function placePaid(child: number, client = family, overrides: Record<string, unknown> = {}): Promise<string> {
    const res = await client.post('/api/orders', body([prepaidLine(child)], '60.00', overrides));
    expect(res.status, JSON.stringify(res.body) + logs.join('\n').slice(0, 3000)).toBe(201);
    await payThroughSandbox(server, res.body.order.id);
    return res.body.order.id as string;
  }

  it('takes a package for a child held by code before the child has photos, priced like any package, and answers where its photos stand', async () => {
    const quote = await family.post('/api/orders/quote', { schoolId: shop.schoolId, items: [prepaidLine(thabo, 2)] });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.lines).toEqual([{ packageId: familyPack, productType: null, quantity: 2, unitPrice: '60.00', totalPrice: '120.00', itemsValue: '155.00', studentId: thabo }]);
    const res = await family.post('/api/orders', body([prepaidLine(thabo)], '60.00'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const closing = (await server.runtime.knex('schools').where({ id: shop.schoolId }).first('closing_date')).closing_date as string;
    expect(res.body.order.packages).toEqual([
      expect.objectContaining({ packageId: familyPack, studentId: thabo, studentName: 'Thabo Moyo', totalPrice: '60.00', photosChosen: false, posesChosenBy: null, posesDue: closing, prepaid: true, noPhotoAtClosing: false }),
    ]);
    expect(res.body.order.items).toEqual([]);
    expect(res.body.order.totalAmount).toBe('60.00');
    expect(res.body.order.albumName).toBe('Class 1A');
    // Paid through the same gateway; the answers after paying say the same.
    await payThroughSandbox(server, res.body.order.id);
    // The confirmation e-mail says its photos are chosen later.
    const confirmation = (await outbox(res.body.order.id)).find((row) => row.kind === 'order_confirmation');
    expect(confirmation?.text).toContain(`Family Pack`);
    expect(confirmation?.text).toContain(PREPAID_MSG.photosLater);
    const paid = await family.get(`/api/orders/${res.body.order.id}`);
    expect(paid.body).toMatchObject({ paymentStatus: 'completed', packages: [expect.objectContaining({ photosChosen: false, posesChosenBy: null, prepaid: true })] });
    const forStaff = await staff.get(`/api/orders/${res.body.order.id}`);
    expect(forStaff.body.packages[0]).toMatchObject({ prepaid: true, photosChosen: false, posesDue: closing });
  });

  it('counts a prepaid child for the family discount like a child with photos', async () => {
    await server.runtime.knex('price_lists').where({ id: shop.priceListId }).update({ sibling_percent: 10, sibling_max_children: 3 });
    try {
      const quote = await family.post('/api/orders/quote', { schoolId: shop.schoolId, items: [prepaidLine(thabo), prepaidLine(naledi)] });
      expect(quote.status, JSON.stringify(quote.body)).toBe(200);
      expect(quote.body).toMatchObject({ subtotal: '120.00', siblingDiscount: '6.00', total: '114.00' });
    } finally {
      await server.runtime.knex('price_lists').where({ id: shop.priceListId }).update({ sibling_percent: null, sibling_max_children: null });
    }
  });

  it('takes coupons like any package: a percentage off, and none from a coupon that leaves packages out', async () => {
    const at = Date.now();
    await server.runtime.knex('coupons').insert([
      { code: 'EARLY10', school_id: shop.schoolId, kind: 'percent', value: 10, once_per: 'order', excludes_packages: 0, created_at: at, updated_at: at },
      { code: 'PRINTSONLY', school_id: shop.schoolId, kind: 'percent', value: 10, once_per: 'order', excludes_packages: 1, created_at: at, updated_at: at },
    ]);
    const early = await family.post('/api/orders/quote', { schoolId: shop.schoolId, items: [prepaidLine(thabo)], couponCode: 'early10' });
    expect(early.status, JSON.stringify(early.body)).toBe(200);
    expect(early.body).toMatchObject({ subtotal: '60.00', couponCode: 'EARLY10', couponDiscount: '6.00', total: '54.00' });
    const printsOnly = await family.post('/api/orders/quote', { schoolId: shop.schoolId, items: [prepaidLine(thabo)], couponCode: 'PRINTSONLY' });
    expect(printsOnly.status).toBe(409);
    expect(printsOnly.body.code).toBe('COUPON_NOT_APPLICABLE');
  });

  it('refuses a child the family does not hold exactly as one that does not exist, a school without codes, no child, and after closing', async () => {
    const stranger = new Client(server.url);
    await holdChildByCode(server, stranger, naledi);
    const notHeld = await stranger.post('/api/orders', body([prepaidLine(thabo)], '60.00'));
    const missing = await stranger.post('/api/orders', body([prepaidLine(999_999)], '60.00'));
    expect([notHeld.status, missing.status]).toEqual([404, 404]);
    expect({ ...notHeld.body, requestId: null }).toEqual({ ...missing.body, requestId: null });
    expect(notHeld.body.message).toBe(PREPAID_MSG.childNotHeld);
    const noChild = await family.post('/api/orders', body([{ packageId: familyPack, photos: [], unitPrice: '60.00', totalPrice: '60.00' }], '60.00'));
    expect(noChild.status).toBe(400);
    expect(noChild.body.errors).toHaveProperty(['items.0.photos']);
    // A school families open with a password: no codes, no ordering before picture day.
    await setAccessMode(staff, shop.schoolId, 'school_password');
    try {
      const passwordSchool = await family.post('/api/orders', body([prepaidLine(thabo)], '60.00'));
      expect(passwordSchool.status).toBe(409);
      expect(passwordSchool.body).toMatchObject({ code: 'PREPAID_NEEDS_CODES', message: PREPAID_MSG.schoolWithoutCodes });
    } finally {
      await setAccessMode(staff, shop.schoolId, 'student_codes');
    }
    const before = (await server.runtime.knex('schools').where({ id: shop.schoolId }).first('closing_date')).closing_date as string;
    await updateSchool(server, shop.schoolId, { closingDate: new Date(Date.now() - 2 * DAY_MS).toISOString().slice(0, 10) });
    try {
      const closed = await family.post('/api/orders', body([prepaidLine(thabo)], '60.00'));
      expect(closed.status).toBe(409);
    } finally {
      await updateSchool(server, shop.schoolId, { closingDate: before });
    }
  });

  it('lets the owner choose the photos once released, by the package rules, from that child only, and change them until the closing date', async () => {
    const orderId = await placePaid(thabo);
    const order = (await family.get(`/api/orders/${orderId}`)).body;
    const lineId = order.packages[0].id as number;
    const choose = (client: Client, photos: unknown[]) => client.put(`/api/orders/${orderId}/packages/${lineId}/photos`, { photos });
    // Before the photos are released.
    const early = await choose(family, [shop.photoIds[0]]);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'PHOTOS_NOT_RELEASED', message: PREPAID_MSG.photosNotReleased });
    // Picture day: Thabo's photos, one of Naledi's, one waiting for review.
    const first = await addPhoto(server, shop.openAlbumId, 'IMG_1001.JPG');
    const secondPhoto = await addPhoto(server, shop.openAlbumId, 'IMG_1002.JPG');
    const third = await addPhoto(server, shop.openAlbumId, 'IMG_1003.JPG');
    const waiting = await addPhoto(server, shop.openAlbumId, 'IMG_1004.JPG');
    const nalediPhoto = await addPhoto(server, shop.openAlbumId, 'IMG_1005.JPG');
    await server.runtime.knex('photos').whereIn('id', [first, secondPhoto, third, waiting]).update({ student_id: thabo });
    await server.runtime.knex('photos').where({ id: waiting }).update({ pending_review: true });
    await server.runtime.knex('photos').where({ id: nalediPhoto }).update({ student_id: naledi });
    // Anyone else: not signed in and not the placing browser.
    const stranger = new Client(server.url);
    await holdChildByCode(server, stranger, thabo);
    expect((await choose(stranger, [first])).status).toBe(403);
    expect((await new Client(server.url).put(`/api/orders/${orderId}/packages/999999/photos`, { photos: [first] })).status).toBe(403);
    expect((await family.put(`/api/orders/${orderId}/packages/999999/photos`, { photos: [first] })).status).toBe(404);
    // Another child's photo, a withheld one, too many poses, a count that fits no way of filling.
    expect((await choose(family, [nalediPhoto])).body).toMatchObject({ code: 'PHOTO_NOT_OF_CHILD', message: PREPAID_MSG.photoNotOfChild });
    expect((await choose(family, [waiting])).status).toBe(400);
    expect((await choose(family, [first, secondPhoto, third])).body.code).toBe('PACKAGE_POSES');
    expect((await choose(family, [first, secondPhoto, third, first])).body.code).toBe('PACKAGE_PHOTOS');
    expect((await choose(family, [])).status).toBe(400);
    // One per piece (2 prints + 1 download), two poses.
    const chosen = await choose(family, [first, secondPhoto, first]);
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.packages[0]).toMatchObject({ id: lineId, photosChosen: true, posesChosenBy: 'family', prepaid: true });
    const contents = chosen.body.items.filter((item: { packageLineId: number | null }) => item.packageLineId === lineId);
    expect(contents.map((item: Record<string, unknown>) => [item.photoId, item.productName, item.quantity, item.totalPrice, item.studentId])).toEqual([
      [first, 'Glossy Print', 1, '0.00', thabo],
      [secondPhoto, 'Glossy Print', 1, '0.00', thabo],
      [first, 'HD Download', 1, '0.00', thabo],
    ]);
    expect(contents[2].downloadUrl).toMatch(/\/api\/downloads\//);
    // The download delivers the chosen original.
    const download = await fetch(contents[2].downloadUrl as string);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/image\/jpeg/);
    // Changed: one photo for all.
    const changed = await choose(family, [{ photoId: third }]);
    expect(changed.status).toBe(200);
    expect(changed.body.items.map((item: { photoId: number }) => item.photoId)).toEqual([third, third]);
    // After the closing date: 409 with the date.
    const before = (await server.runtime.knex('schools').where({ id: shop.schoolId }).first('closing_date')).closing_date as string;
    const past = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
    await updateSchool(server, shop.schoolId, { closingDate: past });
    try {
      const late = await choose(family, [first]);
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({ code: 'CHOOSING_CLOSED', message: PREPAID_MSG.choosingClosed(closingDay(past)) });
    } finally {
      await updateSchool(server, shop.schoolId, { closingDate: before });
    }
  });

  it('refuses choosing for an unpaid order and for a line ordered with its photos', async () => {
    const unpaid = await family.post('/api/orders', body([prepaidLine(thabo)], '60.00'));
    const line = unpaid.body.order.packages[0].id;
    const photo = (await server.runtime.knex('photos').where({ student_id: thabo, pending_review: false }).first('id')).id as number;
    const res = await family.put(`/api/orders/${unpaid.body.order.id}/packages/${line}/photos`, { photos: [photo] });
    expect(res.body).toMatchObject({ code: 'ORDER_NOT_PAID', message: PREPAID_MSG.notPaid });
    const withPhotos = await family.post('/api/orders', body([{ packageId: familyPack, photos: [photo], unitPrice: '60.00', totalPrice: '60.00' }], '60.00'));
    expect(withPhotos.status, JSON.stringify(withPhotos.body)).toBe(201);
    expect(withPhotos.body.order.packages[0]).toMatchObject({ prepaid: false, photosChosen: true, posesChosenBy: 'family', posesDue: null });
    await payThroughSandbox(server, withPhotos.body.order.id);
    const notPrepaid = await family.put(`/api/orders/${withPhotos.body.order.id}/packages/${withPhotos.body.order.packages[0].id}/photos`, { photos: [photo] });
    expect(notPrepaid.body.code).toBe('NOT_PREPAID_LINE');
    // A package with photos naming another child is refused.
    const wrongChild = await family.post('/api/orders', body([{ packageId: familyPack, studentId: naledi, photos: [photo], unitPrice: '60.00', totalPrice: '60.00' }], '60.00'));
    expect(wrongChild.status).toBe(400);
    expect(wrongChild.body.message).toBe(PREPAID_MSG.photosWithChild);
    // The prepaid line is accepted after the photos are released too: its photos are chosen later.
    expect((await family.post('/api/orders', body([prepaidLine(thabo)], '60.00'))).status).toBe(201);
  });

  it('tells the family once that the photos are online, by e-mail and SMS, with the order link', async () => {
    const orderId = await placePaid(naledi);
    const run = () => createMaintenance(server.runtime).runPrepaid(Date.now());
    expect(await run()).toBe(true);
    const messages = (await outbox(orderId)).filter((row) => row.kind.startsWith('prepaid_photos_online'));
    expect(messages.map((row) => [row.kind, row.channel])).toEqual([
      ['prepaid_photos_online', 'email'],
      ['prepaid_photos_online_sms', 'sms'],
    ]);
    expect(messages[0].text).toContain(PREPAID_MSG.onlineChoose('Naledi Moyo', closingDay((await server.runtime.knex('schools').where({ id: shop.schoolId }).first('closing_date')).closing_date)));
    expect(messages[0].text).toContain(`/api/orders/${orderId}/open?t=`);
    expect(messages[1].recipient).toBe('+26771000000');
    expect(messages[1].text).toMatch(/\/s\/[A-Za-z0-9_-]+$/);
    // The link opens the order as the placing browser sees it: another browser can then choose.
    const emailLink = /(http\S+\/api\/orders\/\S+\/open\?t=\S+)/.exec(messages[0].text as string)?.[1];
    const phone = new Client(server.url);
    const opened = await phone.get(emailLink!.replace(server.url, ''));
    expect(opened.status).toBe(303);
    expect((await phone.get(`/api/orders/${orderId}`)).body.packages[0]).toMatchObject({ prepaid: true, photosChosen: false });
    // One message, not two: the season's "photos are online" counts the child as paid for.
    expect((await createSeasonRepository(server.runtime.knex).paid(shop.schoolId)).studentIds.has(naledi)).toBe(true);
    // Once: a second run tells nobody again.
    await run();
    expect((await outbox(orderId)).filter((row) => row.kind.startsWith('prepaid_photos_online'))).toHaveLength(2);
  });

  it('lets the signed-in customer owning the order choose from any device, and no other customer', async () => {
    const orderId = await placePaid(naledi);
    const owner = await createCustomer(server);
    await server.runtime.knex('orders').where({ id: orderId }).update({ customer_id: owner });
    const signedIn = new Client(server.url, server.runtime.tokens.signCustomer({ id: owner }));
    const other = new Client(server.url, server.runtime.tokens.signCustomer({ id: await createCustomer(server) }));
    const line = (await signedIn.get(`/api/orders/${orderId}`)).body.packages[0].id as number;
    const photo = (await server.runtime.knex('photos').where({ student_id: naledi }).first('id')).id as number;
    expect((await other.put(`/api/orders/${orderId}/packages/${line}/photos`, { photos: [photo] })).status).toBe(403);
    const chosen = await signedIn.put(`/api/orders/${orderId}/packages/${line}/photos`, { photos: [photo] });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.packages[0]).toMatchObject({ photosChosen: true, posesChosenBy: 'family' });
    // The family's answer: no camera file names.
    expect(chosen.body.items[0].photoOriginalName).toBeNull();
  });

  it('at the closing date fills what nobody chose with the default pose (else the first released photo), once with two processes, and flags a child without photos', async () => {
    const withDefault = await placePaid(naledi);
    const firstReleased = await placePaid(thabo);
    const noPhotos = await placePaid(absent);
    const chosenByFamily = await placePaid(thabo);
    const familyLine = (await family.get(`/api/orders/${chosenByFamily}`)).body.packages[0].id;
    const thaboReleased = (await server.runtime.knex('photos').where({ student_id: thabo, pending_review: false }).orderBy('original_name').select('id')).map((row) => Number(row.id));
    expect((await family.put(`/api/orders/${chosenByFamily}/packages/${familyLine}/photos`, { photos: [thaboReleased[1]] })).status).toBe(200);
    // Naledi's default pose is marked on the review sheet (a second photo of hers, later in capture order).
    const nalediFirst = (await server.runtime.knex('photos').where({ student_id: naledi }).first('id')).id as number;
    const nalediDefault = await addPhoto(server, shop.openAlbumId, 'IMG_1099.JPG');
    await server.runtime.knex('photos').where({ id: nalediDefault }).update({ student_id: naledi });
    expect((await staff.patch(`/api/students/${naledi}`, { defaultPhotoId: thaboReleased[0] })).status).toBe(400);
    const marked = await staff.patch(`/api/students/${naledi}`, { defaultPhotoId: nalediDefault });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    expect(marked.body.defaultPhotoId).toBe(nalediDefault);
    const sheet = await staff.get(`/api/albums/${shop.openAlbumId}/review`);
    expect(sheet.body.students.find((s: { id: number }) => s.id === naledi).defaultPhotoId).toBe(nalediDefault);
    // Waiting for photos: the dashboard and the reports count them; the lab waits for them.
    const dashboard = await staff.get('/api/dashboard/stats');
    expect(dashboard.body.packagesWaitingForPhotos).toBeGreaterThanOrEqual(3);
    const ready = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
    const batched = ready.status === 201 ? ((await staff.get(`/api/print-batches/${ready.body.id}`)).body.orders as { id: string }[]).map((o) => o.id) : [];
    expect(batched).not.toContain(withDefault);
    expect(batched).not.toContain(noPhotos);
    // Filled by the family before the closing date: it goes to the lab at once, with the chosen photo.
    expect(batched).toContain(chosenByFamily);

    // The closing date was yesterday: both processes run the job at once, on a fake clock.
    const closing = new Date(Date.now() + 10 * DAY_MS).toISOString().slice(0, 10);
    await updateSchool(server, shop.schoolId, { closingDate: closing });
    const now = Date.parse(`${closing}T00:00:00Z`) + 1.5 * DAY_MS;
    // The day before closing: nothing is filled.
    expect(await server.runtime.services.prepaid.fillDue(now - 2 * DAY_MS)).toEqual({ filled: 0, flagged: 0 });
    // MariaDB: GET_LOCK across the two processes. SQLite is one machine: its lock is inside the
    // process, so there the two runs race within one process and the second process runs after.
    const other = TEST_DB === 'mysql' ? second : server;
    const runs = await Promise.all([createMaintenance(server.runtime).runPrepaid(now), createMaintenance(other.runtime).runPrepaid(now)]);
    expect(runs.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    // Whichever ran second (or the lock held it off) finds nothing left.
    await createMaintenance(second.runtime).runPrepaid(now);
    await createMaintenance(server.runtime).runPrepaid(now);

    const read = async (orderId: string) => (await staff.get(`/api/orders/${orderId}`)).body;
    const a = await read(withDefault);
    expect(a.packages[0]).toMatchObject({ photosChosen: true, posesChosenBy: 'studio', noPhotoAtClosing: false });
    expect(a.items.map((item: { photoId: number }) => item.photoId)).toEqual([nalediDefault, nalediDefault]);
    const b = await read(firstReleased);
    expect(b.packages[0]).toMatchObject({ photosChosen: true, posesChosenBy: 'studio' });
    // Thabo's first released photo in capture order (no camera time here: by file name).
    expect(b.items.map((item: { photoId: number }) => item.photoId)).toEqual([thaboReleased[0], thaboReleased[0]]);
    const c = await read(noPhotos);
    expect(c.packages[0]).toMatchObject({ photosChosen: false, posesChosenBy: null, noPhotoAtClosing: true });
    expect(c.items).toEqual([]);
    const d = await read(chosenByFamily);
    expect(d.packages[0]).toMatchObject({ posesChosenBy: 'family' });
    expect(d.items.map((item: { photoId: number }) => item.photoId)).toEqual([thaboReleased[1], thaboReleased[1]]);

    // Told once by e-mail and SMS; nothing for the flagged line or the family's own choice.
    for (const orderId of [withDefault, firstReleased]) {
      expect((await outbox(orderId)).filter((row) => row.kind.startsWith('package_filled')).map((row) => [row.kind, row.channel])).toEqual([
        ['package_filled', 'email'],
        ['package_filled_sms', 'sms'],
      ]);
    }
    expect((await outbox(noPhotos)).filter((row) => row.kind.startsWith('package_filled'))).toEqual([]);
    expect((await outbox(chosenByFamily)).filter((row) => row.kind.startsWith('package_filled'))).toEqual([]);
    // The family can no longer change the studio's choice; staff can fill the flagged one after a retake.
    const lineA = a.packages[0].id;
    expect((await family.put(`/api/orders/${withDefault}/packages/${lineA}/photos`, { photos: [nalediFirst] })).status).toBe(409);

    // The lab: filled orders go into a batch with the chosen originals; the flagged one waits.
    const batch = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    const batchOrders = (await staff.get(`/api/print-batches/${batch.body.id}`)).body.orders as { id: string; items: { productName: string; packageName: string | null; photoName: string; quantity: number; studentName: string }[] }[];
    const inBatch = batchOrders.map((o) => o.id);
    // The prints of the filled package, with the default pose's original: 2 x Glossy Print of IMG_1099.
    expect(batchOrders.find((o) => o.id === withDefault)?.items).toEqual([
      expect.objectContaining({ productName: 'Glossy Print', packageName: 'Family Pack', photoName: 'IMG_1099.JPG', quantity: 2, studentName: 'Naledi Moyo' }),
    ]);
    expect(inBatch).toEqual(expect.arrayContaining([withDefault, firstReleased]));
    expect(inBatch).not.toContain(noPhotos);

    // The dashboard and the reports: the flagged line is still waiting, and flagged.
    const stats = (await staff.get('/api/dashboard/stats')).body;
    expect(stats.packagesWithoutPhoto).toBe(1);
    const report = (await staff.get('/api/reports/schools')).body;
    const school = report.schools.find((s: { schoolId: number }) => s.schoolId === shop.schoolId);
    expect(school.classes.find((k: { albumId: number }) => k.albumId === shop.openAlbumId)).toMatchObject({ packagesWithoutPhoto: 1 });
    expect(school.prepaidRevenueThebe).toBeGreaterThan(0);
  });
});

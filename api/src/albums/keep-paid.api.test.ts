/** Deleting never destroys what was paid for; archived classes; restore within one class (docs/access.md, "Photos that orders need", "Archived classes"). */
import fs from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KEEP_PAID_MSG, MSG } from '../../contract/messages';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { createAlbum, createSchool, customerClient, markOrderPaid, storedOriginalOf } from '../../test/fixtures';
import { solidJpeg } from '../../test/images';
import { addPhoto, createShop, orderBody, parentFor, type Shop } from '../../test/shop';
import { placeOrder } from '../print-batches/print-batches.test-helpers';
import { photoForm, shardedPath } from '../photos/photos.test-helpers';
import { addStudents, assignPhotos, familyWith, setAccessMode } from '../students/students.test-helpers';
import type { Student } from '../../contract/students';

const DAY_MS = 24 * 3600_000;

describeApi('deleting what was paid for, archived classes and restore within a class', () => {
  let server: TestServer;
  let staff: Client;
  beforeAll(async () => {
    server = await startTestServer();
    // Deleting classes and bulk-deleting photos are admins' (docs/accounts.md, "What a photographer may not do").
    staff = await staffClient(server, 'admin');
  });
  afterAll(() => server?.close());

  const knex = () => server.runtime.knex;
  const photoRow = (id: number) => knex()('photos').where({ id }).first('id');
  const dropOriginal = async (photoId: number) => {
    const { storageKey } = await storedOriginalOf(server, photoId);
    await fs.rm(shardedPath(server, 'originals', storageKey, 'jpg'));
  };

  /** A shop whose open class has a paid order: a print of the first photo and a digital copy of the second. */
  async function soldShop(): Promise<{ shop: Shop; parent: Client; orderId: string }> {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    const orderId = await placeOrder(parent, shop, [
      { photoId: shop.photoIds[0]!, albumId: shop.openAlbumId, product: shop.print, quantity: 1 },
      { photoId: shop.photoIds[1]!, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 },
    ]);
    await markOrderPaid(server, orderId);
    return { shop, parent, orderId };
  }

  it('refuses to delete a class while a paid, undelivered order needs its photos, naming the order', async () => {
    const { shop, orderId } = await soldShop();
    const res = await staff.delete(`/api/albums/${shop.openAlbumId}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'PHOTOS_IN_ORDERS', orders: [orderId], message: KEEP_PAID_MSG.photosNeededByOrders([orderId]) });
    expect(res.body.message).toContain(orderId);
    expect(await knex()('albums').where({ id: shop.openAlbumId }).first('id')).toBeDefined();
    for (const id of shop.photoIds) expect(await photoRow(id)).toBeDefined();
    const { storageKey } = await storedOriginalOf(server, shop.photoIds[0]!);
    await fs.access(shardedPath(server, 'originals', storageKey, 'jpg'));
  });

  it('a delivered order no longer holds prints, a digital copy holds its photo while its link lives, then the class can go', async () => {
    const { shop, orderId } = await soldShop();
    await knex()('orders').where({ id: orderId }).update({ order_status: 'delivered' });
    // The print is delivered; the digital copy's link still works.
    expect((await staff.delete('/api/photos/bulk-delete', { photoIds: [shop.photoIds[0]] })).status).toBe(200);
    const refused = await staff.delete(`/api/albums/${shop.openAlbumId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.orders).toEqual([orderId]);
    // Past the link's life (30 days from the order) nothing holds the class.
    await knex()('orders').where({ id: orderId }).update({ created_at: Date.now() - 31 * DAY_MS });
    expect((await staff.delete(`/api/albums/${shop.openAlbumId}`)).status).toBe(200);
    expect(await knex()('albums').where({ id: shop.openAlbumId }).first('id')).toBeUndefined();
  });

  it('a pending or cancelled order holds nothing', async () => {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    await placeOrder(parent, shop, [{ photoId: shop.photoIds[0]!, albumId: shop.openAlbumId, product: shop.print, quantity: 1 }]);
    const cancelled = await placeOrder(parent, shop, [{ photoId: shop.photoIds[1]!, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 }]);
    await knex()('orders').where({ id: cancelled }).update({ payment_status: 'completed', order_status: 'cancelled' });
    expect((await staff.delete(`/api/albums/${shop.openAlbumId}`)).status).toBe(200);
  });

  it('an order whose payment is open at the gateway holds its photos until the payment ends unpaid', async () => {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    const orderId = await placeOrder(parent, shop, [{ photoId: shop.photoIds[0]!, albumId: shop.openAlbumId, product: shop.print, quantity: 1 }]);
    const opened = await new Client(server.url).post('/api/payment/initiate', { orderId });
    expect(opened.status).toBe(200);
    expect(await knex()('payments').where({ order_id: orderId, status: 'initiated' }).first('id')).toBeDefined();

    const message = KEEP_PAID_MSG.photosNeededByOrders([orderId]);
    const byClass = await staff.delete(`/api/albums/${shop.openAlbumId}`);
    expect(byClass.status).toBe(409);
    expect(byClass.body).toMatchObject({ code: 'PHOTOS_IN_ORDERS', orders: [orderId], message });
    const byPhoto = await staff.delete('/api/photos/bulk-delete', { photoIds: [shop.photoIds[0]] });
    expect(byPhoto.status).toBe(409);
    expect(byPhoto.body).toMatchObject({ code: 'PHOTOS_IN_ORDERS', orders: [orderId] });
    await dropOriginal(shop.photoIds[0]!);
    const cleanup = await staff.delete('/api/photos/cleanup-missing', { deleteFromDatabase: true });
    expect(cleanup.status).toBe(409);
    expect(cleanup.body.orders).toContain(orderId);
    expect(await photoRow(shop.photoIds[0]!)).toBeDefined();

    // A payment being opened right now (the initiation claim) holds them too.
    await knex()('payments').where({ order_id: orderId }).update({ status: 'failed' });
    await knex()('orders').where({ id: orderId }).update({ payment_claimed_until: Date.now() + 60_000 });
    expect((await staff.delete(`/api/albums/${shop.openAlbumId}`)).body).toMatchObject({ code: 'PHOTOS_IN_ORDERS', orders: [orderId] });

    // Once the payment ended unpaid and no other is being opened, the class may go.
    await knex()('orders').where({ id: orderId }).update({ payment_claimed_until: null });
    expect((await staff.delete(`/api/albums/${shop.openAlbumId}`)).status).toBe(200);
    expect(await photoRow(shop.photoIds[0]!)).toBeUndefined();
  });

  it('a bank transfer the gateway received days ago holds its photos until its deadline', async () => {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    const orderId = await placeOrder(parent, shop, [{ photoId: shop.photoIds[0]!, albumId: shop.openAlbumId, product: shop.print, quantity: 1 }]);
    expect((await new Client(server.url).post('/api/payment/initiate', { orderId })).status).toBe(200);
    // Received (status 5) three days ago, confirmed by the bank within the week or expired.
    const threeDaysAgo = Date.now() - 3 * DAY_MS;
    await knex()('payments')
      .where({ order_id: orderId })
      .update({ status: 'pending', created_at: threeDaysAgo, received_at: threeDaysAgo, expires_at: Date.now() + 4 * DAY_MS, method: 'bank_transfer' });
    const refused = await staff.delete(`/api/albums/${shop.openAlbumId}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'PHOTOS_IN_ORDERS', orders: [orderId] });

    // Past its deadline the transfer has expired (a late approval is flagged for staff, docs/payments.md): the class may go.
    await knex()('payments').where({ order_id: orderId }).update({ expires_at: Date.now() - 60_000 });
    expect((await staff.delete(`/api/albums/${shop.openAlbumId}`)).status).toBe(200);
  });

  it('a payment confirmed while the delete is under way wins: the delete waits for it, then refuses', async () => {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    const orderId = await placeOrder(parent, shop, [{ photoId: shop.photoIds[0]!, albumId: shop.openAlbumId, product: shop.print, quantity: 1 }]);
    // As confirming a payment does: the order's row is written (and locked) in a transaction that commits a moment later.
    const confirming = await knex().transaction();
    let deleting: Promise<{ status: number; body: { orders?: string[] } }> | undefined;
    try {
      await confirming('orders').where({ id: orderId }).update({ payment_status: 'completed', order_status: 'paid' });
      deleting = staff.delete(`/api/albums/${shop.openAlbumId}`);
      await new Promise((resolve) => setTimeout(resolve, 400));
      await confirming.commit();
    } catch (err) {
      await confirming.rollback();
      throw err;
    }
    const res = await deleting;
    expect(res.status).toBe(409);
    expect(res.body.orders).toEqual([orderId]);
    expect(await photoRow(shop.photoIds[0]!)).toBeDefined();
  });

  it('an unpaid order whose photos were deleted can no longer be paid', async () => {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    const orderId = await placeOrder(parent, shop, [
      { photoId: shop.photoIds[0]!, albumId: shop.openAlbumId, product: shop.print, quantity: 1 },
      { photoId: shop.photoIds[1]!, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 },
    ]);
    expect((await staff.delete('/api/photos/bulk-delete', { photoIds: [shop.photoIds[1]] })).status).toBe(200);
    const refused = await new Client(server.url).post('/api/payment/initiate', { orderId });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'ORDER_PHOTOS_GONE', message: KEEP_PAID_MSG.orderPhotosGone });
    expect(await knex()('payments').where({ order_id: orderId }).first('id')).toBeUndefined();
    expect(await knex()('orders').where({ id: orderId }).first('payment_claimed_until')).toEqual({ payment_claimed_until: null });
  });

  it('refuses a bulk delete that includes a paid photo, deleting none of them', async () => {
    const { shop, orderId } = await soldShop();
    const spare = await addPhoto(server, shop.openAlbumId, 'IMG_0999.JPG');
    const res = await staff.delete('/api/photos/bulk-delete', { photoIds: [spare, shop.photoIds[1]] });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'PHOTOS_IN_ORDERS', orders: [orderId] });
    expect(await photoRow(spare)).toBeDefined();
    expect(await photoRow(shop.photoIds[1]!)).toBeDefined();
    expect((await staff.delete('/api/photos/bulk-delete', { photoIds: [spare] })).body).toEqual({ deletedCount: 1 });
  });

  it('refuses to clean up missing photos while a paid order needs one of them', async () => {
    const { shop, orderId } = await soldShop();
    await dropOriginal(shop.photoIds[0]!);
    const res = await staff.delete('/api/photos/cleanup-missing', { deleteFromDatabase: true });
    expect(res.status).toBe(409);
    expect(res.body.orders).toContain(orderId);
    expect(await photoRow(shop.photoIds[0]!)).toBeDefined();
    // Once delivered and past its links, the row may go.
    await knex()('orders').where({ id: orderId }).update({ order_status: 'delivered', created_at: Date.now() - 31 * DAY_MS });
    const cleaned = await staff.delete('/api/photos/cleanup-missing', { deleteFromDatabase: true });
    expect(cleaned.status).toBe(200);
    expect(await photoRow(shop.photoIds[0]!)).toBeUndefined();
  });

  it('an archived class is hidden from families and kept for its orders', async () => {
    const { shop, parent, orderId } = await soldShop();
    const photoId = shop.photoIds[1]!;
    expect((await parent.get(`/api/albums/${shop.openAlbumId}/photos`)).status).toBe(200);

    const archived = await staff.patch(`/api/albums/${shop.openAlbumId}`, { archived: true });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ id: shop.openAlbumId, archived: true, status: 'published' });
    expect((await staff.patch(`/api/albums/${shop.openAlbumId}`, { archived: 'yes' })).body.errors).toHaveProperty('archived', KEEP_PAID_MSG.archivedInvalid);

    // Families: not in the class list, its photos and images as if they did not exist, not for sale.
    const classes = await parent.get(`/api/schools/${shop.schoolId}/albums`);
    expect(classes.status).toBe(200);
    expect(classes.body.map((album: { id: number }) => album.id)).not.toContain(shop.openAlbumId);
    expect((await parent.get(`/api/albums/${shop.openAlbumId}/photos`)).status).toBe(404);
    expect((await parent.get(`/api/images/${photoId}/thumbnail`)).status).toBe(404);
    const order = await parent.post('/api/orders', orderBody(shop, [{ photoId, albumId: shop.openAlbumId, product: shop.print, quantity: 1 }]));
    expect(order.status).toBe(403);

    // The family that bought them, signed in (My Orders, any device), still sees its own order's
    // images: only the photos it ordered, and nobody else does.
    const unordered = await addPhoto(server, shop.openAlbumId, 'IMG_0425.JPG');
    const { customer_id: customerId } = await knex()('orders').where({ id: orderId }).first('customer_id');
    const family = new Client(server.url, server.runtime.tokens.signCustomer({ id: Number(customerId) }));
    expect((await family.get(`/api/images/${photoId}/thumbnail`)).status).toBe(200);
    expect((await family.get(`/api/images/${shop.photoIds[0]}/thumbnail?size=small`)).status).toBe(200);
    expect((await family.get(`/api/images/${unordered}/thumbnail`)).status).toBe(404);
    expect((await (await customerClient(server)).get(`/api/images/${photoId}/thumbnail`)).status).toBe(404);
    const mine = (await family.get('/api/customer/orders')).body.find((order: { id: string }) => order.id === orderId);
    const bought = mine.items.find((item: { photoId: number }) => item.photoId === photoId);
    expect(bought).toMatchObject({ withdrawn: false });
    expect((await family.get(new URL(bought.downloadUrl as string).pathname)).status).toBe(200);
    // A cancelled order keeps nothing visible.
    await knex()('orders').where({ id: orderId }).update({ order_status: 'cancelled' });
    expect((await family.get(`/api/images/${photoId}/thumbnail`)).status).toBe(404);
    await knex()('orders').where({ id: orderId }).update({ order_status: 'paid' });

    // Staff still see it, marked archived; the paid order still downloads its digital copy.
    const staffClasses = await staff.get(`/api/schools/${shop.schoolId}/albums`);
    expect(staffClasses.body.find((album: { id: number }) => album.id === shop.openAlbumId)).toMatchObject({ archived: true });
    const shown = await staff.get(`/api/orders/${orderId}`);
    const digital = shown.body.items.find((item: { photoId: number }) => item.photoId === photoId);
    expect(digital).toMatchObject({ withdrawn: false });
    expect(digital.downloadUrl).toMatch(/\/api\/downloads\//);
    const download = await parent.get(new URL(digital.downloadUrl as string).pathname);
    expect(download.status).toBe(200);

    // Unarchived, families see it again.
    expect((await staff.patch(`/api/albums/${shop.openAlbumId}`, { archived: false })).body.archived).toBe(false);
    expect((await parent.get(`/api/albums/${shop.openAlbumId}/photos`)).status).toBe(200);
  });

  it('in a student-codes school, the family holding the child’s code still sees the photos it ordered from an archived class, and only those', async () => {
    const admin = await staffClient(server, 'admin');
    const shop = await createShop(server);
    await setAccessMode(admin, shop.schoolId, 'student_codes');
    const [mine, theirs] = (await addStudents(admin, shop.openAlbumId, ['Onalenna Mosweu', 'Refilwe Baone'])) as [Student, Student];
    const ordered = await addPhoto(server, shop.openAlbumId, 'IMG_2001.JPG');
    const notOrdered = await addPhoto(server, shop.openAlbumId, 'IMG_2002.JPG');
    const other = await addPhoto(server, shop.openAlbumId, 'IMG_2003.JPG');
    await assignPhotos(admin, [ordered, notOrdered], mine.id);
    await assignPhotos(admin, [other], theirs.id);
    const family = await familyWith(server, mine.code);
    const neighbours = await familyWith(server, theirs.code);
    const placed = await family.post('/api/orders', orderBody(shop, [{ photoId: ordered, albumId: shop.openAlbumId, product: shop.print, quantity: 1 }]));
    expect(placed.status).toBe(201);
    await markOrderPaid(server, placed.body.order.id as string);
    expect((await staff.patch(`/api/albums/${shop.openAlbumId}`, { archived: true })).status).toBe(200);

    expect((await family.get(`/api/images/${ordered}/thumbnail`)).status).toBe(200);
    expect((await family.get(`/api/images/${ordered}/watermarked`)).status).toBe(200);
    expect((await family.get(`/api/images/${notOrdered}/thumbnail`)).status).toBe(404);
    expect((await family.get(`/api/albums/${shop.openAlbumId}/photos`)).status).toBe(404);
    expect((await neighbours.get(`/api/images/${ordered}/thumbnail`)).status).toBe(404);
    // Moved to another child since, the photo is no longer this family's.
    // (A photo a family paid for moves only once staff confirm the warning, docs/access.md "Moving a sold photo".)
    expect((await admin.put('/api/photos/student', { photoIds: [ordered], studentId: theirs.id })).body.code).toBe('PHOTO_SOLD');
    expect((await admin.put('/api/photos/student', { photoIds: [ordered], studentId: theirs.id, confirm: true })).status).toBe(200);
    expect((await family.get(`/api/images/${ordered}/thumbnail`)).status).toBe(404);
  });

  it('restores a file only into the chosen class, never into another school’s photo of the same name', async () => {
    const schoolA = await createSchool(server, { name: 'Restore School A' });
    const schoolB = await createSchool(server, { name: 'Restore School B' });
    const albumA = await createAlbum(server, schoolA.id, { name: 'A1' });
    const albumB = await createAlbum(server, schoolB.id, { name: 'B1' });
    // B's photo is older, so a name-only match across the library would take it first.
    const photoB = await addPhoto(server, albumB, 'IMG_4242.JPG');
    const photoA = await addPhoto(server, albumA, 'IMG_4242.JPG');
    await dropOriginal(photoB);
    await dropOriginal(photoA);
    const file = { name: 'IMG_4242.JPG', bytes: await solidJpeg(300, 200) };

    const noClass = await staff.post('/api/photos/restore', photoForm([file]));
    expect(noClass.status).toBe(400);
    expect(noClass.body.message).toBe(KEEP_PAID_MSG.restoreClassRequired);

    const res = await staff.post('/api/photos/restore', photoForm([file], { albumId: String(albumA) }));
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([{ filename: 'IMG_4242.JPG', success: true, message: MSG.restoredPhoto }]);
    const missing = (await staff.get('/api/photos/missing')).body.missingPhotos.map((p: { id: number }) => p.id);
    expect(missing).toContain(photoB);
    expect(missing).not.toContain(photoA);

    // A class with no missing photo of that name restores nothing, whatever other classes miss.
    const other = await createAlbum(server, schoolA.id, { name: 'A2' });
    const none = await staff.post('/api/photos/restore', photoForm([file], { albumId: String(other) }));
    expect(none.body.results).toEqual([{ filename: 'IMG_4242.JPG', success: false, message: MSG.noMissingPhotos }]);
    expect((await staff.post('/api/photos/restore', photoForm([file], { albumId: '999999' }))).status).toBe(404);
  });
});

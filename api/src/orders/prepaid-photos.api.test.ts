import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { createShop, orderBody, payThroughSandbox, type Shop } from '../../test/shop';
import { addChildWithPhotos, addPackage, addPhoto, createCustomer, holdChildByCode } from '../../test/fixtures';
import { setAccessMode } from '../students/students.test-helpers';
import { prepaidPhotosResponseSchema } from '../../contract/prepaid-photos';
import { createOrderLinks } from './order-links';

/**
 * Choosing a prepaid package's photos from any device (docs/prepaid.md, "Choosing from any
 * device"): the list of the line's child's released photos and their images, to the order's owner
 * with no gallery access (a browser that only opened the order link, the signed-in customer), and
 * to nobody else; a withheld photo is never listed nor served.
 */
describeApi('the photos a prepaid package is chosen from', () => {
  let server: TestServer;
  let shop: Shop;
  let family: Client;
  let thabo: number;
  let naledi: number;
  let pack: number;
  let orderId: string;
  let lineId: number;
  /** Thabo's released photos (capture order), one of his waiting for review, one card, one of Naledi's. */
  let released: number[];
  let waiting: number;
  let card: number;
  let nalediPhoto: number;

  beforeAll(async () => {
    server = await startTestServer();
    const staff = await staffClient(server);
    shop = await createShop(server);
    await setAccessMode(staff, shop.schoolId, 'student_codes');
    thabo = await addChildWithPhotos(server, shop.openAlbumId, 'Thabo Moyo', []);
    naledi = await addChildWithPhotos(server, shop.openAlbumId, 'Naledi Moyo', []);
    family = new Client(server.url);
    await holdChildByCode(server, family, thabo);
    pack = await addPackage(server, shop.priceListId!, { name: 'Family Pack', priceThebe: 6000, maxPoses: 2, items: [{ itemId: Number(shop.print.id), quantity: 2 }] });
    const res = await family.post('/api/orders', { ...orderBody(shop, []), items: [{ packageId: pack, studentId: thabo, photos: [], quantity: 1, unitPrice: '60.00', totalPrice: '60.00' }], totalAmount: '60.00' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    orderId = res.body.order.id as string;
    lineId = res.body.order.packages[0].id as number;
  });
  afterAll(async () => {
    await server?.close();
  });

  const listPath = () => `/api/orders/${orderId}/packages/${lineId}/photos`;

  it('answers 409 while the order is unpaid, then an empty list until the photos are released', async () => {
    expect((await family.get(listPath())).body).toMatchObject({ code: 'ORDER_NOT_PAID' });
    await payThroughSandbox(server, orderId);
    const empty = await family.get(listPath());
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ photos: [] });
  });

  it('lists the child released photos to a browser that only opened the order link, and their images load there', async () => {
    const second = await addPhoto(server, shop.openAlbumId, 'IMG_2002.JPG');
    const first = await addPhoto(server, shop.openAlbumId, 'IMG_2001.JPG');
    waiting = await addPhoto(server, shop.openAlbumId, 'IMG_2003.JPG');
    card = await addPhoto(server, shop.openAlbumId, 'IMG_2004.JPG');
    nalediPhoto = await addPhoto(server, shop.openAlbumId, 'IMG_2005.JPG');
    const knex = server.runtime.knex;
    await knex('photos').whereIn('id', [first, second, waiting, card]).update({ student_id: thabo });
    await knex('photos').where({ id: first }).update({ captured_at: 1000 });
    await knex('photos').where({ id: second }).update({ captured_at: 2000 });
    await knex('photos').where({ id: waiting }).update({ pending_review: true });
    await knex('photos').where({ id: card }).update({ kind: 'card' });
    await knex('photos').where({ id: nalediPhoto }).update({ student_id: naledi });
    released = [first, second];

    // A fresh browser: no code, no gallery access; it opens the message's order link.
    const phone = new Client(server.url);
    expect((await phone.get(listPath())).status).toBe(403);
    const link = createOrderLinks(server.runtime.config.jwtSecret).path(orderId);
    expect((await phone.get(link)).status).toBe(303);
    const list = await phone.get(listPath());
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const parsed = prepaidPhotosResponseSchema.parse(list.body);
    expect(parsed.photos.map((photo) => [photo.id, photo.studentId, photo.originalNumber])).toEqual([
      [first, thabo, '2001'],
      [second, thabo, '2002'],
    ]);
    // What families see of a photo: no camera file name.
    expect(list.body.photos[0]).not.toHaveProperty('originalName');
    expect(list.headers.get('cache-control')).toBe('no-store');
    // Its gallery access sees none of them...
    expect((await phone.get(`/api/images/${first}/thumbnail`)).status).toBe(404);
    // ...but the list's addresses load, with no cookie at all.
    const bare = new Client(server.url);
    for (const url of [parsed.photos[0]!.thumbnailUrl, parsed.photos[0]!.smallThumbnailUrl, parsed.photos[1]!.previewUrl]) {
      const image = await bare.get(url);
      expect(image.status, url).toBe(200);
      expect(image.headers.get('content-type')).toMatch(/^image\/(jpeg|webp)/);
    }
    // The browser that opened the link also loads them without the signed address.
    expect((await phone.get(`${listPath()}/${first}/watermarked`)).status).toBe(200);
  });

  it('never lists nor serves a withheld photo, a card, another child photo or an unknown one, even with a signed address', async () => {
    const list = prepaidPhotosResponseSchema.parse((await family.get(listPath())).body);
    expect(list.photos.map((photo) => photo.id)).toEqual(released);
    const token = new URL(list.photos[0]!.thumbnailUrl, server.url).searchParams.get('t')!;
    for (const photo of [waiting, card, nalediPhoto, shop.photoIds[0]!, 99999999]) {
      expect((await new Client(server.url).get(`${listPath()}/${photo}/thumbnail?t=${token}`)).status, String(photo)).toBe(404);
      expect((await family.get(`${listPath()}/${photo}/watermarked`)).status, String(photo)).toBe(404);
    }
    // The child marked do not publish: nothing listed, nothing served.
    await server.runtime.knex('students').where({ id: thabo }).update({ do_not_publish: true });
    try {
      expect((await family.get(listPath())).body).toEqual({ photos: [] });
      expect((await new Client(server.url).get(list.photos[0]!.thumbnailUrl)).status).toBe(404);
    } finally {
      await server.runtime.knex('students').where({ id: thabo }).update({ do_not_publish: false });
    }
    // The class back in draft: nothing released.
    await server.runtime.knex('albums').where({ id: shop.openAlbumId }).update({ status: 'draft' });
    try {
      expect((await family.get(listPath())).body).toEqual({ photos: [] });
      expect((await new Client(server.url).get(list.photos[0]!.thumbnailUrl)).status).toBe(404);
    } finally {
      await server.runtime.knex('albums').where({ id: shop.openAlbumId }).update({ status: 'published' });
    }
  });

  it('refuses another family, a forged or another line signed address, and an unknown line', async () => {
    const other = new Client(server.url);
    await holdChildByCode(server, other, thabo);
    expect((await other.get(listPath())).status).toBe(403);
    expect((await other.get(`${listPath()}/${released[0]}/thumbnail`)).status).toBe(403);
    expect((await other.get(`${listPath()}/${released[0]}/thumbnail?t=forged`)).status).toBe(403);
    const token = new URL(prepaidPhotosResponseSchema.parse((await family.get(listPath())).body).photos[0]!.thumbnailUrl, server.url).searchParams.get('t')!;
    // A token of this line opens no other order's line.
    const otherOrder = await family.post('/api/orders', { ...orderBody(shop, []), items: [{ packageId: pack, studentId: thabo, photos: [], quantity: 1, unitPrice: '60.00', totalPrice: '60.00' }], totalAmount: '60.00' });
    const otherPath = `/api/orders/${otherOrder.body.order.id as string}/packages/${otherOrder.body.order.packages[0].id as number}/photos`;
    expect((await other.get(`${otherPath}/${released[0]}/thumbnail?t=${token}`)).status).toBe(403);
    expect((await family.get(`/api/orders/${orderId}/packages/99999999/photos`)).status).toBe(404);
    expect((await family.get(`${listPath()}/${released[0]}/original`)).status).toBe(404);
  });

  it('lists them to the signed-in customer owning the order on another device, and to no other customer', async () => {
    const owner = await createCustomer(server);
    await server.runtime.knex('orders').where({ id: orderId }).update({ customer_id: owner });
    const signedIn = new Client(server.url, server.runtime.tokens.signCustomer({ id: owner }));
    const stranger = new Client(server.url, server.runtime.tokens.signCustomer({ id: await createCustomer(server) }));
    const list = await signedIn.get(listPath());
    expect(list.status).toBe(200);
    expect(list.body.photos.map((photo: { id: number }) => photo.id)).toEqual(released);
    expect((await new Client(server.url).get(list.body.photos[1].smallThumbnailUrl as string)).status).toBe(200);
    expect((await stranger.get(listPath())).status).toBe(403);
    // And chooses from it.
    const chosen = await signedIn.put(listPath(), { photos: [released[1]] });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.packages[0]).toMatchObject({ photosChosen: true, posesChosenBy: 'family' });
  });

  it('answers 409 for a cancelled order, its images 404', async () => {
    const url = prepaidPhotosResponseSchema.parse((await family.get(listPath())).body).photos[0]!.thumbnailUrl;
    await server.runtime.knex('orders').where({ id: orderId }).update({ order_status: 'cancelled' });
    expect((await family.get(listPath())).body).toMatchObject({ code: 'ORDER_CANCELLED' });
    expect((await new Client(server.url).get(url)).status).toBe(404);
  });
});

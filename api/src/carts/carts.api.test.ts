import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { CART_REMINDER_MSG } from '../../contract/messages';
import { Client, describeApi, startTestServer, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, standardLines, type Shop } from '../../test/shop';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';
import { GABORONE_OFFSET_MS } from '../outreach/send-window';
import { signCartLink } from './cart-token';
import { deliverReminders, insertGuardian, withGuardianCookie } from './carts.test-helpers';

const HOUR = 60 * 60 * 1000;
const address = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.test`;

/** The cart mirror, the "still in your cart" message and its restore link (docs/outreach.md, "Abandoned carts and unpaid orders"). */
describeApi('abandoned carts', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let shop: Shop;
  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url });
    shop = await createShop(server);
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  const cartRow = (guardianId: number) => server.runtime.knex('guardian_carts').where({ guardian_id: guardianId }).first();
  const ageCart = (guardianId: number, updatedAt: number) => server.runtime.knex('guardian_carts').where({ guardian_id: guardianId }).update({ updated_at: updatedAt });
  const lines = (s: Shop) => [
    { photoId: s.photoIds[0]!, productType: s.print.id, quantity: 2 },
    { photoId: s.protectedPhotoId, productType: s.print.id, quantity: 1 },
    { photoId: s.photoIds[1]!, productType: s.digital.id, quantity: 1 },
  ];
  /** A confirmed guardian following the shop's school, whose browser unlocked it and mirrored a cart. */
  async function abandoned(email: string) {
    const guardianId = await insertGuardian(server, { email, follows: [{ schoolId: shop.schoolId }] });
    const browser = withGuardianCookie(server, await parentFor(server, shop), guardianId);
    const res = await browser.put('/api/guardians/cart', { items: lines(shop) });
    expect(res.body).toEqual({ mirrored: true });
    return { guardianId, browser };
  }

  it('mirrors only for a confirmed guardian who has not unsubscribed, and drops the photos the browser cannot see', async () => {
    const parent = await parentFor(server, shop);
    expect((await parent.put('/api/guardians/cart', { items: lines(shop) })).body).toEqual({ mirrored: false });

    const unconfirmed = await insertGuardian(server, { email: address('unconfirmed'), confirmed: false });
    expect((await withGuardianCookie(server, await parentFor(server, shop), unconfirmed).put('/api/guardians/cart', { items: lines(shop) })).body).toEqual({ mirrored: false });
    expect(await cartRow(unconfirmed)).toBeUndefined();
    const unsubscribed = await insertGuardian(server, { email: address('gone'), unsubscribed: true });
    expect((await withGuardianCookie(server, await parentFor(server, shop), unsubscribed).put('/api/guardians/cart', { items: lines(shop) })).body).toEqual({ mirrored: false });
    expect(await cartRow(unsubscribed)).toBeUndefined();

    const guardianId = await insertGuardian(server, { email: address('mirror') });
    const browser = withGuardianCookie(server, await parentFor(server, shop), guardianId);
    expect((await browser.put('/api/guardians/cart', { items: [{ photoId: shop.photoIds[0], productType: shop.print.id, quantity: 0 }] })).status).toBe(400);
    const before = Date.now();
    expect((await browser.put('/api/guardians/cart', { items: lines(shop) })).body).toEqual({ mirrored: true });
    const row = await cartRow(guardianId);
    // The protected class's photo is not this browser's to see (no class password): dropped, never stored.
    expect(JSON.parse(row.items)).toEqual([
      { photoId: shop.photoIds[0], productType: shop.print.id, quantity: 2 },
      { photoId: shop.photoIds[1], productType: shop.digital.id, quantity: 1 },
    ]);
    expect(Number(row.school_id)).toBe(shop.schoolId);
    expect(Number(row.updated_at)).toBeGreaterThanOrEqual(before);

    // The same cart again (a new visit) does not move the time; a change does.
    await ageCart(guardianId, before - HOUR);
    await browser.put('/api/guardians/cart', { items: lines(shop) });
    expect(Number((await cartRow(guardianId)).updated_at)).toBe(before - HOUR);
    await browser.put('/api/guardians/cart', { items: [{ photoId: shop.photoIds[0], productType: shop.print.id, quantity: 3 }] });
    expect(Number((await cartRow(guardianId)).updated_at)).toBeGreaterThanOrEqual(before);

    expect((await browser.put('/api/guardians/cart', { items: [] })).body).toEqual({ mirrored: true });
    expect(await cartRow(guardianId)).toBeUndefined();
  });

  it('sends one "still in your cart" message with the unsubscribe headers, and its link rebuilds the cart on a fresh device', async () => {
    const email = address('abandoned');
    const { guardianId } = await abandoned(email);
    const now = Date.now();
    await ageCart(guardianId, now - 25 * HOUR);
    const reminders = server.runtime.services.reminders;
    expect((await reminders.sendDue(now)).carts).toBe(1);
    expect((await reminders.sendDue(now)).carts).toBe(0);
    expect((await reminders.sendDue(now + 2 * 24 * HOUR)).carts).toBe(0);

    const rows = await server.runtime.knex('outbox_messages').where({ recipient: email });
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row.kind).toBe('abandoned_cart');
    expect(Number(row.guardian_id)).toBe(guardianId);
    expect(row.dedupe_key).toBe(`abandoned_cart:${guardianId}:${now - 25 * HOUR}`);
    // Planned inside the default window, 08:00-19:00 Botswana time.
    const local = new Date(Number(row.not_before) + GABORONE_OFFSET_MS);
    expect(local.getUTCHours()).toBeGreaterThanOrEqual(8);
    expect(local.getUTCHours()).toBeLessThan(19);
    expect(Number(row.not_before)).toBeGreaterThanOrEqual(now);

    await deliverReminders(server);
    const message = await mail.waitFor(email);
    expect(message.subject).toBe(CART_REMINDER_MSG.cartSubject);
    expect(message.raw).toMatch(/^List-Unsubscribe:\s+<http:\/\/127\.0\.0\.1:\d+\/api\/guardians\/unsubscribe\?token=[^>]+>/m);
    expect(message.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    expect(message.text).toContain('2 × Glossy Print, Photo 423');
    expect(message.text).toContain('1 × HD Download, Photo 424');
    expect(message.text).toContain(`${server.url}/unsubscribe?token=`);
    await mail.noMoreThan(1, { to: email, within: 300 });

    const link = /https?:\/\/\S+\/cart\/restore\?token=\S+/.exec(message.text);
    expect(link).not.toBeNull();
    const token = new URL(link![0]).searchParams.get('token')!;

    const fresh = new Client(server.url);
    const thumbnail = `/api/images/${shop.photoIds[0]}/thumbnail`;
    expect((await fresh.get(thumbnail)).status).toBe(404);
    const restored = await fresh.post('/api/guardians/cart/restore', { token });
    expect(restored.status).toBe(200);
    expect(restored.body.dropped).toBe(0);
    expect(restored.body.schoolSlug).toBe(shop.slug);
    expect(restored.body.items).toEqual([
      expect.objectContaining({ photoId: shop.photoIds[0], albumId: shop.openAlbumId, photoName: 'Photo 423', photoPreview: thumbnail, productType: shop.print.id, productName: 'Glossy Print', unitPrice: 30, quantity: 2, schoolId: shop.schoolId, schoolName: shop.schoolName }),
      expect.objectContaining({ photoId: shop.photoIds[1], productType: shop.digital.id, productName: 'HD Download', unitPrice: 17.5, quantity: 1 }),
    ]);
    const image = await fresh.get(thumbnail);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
  });

  it('re-prices on restore and drops what is no longer sold or no longer visible', async () => {
    const email = address('reprice');
    const { guardianId } = await abandoned(email);
    const now = Date.now();
    await ageCart(guardianId, now - 25 * HOUR);
    await server.runtime.services.reminders.sendDue(now);
    await deliverReminders(server);
    const token = new URL(/https?:\/\/\S+\/cart\/restore\?token=\S+/.exec((await mail.waitFor(email)).text)![0]).searchParams.get('token')!;

    const knex = server.runtime.knex;
    await knex('price_list_items').where({ id: Number(shop.print.id) }).update({ price_thebe: 3250 });
    await knex('price_list_items').where({ id: Number(shop.digital.id) }).delete();
    const restored = await new Client(server.url).post('/api/guardians/cart/restore', { token });
    expect(restored.status).toBe(200);
    expect(restored.body.items).toEqual([expect.objectContaining({ photoId: shop.photoIds[0], unitPrice: 32.5, quantity: 2 })]);
    expect(restored.body.dropped).toBe(1);
    await knex('price_list_items').where({ id: Number(shop.print.id) }).update({ price_thebe: 3000 });
    await knex('price_list_items').insert({ id: Number(shop.digital.id), price_list_id: shop.priceListId, product_type: 'HD Download', description: 'file', price_thebe: 1750, kind: 'digital', position: 1 });
  });

  it('writes nothing when an order followed the cart, and withdraws a queued message once the family orders', async () => {
    const reminders = server.runtime.services.reminders;
    const ordered = address('ordered');
    const first = await abandoned(ordered);
    await ageCart(first.guardianId, Date.now() - 25 * HOUR);
    expect((await first.browser.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: ordered }))).status).toBe(201);
    expect((await reminders.sendDue(Date.now())).carts).toBe(0);
    expect(await server.runtime.knex('outbox_messages').where({ recipient: ordered, kind: 'abandoned_cart' })).toHaveLength(0);

    // Written two days ahead, so it waits in the queue; then the family orders.
    const later = address('later');
    const second = await abandoned(later);
    await ageCart(second.guardianId, Date.now() - HOUR);
    const ahead = Date.now() + 2 * 24 * HOUR;
    expect((await reminders.sendDue(ahead)).carts).toBe(1);
    expect((await second.browser.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: later }))).status).toBe(201);
    expect((await reminders.sendDue(ahead)).withdrawn).toBe(1);
    const row = await server.runtime.knex('outbox_messages').where({ recipient: later, kind: 'abandoned_cart' }).first();
    expect(row.status).toBe('cancelled');
  });

  it('never writes to an address that unsubscribed', async () => {
    const email = address('unsub');
    const { guardianId } = await abandoned(email);
    await ageCart(guardianId, Date.now() - 25 * HOUR);
    await server.runtime.knex('guardians').where({ id: guardianId }).update({ unsubscribed_at: Date.now() });
    expect((await server.runtime.services.reminders.sendDue(Date.now())).carts).toBe(0);
    expect(await server.runtime.knex('outbox_messages').where({ recipient: email })).toHaveLength(0);
  });

  it('refuses a bad restore link with 400 and an expired one with 410', async () => {
    const fresh = new Client(server.url);
    expect((await fresh.post('/api/guardians/cart/restore', {})).status).toBe(400);
    const bad = await fresh.post('/api/guardians/cart/restore', { token: 'not-a-token' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('CART_LINK_INVALID');
    const forged = signCartLink('another-secret-another-secret-another-secret', { guardianId: 1, version: 1, expiresAt: Date.now() + HOUR, grants: [] });
    expect((await fresh.post('/api/guardians/cart/restore', { token: forged })).body.code).toBe('CART_LINK_INVALID');

    const guardianId = await insertGuardian(server, { email: address('expired'), follows: [{ schoolId: shop.schoolId }] });
    const expired = signCartLink(server.config.jwtSecret, { guardianId, version: 1, expiresAt: Date.now() - 1000, grants: [] });
    const res = await fresh.post('/api/guardians/cart/restore', { token: expired });
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ code: 'CART_LINK_EXPIRED', message: CART_REMINDER_MSG.linkExpired });
  });

  it('renews no grant once the guardian unsubscribed or is no longer confirmed (docs/outreach.md, "The restore link")', async () => {
    for (const change of [{ unsubscribed_at: Date.now() }, { confirmed_at: null }]) {
      const email = address('stopped');
      const { guardianId } = await abandoned(email);
      const now = Date.now();
      await ageCart(guardianId, now - 25 * HOUR);
      await server.runtime.services.reminders.sendDue(now);
      await deliverReminders(server);
      const token = new URL(/https?:\/\/\S+\/cart\/restore\?token=\S+/.exec((await mail.waitFor(email)).text)![0]).searchParams.get('token')!;
      await server.runtime.knex('guardians').where({ id: guardianId }).update(change);

      const fresh = new Client(server.url);
      const restored = await fresh.post('/api/guardians/cart/restore', { token });
      expect(restored.status).toBe(200);
      // Nothing renewed: this new device sees none of the cart's photos.
      expect(restored.body.items).toEqual([]);
      expect(restored.body.dropped).toBe(2);
      expect((await fresh.get(`/api/images/${shop.photoIds[0]}/thumbnail`)).status).toBe(404);
    }
  });

  it('does not renew a school grant after the school password changed', async () => {
    const email = address('rotated');
    const { guardianId } = await abandoned(email);
    const now = Date.now();
    await ageCart(guardianId, now - 25 * HOUR);
    await server.runtime.services.reminders.sendDue(now);
    await deliverReminders(server);
    const token = new URL(/https?:\/\/\S+\/cart\/restore\?token=\S+/.exec((await mail.waitFor(email)).text)![0]).searchParams.get('token')!;

    // Rotate this school's password as staff do each season: the epoch moves.
    await server.runtime.knex('schools').where({ id: shop.schoolId }).increment('grant_epoch', 1);
    const fresh = new Client(server.url);
    const restored = await fresh.post('/api/guardians/cart/restore', { token });
    expect(restored.status).toBe(200);
    expect(restored.body.items).toEqual([]);
    expect(restored.body.dropped).toBe(2);
    expect((await fresh.get(`/api/images/${shop.photoIds[0]}/thumbnail`)).status).toBe(404);
  });
});

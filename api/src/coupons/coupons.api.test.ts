import { expect, it } from 'vitest';
import { COUPON_MSG, ORDER_MSG } from '../../contract/messages';
import { Client, describeApi, staffClient, startWithVisitors, type TestServer } from '../../test/harness';
import type { Student } from '../../contract/students';
import { addPhoto, createShop, orderBody, payThroughSandbox, standardLines, waitUntil } from '../../test/shop';
import { addStudents, assignPhotos, familyWith, setAccessMode } from '../students/students.test-helpers';
import { AppError } from '../http/errors';
import { createDatabase } from '../db/database';
import { localDate } from '../outreach/send-window';
import type { CouponRule } from './coupons.types';
import { confirmations, placeOrder, withWorld } from '../payments/payments.test-helpers';

const DAY_MS = 24 * 3600_000;
/** A Botswana day relative to today, "YYYY-MM-DD". */
const day = (offset: number) => localDate(Date.now() + offset * DAY_MS);

/** The AppError code a promise was refused with. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

async function couponRow(server: TestServer, id: number) {
  const row = await server.runtime.knex('coupons').where({ id }).first('uses_held', 'uses_paid');
  return { held: Number(row.uses_held), paid: Number(row.uses_paid) };
}

const hold = (server: TestServer, use: { coupon: CouponRule; orderId: string; email: string; studentIds?: number[] }) =>
  createDatabase(server.runtime.knex).transaction(async (tx) => {
    await server.runtime.services.coupons.take(tx, use.coupon);
    await server.runtime.services.coupons.hold(tx, { studentIds: [], ...use });
  });

describeApi('the staff coupons API', () => {
  it('creates, lists (a school: its own and every school\'s), reads, edits only the fields given, and deletes', async () => {
    const { server, staff } = await startWithVisitors('photographer');
    try {
      const shop = await createShop(server);
      const other = await createShop(server);
      const created = await staff.post('/api/coupons', {
        code: ' spring-10 ',
        schoolId: shop.schoolId,
        kind: 'percent',
        value: 10,
        minOrder: '50.00',
        startsOn: day(-1),
        endsOn: day(30),
        maxUses: 50,
        oncePer: 'email',
        excludesPackages: true,
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        code: 'SPRING-10',
        schoolId: shop.schoolId,
        schoolName: shop.schoolName,
        kind: 'percent',
        value: '10',
        minOrder: '50.00',
        startsOn: day(-1),
        endsOn: day(30),
        maxUses: 50,
        oncePer: 'email',
        excludesPackages: true,
        usesPaid: 0,
        usesHeld: 0,
        active: true,
      });
      const everywhere = await staff.post('/api/coupons', { code: 'WELCOME', kind: 'amount', value: '25.00' });
      expect(everywhere.status).toBe(201);
      expect(everywhere.body).toMatchObject({ schoolId: null, schoolName: null, value: '25.00', minOrder: null, maxUses: null, oncePer: 'order', excludesPackages: false });
      const elsewhere = await staff.post('/api/coupons', { code: 'OTHER-5', schoolId: other.schoolId, kind: 'amount', value: 5, endsOn: day(-1) });
      expect(elsewhere.status).toBe(201);
      expect(elsewhere.body).toMatchObject({ value: '5.00', active: false });

      expect((await staff.get('/api/coupons')).body.map((c: { code: string }) => c.code)).toEqual(['OTHER-5', 'SPRING-10', 'WELCOME']);
      expect((await staff.get(`/api/coupons?schoolId=${shop.schoolId}`)).body.map((c: { code: string }) => c.code)).toEqual(['SPRING-10', 'WELCOME']);
      expect((await staff.get('/api/coupons?schoolId=abc')).status).toBe(400);
      expect((await staff.get(`/api/coupons/${created.body.id}`)).body).toEqual(created.body);

      // Only the fields given change: oncePer, excludesPackages and the minimum stay.
      const edited = await staff.patch(`/api/coupons/${created.body.id}`, { maxUses: 100 });
      expect(edited.status).toBe(200);
      expect(edited.body).toEqual({ ...created.body, maxUses: 100 });
      const cleared = await staff.patch(`/api/coupons/${created.body.id}`, { minOrder: null, endsOn: '' });
      expect(cleared.body).toMatchObject({ minOrder: null, endsOn: null, oncePer: 'email', excludesPackages: true });
      const amount = await staff.patch(`/api/coupons/${created.body.id}`, { kind: 'amount', value: '5.50', schoolId: null });
      expect(amount.body).toMatchObject({ kind: 'amount', value: '5.50', schoolId: null, schoolName: null });
      expect((await server.runtime.knex('coupons').where({ id: created.body.id }).first()).value).toBe(550);

      const deleted = await staff.delete(`/api/coupons/${created.body.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ message: COUPON_MSG.deleted });
      expect((await staff.get(`/api/coupons/${created.body.id}`)).status).toBe(404);
      expect((await staff.delete(`/api/coupons/${created.body.id}`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('refuses bad input with the field\'s message, and changes nothing', async () => {
    const { server, staff } = await startWithVisitors('photographer');
    try {
      const shop = await createShop(server);
      const valid = { code: 'TERM-2', schoolId: shop.schoolId, kind: 'percent', value: 20 };
      const cases: [Record<string, unknown>, string, string][] = [
        [{ ...valid, code: undefined }, 'code', COUPON_MSG.codeRequired],
        [{ ...valid, code: 'A!' }, 'code', COUPON_MSG.codeFormat],
        [{ ...valid, kind: 'free' }, 'kind', COUPON_MSG.kindInvalid],
        [{ ...valid, value: 150 }, 'value', COUPON_MSG.percentInvalid],
        [{ ...valid, value: '12.5' }, 'value', COUPON_MSG.percentInvalid],
        [{ ...valid, kind: 'amount', value: '1.234' }, 'value', COUPON_MSG.amountInvalid],
        [{ ...valid, kind: 'amount', value: 0 }, 'value', COUPON_MSG.amountInvalid],
        [{ ...valid, minOrder: 'lots' }, 'minOrder', COUPON_MSG.minimumInvalid],
        [{ ...valid, startsOn: day(5), endsOn: day(1) }, 'endsOn', COUPON_MSG.datesInvalid],
        [{ ...valid, startsOn: '1 May' }, 'startsOn', COUPON_MSG.dateInvalid],
        [{ ...valid, maxUses: 0 }, 'maxUses', COUPON_MSG.maxUsesInvalid],
        [{ ...valid, oncePer: 'year' }, 'oncePer', COUPON_MSG.oncePerInvalid],
        [{ ...valid, excludesPackages: 'yes' }, 'excludesPackages', COUPON_MSG.excludesPackagesInvalid],
        [{ ...valid, schoolId: 987654 }, 'schoolId', COUPON_MSG.schoolNotFound],
      ];
      for (const [body, field, message] of cases) {
        const res = await staff.post('/api/coupons', body);
        expect({ field, status: res.status, message: res.body.message, error: res.body.errors?.[field] }).toEqual({ field, status: 400, message, error: message });
      }
      expect(await server.runtime.knex('coupons').count({ n: '*' }).first()).toMatchObject({ n: 0 });

      const first = (await staff.post('/api/coupons', valid)).body;
      const taken = await staff.post('/api/coupons', { ...valid, code: 'term-2' });
      expect(taken.status).toBe(409);
      expect(taken.body).toMatchObject({ code: 'COUPON_CODE_TAKEN', message: COUPON_MSG.codeTaken, errors: { code: COUPON_MSG.codeTaken } });
      const second = (await staff.post('/api/coupons', { ...valid, code: 'TERM-3', kind: 'amount', value: '25.00', startsOn: day(0) })).body;
      expect((await staff.patch(`/api/coupons/${second.id}`, { code: 'Term-2' })).body.code).toBe('COUPON_CODE_TAKEN');
      // The coupon as it will be is checked: an end before its start, a percent of "25.00".
      const early = await staff.patch(`/api/coupons/${second.id}`, { endsOn: day(-3) });
      expect(early.status).toBe(400);
      expect(early.body.errors).toEqual({ endsOn: COUPON_MSG.datesInvalid });
      const percent = await staff.patch(`/api/coupons/${second.id}`, { kind: 'percent' });
      expect(percent.status).toBe(400);
      expect(percent.body.errors).toEqual({ value: COUPON_MSG.percentInvalid });
      expect((await staff.patch(`/api/coupons/${second.id}`, { oncePer: 'week' })).body.errors).toEqual({ oncePer: COUPON_MSG.oncePerInvalid });
      expect((await staff.get(`/api/coupons/${second.id}`)).body).toEqual(second);
      expect((await staff.get(`/api/coupons/${first.id}`)).body).toEqual(first);

      expect((await staff.patch('/api/coupons/999999', { maxUses: 3 })).status).toBe(404);
      expect((await staff.get('/api/coupons/abc')).body).toMatchObject({ message: COUPON_MSG.idInvalid });
    } finally {
      await server.close();
    }
  });

  it('is staff only: 401 without sign-in, 403 for a parent', async () => {
    const { server, staff, anon, customer } = await startWithVisitors('photographer');
    try {
      const id = (await staff.post('/api/coupons', { code: 'STAFF-ONLY', kind: 'percent', value: 5 })).body.id as number;
      const calls: [Client, 'get' | 'post' | 'patch' | 'delete', string, unknown?][] = [];
      for (const who of [anon, customer]) {
        calls.push([who, 'get', '/api/coupons'], [who, 'get', `/api/coupons/${id}`], [who, 'post', '/api/coupons', { code: 'MINE', kind: 'percent', value: 100 }]);
        calls.push([who, 'patch', `/api/coupons/${id}`, { value: 100 }], [who, 'delete', `/api/coupons/${id}`]);
      }
      for (const [who, method, url, body] of calls) {
        const res = method === 'get' ? await who.get(url) : method === 'delete' ? await who.delete(url) : await who[method](url, body);
        expect({ method, url, status: res.status }).toEqual({ method, url, status: who === anon ? 401 : 403 });
      }
      expect((await staff.get(`/api/coupons/${id}`)).body).toMatchObject({ value: '5', usesHeld: 0 });
      expect(await server.runtime.knex('coupons').count({ n: '*' }).first()).toMatchObject({ n: 1 });
    } finally {
      await server.close();
    }
  });
});

describeApi('coupons as orders use them', () => {
  it('resolves a code in any case for its school or every school; refuses unknown, another school\'s, not started, expired and used up', async () => {
    const { server, staff } = await startWithVisitors('photographer');
    try {
      const coupons = server.runtime.services.coupons;
      const shop = await createShop(server);
      const other = await createShop(server);
      await staff.post('/api/coupons', { code: 'OURS', schoolId: shop.schoolId, kind: 'percent', value: 15, minOrder: '40.00', oncePer: 'child', excludesPackages: true });
      await staff.post('/api/coupons', { code: 'EVERYONE', kind: 'amount', value: '10.00', endsOn: day(0) });
      await staff.post('/api/coupons', { code: 'THEIRS', schoolId: other.schoolId, kind: 'percent', value: 10 });
      await staff.post('/api/coupons', { code: 'LATER', kind: 'percent', value: 10, startsOn: '2099-03-01' });
      await staff.post('/api/coupons', { code: 'OVER', kind: 'percent', value: 10, endsOn: day(-1) });

      expect(await coupons.resolve('ours', shop.schoolId)).toMatchObject({
        code: 'OURS',
        kind: 'percent',
        value: 15,
        minOrderThebe: 4000,
        excludesPackages: true,
        oncePer: 'child',
      });
      expect(await coupons.resolve('EVERYONE', other.schoolId)).toMatchObject({ kind: 'amount', value: 1000, minOrderThebe: null });
      expect(await refusal(coupons.resolve('NOPE', shop.schoolId))).toEqual({ status: 400, code: 'COUPON_INVALID', message: COUPON_MSG.notValid });
      expect(await refusal(coupons.resolve('THEIRS', shop.schoolId))).toEqual({ status: 400, code: 'COUPON_INVALID', message: COUPON_MSG.notValid });
      expect(await refusal(coupons.resolve('LATER', shop.schoolId))).toEqual({ status: 409, code: 'COUPON_NOT_STARTED', message: COUPON_MSG.notStarted('1 March 2099') });
      expect(await refusal(coupons.resolve('OVER', shop.schoolId))).toEqual({ status: 409, code: 'COUPON_EXPIRED', message: COUPON_MSG.expired });

      // Botswana days: the last day lasts until 23:59:59.999 in Gaborone (21:59:59.999 UTC).
      const lastDay = day(0);
      const endOfDay = Date.parse(`${lastDay}T21:59:59.999Z`);
      expect((await coupons.resolve('EVERYONE', shop.schoolId, endOfDay)).code).toBe('EVERYONE');
      expect((await refusal(coupons.resolve('EVERYONE', shop.schoolId, endOfDay + 1))).code).toBe('COUPON_EXPIRED');
      expect((await refusal(coupons.resolve('LATER', shop.schoolId, Date.parse('2099-02-28T21:59:59.999Z')))).code).toBe('COUPON_NOT_STARTED');
      expect((await coupons.resolve('LATER', shop.schoolId, Date.parse('2099-02-28T22:00:00.000Z'))).code).toBe('LATER');

      // Used up: its one use is held by an unpaid order.
      const single = (await staff.post('/api/coupons', { code: 'SINGLE', kind: 'percent', value: 50, maxUses: 1 })).body;
      const parent = new Client(server.url);
      await parent.post(`/api/schools/${shop.slug}/verify`, { password: shop.password });
      const order = (await parent.post('/api/orders', orderBody(shop, standardLines(shop)))).body.order;
      await hold(server, { coupon: await coupons.resolve('SINGLE', shop.schoolId), orderId: order.id, email: order.customerEmail });
      expect(await refusal(coupons.resolve('SINGLE', shop.schoolId))).toEqual({ status: 409, code: 'COUPON_USED_UP', message: COUPON_MSG.usedUp });
      expect((await staff.get(`/api/coupons/${single.id}`)).body).toMatchObject({ usesHeld: 1, usesPaid: 0, active: false });
    } finally {
      await server.close();
    }
  });

  it('20 concurrent holds of a coupon with 5 uses take exactly 5; the others are refused as used up', async () => {
    const { server, staff } = await startWithVisitors('photographer');
    try {
      const coupons = server.runtime.services.coupons;
      const shop = await createShop(server);
      const parent = new Client(server.url);
      await parent.post(`/api/schools/${shop.slug}/verify`, { password: shop.password });
      const orders: { id: string; customerEmail: string }[] = [];
      for (let i = 0; i < 20; i++) orders.push((await parent.post('/api/orders', orderBody(shop, standardLines(shop)))).body.order);
      const coupon = (await staff.post('/api/coupons', { code: 'FIRST-FIVE', kind: 'percent', value: 20, maxUses: 5 })).body;
      const rule = await coupons.resolve('FIRST-FIVE', shop.schoolId);

      const results = await Promise.allSettled(orders.map((order) => hold(server, { coupon: rule, orderId: order.id, email: order.customerEmail })));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
      const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(refused).toHaveLength(15);
      expect(refused.every((err) => err instanceof AppError && err.code === 'COUPON_USED_UP')).toBe(true);
      expect(await couponRow(server, coupon.id)).toEqual({ held: 5, paid: 0 });
      expect(await server.runtime.knex('coupon_redemptions').where({ coupon_id: coupon.id }).count({ n: '*' }).first()).toMatchObject({ n: 5 });
    } finally {
      await server.close();
    }
  });

  it('once per e-mail and once per child: checked before and taken in the order\'s transaction; a refused hold leaves nothing behind', async () => {
    const { server, staff } = await startWithVisitors('photographer');
    try {
      const coupons = server.runtime.services.coupons;
      const shop = await createShop(server);
      const parent = new Client(server.url);
      await parent.post(`/api/schools/${shop.slug}/verify`, { password: shop.password });
      const place = async () => (await parent.post('/api/orders', orderBody(shop, standardLines(shop)))).body.order as { id: string };
      const perEmail = (await staff.post('/api/coupons', { code: 'FAMILY', kind: 'amount', value: '5.00', oncePer: 'email' })).body;
      const emailRule = await coupons.resolve('FAMILY', shop.schoolId);
      await coupons.checkAvailable(emailRule, { email: 'Mpho@Example.test', studentIds: [] });
      await hold(server, { coupon: emailRule, orderId: (await place()).id, email: 'Mpho@Example.test' });
      expect((await refusal(coupons.checkAvailable(emailRule, { email: ' mpho@example.TEST', studentIds: [] }))).code).toBe('COUPON_ALREADY_USED');
      await coupons.checkAvailable(emailRule, { email: 'neo@example.test', studentIds: [] });
      await coupons.checkAvailable(emailRule, { email: null, studentIds: [] });
      const again = await refusal(hold(server, { coupon: emailRule, orderId: (await place()).id, email: 'mpho@example.test' }));
      expect(again).toEqual({ status: 409, code: 'COUPON_ALREADY_USED', message: COUPON_MSG.alreadyUsed });
      expect(await couponRow(server, perEmail.id)).toEqual({ held: 1, paid: 0 });

      const perChild = (await staff.post('/api/coupons', { code: 'CHILD', kind: 'percent', value: 10, oncePer: 'child' })).body;
      const childRule = await coupons.resolve('CHILD', shop.schoolId);
      await hold(server, { coupon: childRule, orderId: (await place()).id, email: 'a@example.test', studentIds: [11, 12, 11] });
      expect((await refusal(coupons.checkAvailable(childRule, { email: 'b@example.test', studentIds: [12] }))).code).toBe('COUPON_ALREADY_USED');
      await coupons.checkAvailable(childRule, { email: 'a@example.test', studentIds: [13] });
      expect((await refusal(hold(server, { coupon: childRule, orderId: (await place()).id, email: 'c@example.test', studentIds: [13, 12] }))).code).toBe(
        'COUPON_ALREADY_USED',
      );
      await hold(server, { coupon: childRule, orderId: (await place()).id, email: 'a@example.test', studentIds: [13] });
      // No identified child: one use per e-mail instead.
      await hold(server, { coupon: childRule, orderId: (await place()).id, email: 'group@example.test' });
      expect((await refusal(coupons.checkAvailable(childRule, { email: 'GROUP@example.test', studentIds: [] }))).code).toBe('COUPON_ALREADY_USED');
      expect((await refusal(hold(server, { coupon: childRule, orderId: (await place()).id, email: 'group@example.test' }))).code).toBe('COUPON_ALREADY_USED');
      expect(await couponRow(server, perChild.id)).toEqual({ held: 3, paid: 0 });
      const children = await server.runtime.knex('coupon_redemption_children').where({ coupon_id: perChild.id }).orderBy('student_id');
      expect(children.map((row) => Number(row.student_id))).toEqual([11, 12, 13]);
    } finally {
      await server.close();
    }
  });

  it('counts a use once when the order is paid, however often the paid path runs; cancelling an unpaid order gives it back, a paid one keeps it', () =>
    withWorld({}, async (w) => {
      const { server } = w;
      const coupons = server.runtime.services.coupons;
      const staff = await staffClient(server, 'admin');
      const coupon = (await staff.post('/api/coupons', { code: 'COUNTED', kind: 'percent', value: 10, maxUses: 3 })).body;
      expect(coupon.id).toBeGreaterThan(0);
      const rule = await coupons.resolve('COUNTED', w.shop.schoolId);

      const paid = await placeOrder(w, 'paid@example.test');
      await hold(server, { coupon: rule, orderId: paid, email: 'paid@example.test' });
      expect(await couponRow(server, coupon.id)).toEqual({ held: 1, paid: 0 });
      await payThroughSandbox(server, paid);
      await waitUntil(async () => (await server.runtime.knex('orders').where({ id: paid }).first()).payment_status === 'completed');
      expect(await couponRow(server, coupon.id)).toEqual({ held: 0, paid: 1 });
      // The paid path again, concurrently: nothing more is counted.
      const database = createDatabase(server.runtime.knex);
      await Promise.all(Array.from({ length: 5 }, () => database.transaction((tx) => coupons.markPaid(paid, tx))));
      expect(await couponRow(server, coupon.id)).toEqual({ held: 0, paid: 1 });
      expect((await staff.get(`/api/coupons/${coupon.id}`)).body).toMatchObject({ usesPaid: 1, usesHeld: 0, active: true });

      // The parent cancels an unpaid order: its use comes back, once.
      const byParent = await placeOrder(w, 'cancels@example.test');
      await hold(server, { coupon: rule, orderId: byParent, email: 'cancels@example.test' });
      expect(await couponRow(server, coupon.id)).toEqual({ held: 1, paid: 1 });
      expect((await w.parent.post(`/api/orders/${byParent}/cancel`)).status).toBe(200);
      expect(await couponRow(server, coupon.id)).toEqual({ held: 0, paid: 1 });
      expect(await server.runtime.knex('coupon_redemptions').where({ order_id: byParent })).toHaveLength(0);
      await coupons.release(byParent);
      expect(await couponRow(server, coupon.id)).toEqual({ held: 0, paid: 1 });

      // Staff cancel an unpaid order: the same.
      const byStaff = await placeOrder(w, 'staff-cancel@example.test');
      await hold(server, { coupon: rule, orderId: byStaff, email: 'staff-cancel@example.test' });
      expect((await staff.put(`/api/orders/${byStaff}`, { orderStatus: 'being_processed' })).status).toBe(200);
      expect(await couponRow(server, coupon.id)).toEqual({ held: 1, paid: 1 });
      expect((await staff.put(`/api/orders/${byStaff}`, { orderStatus: 'cancelled' })).status).toBe(200);
      expect(await couponRow(server, coupon.id)).toEqual({ held: 0, paid: 1 });

      // A paid order cancelled by staff (a refund) keeps its counted use.
      expect((await staff.put(`/api/orders/${paid}`, { orderStatus: 'cancelled' })).status).toBe(200);
      expect(await couponRow(server, coupon.id)).toEqual({ held: 0, paid: 1 });
      expect(await server.runtime.knex('coupon_redemptions').where({ order_id: paid }).whereNotNull('paid_at')).toHaveLength(1);
    }));

  it('a child\'s erasure cancels their unpaid order and gives its coupon use back', async () => {
    const { server } = await startWithVisitors('photographer');
    try {
      const admin = await staffClient(server, 'admin'); // erasure is an administrator's (docs/accounts.md)
      const shop = await createShop(server);
      await setAccessMode(admin, shop.schoolId, 'student_codes');
      const [kabo] = (await addStudents(admin, shop.openAlbumId, ['Kabo Ramotswe'])) as [Student];
      const photo = await addPhoto(server, shop.openAlbumId, 'IMG_0901.JPG');
      await assignPhotos(admin, [photo], kabo.id);
      const family = await familyWith(server, kabo.code);
      const placed = await family.post('/api/orders', orderBody(shop, [{ photoId: photo, albumId: shop.openAlbumId, product: shop.print, quantity: 1 }]));
      expect(placed.status).toBe(201);
      const coupon = (await admin.post('/api/coupons', { code: 'ERASED', kind: 'percent', value: 10, oncePer: 'child' })).body;
      const rule = await server.runtime.services.coupons.resolve('ERASED', shop.schoolId);
      await hold(server, { coupon: rule, orderId: placed.body.order.id, email: placed.body.order.customerEmail, studentIds: [kabo.id] });
      expect(await couponRow(server, coupon.id)).toEqual({ held: 1, paid: 0 });

      expect((await admin.post(`/api/students/${kabo.id}/erase`)).status).toBe(200);
      expect((await server.runtime.knex('orders').where({ id: placed.body.order.id }).first()).order_status).toBe('cancelled');
      expect(await couponRow(server, coupon.id)).toEqual({ held: 0, paid: 0 });
      // Nothing of the child stays with the coupon either.
      expect(await server.runtime.knex('coupon_redemption_children').where({ coupon_id: coupon.id })).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('an order of total zero is paid at once without the gateway: a free payment of 0, the confirmation e-mail, the coupon use counted', () =>
    withWorld({}, async (w) => {
      const { server } = w;
      const coupons = server.runtime.services.coupons;
      const staff = await staffClient(server, 'admin');
      const coupon = (await staff.post('/api/coupons', { code: 'ALL-FREE', kind: 'percent', value: 100, maxUses: 2 })).body;
      const orderId = await placeOrder(w, 'free@example.test');
      await hold(server, { coupon: await coupons.resolve('ALL-FREE', w.shop.schoolId), orderId, email: 'free@example.test' });
      // As the order a 100% coupon gives (order creation prices it; here its stored total is set to what that gives).
      await server.runtime.knex('orders').where({ id: orderId }).update({ total_thebe: 0, coupon_id: coupon.id, coupon_code: 'ALL-FREE' });

      const initiated = await new Client(server.url).post('/api/payment/initiate', { orderId: orderId.toLowerCase() });
      expect(initiated.status).toBe(200);
      expect(initiated.body).toEqual({ success: true, redirectUrl: `/order-confirmation/${orderId}` });
      const payments = await server.runtime.knex('payments').where({ order_id: orderId });
      expect(payments.map((p) => ({ gateway: p.gateway, amount: Number(p.amount_thebe), status: p.status, payRequestId: p.pay_request_id }))).toEqual([
        { gateway: 'free', amount: 0, status: 'completed', payRequestId: null },
      ]);
      const order = (await staff.get(`/api/orders/${orderId}`)).body;
      expect(order).toMatchObject({ paymentStatus: 'completed', orderStatus: 'paid', totalAmount: '0.00', testPayment: false });
      expect(await couponRow(server, coupon.id)).toEqual({ held: 0, paid: 1 });
      await waitUntil(async () => confirmations(w, orderId).length === 1);
      // Paid: a second try is refused as for any paid order, and nothing is recorded twice.
      const again = await new Client(server.url).post('/api/payment/initiate', { orderId });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'ALREADY_PAID', message: ORDER_MSG.alreadyPaid });
      expect(await server.runtime.knex('payments').where({ order_id: orderId })).toHaveLength(1);
      await w.mail.noMoreThan(1, { match: (m) => m.subject.includes(orderId), within: 300 });
    }));
});

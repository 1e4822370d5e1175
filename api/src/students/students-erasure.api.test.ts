import { afterAll, beforeAll, expect, it } from 'vitest';
import { STUDENT_MSG, MSG } from '../../contract/messages';
import { erasureResponseSchema, type Student } from '../../contract/students';
import { Client, describeApi, staffClient, startTestServer, startWithStaff, type TestServer } from '../../test/harness';
import { addPhoto, createShop, orderBody, payThroughSandbox, waitUntil, type Shop } from '../../test/shop';
import { customerClient } from '../schools/schools.test-helpers';
import { exists, shardedPath } from '../photos/photos.test-helpers';
import { addStudents, assignPhotos, familyWith, setAccessMode } from './students.test-helpers';

describeApi('erasing a student (POST /api/students/:id/erase)', () => {
  let server: TestServer;
  let staff: Client & { userId: number };
  let shop: Shop;

  beforeAll(async () => {
    server = await startTestServer();
    // Erasure is for admins (docs/accounts.md, "What a photographer may not do").
    staff = await staffClient(server, 'admin');
  });
  afterAll(() => server?.close());

  const filesOf = async (photoId: number) => {
    const row = await server.runtime.knex('photos').where({ id: photoId }).first('storage_key');
    const key = row.storage_key as string;
    return [shardedPath(server, 'originals', key, 'jpg'), shardedPath(server, 'thumbnails', key, 'webp'), shardedPath(server, 'previews', key, 'webp')];
  };

  it('the ladder: 401 without a token, 403 for a customer and a photographer, 404 for an unknown student', async () => {
    shop = await createShop(server);
    const [kabo] = (await addStudents(staff, shop.openAlbumId, ['Kabo'])) as [Student];
    expect((await new Client(server.url).post(`/api/students/${kabo.id}/erase`)).status).toBe(401);
    expect((await (await customerClient(server)).post(`/api/students/${kabo.id}/erase`)).status).toBe(403);
    const photographer = await (await staffClient(server, 'photographer')).post(`/api/students/${kabo.id}/erase`);
    expect(photographer.status).toBe(403);
    expect(photographer.body.message).toBe(MSG.adminOnly);
    const missing = await staff.post('/api/students/999999/erase');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(STUDENT_MSG.studentNotFound);
    expect(await server.runtime.knex('students').where({ id: kabo.id }).first()).toBeDefined();
  });

  it("deletes the child's photos (files and rows) and code; paid orders keep text lines and totals; unpaid ones are cancelled; the erasure is recorded", async () => {
    shop = await createShop(server);
    await setAccessMode(staff, shop.schoolId, 'student_codes');
    const [kabo, neo] = (await addStudents(staff, shop.openAlbumId, ['Kabo Ramotswe', 'Neo Molefe'])) as [Student, Student];
    const k1 = await addPhoto(server, shop.openAlbumId, 'IMG_0701.JPG');
    const k2 = await addPhoto(server, shop.openAlbumId, 'IMG_0702.JPG');
    const n1 = await addPhoto(server, shop.openAlbumId, 'IMG_0703.JPG');
    const group = shop.photoIds[0]!;
    await assignPhotos(staff, [k1, k2], kabo.id);
    await assignPhotos(staff, [n1], neo.id);
    const kaboFiles = [...(await filesOf(k1)), ...(await filesOf(k2))];
    const neoFiles = await filesOf(n1);
    for (const file of [...kaboFiles, ...neoFiles]) expect(await exists(file), file).toBe(true);

    const family = await familyWith(server, kabo.code);
    const paidBody = orderBody(shop, [
      { photoId: k1, albumId: shop.openAlbumId, product: shop.print, quantity: 2 },
      { photoId: k2, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 },
      { photoId: group, albumId: shop.openAlbumId, product: shop.print, quantity: 1 },
    ], { studentName: 'kabo  Ramotswe' });
    const paid = await family.post('/api/orders', paidBody);
    expect(paid.status).toBe(201);
    const paidId = paid.body.order.id as string;
    await payThroughSandbox(server, paidId);
    let downloadUrl = '';
    await waitUntil(async () => {
      downloadUrl = (await family.get(`/api/orders/${paidId}`)).body.items[1]?.downloadUrl ?? '';
      return downloadUrl !== '';
    });
    const pending = await family.post('/api/orders', orderBody(shop, [{ photoId: k1, albumId: shop.openAlbumId, product: shop.print, quantity: 1 }]));
    expect(pending.status).toBe(201);
    const paidTotal = paid.body.order.totalAmount as string;

    const before = Date.now();
    const res = await staff.post(`/api/students/${kabo.id}/erase`);
    expect(res.status).toBe(200);
    expect(erasureResponseSchema.strict().parse(res.body)).toMatchObject({ photosDeleted: 2, orderLinesRedacted: 3 });

    // Files gone from storage, rows gone, code gone.
    for (const file of kaboFiles) expect(await exists(file), file).toBe(false);
    for (const file of neoFiles) expect(await exists(file), file).toBe(true);
    const knex = server.runtime.knex;
    expect(await knex('photos').whereIn('id', [k1, k2])).toEqual([]);
    expect(await knex('students').where({ id: kabo.id }).first()).toBeUndefined();
    expect((await new Client(server.url).post('/api/students/verify', { code: kabo.code })).status).toBe(401);
    for (const id of [k1, k2]) expect((await staff.get(`/api/images/${id}/thumbnail`)).status).toBe(404);
    expect((await family.get(`/api/albums/${shop.openAlbumId}/photos`)).status).toBe(401);

    // The paid order keeps its lines as text and its total; the digital copy is no longer delivered.
    // Staff see every stored name of the order, so nothing of the child may be left in their view.
    const order = (await staff.get(`/api/orders/${paidId}`)).body;
    expect(order.totalAmount).toBe(paidTotal);
    expect(order.paymentStatus).toBe('completed');
    // The child's name, typed at checkout, is gone from the order too (screens, CSV, print sheets).
    expect(order.studentName).toBe(STUDENT_MSG.photoRemovedText);
    expect(JSON.stringify((await staff.get('/api/orders')).body)).not.toMatch(/Ramotswe/);
    expect(order.items.map((item: Record<string, unknown>) => [item.photoId, item.studentId, item.photoName, item.photoOriginalName, item.quantity, item.totalPrice])).toEqual([
      [null, null, STUDENT_MSG.photoRemovedText, null, 2, '60.00'],
      [null, null, STUDENT_MSG.photoRemovedText, null, 1, '17.50'],
      [group, null, 'IMG_0423.JPG', 'IMG_0423.JPG', 1, '30.00'],
    ]);
    expect(order.items[1].downloadUrl).toBeNull();
    expect((await new Client(server.url).get(new URL(downloadUrl).pathname)).status).toBe(404);

    const cancelled = (await family.get(`/api/orders/${pending.body.order.id}`)).body;
    expect(cancelled.orderStatus).toBe('cancelled');
    expect(cancelled.items[0].photoName).toBe(STUDENT_MSG.photoRemovedText);

    // Who and when, and nothing of the child.
    const records = await knex('student_erasures').where({ school_id: shop.schoolId });
    expect(records).toHaveLength(1);
    const record = records[0];
    expect(Number(record.erased_by)).toBe(staff.userId);
    expect(record.erased_by_email).toMatch(/@example\.test$/);
    expect(Number(record.album_id)).toBe(shop.openAlbumId);
    expect(Number(record.photos_deleted)).toBe(2);
    expect(Number(record.order_lines_redacted)).toBe(3);
    expect(Number(record.erased_at)).toBeGreaterThanOrEqual(before);
    expect(JSON.stringify(record)).not.toMatch(/Kabo|Ramotswe/);
    expect(JSON.stringify(record)).not.toContain(kabo.code.replace('-', ''));

    // The sibling class-mate is untouched.
    const neoFamily = await familyWith(server, neo.code);
    expect((await neoFamily.get(`/api/albums/${shop.openAlbumId}/photos`)).body.map((p: { id: number }) => p.id).sort()).toEqual([...shop.photoIds, n1].sort((a, b) => a - b));
    expect((await staff.post(`/api/students/${kabo.id}/erase`)).status).toBe(404);
  });
});

describeApi('assigning photos to students (PUT /api/photos/student)', () => {
  let server: TestServer;
  let staff: Client;
  let shop: Shop;
  let kabo: Student;
  let other: Student;

  beforeAll(async () => {
    ({ server, staff } = await startWithStaff('admin'));
    shop = await createShop(server);
    [kabo] = (await addStudents(staff, shop.openAlbumId, ['Kabo'])) as [Student];
    [other] = (await addStudents(staff, shop.protectedAlbumId, ['Other'])) as [Student];
  });
  afterAll(() => server?.close());

  const studentOf = async (id: number) => {
    const row = await server.runtime.knex('photos').where({ id }).first('student_id');
    return row.student_id === null ? null : Number(row.student_id);
  };

  it('the ladder: 401, 403, 400 naming the fields, 404 for unknown photos or students', async () => {
    const body = { photoIds: shop.photoIds, studentId: kabo.id };
    expect((await new Client(server.url).put('/api/photos/student', body)).status).toBe(401);
    expect((await (await customerClient(server)).put('/api/photos/student', body)).status).toBe(403);
    const empty = await staff.put('/api/photos/student', {});
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.errors).sort()).toEqual(['photoIds', 'studentId']);
    const none = await staff.put('/api/photos/student', { photoIds: [], studentId: null });
    expect(none.body.message).toBe(MSG.photoIdsRequired);
    const unknownPhoto = await staff.put('/api/photos/student', { photoIds: [999999], studentId: kabo.id });
    expect(unknownPhoto.status).toBe(404);
    expect(unknownPhoto.body.message).toBe(MSG.photoNotFound);
    const unknownStudent = await staff.put('/api/photos/student', { photoIds: shop.photoIds, studentId: 999999 });
    expect(unknownStudent.status).toBe(404);
    expect(unknownStudent.body.message).toBe(STUDENT_MSG.studentNotFound);
    for (const id of shop.photoIds) expect(await studentOf(id)).toBeNull();
  });

  it("every photo must be in the student's class: 400 and nothing changes", async () => {
    const res = await staff.put('/api/photos/student', { photoIds: [shop.photoIds[0], shop.protectedPhotoId], studentId: kabo.id });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(STUDENT_MSG.photosNotInClass);
    expect(await studentOf(shop.photoIds[0]!)).toBeNull();
    expect((await staff.put('/api/photos/student', { photoIds: [shop.photoIds[0]], studentId: other.id })).status).toBe(400);
  });

  it('assigns, shows in the staff list and the roster count, and goes back to group photos with null', async () => {
    const res = await staff.put('/api/photos/student', { photoIds: shop.photoIds, studentId: kabo.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updated: 2 });
    const list = await staff.get(`/api/albums/${shop.openAlbumId}/photos`);
    expect(list.body.map((p: { studentId: number | null }) => p.studentId)).toEqual([kabo.id, kabo.id]);
    expect((await staff.get(`/api/albums/${shop.openAlbumId}/students`)).body[0].photoCount).toBe(2);
    expect((await staff.put('/api/photos/student', { photoIds: [shop.photoIds[1], shop.protectedPhotoId], studentId: null })).status).toBe(200);
    expect(await studentOf(shop.photoIds[0]!)).toBe(kabo.id);
    expect(await studentOf(shop.photoIds[1]!)).toBeNull();
    expect(await studentOf(shop.protectedPhotoId)).toBeNull();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, STUDENT_MSG } from '../../contract/messages';
import { studentVerifyResponseSchema, type Student } from '../../contract/students';
import { Client, describeApi, withoutRequestId, grantCookie, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { addPhoto, createShop, orderBody, payThroughSandbox, waitUntil, type Shop } from '../../test/shop';
import { addStudents, assignPhotos, familyWith, setAccessMode } from './students.test-helpers';

/**
 * The access matrix extended to children: a code shows that child's photos and the class's group
 * photos, and nothing else, on every path (lists, thumbnails, previews, orders, downloads).
 */
describeApi('student codes: who sees which child', () => {
  let server: TestServer;
  let staff: Client;
  let shop: Shop;
  let a1: Student;
  let a2: Student;
  let dnp: Student;
  let b1: Student;
  const photo = { groupA: [] as number[], a1: [] as number[], a2: 0, dnp: 0, b1: 0, groupB: 0 };

  const ids = (list: { id: number }[]) => list.map((p) => p.id).sort((x, y) => x - y);
  const sorted = (list: number[]) => [...list].sort((x, y) => x - y);

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'admin');
    shop = await createShop(server);
    photo.groupA = [...shop.photoIds];
    photo.a1 = [await addPhoto(server, shop.openAlbumId, 'IMG_0501.JPG'), await addPhoto(server, shop.openAlbumId, 'IMG_0502.JPG')];
    photo.a2 = await addPhoto(server, shop.openAlbumId, 'IMG_0503.JPG');
    photo.dnp = await addPhoto(server, shop.openAlbumId, 'IMG_0504.JPG');
    photo.b1 = shop.protectedPhotoId;
    photo.groupB = await addPhoto(server, shop.protectedAlbumId, 'DSC_0100.JPG');
    [a1, a2, dnp] = (await addStudents(staff, shop.openAlbumId, ['Kagiso Dube', 'Neo Molefe', 'Lesedi Tau'])) as [Student, Student, Student];
    [b1] = (await addStudents(staff, shop.protectedAlbumId, ['Onalenna Kgosi'])) as [Student];
    await assignPhotos(staff, photo.a1, a1.id);
    await assignPhotos(staff, [photo.a2], a2.id);
    await assignPhotos(staff, [photo.dnp], dnp.id);
    await assignPhotos(staff, [photo.b1], b1.id);
    expect((await staff.patch(`/api/students/${dnp.id}`, { doNotPublish: true })).status).toBe(200);
    await setAccessMode(staff, shop.schoolId, 'student_codes');
  });
  afterAll(() => server?.close());

  describe('a school in student_codes mode', () => {
    it('refuses the school password with a clear message and grants nothing', async () => {
      const parent = new Client(server.url);
      const res = await parent.post(`/api/schools/${shop.slug}/verify`, { password: shop.password });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ message: STUDENT_MSG.schoolUsesCodes, code: 'STUDENT_CODES_ONLY' });
      expect(res.headers.getSetCookie()).toEqual([]);
      const bySlug = await parent.get(`/api/schools/${shop.slug}`);
      expect(bySlug.body).toMatchObject({ accessMode: 'student_codes', unlocked: false });
    });

    it('an old school and class grant opens nothing: lists, thumbnails and previews are 401', async () => {
      const cookie = { Cookie: grantCookie(server, { schools: [shop.schoolId], albums: [shop.protectedAlbumId] }) };
      const parent = new Client(server.url);
      expect((await parent.get(`/api/schools/${shop.slug}`, cookie)).body.unlocked).toBe(false);
      const albums = await parent.get(`/api/schools/${shop.schoolId}/albums`, cookie);
      expect(albums.status).toBe(401);
      expect(albums.body.code).toBe('STUDENT_LOCKED');
      for (const albumId of [shop.openAlbumId, shop.protectedAlbumId]) expect((await parent.get(`/api/albums/${albumId}/photos`, cookie)).status).toBe(401);
      for (const id of [...photo.groupA, photo.a2, photo.b1]) {
        expect((await parent.get(`/api/images/${id}/thumbnail`, cookie)).status).toBe(404);
        expect((await parent.get(`/api/images/${id}/watermarked`, cookie)).status).toBe(404);
      }
    });
  });

  it('POST /api/students/verify: a code typed in lower case with a space unlocks that child only', async () => {
    const family = new Client(server.url);
    const typed = a1.code.toLowerCase().replace('-', ' ');
    const res = await family.post('/api/students/verify', { code: typed });
    expect(res.status).toBe(200);
    expect(studentVerifyResponseSchema.strict().parse(res.body)).toEqual({
      success: true,
      student: { id: a1.id, name: 'Kagiso Dube' },
      school: { id: shop.schoolId, name: expect.any(String), slug: shop.slug },
      album: { id: shop.openAlbumId, name: 'Class 1A' },
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('gallery_access='));
    expect(cookie).toMatch(/;\s*httponly/i);
    expect((await family.get(`/api/schools/${shop.slug}`)).body.unlocked).toBe(true);
    // Only the child's class is listed, and its code needs no class password.
    const albums = await family.get(`/api/schools/${shop.schoolId}/albums`);
    expect(albums.status).toBe(200);
    expect(albums.body.map((a: { id: number; hasPassword: boolean }) => [a.id, a.hasPassword])).toEqual([[shop.openAlbumId, false]]);
  });

  it("GET /api/albums/:id/photos answers a code holder with exactly the child's photos and the group photos", async () => {
    const family = await familyWith(server, a1.code);
    const res = await family.get(`/api/albums/${shop.openAlbumId}/photos`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(ids(res.body)).toEqual(sorted([...photo.groupA, ...photo.a1]));
    const studentOf = new Map(res.body.map((p: { id: number; studentId: number | null }) => [p.id, p.studentId]));
    for (const id of photo.a1) expect(studentOf.get(id)).toBe(a1.id);
    for (const id of photo.groupA) expect(studentOf.get(id)).toBeNull();
    const other = await family.get(`/api/albums/${shop.protectedAlbumId}/photos`);
    expect(other.status).toBe(401);
    expect(other.body).toMatchObject({ message: STUDENT_MSG.studentAccessRequired, code: 'STUDENT_LOCKED' });
  });

  it('group photos are visible to every code of the class; no code ever shows another child', async () => {
    const family = await familyWith(server, a2.code);
    expect(ids((await family.get(`/api/albums/${shop.openAlbumId}/photos`)).body)).toEqual(sorted([...photo.groupA, photo.a2]));
    // The do-not-publish child's own family sees the group photos, never the child's.
    const dnpFamily = await familyWith(server, dnp.code);
    expect(ids((await dnpFamily.get(`/api/albums/${shop.openAlbumId}/photos`)).body)).toEqual(sorted(photo.groupA));
  });

  for (const route of ['thumbnail', 'watermarked'] as const) {
    it(`GET /api/images/:id/${route}: own and group photos 200; another child's and do-not-publish 404; another class 401`, async () => {
      const family = await familyWith(server, a1.code);
      for (const id of [...photo.groupA, ...photo.a1]) {
        const res = await family.get(`/api/images/${id}/${route}`);
        expect(res.status, `photo ${id}`).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/webp');
      }
      for (const id of [photo.a2, photo.dnp]) {
        const res = await family.get(`/api/images/${id}/${route}`);
        expect(res.status, `photo ${id}`).toBe(404);
        expect(res.body.message).toBe(MSG.photoNotFound);
      }
      for (const id of [photo.b1, photo.groupB]) expect((await family.get(`/api/images/${id}/${route}`)).status).toBe(404);
    });
  }

  // Issue 22 point 8: another child and an unknown id get the same answer (was 403 and 404).
  it("GET /api/students/:id/photos: the child's own photos to their family and staff; 401 STUDENT_LOCKED for another child and an unknown one alike", async () => {
    const family = await familyWith(server, a1.code);
    const own = await family.get(`/api/students/${a1.id}/photos`);
    expect(own.status).toBe(200);
    expect(ids(own.body)).toEqual(sorted(photo.a1));
    const sibling = await family.get(`/api/students/${a2.id}/photos`);
    expect(sibling.status).toBe(401);
    expect(sibling.body.message).toBe(STUDENT_MSG.studentAccessRequired);
    expect((await family.get(`/api/students/${b1.id}/photos`)).status).toBe(401);
    expect(withoutRequestId((await family.get('/api/students/999999/photos')).body)).toEqual(withoutRequestId(sibling.body));
    expect((await new Client(server.url).get(`/api/students/${a1.id}/photos`)).status).toBe(401);
    expect(ids((await staff.get(`/api/students/${dnp.id}/photos`)).body)).toEqual([photo.dnp]);
  });

  it('two codes in one browser: both children, in different classes, each with their own photos', async () => {
    const family = await familyWith(server, a1.code, b1.code);
    const albums = await family.get(`/api/schools/${shop.schoolId}/albums`);
    expect(albums.body.map((a: { id: number; hasPassword: boolean }) => [a.id, a.hasPassword]).sort()).toEqual(
      [
        [shop.openAlbumId, false],
        [shop.protectedAlbumId, false],
      ].sort(),
    );
    expect(ids((await family.get(`/api/albums/${shop.protectedAlbumId}/photos`)).body)).toEqual(sorted([photo.b1, photo.groupB]));
    expect(ids((await family.get(`/api/albums/${shop.openAlbumId}/photos`)).body)).toEqual(sorted([...photo.groupA, ...photo.a1]));
    const unlocked = await family.get('/api/students/unlocked');
    expect(unlocked.body.map((u: { student: { id: number }; album: { id: number } }) => [u.student.id, u.album.id])).toEqual([
      [a1.id, shop.openAlbumId],
      [b1.id, shop.protectedAlbumId],
    ]);
  });

  it('orders: a family orders only what it may see; do-not-publish is never sold; lines keep their child', async () => {
    const family = await familyWith(server, a1.code);
    const line = (photoId: number, albumId = shop.openAlbumId) => ({ photoId, albumId, product: shop.print, quantity: 1 });
    for (const id of [photo.a2, photo.dnp]) {
      const res = await family.post('/api/orders', orderBody(shop, [line(id)]));
      expect(res.status, `photo ${id}`).toBe(403);
      expect(res.body.message).toBe(STUDENT_MSG.photoNotAvailable);
    }
    const otherClass = await family.post('/api/orders', orderBody(shop, [line(photo.groupB, shop.protectedAlbumId)]));
    expect(otherClass.status).toBe(401);
    expect((await new Client(server.url).post('/api/orders', orderBody(shop, [line(photo.groupA[0]!)]))).status).toBe(401);
    // Staff cannot sell a do-not-publish photo either.
    expect((await staff.post('/api/orders', orderBody(shop, [line(photo.dnp)]))).status).toBe(403);
    const before = Number((await server.runtime.knex('orders').count({ n: '*' }).first())?.n);

    const ok = await family.post('/api/orders', orderBody(shop, [line(photo.groupA[0]!), line(photo.a1[0]!)]));
    expect(ok.status).toBe(201);
    expect(ok.body.order.items.map((item: { photoId: number; studentId: number | null }) => [item.photoId, item.studentId])).toEqual([
      [photo.groupA[0], null],
      [photo.a1[0], a1.id],
    ]);
    expect(Number((await server.runtime.knex('orders').count({ n: '*' }).first())?.n)).toBe(before + 1);
  });

  it("downloads: a paid digital copy stays downloadable, but never once its child is marked do-not-publish", async () => {
    const family = await familyWith(server, a1.code);
    const created = await family.post('/api/orders', orderBody(shop, [{ photoId: photo.a1[1]!, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 }]));
    expect(created.status).toBe(201);
    const orderId = created.body.order.id as string;
    await payThroughSandbox(server, orderId);
    let url = '';
    await waitUntil(async () => {
      const order = await family.get(`/api/orders/${orderId}`);
      url = order.body.items[0]?.downloadUrl ?? '';
      return url !== '';
    });
    const path = new URL(url).pathname;
    const anyone = new Client(server.url);
    const first = await anyone.get(path);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/jpeg');

    // Hiding a child whose photo was sold warns first, and goes on once confirmed (docs/access.md, "Moving a sold photo").
    expect((await staff.patch(`/api/students/${a1.id}`, { doNotPublish: true })).body).toMatchObject({ code: 'PHOTO_SOLD', orders: [orderId] });
    expect((await staff.patch(`/api/students/${a1.id}`, { doNotPublish: true, confirm: true })).status).toBe(200);
    try {
      const refused = await anyone.get(path);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(STUDENT_MSG.photoNotAvailable);
      expect(ids((await family.get(`/api/albums/${shop.openAlbumId}/photos`)).body)).toEqual(sorted(photo.groupA));
      expect((await family.get(`/api/images/${photo.a1[0]}/thumbnail`)).status).toBe(404);
    } finally {
      await staff.patch(`/api/students/${a1.id}`, { doNotPublish: false });
    }
    expect((await anyone.get(path)).status).toBe(200);
  });

  it('"Forget this child on this device" rewrites the grant without the child', async () => {
    const family = await familyWith(server, a1.code, a2.code);
    const res = await family.delete(`/api/students/${a1.id}/access`);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('gallery_access='))).toBe(true);
    expect((await family.get('/api/students/unlocked')).body.map((u: { student: { id: number } }) => u.student.id)).toEqual([a2.id]);
    expect(ids((await family.get(`/api/albums/${shop.openAlbumId}/photos`)).body)).toEqual(sorted([...photo.groupA, photo.a2]));
    expect((await family.get(`/api/images/${photo.a1[0]}/thumbnail`)).status).toBe(404);
    await family.delete(`/api/students/${a2.id}/access`);
    expect((await family.get(`/api/albums/${shop.openAlbumId}/photos`)).status).toBe(401);
  });

  describe('back in school_password mode', () => {
    beforeAll(() => setAccessMode(staff, shop.schoolId, 'school_password'));
    afterAll(() => setAccessMode(staff, shop.schoolId, 'student_codes'));

    it('the school password shows every published photo of the school, without saying whose it is', async () => {
      const parent = new Client(server.url);
      expect((await parent.post(`/api/schools/${shop.slug}/verify`, { password: shop.password })).status).toBe(200);
      const res = await parent.get(`/api/albums/${shop.openAlbumId}/photos`);
      expect(ids(res.body)).toEqual(sorted([...photo.groupA, ...photo.a1, photo.a2]));
      expect(res.body.every((p: { studentId: number | null }) => p.studentId === null)).toBe(true);
      expect((await parent.get(`/api/images/${photo.dnp}/thumbnail`)).status).toBe(404);
      expect((await parent.get(`/api/albums/${shop.protectedAlbumId}/photos`)).status).toBe(403);
      // It does not reveal which photos are a given child's.
      expect((await parent.get(`/api/students/${a1.id}/photos`)).status).toBe(401);
    });

    it('a code still opens its own child there', async () => {
      const family = await familyWith(server, b1.code);
      expect(ids((await family.get(`/api/albums/${shop.protectedAlbumId}/photos`)).body)).toEqual(sorted([photo.b1, photo.groupB]));
      expect((await family.get(`/api/albums/${shop.openAlbumId}/photos`)).status).toBe(401);
    });

    it("staff photo lists carry each photo's studentId, null for a group photo, do-not-publish included", async () => {
      const res = await staff.get(`/api/albums/${shop.openAlbumId}/photos`);
      const studentOf = Object.fromEntries(res.body.map((p: { id: number; studentId: number | null }) => [p.id, p.studentId]));
      expect(studentOf).toEqual({
        [photo.groupA[0]!]: null,
        [photo.groupA[1]!]: null,
        [photo.a1[0]!]: a1.id,
        [photo.a1[1]!]: a1.id,
        [photo.a2]: a2.id,
        [photo.dnp]: dnp.id,
      });
    });
  });
});

describeApi('student codes: verification and rate limits', () => {
  let server: TestServer;
  let code: string;

  beforeAll(async () => {
    server = await startTestServer();
    const staff = await staffClient(server);
    const shop = await createShop(server);
    [{ code }] = (await addStudents(staff, shop.openAlbumId, ['Kabo'])) as [Student];
  });
  afterAll(() => server?.close());

  it('400 for a missing or malformed code (not counted); 401 for an unknown one, with no cookie', async () => {
    const family = new Client(server.url);
    const missing = await family.post('/api/students/verify', {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ code: STUDENT_MSG.codeRequired });
    for (const bad of ['ABC', 'K7Q2-M9X0', 'I7Q2-M9XD', 'K7Q2-M9XD-22']) {
      const res = await family.post('/api/students/verify', { code: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.message).toBe(STUDENT_MSG.codeFormat);
    }
    const unknown = await family.post('/api/students/verify', { code: code === 'ZZZZ-ZZZZ' ? 'YYYY-YYYY' : 'ZZZZ-ZZZZ' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ message: STUDENT_MSG.codeNotRecognised, code: 'INVALID_CODE' });
    expect(unknown.headers.getSetCookie()).toEqual([]);
  });

  // Issue 22 point 7: the 11th failure makes this client wait for this code (no longer a block).
  it('11 failures with one code from one client: the next try gets 429 with Retry-After, other codes still work', async () => {
    const family = new Client(server.url);
    const wrong = code.startsWith('2') ? '3333-3333' : '2222-2222';
    for (let i = 0; i < 11; i++) expect((await family.post('/api/students/verify', { code: wrong })).status).toBe(401);
    const limited = await family.post('/api/students/verify', { code: wrong });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(MSG.tooManyAttempts);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await family.post('/api/students/verify', { code })).status).toBe(200);
  });

  // Issue 22 point 7: a carrier's shared address is slowed, never refused the right code (was 429).
  it('after 50 failed codes a client is still let in with the right code', async () => {
    const family = new Client(server.url);
    const alphabet = '23456789ABCDEFGH';
    const guesses = Array.from({ length: 51 }, (_, i) => `${alphabet[i % 16]}${alphabet[Math.floor(i / 16) % 16]}JK-MNPQ`).filter((guess) => guess.replace('-', '') !== code.replace('-', '')).slice(0, 50);
    const failed = await Promise.all(guesses.map((guess) => family.post('/api/students/verify', { code: guess })));
    expect(failed.map((res) => res.status)).toEqual(Array(50).fill(401));
    const right = await family.post('/api/students/verify', { code });
    expect(right.status).toBe(200);
  });
});

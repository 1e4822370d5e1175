import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { albumResponseSchema, publishResponseSchema, reviewSheetSchema, type ReviewSheet } from '../../contract/albums';
import { GALLERY_PAGE_DATA_ID, type GalleryPageData } from '../../contract/gallery-page';
import { MATCHING_MSG, REVIEW_MSG, STUDENT_MSG } from '../../contract/messages';
import type { Photo } from '../../contract/photos';
import type { Student } from '../../contract/students';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { solidJpeg } from '../../test/images';
import { addPhoto, createShop, orderBody, parentFor, payThroughSandbox, waitUntil, type Shop } from '../../test/shop';
import { customerClient } from '../../test/fixtures';
import { photoForm } from '../photos/photos.test-helpers';
import { codeUrl } from '../students/flyers';
import { flyerCardPhoto } from '../../test/cards';
import { addStudents, assignPhotos, familyWith, setAccessMode } from '../students/students.test-helpers';

/** A flyer card as a photographer photographs it at the shoot. */
const card = (text: string, seed: number) => flyerCardPhoto(text, seed);
const plain = (seed: number) => solidJpeg(240, 180, `#${(0x305070 + seed * 0x0b0a07).toString(16).slice(-6)}`);

const SHELL = '<!doctype html><html><head><title>Shell</title></head><body><div id="root"><main>Loading</main></div></body></html>';
function pageData(html: string): GalleryPageData | null {
  const found = new RegExp(`<script type="application/json" id="${GALLERY_PAGE_DATA_ID}">([^<]*)</script>`).exec(html);
  return found ? (JSON.parse(found[1]!) as GalleryPageData) : null;
}

interface File {
  name: string;
  bytes: Buffer;
}

/**
 * Publish when ready (docs/access.md, "Draft and published classes", "Photos waiting for review",
 * "Withdrawn photos"): nothing of a draft reaches a family, photos placed by a card or a file name
 * in a live class wait for staff, and a paid photo that moved to another child stops downloading.
 */
describeApi('publishing: draft classes, review and withdrawn photos', () => {
  let server: TestServer;
  let dist: string;
  let staff: Client;

  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'photos-dist-'));
    await fs.writeFile(path.join(dist, 'index.html'), SHELL.replace('Loading', 'Home'));
    await fs.writeFile(path.join(dist, 'app-shell.html'), SHELL);
    server = await startTestServer({}, { appDir: dist });
    staff = await staffClient(server, 'admin');
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  const ids = (list: { id: number }[]) => list.map((photo) => photo.id).sort((a, b) => a - b);
  const sorted = (list: number[]) => [...list].sort((a, b) => a - b);

  async function newClass(schoolId: number, name = 'Class 3C'): Promise<number> {
    const res = await staff.post('/api/albums', { name, schoolId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as number;
  }

  async function codesSchool(): Promise<Shop> {
    const shop = await createShop(server);
    await setAccessMode(staff, shop.schoolId, 'student_codes');
    return shop;
  }

  /** Sends batches of one upload session, each file numbered in capture order, as the PWA does. */
  async function sendBatch(albumId: number, sessionId: string, batch: { seq: number; file: File }[]) {
    const capture = JSON.stringify({ sessionId, files: batch.map(({ seq, file }) => ({ name: file.name, size: file.bytes.length, seq })) });
    const res = await staff.post('/api/photos/upload-batch', photoForm(batch.map(({ file }) => file), { albumId: String(albumId), capture }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  async function staffPhotos(albumId: number): Promise<Map<string, Photo>> {
    const res = await staff.get<Photo[]>(`/api/albums/${albumId}/photos`);
    expect(res.status).toBe(200);
    return new Map(res.body.map((photo) => [photo.originalName, photo]));
  }

  const review = async (albumId: number): Promise<ReviewSheet> => {
    const res = await staff.get(`/api/albums/${albumId}/review`);
    expect(res.status).toBe(200);
    return reviewSheetSchema.strict().parse(res.body);
  };

  it('a new class is a draft in a student-codes school and published in a school-password school; staff set its status and schedule', async () => {
    const codes = await codesSchool();
    const draftId = await newClass(codes.schoolId);
    const passwordShop = await createShop(server);
    const liveRes = await staff.post('/api/albums', { name: 'Class 4D', schoolId: passwordShop.schoolId });
    expect(albumResponseSchema.strict().parse(liveRes.body)).toMatchObject({ status: 'published', publishAt: null, pendingReview: 0 });

    const listed = await staff.get(`/api/schools/${codes.schoolId}/albums`);
    expect(listed.body.find((album: { id: number }) => album.id === draftId)).toEqual({
      id: draftId,
      name: 'Class 3C',
      schoolId: codes.schoolId,
      hasPassword: false,
      photoCount: 0,
      status: 'draft',
      publishAt: null,
      pendingReview: 0,
      archived: false,
    });
    const byId = await staff.get(`/api/schools/by-id/${codes.schoolId}`);
    expect(byId.body.albums.find((album: { id: number }) => album.id === draftId).status).toBe('draft');

    // The ladder: staff only.
    const customer = await customerClient(server);
    for (const client of [new Client(server.url), customer]) {
      expect((await client.patch(`/api/albums/${draftId}`, { status: 'published' })).status).toBeGreaterThanOrEqual(401);
      expect([401, 403]).toContain((await client.post(`/api/albums/${draftId}/publish`, {})).status);
      expect([401, 403]).toContain((await client.get(`/api/albums/${draftId}/review`)).status);
    }
    expect((await staff.post('/api/albums/999999/publish', {})).status).toBe(404);
    expect((await staff.get('/api/albums/999999/review')).status).toBe(404);

    // Bad values are 400s naming the field.
    const badDate = await staff.patch(`/api/albums/${draftId}`, { publishAt: 'next Tuesday' });
    expect(badDate.status).toBe(400);
    expect(badDate.body).toMatchObject({ message: REVIEW_MSG.publishAtInvalid, errors: { publishAt: REVIEW_MSG.publishAtInvalid } });
    const badStatus = await staff.patch(`/api/albums/${draftId}`, { status: 'live' });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.errors).toEqual({ status: REVIEW_MSG.statusInvalid });

    // A schedule, given with any time zone, is kept as the instant it names.
    const when = '2031-03-01T08:00:00+02:00';
    const scheduled = await staff.patch(`/api/albums/${draftId}`, { publishAt: when });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body).toMatchObject({ status: 'draft', publishAt: '2031-03-01T06:00:00.000Z' });
    expect((await staff.patch(`/api/albums/${draftId}`, { publishAt: null })).body.publishAt).toBeNull();

    // A published class has no schedule: asking for one is refused, publishing clears one.
    const live = await staff.patch(`/api/albums/${draftId}`, { status: 'published' });
    expect(live.body).toMatchObject({ status: 'published', publishAt: null });
    const refused = await staff.patch(`/api/albums/${draftId}`, { publishAt: when });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('ALREADY_PUBLISHED');
    const back = await staff.patch(`/api/albums/${draftId}`, { status: 'draft', publishAt: when });
    expect(back.body).toMatchObject({ status: 'draft', publishAt: '2031-03-01T06:00:00.000Z' });
    const published = await staff.post(`/api/albums/${draftId}/publish`, {});
    expect(publishResponseSchema.strict().parse(published.body)).toMatchObject({ released: 0, visible: 0, album: { status: 'published', publishAt: null } });
  });

  describe('the access matrix: families see nothing of a draft class, on any path, in either mode', () => {
    it('school password: class list, photos, images, the gallery page, orders and a paid download', async () => {
      const shop = await createShop(server);
      const parent = await parentFor(server, shop);
      // Bought while the class was live.
      const bought = await parent.post('/api/orders', orderBody(shop, [{ photoId: shop.photoIds[0]!, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 }]));
      expect(bought.status).toBe(201);
      const orderId = bought.body.order.id as string;
      await payThroughSandbox(server, orderId);
      let link = '';
      await waitUntil(async () => {
        link = (await parent.get(`/api/orders/${orderId}`)).body.items[0]?.downloadUrl ?? '';
        return link !== '';
      });
      const download = new URL(link).pathname;
      expect((await parent.get(download)).status).toBe(200);

      // Back to draft with a sold photo warns first, and goes on once confirmed (docs/access.md, "Moving a sold photo").
      expect((await staff.patch(`/api/albums/${shop.openAlbumId}`, { status: 'draft' })).body).toMatchObject({ code: 'PHOTO_SOLD', orders: [orderId] });
      expect((await staff.patch(`/api/albums/${shop.openAlbumId}`, { status: 'draft', confirm: true })).status).toBe(200);
      const classes = await parent.get(`/api/schools/${shop.schoolId}/albums`);
      expect(classes.status).toBe(200);
      expect(classes.body.map((album: { id: number }) => album.id)).toEqual([shop.protectedAlbumId]);
      // A family's class never says how it is published.
      expect(Object.keys(classes.body[0]).sort()).toEqual(['hasPassword', 'id', 'name', 'photoCount', 'schoolId']);
      expect((await parent.get(`/api/albums/${shop.openAlbumId}/photos`)).status).toBe(404);
      for (const photoId of shop.photoIds) {
        for (const route of ['thumbnail', 'thumbnail?size=small', 'watermarked']) expect((await parent.get(`/api/images/${photoId}/${route}`)).status).toBe(404);
      }
      const page = await parent.get(`/school/${shop.slug}?class=${shop.openAlbumId}`);
      expect(page.status).toBe(200);
      const data = pageData(page.body as string);
      expect(data).not.toBeNull();
      expect(data!.albums.map((album) => album.id)).toEqual([shop.protectedAlbumId]);
      expect(data!.photos).toBeNull();
      const order = await parent.post('/api/orders', orderBody(shop, [{ photoId: shop.photoIds[1]!, albumId: shop.openAlbumId, product: shop.print, quantity: 1 }]));
      expect(order.status).toBe(403);
      expect(order.body.code).toBe('PHOTO_NOT_AVAILABLE');
      // The paid copy is withheld while the class is a draft, and shown as withdrawn.
      expect((await parent.get(download)).status).toBe(403);
      const shown = (await parent.get(`/api/orders/${orderId}`)).body.items[0];
      expect(shown).toMatchObject({ withdrawn: true, movedAfterSale: false, downloadUrl: null });
      // Staff see everything.
      expect(ids((await staff.get(`/api/albums/${shop.openAlbumId}/photos`)).body)).toEqual(sorted(shop.photoIds));
      expect((await staff.get(`/api/images/${shop.photoIds[0]}/thumbnail`)).status).toBe(200);

      // Published again: all of it comes back.
      expect((await staff.post(`/api/albums/${shop.openAlbumId}/publish`, {})).status).toBe(200);
      expect(ids((await parent.get(`/api/albums/${shop.openAlbumId}/photos`)).body)).toEqual(sorted(shop.photoIds));
      expect((await parent.get(download)).status).toBe(200);
      expect((await parent.get(`/api/orders/${orderId}`)).body.items[0].withdrawn).toBe(false);
    });

    it("student codes: the child's own photos, the class, images and orders, until staff publish", async () => {
      const shop = await codesSchool();
      const albumId = await newClass(shop.schoolId);
      const [child, sibling] = (await addStudents(staff, albumId, ['Kagiso Dube', 'Neo Molefe'])) as [Student, Student];
      const own = await addPhoto(server, albumId, 'IMG_0601.JPG');
      const group = await addPhoto(server, albumId, 'IMG_0602.JPG');
      const theirs = await addPhoto(server, albumId, 'IMG_0603.JPG');
      await assignPhotos(staff, [own], child.id);
      await assignPhotos(staff, [theirs], sibling.id);
      const family = await familyWith(server, child.code);

      // The code opens the child (a family is told their class is not online yet, not "wrong code")...
      expect((await family.get('/api/students/unlocked')).body.map((entry: { student: { id: number } }) => entry.student.id)).toEqual([child.id]);
      expect((await family.get(`/api/schools/${shop.slug}`)).body.unlocked).toBe(true);
      // ...but nothing of the draft class is there.
      const classes = await family.get(`/api/schools/${shop.schoolId}/albums`);
      expect(classes.status).toBe(200);
      expect(classes.body).toEqual([]);
      const childPhotos = await family.get(`/api/students/${child.id}/photos`);
      expect(childPhotos.status).toBe(200);
      expect(childPhotos.body).toEqual([]);
      expect((await family.get(`/api/albums/${albumId}/photos`)).status).toBe(404);
      for (const photoId of [own, group, theirs]) expect((await family.get(`/api/images/${photoId}/watermarked`)).status).toBe(404);
      const page = pageData((await family.get(`/school/${shop.slug}?class=${albumId}`)).body as string);
      expect(page).not.toBeNull();
      expect(page!.albums).toEqual([]);
      expect(page!.photos).toBeNull();
      const order = await family.post('/api/orders', orderBody(shop, [{ photoId: own, albumId, product: shop.print, quantity: 1 }]));
      expect(order.status).toBe(403);
      expect(order.body.message).toBe(STUDENT_MSG.photoNotAvailable);

      const sheet = await review(albumId);
      expect(sheet.counts).toMatchObject({ photos: 3, visibleNow: 0, visibleAfterPublish: 3, pendingReview: 0 });
      const published = await staff.post(`/api/albums/${albumId}/publish`, {});
      expect(published.body).toMatchObject({ released: 0, visible: 3, message: REVIEW_MSG.publishedText('Class 3C', 3) });
      expect(ids((await family.get(`/api/students/${child.id}/photos`)).body)).toEqual([own]);
      expect(ids((await family.get(`/api/albums/${albumId}/photos`)).body)).toEqual(sorted([own, group]));
      expect((await family.get(`/api/images/${theirs}/watermarked`)).status).toBe(404);
      // Issue 22 point 8: the class counts only what this family sees (own and group), not another child's.
      expect((await family.get(`/api/schools/${shop.schoolId}/albums`)).body.map((album: { id: number; photoCount: number }) => [album.id, album.photoCount])).toEqual([[albumId, 2]]);
    });
  });

  it('an upload session whose batches arrive out of order shows nothing of the held photos to any family until review', async () => {
    const shop = await codesSchool();
    const albumId = await newClass(shop.schoolId, 'Class 5E');
    const [alice, bob] = (await addStudents(staff, albumId, ['Alice Mosweu', 'Bob Setshwaelo'])) as [Student, Student];
    const url = (code: string) => codeUrl(server.config.publicUrl, code);
    // Live before the shoot: anything a card places must wait for staff.
    expect((await staff.post(`/api/albums/${albumId}/publish`, {})).status).toBe(200);
    const shot: File[] = [
      { name: 'IMG_0700.JPG', bytes: await card(url(alice.code), 31) },
      { name: 'IMG_0701.JPG', bytes: await plain(1) },
      { name: 'IMG_0702.JPG', bytes: await plain(2) },
      { name: 'IMG_0703.JPG', bytes: await card(url(bob.code), 32) },
      { name: 'IMG_0704.JPG', bytes: await plain(3) },
      { name: 'IMG_0705.JPG', bytes: await plain(4) },
      { name: 'IMG_0706.JPG', bytes: await plain(5) },
    ];
    const session = `s-${randomBytes(8).toString('hex')}`;
    const aliceFamily = await familyWith(server, alice.code);
    const bobFamily = await familyWith(server, bob.code);
    const seen = async () => ({
      alice: ids((await aliceFamily.get(`/api/albums/${albumId}/photos`)).body),
      bob: ids((await bobFamily.get(`/api/albums/${albumId}/photos`)).body),
    });

    await sendBatch(albumId, session, [0, 1, 2].map((seq) => ({ seq, file: shot[seq]! })));
    // Bob's card is in the batch that comes last: until then his first photos follow Alice's card.
    await sendBatch(albumId, session, [4, 5].map((seq) => ({ seq, file: shot[seq]! })));
    let placed = await staffPhotos(albumId);
    expect(placed.get('IMG_0704.JPG')).toMatchObject({ studentId: alice.id, pendingReview: true });
    expect(await seen()).toEqual({ alice: [], bob: [] });
    for (const name of ['IMG_0701.JPG', 'IMG_0704.JPG', 'IMG_0705.JPG']) {
      const id = placed.get(name)!.id;
      expect((await aliceFamily.get(`/api/images/${id}/thumbnail`)).status).toBe(404);
      expect((await aliceFamily.get(`/api/images/${id}/watermarked`)).status).toBe(404);
      const order = await aliceFamily.post('/api/orders', orderBody(shop, [{ photoId: id, albumId, product: shop.digital, quantity: 1 }]));
      expect(order.status).toBe(403);
    }

    await sendBatch(albumId, session, [3, 6].map((seq) => ({ seq, file: shot[seq]! })));
    placed = await staffPhotos(albumId);
    const idOf = (name: string) => placed.get(name)!.id;
    expect(placed.get('IMG_0704.JPG')).toMatchObject({ studentId: bob.id, pendingReview: true });
    expect(await seen()).toEqual({ alice: [], bob: [] });

    const sheet = await review(albumId);
    const row = (id: number) => sheet.students.find((student) => student.id === id)!;
    expect(row(alice.id).photos.map((photo) => [photo.originalName, photo.placedByCard?.originalName, photo.pendingReview])).toEqual([
      ['IMG_0701.JPG', 'IMG_0700.JPG', true],
      ['IMG_0702.JPG', 'IMG_0700.JPG', true],
    ]);
    expect(row(bob.id).photos.map((photo) => photo.originalName)).toEqual(['IMG_0704.JPG', 'IMG_0705.JPG', 'IMG_0706.JPG']);
    expect(row(alice.id).summary).toBe('Alice Mosweu: 2 photos, placed by card IMG_0700.JPG');
    // Photos are numbered in capture order over the class, cards left out.
    expect(row(bob.id).photos.map((photo) => photo.label)).toEqual(['Photo 3', 'Photo 4', 'Photo 5']);
    expect(sheet.counts).toMatchObject({ photos: 5, cards: 2, tray: 0, pendingReview: 5, visibleNow: 0, visibleAfterPublish: 5 });
    expect((await staff.get(`/api/schools/${shop.schoolId}/albums`)).body.find((album: { id: number }) => album.id === albumId).pendingReview).toBe(5);

    const released = await staff.post(`/api/albums/${albumId}/publish`, {});
    expect(released.body).toMatchObject({ released: 5, visible: 5 });
    expect(await seen()).toEqual({
      alice: sorted([idOf('IMG_0701.JPG'), idOf('IMG_0702.JPG')]),
      bob: sorted([idOf('IMG_0704.JPG'), idOf('IMG_0705.JPG'), idOf('IMG_0706.JPG')]),
    });
    // Cards are never shown, released or not.
    expect((await aliceFamily.get(`/api/images/${idOf('IMG_0700.JPG')}/thumbnail`)).status).toBe(404);
  }, 120_000);

  it('a missed card is caught on the review sheet: staff move its photos, and a sold photo that moves stops downloading and is flagged', async () => {
    const shop = await codesSchool();
    const albumId = await newClass(shop.schoolId, 'Class 6F');
    const [alice, bob] = (await addStudents(staff, albumId, ['Alice Mosweu', 'Bob Setshwaelo'])) as [Student, Student];
    const url = (code: string) => codeUrl(server.config.publicUrl, code);
    const session = `s-${randomBytes(8).toString('hex')}`;
    // Bob's card was photographed with a hand over it: the scan cannot read it, so his photo follows Alice's card.
    const shot: File[] = [
      { name: 'IMG_0800.JPG', bytes: await card(url(alice.code), 41) },
      { name: 'IMG_0801.JPG', bytes: await plain(11) },
      { name: 'IMG_0802.JPG', bytes: await plain(12) },
      { name: 'IMG_0803.JPG', bytes: await plain(13) },
    ];
    await sendBatch(albumId, session, shot.map((file, seq) => ({ seq, file })));
    const placed = await staffPhotos(albumId);
    const idOf = (name: string) => placed.get(name)!.id;
    // A draft: nothing waits for review (publishing is the review), and nothing is shown.
    expect(placed.get('IMG_0803.JPG')).toMatchObject({ studentId: alice.id });
    expect(placed.get('IMG_0803.JPG')?.pendingReview).toBeUndefined();
    const aliceFamily = await familyWith(server, alice.code);
    const bobFamily = await familyWith(server, bob.code);
    expect((await aliceFamily.get(`/api/students/${alice.id}/photos`)).body).toEqual([]);

    // The review sheet shows all three under Alice, placed by her card: staff see the one of Bob and the card.
    const before = await review(albumId);
    expect(before.students.find((student) => student.id === alice.id)?.summary).toBe('Alice Mosweu: 3 photos, placed by card IMG_0800.JPG');
    await assignPhotos(staff, [idOf('IMG_0803.JPG')], bob.id);
    const tray = await staff.put('/api/photos/tray', { photoIds: [idOf('IMG_0802.JPG')] });
    expect(tray.status).toBe(200);
    expect(tray.body).toEqual({ updated: 1 });
    // A card can be neither moved to the tray nor given to a child.
    const cardToTray = await staff.put('/api/photos/tray', { photoIds: [idOf('IMG_0800.JPG')] });
    expect(cardToTray.status).toBe(400);
    expect(cardToTray.body.message).toBe(MATCHING_MSG.cardNotAssignable);
    expect((await staff.put('/api/photos/tray', { photoIds: [999999] })).status).toBe(404);
    expect((await new Client(server.url).put('/api/photos/tray', { photoIds: [idOf('IMG_0802.JPG')] })).status).toBe(401);

    const after = await review(albumId);
    expect(after.students.find((student) => student.id === bob.id)?.photos.map((photo) => [photo.originalName, photo.matchedBy])).toEqual([['IMG_0803.JPG', 'staff']]);
    expect(after.tray.map((photo) => photo.originalName)).toEqual(['IMG_0802.JPG']);
    expect(after.counts).toMatchObject({ photos: 3, tray: 1, visibleAfterPublish: 2 });
    const published = await staff.post(`/api/albums/${albumId}/publish`, {});
    expect(published.body).toMatchObject({ visible: 2 });
    expect(ids((await aliceFamily.get(`/api/albums/${albumId}/photos`)).body)).toEqual([idOf('IMG_0801.JPG')]);
    expect(ids((await bobFamily.get(`/api/albums/${albumId}/photos`)).body)).toEqual([idOf('IMG_0803.JPG')]);

    // A rerun of matching (another batch of the session) keeps what staff decided.
    await sendBatch(albumId, session, [{ seq: 4, file: { name: 'IMG_0804.JPG', bytes: await plain(14) } }]);
    expect((await staffPhotos(albumId)).get('IMG_0803.JPG')).toMatchObject({ studentId: bob.id });
    expect((await staffPhotos(albumId)).get('IMG_0802.JPG')).toMatchObject({ inTray: true });
    // The new photo follows Alice's card in a live class: it waits for review.
    expect((await staffPhotos(albumId)).get('IMG_0804.JPG')).toMatchObject({ studentId: alice.id, pendingReview: true });
    expect(ids((await aliceFamily.get(`/api/albums/${albumId}/photos`)).body)).toEqual([idOf('IMG_0801.JPG')]);

    // Alice's family buys her photo as a digital copy and downloads it.
    const bought = await aliceFamily.post('/api/orders', orderBody(shop, [{ photoId: idOf('IMG_0801.JPG'), albumId, product: shop.digital, quantity: 1 }]));
    expect(bought.status).toBe(201);
    const orderId = bought.body.order.id as string;
    await payThroughSandbox(server, orderId);
    let link = '';
    await waitUntil(async () => {
      link = (await aliceFamily.get(`/api/orders/${orderId}`)).body.items[0]?.downloadUrl ?? '';
      return link !== '';
    });
    const download = new URL(link).pathname;
    expect((await new Client(server.url).get(download)).status).toBe(200);

    // Then staff find it was Bob's after all and move it, after the warning that it was sold
    // (docs/access.md, "Moving a sold photo"): Alice's family no longer gets it in any form.
    const warned = await staff.put('/api/photos/student', { photoIds: [idOf('IMG_0801.JPG')], studentId: bob.id });
    expect(warned.body).toMatchObject({ code: 'PHOTO_SOLD', orders: [orderId] });
    expect((await staff.put('/api/photos/student', { photoIds: [idOf('IMG_0801.JPG')], studentId: bob.id, confirm: true })).status).toBe(200);
    const refused = await new Client(server.url).get(download);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'PHOTO_WITHDRAWN', message: REVIEW_MSG.photoWithdrawnHelp });
    const order = await aliceFamily.get(`/api/orders/${orderId}`);
    expect(order.body.items[0]).toMatchObject({ withdrawn: true, movedAfterSale: true, downloadUrl: null });
    expect(order.body.movedPhotos).toBe(1);
    expect((await aliceFamily.get(`/api/images/${idOf('IMG_0801.JPG')}/watermarked`)).status).toBe(404);
    // Staff see the order flagged in order management.
    const listed = await staff.get(`/api/orders?schoolId=${shop.schoolId}`);
    expect(listed.body.find((entry: { id: string }) => entry.id === orderId)).toMatchObject({ movedPhotos: 1 });
    // Bob's family sees it: a staff placement is live at once.
    expect(ids((await bobFamily.get(`/api/albums/${albumId}/photos`)).body)).toEqual(sorted([idOf('IMG_0801.JPG'), idOf('IMG_0803.JPG')]));
  }, 120_000);

  it('a scheduled draft opens to families when its time comes, and the job publishes it exactly once', async () => {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    const soon = new Date(Date.now() + 1500).toISOString();
    expect((await staff.patch(`/api/albums/${shop.openAlbumId}`, { status: 'draft', publishAt: soon })).status).toBe(200);
    expect((await parent.get(`/api/albums/${shop.openAlbumId}/photos`)).status).toBe(404);
    expect(await server.runtime.services.albums.publishDue()).toEqual([]);
    await waitUntil(async () => (await parent.get(`/api/albums/${shop.openAlbumId}/photos`)).status === 200, 10_000);
    expect(ids((await parent.get(`/api/albums/${shop.openAlbumId}/photos`)).body)).toEqual(sorted(shop.photoIds));
    // Two runs at once (two processes): one publishes it.
    const runs = await Promise.all([server.runtime.services.albums.publishDue(), server.runtime.services.albums.publishDue()]);
    expect(runs.flat().filter((id) => id === shop.openAlbumId)).toHaveLength(1);
    expect((await staff.get(`/api/schools/${shop.schoolId}/albums`)).body.find((album: { id: number }) => album.id === shop.openAlbumId)).toMatchObject({
      status: 'published',
      publishAt: null,
    });
    expect(await server.runtime.services.albums.publishDue()).toEqual([]);
  });
});

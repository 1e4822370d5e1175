import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MATCHING_MSG } from '../../contract/messages';
import type { MatchingSummary, UploadCapture } from '../../contract/matching';
import type { Photo, TrayResponse, UploadBatchResponse } from '../../contract/photos';
import type { Student } from '../../contract/students';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, type Shop } from '../../test/shop';
import { solidJpeg } from '../../test/images';
import { customerClient, photoForm } from '../photos/photos.test-helpers';
import { codeUrl } from '../students/flyers';
import { flyerCardPhoto } from '../../test/cards';
import { addStudents, familyWith, setAccessMode } from '../students/students.test-helpers';


interface UploadFile {
  name: string;
  bytes: Buffer;
}

/** A card photo as a photographer takes it: the flyer's QR code at 3 m, turned and tilted, in a 12 MP frame. */
const cardAt3m = (text: string, seed: number, angle: { yaw: number; pitch: number; roll: number }) =>
  flyerCardPhoto(text, seed, { width: 4000, height: 3000, distanceMm: 3000, ...angle });

/** A smaller card photo for the sequences (the scan reads the same 1280 px decode either way). */
const card = (text: string, seed: number) => flyerCardPhoto(text, seed);

/** An ordinary photo, optionally with the camera's capture time. */
async function plain(seed: number, takenAt?: string): Promise<Buffer> {
  const bytes = await solidJpeg(240, 180, `#${(0x305070 + seed * 0x0b0a07).toString(16).slice(-6)}`);
  return takenAt ? withTime(bytes, takenAt) : bytes;
}

const withTime = (bytes: Buffer, takenAt: string) =>
  sharp(bytes).jpeg({ quality: 90 }).withExif({ IFD2: { DateTimeOriginal: takenAt, SubSecTimeOriginal: '00' } }).toBuffer();

const session = () => `s-${randomBytes(8).toString('hex')}`;

describeApi('matching photos to children at the shoot', () => {
  let server: TestServer;
  let staff: Client;
  let shop: Shop;
  let other: Shop;
  let roster: Student[];
  let otherRoster: Student[];
  const byName = (name: string) => roster.find((student) => student.name === name) as Student;
  const url = (code: string) => codeUrl(server.config.publicUrl, code);

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'admin');
    shop = await createShop(server);
    other = await createShop(server);
    const created = await staff.post(`/api/albums/${shop.openAlbumId}/students`, {
      students: [
        { name: 'Neo Kgosi' },
        { name: 'Zoë Letsholo' },
        // Two children of the same name, told apart on the roster by their numbers.
        { name: 'Kagiso Dube', number: '2024-001' },
        { name: 'Kagiso Dube', number: '2024-002' },
        { name: 'Nthabiseng Ṱhabo' },
        { name: 'Lorato Sebina', number: '2024-017' },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    roster = created.body.students as Student[];
    otherRoster = await addStudents(staff, other.openAlbumId, ['Mpho Tau']);
  }, 60_000);
  afterAll(() => server?.close());

  async function upload(albumId: number, files: UploadFile[], capture?: UploadCapture | string) {
    const fields: Record<string, string> = { albumId: String(albumId) };
    if (capture !== undefined) fields.capture = typeof capture === 'string' ? capture : JSON.stringify(capture);
    return staff.post<UploadBatchResponse & { message: string }>('/api/photos/upload-batch', photoForm(files, fields));
  }

  /** Uploads files as the PWA does: one session, each file numbered in capture order. */
  async function sendSession(albumId: number, sessionId: string, batches: { seq: number; file: UploadFile }[][]) {
    let last: UploadBatchResponse | null = null;
    for (const batch of batches) {
      const capture = { sessionId, files: batch.map(({ seq, file }) => ({ name: file.name, size: file.bytes.length, seq })) };
      const res = await upload(albumId, batch.map(({ file }) => file), capture);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      last = res.body;
    }
    return last as UploadBatchResponse;
  }

  async function classPhotos(albumId: number): Promise<Map<string, Photo>> {
    const res = await staff.get<Photo[]>(`/api/albums/${albumId}/photos`);
    expect(res.status).toBe(200);
    return new Map(res.body.map((photo) => [photo.originalName, photo]));
  }

  it('the ladder: the tray needs staff and a class; a bad capture list is a 400 naming it', async () => {
    expect((await new Client(server.url).get(`/api/albums/${shop.openAlbumId}/tray`)).status).toBe(401);
    expect((await (await customerClient(server)).get(`/api/albums/${shop.openAlbumId}/tray`)).status).toBe(403);
    expect((await staff.get('/api/albums/999999/tray')).status).toBe(404);
    const file = { name: 'IMG_0001.JPG', bytes: await plain(1) };
    for (const capture of ['{not json', JSON.stringify({ sessionId: 'short', files: [] }), JSON.stringify({ sessionId: session(), files: [{ name: 'other.jpg', size: 1, seq: 0 }] })]) {
      const res = await upload(shop.openAlbumId, [file], capture);
      expect(res.status).toBe(400);
      expect([MATCHING_MSG.badCapture, MATCHING_MSG.badSession]).toContain(res.body.message);
    }
  });

  it('reads a flyer card photographed at an angle from 3 m in a 12 MP frame', async () => {
    const neo = byName('Neo Kgosi');
    const photos: UploadFile[] = [
      { name: 'IMG_0100.JPG', bytes: await cardAt3m(url(neo.code), 11, { yaw: 35, pitch: 10, roll: 15 }) },
      { name: 'IMG_0101.JPG', bytes: await plain(2) },
      { name: 'IMG_0102.JPG', bytes: await cardAt3m(url(byName('Zoë Letsholo').code), 12, { yaw: -30, pitch: -12, roll: -20 }) },
      { name: 'IMG_0103.JPG', bytes: await plain(3) },
    ];
    const res = await upload(shop.openAlbumId, photos);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.matching).toMatchObject({ cards: 2, byCard: 2, inTray: 0, photos: 2 });
    const listed = await classPhotos(shop.openAlbumId);
    expect(listed.get('IMG_0100.JPG')?.card).toBe(true);
    expect(listed.get('IMG_0102.JPG')?.card).toBe(true);
    expect(listed.get('IMG_0101.JPG')?.studentId).toBe(neo.id);
    expect(listed.get('IMG_0103.JPG')?.studentId).toBe(byName('Zoë Letsholo').id);
  }, 120_000);

  it('a card sequence: photos follow their card, photos before the first card and after an unknown code wait in the tray, a card of another class is reported', async () => {
    const neo = byName('Neo Kgosi');
    const zoe = byName('Zoë Letsholo');
    const mpho = otherRoster[0] as Student;
    const files: UploadFile[] = [
      { name: 'DSC_0001.JPG', bytes: await plain(10) },
      { name: 'DSC_0002.JPG', bytes: await card(url(neo.code), 21) },
      { name: 'DSC_0003.JPG', bytes: await plain(11) },
      { name: 'DSC_0004.JPG', bytes: await plain(12) },
      { name: 'DSC_0005.JPG', bytes: await card('Z9Z9-Z9Z9', 22) },
      { name: 'DSC_0006.JPG', bytes: await plain(13) },
      // The bare code works as well as the flyer's URL.
      { name: 'DSC_0007.JPG', bytes: await card(zoe.code, 23) },
      { name: 'DSC_0008.JPG', bytes: await plain(14) },
      { name: 'DSC_0009.JPG', bytes: await card(url(mpho.code), 24) },
      { name: 'DSC_0010.JPG', bytes: await plain(15) },
    ];
    const id = session();
    const summary = (await sendSession(shop.openAlbumId, id, [files.map((file, seq) => ({ seq, file }))])).matching as MatchingSummary;
    expect(summary).toMatchObject({ sessionId: id, photos: 6, cards: 4, byCard: 3, byName: 0, inTray: 3 });
    expect(summary.reported.map((entry) => [entry.originalName, entry.status])).toEqual([
      ['DSC_0005.JPG', 'unknown'],
      ['DSC_0009.JPG', 'other_class'],
    ]);
    const otherSchool = { name: other.schoolName };
    expect(summary.reported[0]?.message).toBe(MATCHING_MSG.unknownCode('DSC_0005.JPG'));
    expect(summary.reported[1]?.message).toBe(MATCHING_MSG.otherClassCode('DSC_0009.JPG', 'Mpho Tau', `Class 1A, ${otherSchool.name}`));

    const listed = await classPhotos(shop.openAlbumId);
    const at = (name: string) => listed.get(name) as Photo;
    expect(at('DSC_0001.JPG')).toMatchObject({ studentId: null, inTray: true });
    expect(at('DSC_0003.JPG').studentId).toBe(neo.id);
    expect(at('DSC_0004.JPG').studentId).toBe(neo.id);
    expect(at('DSC_0006.JPG')).toMatchObject({ studentId: null, inTray: true });
    expect(at('DSC_0008.JPG').studentId).toBe(zoe.id);
    expect(at('DSC_0010.JPG')).toMatchObject({ studentId: null, inTray: true });
    for (const name of ['DSC_0002.JPG', 'DSC_0005.JPG', 'DSC_0007.JPG', 'DSC_0009.JPG']) expect(at(name)).toMatchObject({ card: true, studentId: null });
    // Matched photos are not in the tray.
    expect(at('DSC_0003.JPG').inTray).toBeUndefined();

    // The tray: each waiting photo with the cards just before and after it, in capture order.
    const tray = await staff.get<TrayResponse>(`/api/albums/${shop.openAlbumId}/tray`);
    expect(tray.status).toBe(200);
    const mine = tray.body.sessions.find((entry) => entry.sessionId === id);
    expect(mine?.items.map((item) => [item.photo.originalName, item.card?.status ?? 'waiting'])).toEqual([
      ['DSC_0001.JPG', 'waiting'],
      ['DSC_0002.JPG', 'known'],
      ['DSC_0005.JPG', 'unknown'],
      ['DSC_0006.JPG', 'waiting'],
      ['DSC_0007.JPG', 'known'],
      ['DSC_0009.JPG', 'other_class'],
      ['DSC_0010.JPG', 'waiting'],
    ]);
    expect(mine?.items[1]?.card).toMatchObject({ studentId: neo.id, studentName: 'Neo Kgosi', elsewhere: null });
    expect(mine?.items[5]?.card).toMatchObject({ studentId: null, studentName: 'Mpho Tau' });
    expect(mine?.items[5]?.card?.elsewhere).toMatch(/^Class 1A, Shop School \d+$/);
  }, 120_000);

  it('card and tray photos are never shown to families, never served as images and never sold', async () => {
    const listed = await classPhotos(shop.openAlbumId);
    const cardPhoto = listed.get('DSC_0002.JPG') as Photo;
    const trayPhoto = listed.get('DSC_0001.JPG') as Photo;
    const neoPhoto = listed.get('DSC_0003.JPG') as Photo;
    const neo = byName('Neo Kgosi');

    // The class was live when the card placed Neo's photo: it waits for staff, hidden from every family.
    expect(neoPhoto.pendingReview).toBe(true);
    const parent = await parentFor(server, shop);
    const before = await parent.get<Photo[]>(`/api/albums/${shop.openAlbumId}/photos`);
    expect(before.body.map((photo) => photo.id)).not.toContain(neoPhoto.id);
    for (const kind of ['thumbnail', 'watermarked']) expect((await parent.get(`/api/images/${neoPhoto.id}/${kind}`)).status).toBe(404);
    const released = await staff.post<{ released: number }>(`/api/albums/${shop.openAlbumId}/publish`, {});
    expect(released.status).toBe(200);
    expect(released.body.released).toBeGreaterThan(0);

    // A family with the school password (school_password mode) sees the class, but neither card nor tray photos.
    const seen = await parent.get<Photo[]>(`/api/albums/${shop.openAlbumId}/photos`);
    expect(seen.status).toBe(200);
    const ids = seen.body.map((photo) => photo.id);
    expect(ids).toContain(neoPhoto.id);
    expect(ids).not.toContain(cardPhoto.id);
    expect(ids).not.toContain(trayPhoto.id);
    for (const photo of seen.body) expect(photo.card ?? photo.inTray).toBeUndefined();
    for (const hidden of [cardPhoto, trayPhoto]) {
      for (const kind of ['thumbnail', 'watermarked']) expect((await parent.get(`/api/images/${hidden.id}/${kind}`)).status).toBe(404);
      const order = await parent.post('/api/orders', orderBody(shop, [{ photoId: hidden.id, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 }]));
      expect(order.status).toBe(403);
    }
    // Staff still see both.
    expect((await staff.get(`/api/images/${cardPhoto.id}/thumbnail`)).status).toBe(200);

    // The child's own family, by code, sees the child's photos, not the card that names them.
    await setAccessMode(staff, shop.schoolId, 'student_codes');
    try {
      const family = await familyWith(server, neo.code);
      const own = await family.get<Photo[]>(`/api/students/${neo.id}/photos`);
      expect(own.body.map((photo) => photo.id)).toContain(neoPhoto.id);
      expect(own.body.map((photo) => photo.id)).not.toContain(cardPhoto.id);
      const classList = await family.get<Photo[]>(`/api/albums/${shop.openAlbumId}/photos`);
      expect(classList.body.map((photo) => photo.id)).not.toContain(cardPhoto.id);
      expect(classList.body.map((photo) => photo.id)).not.toContain(trayPhoto.id);
      expect((await family.get(`/api/images/${cardPhoto.id}/watermarked`)).status).toBe(404);
    } finally {
      await setAccessMode(staff, shop.schoolId, 'school_password');
    }
  });

  it('file names: a roster name (any Unicode form, any case) or a student number assigns; a name two students share waits in the tray', async () => {
    const files: UploadFile[] = [
      // macOS writes names decomposed: "Zoë" as Z o e + combining diaeresis.
      { name: 'Zoë Letsholo_0201.JPG'.normalize('NFD'), bytes: await plain(30) },
      { name: 'NTHABISENG ṰHABO-0202.jpg', bytes: await plain(31) },
      { name: '2024-017_0203.jpg', bytes: await plain(32) },
      { name: 'Kagiso Dube_0204.jpg', bytes: await plain(33) },
      { name: 'Zoe Letsholo_0205.jpg', bytes: await plain(34) },
    ];
    const res = await upload(other.protectedAlbumId, files.slice(0, 1));
    // A class without a roster is not matched at all.
    expect(res.body.matching).toBeNull();
    const summary = (await sendSession(shop.openAlbumId, session(), [files.map((file, seq) => ({ seq, file }))])).matching as MatchingSummary;
    expect(summary).toMatchObject({ photos: 5, cards: 0, byName: 3, inTray: 2 });
    const listed = await classPhotos(shop.openAlbumId);
    expect(listed.get('Zoë Letsholo_0201.JPG'.normalize('NFD'))?.studentId).toBe(byName('Zoë Letsholo').id);
    expect(listed.get('NTHABISENG ṰHABO-0202.jpg')?.studentId).toBe(byName('Nthabiseng Ṱhabo').id);
    expect(listed.get('2024-017_0203.jpg')?.studentId).toBe(byName('Lorato Sebina').id);
    expect(listed.get('Kagiso Dube_0204.jpg')).toMatchObject({ studentId: null, inTray: true });
    // "Exact" means exact: Zoe is not Zoë.
    expect(listed.get('Zoe Letsholo_0205.jpg')).toMatchObject({ studentId: null, inTray: true });
  });

  it('the tray: one tap assigns a photo to a student or to the group; staff placements survive later batches; a card cannot be assigned', async () => {
    const neo = byName('Neo Kgosi');
    const id = session();
    const first = [
      { seq: 0, file: { name: 'T_0001.JPG', bytes: await plain(40) } },
      { seq: 1, file: { name: 'T_0002.JPG', bytes: await plain(41) } },
    ];
    await sendSession(shop.openAlbumId, id, [first]);
    let listed = await classPhotos(shop.openAlbumId);
    const [one, two] = [listed.get('T_0001.JPG') as Photo, listed.get('T_0002.JPG') as Photo];
    expect(one.inTray && two.inTray).toBe(true);

    expect((await staff.put('/api/photos/student', { photoIds: [one.id], studentId: neo.id })).status).toBe(200);
    expect((await staff.put('/api/photos/student', { photoIds: [two.id], studentId: null })).status).toBe(200);
    listed = await classPhotos(shop.openAlbumId);
    expect(listed.get('T_0001.JPG')).toMatchObject({ studentId: neo.id });
    expect(listed.get('T_0001.JPG')?.inTray).toBeUndefined();
    expect(listed.get('T_0002.JPG')).toMatchObject({ studentId: null });
    expect(listed.get('T_0002.JPG')?.inTray).toBeUndefined();
    const tray = await staff.get<TrayResponse>(`/api/albums/${shop.openAlbumId}/tray`);
    expect(tray.body.sessions.find((entry) => entry.sessionId === id)).toBeUndefined();

    // The group photo is now every family's; the assigned one only Neo's.
    const parent = await parentFor(server, shop);
    const seen = (await parent.get<Photo[]>(`/api/albums/${shop.openAlbumId}/photos`)).body.map((photo) => photo.id);
    expect(seen).toEqual(expect.arrayContaining([one.id, two.id]));

    // A later batch of the same session, with a card of Zoë before the photos, does not move what staff placed.
    const zoe = byName('Zoë Letsholo');
    const summary = (
      await sendSession(shop.openAlbumId, id, [[{ seq: 2, file: { name: 'T_0003.JPG', bytes: await card(url(zoe.code), 42) } }, { seq: 3, file: { name: 'T_0004.JPG', bytes: await plain(43) } }]])
    ).matching as MatchingSummary;
    expect(summary).toMatchObject({ photos: 3, cards: 1, byCard: 1, byStaff: 2, inTray: 0 });
    listed = await classPhotos(shop.openAlbumId);
    expect(listed.get('T_0001.JPG')?.studentId).toBe(neo.id);
    expect(listed.get('T_0002.JPG')?.studentId).toBeNull();
    expect(listed.get('T_0004.JPG')?.studentId).toBe(zoe.id);

    const cardPhoto = listed.get('T_0003.JPG') as Photo;
    const refused = await staff.put('/api/photos/student', { photoIds: [cardPhoto.id], studentId: zoe.id });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(MATCHING_MSG.cardNotAssignable);
  });

  it('a batch resent after its answer was lost finds its photos instead of storing or assigning them twice', async () => {
    const neo = byName('Neo Kgosi');
    const id = session();
    const batch = [
      { seq: 0, file: { name: 'R_0001.JPG', bytes: await card(url(neo.code), 50) } },
      { seq: 1, file: { name: 'R_0002.JPG', bytes: await plain(51) } },
    ];
    const count = async () => Number(((await server.runtime.knex('photos').where({ album_id: shop.openAlbumId }).count({ n: '*' }).first()) as { n: number | string }).n);
    const first = await sendSession(shop.openAlbumId, id, [batch]);
    const before = await count();
    const again = await sendSession(shop.openAlbumId, id, [batch]);
    expect(await count()).toBe(before);
    expect(again.photos.map((photo) => photo.id).sort()).toEqual(first.photos.map((photo) => photo.id).sort());
    expect(again.matching).toEqual(first.matching);
    expect(again.matching).toMatchObject({ photos: 1, cards: 1, byCard: 1 });
    const rows = await server.runtime.knex('photos').where({ upload_session: id }).select('student_id', 'kind');
    expect(rows).toHaveLength(2);

    // Another photo under a number the session already used is refused, not stored over it.
    const clash = await upload(shop.openAlbumId, [{ name: 'R_9999.JPG', bytes: await plain(52) }], { sessionId: id, files: [{ name: 'R_9999.JPG', size: (await plain(52)).length, seq: 1 }] });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe(MATCHING_MSG.captureConflict('R_9999.JPG'));
  });

  it('batches that arrive out of order end as if sent in order; EXIF capture time orders a session before file names', async () => {
    const neo = byName('Neo Kgosi');
    const zoe = byName('Zoë Letsholo');
    const photos = [
      { seq: 0, file: { name: 'O_0001.JPG', bytes: await card(url(neo.code), 60) } },
      { seq: 1, file: { name: 'O_0002.JPG', bytes: await plain(61) } },
      { seq: 2, file: { name: 'O_0003.JPG', bytes: await card(url(zoe.code), 62) } },
      { seq: 3, file: { name: 'O_0004.JPG', bytes: await plain(63) } },
      { seq: 4, file: { name: 'O_0005.JPG', bytes: await plain(64) } },
    ];
    const inOrder = await sendSession(shop.openAlbumId, session(), [photos.slice(0, 2), photos.slice(2)]);
    // The same photos in another class, the last batch first and split differently.
    const backwards = await sendSession(other.openAlbumId, session(), [photos.slice(3), photos.slice(1, 3), photos.slice(0, 1)]);
    expect(inOrder.matching).toMatchObject({ byCard: 3, inTray: 0 });
    // The other class has no Neo or Zoë: the cards are reported there and nothing is matched.
    expect(backwards.matching).toMatchObject({ byCard: 0, inTray: 3, cards: 2 });
    const sameClass = await sendSession(shop.openAlbumId, session(), [
      photos.slice(3).map((entry) => ({ ...entry, file: { ...entry.file, name: entry.file.name.replace('O_', 'P_') } })),
      photos.slice(0, 3).map((entry) => ({ ...entry, file: { ...entry.file, name: entry.file.name.replace('O_', 'P_') } })),
    ]);
    const listed = await classPhotos(shop.openAlbumId);
    for (const prefix of ['O_', 'P_']) {
      expect(listed.get(`${prefix}0002.JPG`)?.studentId).toBe(neo.id);
      expect(listed.get(`${prefix}0004.JPG`)?.studentId).toBe(zoe.id);
      expect(listed.get(`${prefix}0005.JPG`)?.studentId).toBe(zoe.id);
    }
    expect(sameClass.matching).toMatchObject({ byCard: 3, inTray: 0 });

    // File names say E_0001 comes first; the camera's clock says the card of Zoë came first.
    const timed = [
      { seq: 0, file: { name: 'E_0001.JPG', bytes: await withTime(await plain(70), '2026:11:20 09:00:03') } },
      { seq: 1, file: { name: 'E_0002.JPG', bytes: await withTime(await card(url(neo.code), 71), '2026:11:20 09:00:02') } },
      { seq: 2, file: { name: 'E_0003.JPG', bytes: await withTime(await card(url(zoe.code), 72), '2026:11:20 09:00:00') } },
      { seq: 3, file: { name: 'E_0004.JPG', bytes: await withTime(await plain(73), '2026:11:20 09:00:01') } },
    ];
    await sendSession(shop.openAlbumId, session(), [timed]);
    const byTime = await classPhotos(shop.openAlbumId);
    // By time: card Zoë, E_0004, card Neo, E_0001. By name it would have been E_0001 in the tray and E_0004 Zoë's... by Neo's card.
    expect(byTime.get('E_0004.JPG')?.studentId).toBe(zoe.id);
    expect(byTime.get('E_0001.JPG')?.studentId).toBe(neo.id);

    // One photo without a capture time puts the session back in file-name order.
    const mixed = timed.map((entry) => ({ ...entry, file: { ...entry.file, name: entry.file.name.replace('E_', 'F_') } }));
    mixed[3] = { seq: 3, file: { name: 'F_0004.JPG', bytes: (await plain(73)) as Buffer<ArrayBuffer> } };
    await sendSession(shop.openAlbumId, session(), [mixed]);
    const byNameOrder = await classPhotos(shop.openAlbumId);
    expect(byNameOrder.get('F_0001.JPG')).toMatchObject({ studentId: null, inTray: true });
    expect(byNameOrder.get('F_0004.JPG')?.studentId).toBe(zoe.id);
  }, 120_000);

  it("erasing a child also deletes card photos that show their code, in whichever class they were taken", async () => {
    const mpho = otherRoster[0] as Student;
    const cardRow = (await server.runtime.knex('photos').where({ card_student_id: mpho.id, album_id: shop.openAlbumId }).first('id')) as { id: number } | undefined;
    expect(cardRow).toBeDefined();
    const erased = await staff.post(`/api/students/${mpho.id}/erase`);
    expect(erased.status).toBe(200);
    expect(await server.runtime.knex('photos').where({ id: cardRow?.id }).first('id')).toBeUndefined();
  });

  it('"This is a card photo": a card the scan missed is marked by staff, never shown or sold, and the photos after it leave the previous child for the tray', async () => {
    const neo = byName('Neo Kgosi');
    const id = session();
    const files: UploadFile[] = [
      { name: 'M_0001.JPG', bytes: await card(url(neo.code), 81) },
      { name: 'M_0002.JPG', bytes: await plain(82) },
      // Zoë's card with a hand over it: the scan reads nothing, so it and the photo after it follow Neo's card.
      { name: 'M_0003.JPG', bytes: await plain(83) },
      { name: 'M_0004.JPG', bytes: await plain(84) },
    ];
    await sendSession(shop.openAlbumId, id, [files.map((file, seq) => ({ seq, file }))]);
    let listed = await classPhotos(shop.openAlbumId);
    expect(listed.get('M_0004.JPG')?.studentId).toBe(neo.id);
    const missed = listed.get('M_0003.JPG') as Photo;

    expect((await new Client(server.url).put('/api/photos/card', { photoIds: [missed.id] })).status).toBe(401);
    expect((await staff.put('/api/photos/card', { photoIds: [999999] })).status).toBe(404);
    expect((await staff.put('/api/photos/card', { photoIds: [] })).status).toBe(400);
    const marked = await staff.put('/api/photos/card', { photoIds: [missed.id] });
    expect(marked.status).toBe(200);
    expect(marked.body).toEqual({ updated: 1 });
    listed = await classPhotos(shop.openAlbumId);
    expect(listed.get('M_0003.JPG')).toMatchObject({ card: true, studentId: null });
    expect(listed.get('M_0002.JPG')?.studentId).toBe(neo.id);
    // The photo after the missed card is nobody's until staff say whose it is.
    expect(listed.get('M_0004.JPG')).toMatchObject({ studentId: null, inTray: true });
    const tray = await staff.get<TrayResponse>(`/api/albums/${shop.openAlbumId}/tray`);
    const mine = tray.body.sessions.find((entry) => entry.sessionId === id);
    expect(mine?.items.map((item) => [item.photo.originalName, item.card?.status ?? 'waiting'])).toEqual([
      ['M_0003.JPG', 'unknown'],
      ['M_0004.JPG', 'waiting'],
    ]);
    // A card is a card for good: it can be neither given to a child nor made a group photo.
    for (const studentId of [neo.id, null]) expect((await staff.put('/api/photos/student', { photoIds: [missed.id], studentId })).status).toBe(400);
    // Marking it again changes nothing.
    expect((await staff.put('/api/photos/card', { photoIds: [missed.id] })).body).toEqual({ updated: 0 });
    const parent = await parentFor(server, shop);
    for (const kind of ['thumbnail', 'watermarked']) expect((await parent.get(`/api/images/${missed.id}/${kind}`)).status).toBe(404);
  }, 120_000);
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { STUDENT_MSG } from '../../contract/messages';
import type { Student } from '../../contract/students';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { storedOriginalOf } from '../../test/fixtures';
import { pdfPagesText } from '../../test/pdf';
import { createShop, orderBody, parentFor, postForm, type Shop } from '../../test/shop';
import { approvedNotify } from '../payments/payments.test-helpers';
import { readZip } from '../../test/zip';
import { createMaintenance } from '../jobs/maintenance';
import { exists, shardedPath } from '../photos/photos.test-helpers';
import { addAlbum, addPhoto, distinctJpeg, paidOrder } from '../print-batches/print-batches.test-helpers';
import { addStudents, assignPhotos, familyWith, setAccessMode } from './students.test-helpers';
import { flyerCardPhoto } from '../../test/cards';
import { photoForm } from '../photos/photos.test-helpers';
import { codeUrl } from './flyers';

/**
 * Erasure is complete (docs/access.md, "Erasure"): the child's name leaves every order that may
 * carry it and every print-batch file, and their photos leave storage even when a removal fails
 * at first.
 */
describeApi('erasure leaves nothing of the child behind', () => {
  let server: TestServer;
  let staff: Client;
  let shop: Shop;
  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'admin');
    shop = await createShop(server);
  });
  afterAll(() => server?.close());

  const nameOf = async (orderId: string) => (await server.runtime.knex('orders').where({ id: orderId }).first('student_name')).student_name as string;

  it("takes the child's name out of every order and print-batch file, however it was spelled", async () => {
    const [kabo, neo] = (await addStudents(staff, shop.openAlbumId, ['Kabo Ramotswe', 'Neo Molefe'])) as [Student, Student];
    const kaboPhoto = (await addPhoto(server, shop.openAlbumId, 'IMG_0801.JPG', await distinctJpeg(81))).id;
    const neoPhoto = (await addPhoto(server, shop.openAlbumId, 'IMG_0802.JPG', await distinctJpeg(82))).id;
    const group = (await addPhoto(server, shop.openAlbumId, 'GROUP_0803.JPG', await distinctJpeg(83))).id;
    await assignPhotos(staff, [kaboPhoto], kabo.id);
    await assignPhotos(staff, [neoPhoto], neo.id);
    const otherClass = await addAlbum(server, shop.schoolId, 'Class 9Z');
    const otherPhoto = (await addPhoto(server, otherClass, 'IMG_0804.JPG', await distinctJpeg(84))).id;

    const parent = await parentFor(server, shop);
    const print = (photoId: number, albumId = shop.openAlbumId) => ({ photoId, albumId, product: shop.print, quantity: 1 });
    // Only group photos, the child's name as typed at checkout.
    const groupOnly = await paidOrder(server, parent, shop, [print(group)], { studentName: 'KABO  ramotswe' });
    // Tied to the child by the line's student id, spelled another way, with a brother on it.
    const spelled = await paidOrder(server, parent, shop, [print(kaboPhoto), print(neoPhoto)], { studentName: 'Kabz R. and Neo' });
    // Two children in one name, only group photos.
    const both = await paidOrder(server, parent, shop, [print(group)], { studentName: 'Kabo Ramotswe & Neo Molefe' });
    // Another class's child of the same name keeps it.
    const namesake = await paidOrder(server, parent, shop, [print(otherPhoto, otherClass)], { studentName: 'Kabo Ramotswe' });
    const batch = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
    expect(batch.status).toBe(201);
    // The group photo's original is gone, so MISSING.txt names its orders.
    await server.runtime.media.removePhoto(await storedOriginalOf(server, group));

    expect((await staff.post(`/api/students/${kabo.id}/erase`)).status).toBe(200);

    expect(await nameOf(groupOnly)).toBe(STUDENT_MSG.photoRemovedText);
    expect(await nameOf(spelled)).toBe(`Neo Molefe, ${STUDENT_MSG.photoRemovedText}`);
    expect(await nameOf(both)).toBe(`Neo Molefe, ${STUDENT_MSG.photoRemovedText}`);
    expect(await nameOf(namesake)).toBe('Kabo Ramotswe');

    const id = batch.body.id as number;
    const detail = await staff.get(`/api/print-batches/${id}`);
    const zip = await readZip((await staff.get(`/api/print-batches/${id}/files.zip`)).body as Buffer);
    const missing = zip.find((entry) => entry.name === 'MISSING.txt');
    expect(missing?.data.toString('utf8')).toContain(groupOnly);
    const packing = (await pdfPagesText((await staff.get(`/api/print-batches/${id}/packing-list.pdf`)).body as Buffer)).join('\n');
    const labels = (await pdfPagesText((await staff.get(`/api/print-batches/${id}/labels.pdf`)).body as Buffer)).join('\n');
    const everything = [JSON.stringify(detail.body), ...zip.map((entry) => entry.name), ...zip.filter((entry) => !entry.name.endsWith('.JPG')).map((entry) => entry.data.toString('utf8')), packing, labels];
    for (const text of everything.filter((text) => !text.includes(namesake))) expect(text).not.toMatch(/Kabo|Kabz|Ramotswe/i);
    expect(JSON.stringify((await staff.get('/api/orders')).body.filter((order: { id: string }) => order.id !== namesake))).not.toMatch(/Kabo|Kabz|Ramotswe/i);
  });

  it("takes the child's name out of order notes: a note on the child's own order goes, other orders lose the name", async () => {
    const [tumelo, neo] = (await addStudents(staff, shop.openAlbumId, ['Tumelo Kgari', 'Neo Sebina'])) as [Student, Student];
    const own = (await addPhoto(server, shop.openAlbumId, 'IMG_1001.JPG', await distinctJpeg(101))).id;
    const group = (await addPhoto(server, shop.openAlbumId, 'GROUP_1002.JPG', await distinctJpeg(102))).id;
    await assignPhotos(staff, [own], tumelo.id);
    const otherClass = await addAlbum(server, shop.schoolId, 'Class 8Q');
    const otherPhoto = (await addPhoto(server, otherClass, 'IMG_1003.JPG', await distinctJpeg(103))).id;
    const parent = await parentFor(server, shop);
    const print = (photoId: number, albumId = shop.openAlbumId) => ({ photoId, albumId, product: shop.print, quantity: 1 });
    const tied = await paidOrder(server, parent, shop, [print(own)], { studentName: 'Tumi', notes: 'Please hand to Tumi’s teacher, Mrs Dube' });
    const groupOnly = await paidOrder(server, parent, shop, [print(group)], { studentName: neo.name, notes: 'For NEO and tumelo  kgari. The Kgari family, Tumelong Road' });
    const elsewhere = await paidOrder(server, parent, shop, [print(otherPhoto, otherClass)], { studentName: 'Tumelo Kgari', notes: 'Tumelo Kgari, class 8Q' });

    expect((await staff.post(`/api/students/${tumelo.id}/erase`)).status).toBe(200);
    const notesOf = async (orderId: string) => (await server.runtime.knex('orders').where({ id: orderId }).first('notes')).notes as string | null;
    expect(await notesOf(tied)).toBe(STUDENT_MSG.noteRemovedText);
    expect(await notesOf(groupOnly)).toBe(`For NEO and ${STUDENT_MSG.nameRemovedText}. The ${STUDENT_MSG.nameRemovedText} family, Tumelong Road`);
    expect(await notesOf(elsewhere)).toBe('Tumelo Kgari, class 8Q');
    const shown = (await staff.get('/api/orders')).body.filter((order: { id: string }) => order.id !== elsewhere);
    expect(JSON.stringify(shown)).not.toMatch(/Tumelo Kgari|Tumi’s|Kgari family/i);
  });

  it('cancels an order the erasure left pending for its open payment once that payment ends unpaid', async () => {
    const [lorato] = (await addStudents(staff, shop.openAlbumId, ['Lorato Pule'])) as [Student];
    const photo = (await addPhoto(server, shop.openAlbumId, 'IMG_1101.JPG', await distinctJpeg(111))).id;
    await assignPhotos(staff, [photo], lorato.id);
    const parent = await parentFor(server, shop);
    const place = async () => {
      const res = await parent.post('/api/orders', orderBody(shop, [{ photoId: photo, albumId: shop.openAlbumId, product: shop.print, quantity: 1 }]));
      expect(res.status).toBe(201);
      const orderId = res.body.order.id as string;
      expect((await new Client(server.url).post('/api/payment/initiate', { orderId })).status).toBe(200);
      return orderId;
    };
    const declined = await place();
    const abandoned = await place();
    expect((await staff.post(`/api/students/${lorato.id}/erase`)).status).toBe(200);
    const statusOf = async (id: string) => (await server.runtime.knex('orders').where({ id }).first('order_status')).order_status as string;
    const maintenance = createMaintenance(server.runtime);
    expect(await maintenance.sweepPayments()).toBe(true);
    expect([await statusOf(declined), await statusOf(abandoned)]).toEqual(['pending', 'pending']);
    // Paying again is refused: its lines are gone.
    expect((await new Client(server.url).post('/api/payment/initiate', { orderId: declined })).body.code).toBe('ORDER_PHOTOS_GONE');

    // The gateway declines the first; the second is left past the time it could still be approved.
    const payment = await server.runtime.knex('payments').where({ order_id: declined }).first();
    const refused = await postForm(`${server.url}/api/payment/notify`, approvedNotify(payment, { TRANSACTION_STATUS: '2', RESULT_CODE: '900003', RESULT_DESC: 'Insufficient Funds' }));
    expect(refused.status).toBe(200);
    expect(await statusOf(declined)).toBe('pending');
    await server.runtime.knex('payments').where({ order_id: abandoned }).update({ created_at: Date.now() - 25 * 3600_000 });
    expect(await maintenance.sweepPayments()).toBe(true);
    expect([await statusOf(declined), await statusOf(abandoned)]).toEqual(['cancelled', 'cancelled']);
  });

  it('retries a failed removal from storage until the files are gone', async () => {
    const [lesedi] = (await addStudents(staff, shop.openAlbumId, ['Lesedi Tau'])) as [Student];
    const photo = (await addPhoto(server, shop.openAlbumId, 'IMG_0901.JPG', await distinctJpeg(91))).id;
    await assignPhotos(staff, [photo], lesedi.id);
    const { storageKey } = await storedOriginalOf(server, photo);
    const files = [shardedPath(server, 'originals', storageKey, 'jpg'), shardedPath(server, 'thumbnails', storageKey, 'webp'), shardedPath(server, 'previews', storageKey, 'webp')];

    // Storage refuses the removal at first.
    const media = server.runtime.media;
    const removePhoto = media.removePhoto;
    media.removePhoto = async () => {
      throw new Error('storage unavailable');
    };
    try {
      expect((await staff.post(`/api/students/${lesedi.id}/erase`)).status).toBe(200);
    } finally {
      media.removePhoto = removePhoto;
    }
    for (const file of files) expect(await exists(file), file).toBe(true);
    const queued = await server.runtime.knex('file_deletions').where({ storage_key: storageKey });
    expect(queued).toHaveLength(1);
    expect(Number(queued[0].attempts)).toBe(1);
    expect(queued[0].last_error).toContain('storage unavailable');

    // The job leaves it until its retry is due, then removes the files and the entry.
    const maintenance = createMaintenance(server.runtime);
    expect(await maintenance.retryFileDeletions()).toBe(true);
    expect(await server.runtime.knex('file_deletions').where({ storage_key: storageKey })).toHaveLength(1);
    await server.runtime.knex('file_deletions').where({ storage_key: storageKey }).update({ next_attempt_at: Date.now() - 1 });
    expect(await maintenance.retryFileDeletions()).toBe(true);
    for (const file of files) expect(await exists(file), file).toBe(false);
    expect(await server.runtime.knex('file_deletions').where({ storage_key: storageKey })).toEqual([]);
  });

  it("tells the service worker which kept images may stay: an erased or withdrawn photo's go", async () => {
    const codes = await createShop(server);
    await setAccessMode(staff, codes.schoolId, 'student_codes');
    const [tumi, boitu, naledi] = (await addStudents(staff, codes.openAlbumId, ['Tumi Sello', 'Boitu Sello', 'Naledi Sello'])) as [Student, Student, Student];
    const photo = async (name: string, seed: number) => (await addPhoto(server, codes.openAlbumId, name, await distinctJpeg(seed))).id;
    const [tumiPhoto, boituPhoto, nalediPhoto, moved] = [await photo('IMG_1001.JPG', 101), await photo('IMG_1002.JPG', 102), await photo('IMG_1003.JPG', 103), await photo('IMG_1004.JPG', 104)];
    await assignPhotos(staff, [tumiPhoto, moved], tumi.id);
    await assignPhotos(staff, [boituPhoto], boitu.id);
    await assignPhotos(staff, [nalediPhoto], naledi.id);
    await staff.post(`/api/albums/${codes.openAlbumId}/publish`);
    const family = await familyWith(server, tumi.code, boitu.code, naledi.code);
    const group = codes.photoIds[0]!;
    const all = [tumiPhoto, boituPhoto, nalediPhoto, moved, group];
    for (const id of all) expect((await family.get(`/api/images/${id}/thumbnail`)).status, String(id)).toBe(200);
    const ask = async () => {
      const res = await family.post('/api/images/still-visible', { photoIds: [...all, 999999] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers.get('cache-control')).toContain('no-store');
      return (res.body.photoIds as number[]).sort((a, b) => a - b);
    };
    expect(await ask()).toEqual([...all].sort((a, b) => a - b));

    // Boitu is erased, Naledi may no longer be published, one of Tumi's photos goes to the tray.
    expect((await staff.post(`/api/students/${boitu.id}/erase`)).status).toBe(200);
    expect((await staff.patch(`/api/students/${naledi.id}`, { doNotPublish: true })).status).toBe(200);
    expect((await staff.put('/api/photos/tray', { photoIds: [moved] })).status).toBe(200);
    expect(await ask()).toEqual([tumiPhoto, group].sort((a, b) => a - b));

    // A browser holding nothing keeps nothing; bad input is a 400.
    const stranger = await familyWith(server);
    expect((await stranger.post('/api/images/still-visible', { photoIds: all })).body).toEqual({ photoIds: [] });
    expect((await family.post('/api/images/still-visible', { photoIds: [] })).status).toBe(400);
    expect((await family.post('/api/images/still-visible', { photoIds: Array.from({ length: 301 }, (_, i) => i + 1) })).status).toBe(400);
  });

  it('erases card photos showing any of the child’s codes, the replaced ones too', async () => {
    const cards = await createShop(server);
    const [mpho] = (await addStudents(staff, cards.openAlbumId, ['Mpho Kgosi'])) as [Student];
    const oldCode = mpho.code;
    const renewed = await staff.patch(`/api/students/${mpho.id}`, { newCode: true });
    expect(renewed.status).toBe(200);
    const newCode = renewed.body.code as string;
    expect(newCode).not.toBe(oldCode);
    const url = (code: string) => codeUrl(server.config.publicUrl, code);
    const upload = await staff.post(
      '/api/photos/upload-batch',
      photoForm([{ name: 'IMG_2001.JPG', bytes: await flyerCardPhoto(url(oldCode), 1) }, { name: 'IMG_2002.JPG', bytes: await flyerCardPhoto(url(newCode), 2) }], { albumId: String(cards.openAlbumId) }),
    );
    expect(upload.status).toBe(201);
    const cardRows = await server.runtime.knex('photos').where({ album_id: cards.openAlbumId, kind: 'card' }).select('id', 'original_name', 'card_status', 'card_student_id');
    expect(cardRows.map((row) => [row.original_name, row.card_status, Number(row.card_student_id)]).sort()).toEqual([
      ['IMG_2001.JPG', 'unknown', mpho.id],
      ['IMG_2002.JPG', 'known', mpho.id],
    ]);
    const erased = await staff.post(`/api/students/${mpho.id}/erase`);
    expect(erased.status).toBe(200);
    expect(erased.body.photosDeleted).toBe(2);
    expect(await server.runtime.knex('photos').whereIn('id', cardRows.map((row) => row.id))).toEqual([]);
    expect(await server.runtime.knex('student_past_codes').where({ student_id: mpho.id })).toEqual([]);
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { familyPhotoSchema, photoSchema } from '../../contract/photos';
import { familyPhotoLabel } from '../../contract/photo-names';
import type { Student } from '../../contract/students';
import { Client, describeApi, withoutRequestId, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { addPhoto, createShop, parentFor, type Shop } from '../../test/shop';
import { addStudents, assignPhotos, familyWith } from '../students/students.test-helpers';

/** docs/access.md, "Families see only their own". */
describeApi('families see only their own', () => {
  let server: TestServer;
  let staff: Client;
  let shop: Shop;
  let kagiso: Student;
  let neo: Student;
  let kagisoPhoto: number;
  let neoPhoto: number;

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'photographer');
    shop = await createShop(server);
    [kagiso, neo] = (await addStudents(staff, shop.openAlbumId, ['Kagiso Dube', 'Neo Molefe'])) as [Student, Student];
    kagisoPhoto = await addPhoto(server, shop.openAlbumId, 'IMG_0423.JPG');
    neoPhoto = await addPhoto(server, shop.openAlbumId, 'DSC_0424.JPG');
    await assignPhotos(staff, [kagisoPhoto], kagiso.id);
    await assignPhotos(staff, [neoPhoto], neo.id);
    // A legacy name typed on the photo before rosters existed.
    await server.runtime.knex('photos').whereIn('id', [kagisoPhoto, neoPhoto]).update({ student_name: 'Neo Molefe' });
  });
  afterAll(() => server?.close());

  it('a family never receives the camera file name or the legacy student name; the gallery still says "Photo 423"', async () => {
    const parent = await parentFor(server, shop);
    const family = await familyWith(server, kagiso.code);
    const answers = [
      (await parent.get(`/api/albums/${shop.openAlbumId}/photos`)).body,
      (await family.get(`/api/albums/${shop.openAlbumId}/photos`)).body,
      (await family.get(`/api/students/${kagiso.id}/photos`)).body,
    ] as unknown[][];
    for (const list of answers) {
      expect(list.length).toBeGreaterThan(0);
      for (const photo of list) {
        const parsed = familyPhotoSchema.parse(photo);
        expect(JSON.stringify(photo)).not.toMatch(/IMG_|DSC_|Neo Molefe/);
        if (parsed.id === kagisoPhoto) expect(familyPhotoLabel(parsed)).toBe('Photo 423');
      }
    }
    // Staff keep the camera's name and the legacy name.
    const staffList = photoSchema.array().parse((await staff.get(`/api/albums/${shop.openAlbumId}/photos`)).body);
    expect(staffList.find((photo) => photo.id === kagisoPhoto)).toMatchObject({ originalName: 'IMG_0423.JPG', studentName: 'Neo Molefe', originalNumber: '0423' });
  });

  it("a code holder's class list counts their child's photos and the group photos, not another child's", async () => {
    const family = await familyWith(server, kagiso.code);
    const seen = (await family.get(`/api/albums/${shop.openAlbumId}/photos`)).body as unknown[];
    const albums = (await family.get(`/api/schools/${shop.schoolId}/albums`)).body as { id: number; photoCount: number }[];
    expect(albums).toEqual([expect.objectContaining({ id: shop.openAlbumId, photoCount: seen.length })]);
    expect(seen.length).toBe(shop.photoIds.length + 1);
    // The school password shows (and counts) every released photo of the class.
    const parent = await parentFor(server, shop);
    const all = (await parent.get(`/api/schools/${shop.schoolId}/albums`)).body as { id: number; photoCount: number }[];
    expect(all.find((album) => album.id === shop.openAlbumId)!.photoCount).toBe(shop.photoIds.length + 2);
  });

  it('"not yours" and "does not exist" get the same answer: images 404, a child\'s photos 401 STUDENT_LOCKED', async () => {
    const family = await familyWith(server, kagiso.code);
    const stranger = new Client(server.url);
    const missing = await family.get('/api/images/987654/thumbnail');
    expect(missing.status).toBe(404);
    for (const client of [family, stranger]) {
      for (const route of ['thumbnail', 'watermarked']) {
        const res = await client.get(`/api/images/${neoPhoto}/${route}`);
        expect(res.status).toBe(404);
        expect(withoutRequestId(res.body)).toEqual(withoutRequestId(missing.body));
      }
    }
    expect((await stranger.get(`/api/images/${shop.protectedPhotoId}/thumbnail`)).status).toBe(404);
    const unknown = await family.get('/api/students/987654/photos');
    const others = await family.get(`/api/students/${neo.id}/photos`);
    for (const res of [unknown, others, await stranger.get(`/api/students/${kagiso.id}/photos`)]) {
      expect(res.status).toBe(401);
      expect(withoutRequestId(res.body)).toEqual(withoutRequestId(unknown.body));
      expect(res.body.code).toBe('STUDENT_LOCKED');
    }
  });
});

import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { reviewSheetSchema, type ReviewSheet } from '../../contract/albums';
import { REVIEW_MSG } from '../../contract/messages';
import { SAME_NAME_MSG } from '../../contract/same-names';
import type { Student } from '../../contract/students';
import { describeApi, staffClient, startTestServer, type Client, type TestServer } from '../../test/harness';
import { solidJpeg } from '../../test/images';
import { createShop, type Shop } from '../../test/shop';
import { photoForm } from '../photos/photos.test-helpers';
import { assignPhotos } from '../students/students.test-helpers';

/** An ordinary photo, with the camera's capture time when given. */
async function photo(seed: number, takenAt?: string): Promise<Buffer> {
  const bytes = await solidJpeg(240, 180, `#${(0x305070 + seed * 0x0b0a07).toString(16).slice(-6)}`);
  return takenAt ? sharp(bytes).jpeg({ quality: 90 }).withExif({ IFD2: { DateTimeOriginal: takenAt, SubSecTimeOriginal: '00' } }).toBuffer() : bytes;
}

/**
 * The review sheet in capture order (docs/access.md, "The review sheet"): by the camera's time,
 * then by file name, however the shoot was uploaded; and two children of one name told apart.
 */
describeApi('review sheet: capture order and children of one name', () => {
  let server: TestServer;
  let staff: Client;
  let shop: Shop;

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'admin');
    shop = await createShop(server);
  });
  afterAll(() => server?.close());

  async function newClass(name: string): Promise<number> {
    const res = await staff.post('/api/albums', { name, schoolId: shop.schoolId });
    expect(res.status).toBe(201);
    return res.body.id as number;
  }

  /** One upload session of its own, its files numbered in the order they are sent. */
  async function upload(albumId: number, files: { name: string; bytes: Buffer }[]): Promise<Map<string, number>> {
    const sessionId = `s-${randomBytes(8).toString('hex')}`;
    const capture = JSON.stringify({ sessionId, files: files.map((file, seq) => ({ name: file.name, size: file.bytes.length, seq })) });
    const res = await staff.post('/api/photos/upload-batch', photoForm(files, { albumId: String(albumId), capture }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return new Map((res.body.photos as { id: number; originalName: string }[]).map((p) => [p.originalName, p.id]));
  }

  const sheet = async (albumId: number): Promise<ReviewSheet> => {
    const res = await staff.get(`/api/albums/${albumId}/review`);
    expect(res.status).toBe(200);
    return reviewSheetSchema.strict().parse(res.body);
  };

  it('lists photos by the time they were taken, then by file name, whatever order they were uploaded in', async () => {
    const albumId = await newClass('Order 1');
    // The afternoon's camera card is uploaded first, the morning's after it; one card renamed its files.
    await upload(albumId, [
      { name: 'DSC_0101.JPG', bytes: await photo(1, '2026:03:02 13:00:00') },
      { name: 'DSC_0102.JPG', bytes: await photo(2, '2026:03:02 13:00:05') },
    ]);
    await upload(albumId, [
      { name: 'IMG_0902.JPG', bytes: await photo(3, '2026:03:02 09:00:05') },
      { name: 'IMG_0901.JPG', bytes: await photo(4, '2026:03:02 09:00:00') },
      // Two frames of one second: the file name decides.
      { name: 'IMG_0904.JPG', bytes: await photo(5, '2026:03:02 09:00:10') },
      { name: 'IMG_0903.JPG', bytes: await photo(6, '2026:03:02 09:00:10') },
    ]);
    // A phone's photos without EXIF come after, by file name.
    await upload(albumId, [
      { name: 'phone-b.jpg', bytes: await photo(7) },
      { name: 'phone-a.jpg', bytes: await photo(8) },
    ]);
    const all = await sheet(albumId);
    // Nobody is on the roster: everything is a group photo, numbered in capture order.
    expect(all.group.map((p) => p.originalName)).toEqual(['IMG_0901.JPG', 'IMG_0902.JPG', 'IMG_0903.JPG', 'IMG_0904.JPG', 'DSC_0101.JPG', 'DSC_0102.JPG', 'phone-a.jpg', 'phone-b.jpg']);
    expect(all.group.map((p) => p.label)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map(REVIEW_MSG.photoLabel));
  });

  it('shows the student number next to a name two children of the class share', async () => {
    const albumId = await newClass('Order 2');
    const res = await staff.post(`/api/albums/${albumId}/students`, {
      students: [
        { name: 'Neo Kgosi', number: '12' },
        { name: 'Neo Kgosi', number: '31' },
        { name: 'Kabo Dube', number: '7' },
      ],
    });
    expect(res.status).toBe(201);
    const students = res.body.students as Student[];
    const ids = await upload(albumId, [{ name: 'A.JPG', bytes: await photo(9) }]);
    await assignPhotos(staff, [ids.get('A.JPG')!], students.find((s) => s.number === '31')!.id);
    const summaries = (await sheet(albumId)).students.map((student) => student.summary);
    expect(summaries).toEqual([
      REVIEW_MSG.childSummary('Kabo Dube', 0, []),
      REVIEW_MSG.childSummary(SAME_NAME_MSG.withNumber('Neo Kgosi', '12'), 0, []),
      REVIEW_MSG.childSummary(SAME_NAME_MSG.withNumber('Neo Kgosi', '31'), 1, []),
    ]);
  });
});

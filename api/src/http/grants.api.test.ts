import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { MSG } from '../../contract/messages';
import type { Student } from '../../contract/students';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { createShop, parentFor, type Shop } from '../../test/shop';
import { addStudents, familyWith, setAccessMode } from '../students/students.test-helpers';

/** The gallery cookie a response set, decoded (its signature is the server's business). */
function setCookie(res: { headers: Headers }): { token: string; expires: number; claims: { exp: number; g: { s: [number, string, number][]; a: [number, string, number][]; st: [number, string, number][] } } } | null {
  const raw = res.headers.getSetCookie().find((c) => c.startsWith('gallery_access='));
  if (!raw) return null;
  const token = raw.slice('gallery_access='.length).split(';')[0]!;
  const expires = Date.parse(/expires=([^;]+)/i.exec(raw)?.[1] ?? '');
  return { token, expires, claims: jwt.decode(token) as never };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** docs/access.md, "Grants end": a grant lasts while its credential does, and only a credential renews it. */
describeApi('gallery grants end', () => {
  let server: TestServer;
  let staff: Client;

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'admin');
  });
  afterAll(() => server?.close());

  const sees = async (client: Client, albumId: number) => (await client.get(`/api/albums/${albumId}/photos`)).status;

  it('a new school password cuts off every device unlocked with the old one; the new password opens again', async () => {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    expect(await sees(parent, shop.openAlbumId)).toBe(200);
    expect((await staff.patch(`/api/schools/${shop.schoolId}`, { password: 'a-brand-new-pass' })).status).toBe(200);
    const locked = await parent.get(`/api/albums/${shop.openAlbumId}/photos`);
    expect(locked.status).toBe(401);
    expect(locked.body.code).toBe('SCHOOL_LOCKED');
    expect((await parent.get(`/api/schools/${shop.slug}`)).body.unlocked).toBe(false);
    expect((await parent.get(`/api/images/${shop.photoIds[0]}/thumbnail`)).status).toBe(404);
    expect((await parent.post(`/api/schools/${shop.slug}/verify`, { password: shop.password })).status).toBe(401);
    expect((await parent.post(`/api/schools/${shop.slug}/verify`, { password: 'a-brand-new-pass' })).status).toBe(200);
    expect(await sees(parent, shop.openAlbumId)).toBe(200);
  });

  it('editing a school without a new password cuts nobody off', async () => {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    expect((await staff.patch(`/api/schools/${shop.schoolId}`, { name: 'Renamed Primary' })).status).toBe(200);
    expect(await sees(parent, shop.openAlbumId)).toBe(200);
  });

  it('turning a school to student codes cuts off password devices, and switching back does not bring them back', async () => {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    await setAccessMode(staff, shop.schoolId, 'student_codes');
    await setAccessMode(staff, shop.schoolId, 'school_password');
    expect(await sees(parent, shop.openAlbumId)).toBe(401);
    expect((await parent.get(`/api/schools/${shop.slug}`)).body.unlocked).toBe(false);
  });

  it('a new class password cuts off devices that unlocked the class, not the rest of the school', async () => {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop, { protectedClass: true });
    expect(await sees(parent, shop.protectedAlbumId)).toBe(200);
    expect((await staff.patch(`/api/albums/${shop.protectedAlbumId}`, { password: 'another-class-pass' })).status).toBe(200);
    const locked = await parent.get(`/api/albums/${shop.protectedAlbumId}/photos`);
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('CLASS_LOCKED');
    expect((await parent.get(`/api/images/${shop.protectedPhotoId}/thumbnail`)).status).toBe(404);
    expect(await sees(parent, shop.openAlbumId)).toBe(200);
  });

  describe('renewing', () => {
    let shop: Shop;
    let kids: Student[];
    beforeAll(async () => {
      shop = await createShop(server);
      kids = await addStudents(staff, shop.openAlbumId, ['Kagiso Dube', 'Neo Molefe']);
    });

    it('"Forget this child" keeps the other entries\' end and never makes the cookie last longer', async () => {
      const family = new Client(server.url);
      const first = setCookie(await family.post('/api/students/verify', { code: kids[0]!.code }));
      expect(first).not.toBeNull();
      await family.post('/api/students/verify', { code: kids[1]!.code });
      await sleep(1100);
      const forgotten = await family.delete(`/api/students/${kids[1]!.id}/access`);
      expect(forgotten.status).toBe(200);
      const after = setCookie(forgotten);
      expect(after).not.toBeNull();
      expect(after!.claims.exp).toBe(first!.claims.exp);
      expect(after!.expires).toBeLessThanOrEqual(first!.expires);
      expect(after!.claims.g.st.map(([id, , exp]) => [id, exp])).toEqual([[kids[0]!.id, first!.claims.exp]]);
    });

    it('a browser without a grant is given none by DELETE /api/students/{id}/access', async () => {
      const stranger = new Client(server.url);
      const res = await stranger.delete(`/api/students/${kids[0]!.id}/access`);
      expect(res.status).toBe(200);
      expect(setCookie(res)).toBeNull();
    });

    it('unlocking a class does not renew the school: only the school password does', async () => {
      const parent = new Client(server.url);
      const school = setCookie(await parent.post(`/api/schools/${shop.slug}/verify`, { password: shop.password }))!;
      await sleep(1100);
      const klass = setCookie(await parent.post(`/api/albums/${shop.protectedAlbumId}/verify-password`, { password: shop.classPassword }))!;
      expect(klass.claims.g.s).toEqual(school.claims.g.s);
      expect(klass.claims.g.a.map(([id]) => id)).toEqual([shop.protectedAlbumId]);
      expect(klass.claims.g.a[0]![2]).toBeGreaterThan(school.claims.g.s[0]![2]);
    });
  });

  it('the cookie holds a keyed hash of the code, not a SHA-256 a holder could test guesses against', async () => {
    const shop = await createShop(server);
    const [kid] = await addStudents(staff, shop.openAlbumId, ['Lesedi Tau']);
    const cookie = setCookie(await new Client(server.url).post('/api/students/verify', { code: kid!.code }))!;
    const payload = JSON.stringify(cookie.claims);
    const sha = createHash('sha256').update(kid!.code).digest('base64url');
    expect(payload).not.toContain(sha.slice(0, 8));
    expect(payload).not.toContain(kid!.code);
    const [[id, tag]] = cookie.claims.g.st as [[number, string, number]];
    expect(id).toBe(kid!.id);
    expect(tag).toMatch(/^[\w-]{22}$/);
  });

  describe('a page of another site', () => {
    let shop: Shop;
    let kids: Student[];
    beforeAll(async () => {
      shop = await createShop(server);
      kids = await addStudents(staff, shop.openAlbumId, ['Onalenna Kgosi', 'Boitumelo Sello']);
    });
    const held = async (family: Client) => (await family.get('/api/students/unlocked')).body.map((u: { student: { id: number } }) => u.student.id);

    for (const [what, headers] of [
      ['an Origin of another site', { Origin: 'https://evil.example' }],
      ['the Origin "null"', { Origin: 'null' }],
      ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ] as const) {
      it(`cannot change a family's unlocked children (${what}): 403 CROSS_SITE, no cookie`, async () => {
        const family = await familyWith(server, kids[0]!.code);
        const posts = [
          await family.post('/api/students/verify', { code: kids[1]!.code }, headers),
          await family.request('DELETE', `/api/students/${kids[0]!.id}/access`, undefined, headers),
          await family.post(`/api/schools/${shop.slug}/verify`, { password: shop.password }, headers),
          await family.post(`/api/albums/${shop.openAlbumId}/verify-password`, { password: '' }, headers),
        ];
        for (const [i, res] of posts.entries()) {
          expect(res.status, `request ${i}: ${JSON.stringify(res.body)}`).toBe(403);
          expect(res.body).toMatchObject({ code: 'CROSS_SITE', message: MSG.crossSiteUnlock });
          expect(setCookie(res)).toBeNull();
        }
        expect(await held(family)).toEqual([kids[0]!.id]);
      });
    }

    it("the shop's own pages still unlock (Origin of the shop, Sec-Fetch-Site: same-origin)", async () => {
      const family = new Client(server.url);
      const res = await family.post('/api/students/verify', { code: kids[1]!.code }, { Origin: server.url, 'Sec-Fetch-Site': 'same-origin' });
      expect(res.status).toBe(200);
      expect(await held(family)).toEqual([kids[1]!.id]);
    });
  });
});

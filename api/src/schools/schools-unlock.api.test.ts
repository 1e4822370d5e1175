import { afterAll, beforeAll, expect, it } from 'vitest';
import { MSG } from '../../contract/messages';
import { schoolVerifyResponseSchema } from '../../contract/schools';
import { Client, describeApi, withoutRequestId, startWithStaff, type TestServer } from '../../test/harness';
import { SCHOOL_PASSWORD, createAlbum, createSchool } from './schools.test-helpers';

describeApi('school unlock and the class list (docs/access.md)', () => {
  let server: TestServer;
  let staff: Client;
  beforeAll(async () => ({ server, staff } = await startWithStaff('photographer')));
  afterAll(() => server?.close());

  it('POST /api/schools/:slug/verify: 400 without a password', async () => {
    const school = await createSchool(staff);
    const res = await new Client(server.url).post(`/api/schools/${school.slug}/verify`, {});
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ password: MSG.passwordRequired });
  });

  it('the right password grants the school through an HttpOnly, SameSite=Lax cookie', async () => {
    const school = await createSchool(staff);
    const parent = new Client(server.url);
    const locked = await parent.get(`/api/schools/${school.id}/albums`);
    expect(locked.status).toBe(401);
    expect(locked.body.message).toBe(MSG.schoolAccessRequired);
    expect((await parent.get(`/api/schools/${school.slug}`)).body.unlocked).toBe(false);

    const res = await parent.post(`/api/schools/${school.slug}/verify`, { password: SCHOOL_PASSWORD });
    expect(res.status).toBe(200);
    expect(schoolVerifyResponseSchema.strict().parse(res.body)).toEqual({
      success: true,
      school: { id: school.id, name: school.name, slug: school.slug },
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('gallery_access='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/;\s*httponly/i);
    expect(cookie).toMatch(/;\s*samesite=lax/i);
    expect(cookie).toMatch(/;\s*path=\//i);

    expect((await parent.get(`/api/schools/${school.slug}`)).body.unlocked).toBe(true);
    const albums = await parent.get(`/api/schools/${school.id}/albums`);
    expect(albums.status).toBe(200);
    expect(albums.body).toEqual([]);
  });

  it('a grant for one school does not open another', async () => {
    const first = await createSchool(staff);
    const second = await createSchool(staff);
    const parent = new Client(server.url);
    expect((await parent.post(`/api/schools/${first.slug}/verify`, { password: SCHOOL_PASSWORD })).status).toBe(200);
    expect((await parent.get(`/api/schools/${first.id}/albums`)).status).toBe(200);
    expect((await parent.get(`/api/schools/${second.id}/albums`)).status).toBe(401);
  });

  it('unknown school and wrong password give byte-identical 401 answers', async () => {
    const school = await createSchool(staff);
    const raw = async (slug: string) => {
      const res = await fetch(`${server.url}/api/schools/${slug}/verify`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ password: 'not-the-password' }),
      });
      return { status: res.status, body: await res.text(), cookie: res.headers.getSetCookie() };
    };
    const wrong = await raw(school.slug);
    const unknown = await raw('no-such-school');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(withoutRequestId(unknown.body)).toBe(withoutRequestId(wrong.body));
    expect(JSON.parse(wrong.body).message).toBe(MSG.invalidSchoolPassword);
    expect(wrong.cookie).toEqual([]);
  });

  // Issue 22 point 7: the 11th failure makes this client wait (a short wait, no longer a block).
  it('after 11 wrong passwords from one client the next try gets 429 with Retry-After', async () => {
    const school = await createSchool(staff);
    const parent = new Client(server.url);
    for (let i = 0; i < 11; i++) {
      const res = await parent.post(`/api/schools/${school.slug}/verify`, { password: `wrong-${i}` });
      expect(res.status).toBe(401);
    }
    const limited = await parent.post(`/api/schools/${school.slug}/verify`, { password: SCHOOL_PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(MSG.tooManyAttempts);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.getSetCookie()).toEqual([]);
  });

  it('GET /api/schools/:id/albums: sorted numeric-aware and case-insensitive; staff pass without a cookie', async () => {
    const school = await createSchool(staff);
    for (const name of ['Grade 10', 'grade 2', 'Grade 1', 'Kindergarten', 'Grade 2B']) await createAlbum(staff, school.id, name);
    await createAlbum(staff, school.id, 'Grade 3', 'class-secret');
    const res = await staff.get(`/api/schools/${school.id}/albums`);
    expect(res.status).toBe(200);
    expect(res.body.map((a: { name: string }) => a.name)).toEqual(['Grade 1', 'grade 2', 'Grade 2B', 'Grade 3', 'Grade 10', 'Kindergarten']);
    // Staff see each class's publishing too (docs/access.md, "Draft and published classes").
    expect(res.body[3]).toEqual({ id: expect.any(Number), name: 'Grade 3', schoolId: school.id, hasPassword: true, photoCount: 0, status: 'published', publishAt: null, pendingReview: 0, archived: false });
    expect(Object.keys(res.body[0]).sort()).toEqual(['archived', 'hasPassword', 'id', 'name', 'pendingReview', 'photoCount', 'publishAt', 'schoolId', 'status']);
    expect((await staff.get('/api/schools/999999/albums')).status).toBe(404);
  });
});

import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { MSG } from '../../contract/messages';
import { albumResponseSchema } from '../../contract/albums';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { SCHOOL_PASSWORD, createAlbum, createSchool, customerClient, insertPhotos } from '../schools/schools.test-helpers';

describeApi('albums (classes)', () => {
  let server: TestServer;
  let anon: Client;
  let staff: Client;
  let customer: Client;
  let school: { id: number; slug: string; name: string };

  beforeAll(async () => {
    server = await startTestServer();
    anon = new Client(server.url);
    staff = await staffClient(server, 'photographer');
    customer = await customerClient(server);
    school = await createSchool(staff);
  });
  afterAll(() => server?.close());

  const unlockedParent = async () => {
    const parent = new Client(server.url);
    expect((await parent.post(`/api/schools/${school.slug}/verify`, { password: SCHOOL_PASSWORD })).status).toBe(200);
    return parent;
  };

  it('POST /api/albums: 401, 403, then 400 with the spec texts', async () => {
    expect((await anon.post('/api/albums', { name: 'Grade 1', schoolId: school.id })).status).toBe(401);
    expect((await customer.post('/api/albums', { name: 'Grade 1', schoolId: school.id })).status).toBe(403);

    const noName = await staff.post('/api/albums', { schoolId: school.id });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ message: 'Please enter a class name', errors: { name: 'Please enter a class name' } });

    const noSchool = await staff.post('/api/albums', { name: 'Grade 1' });
    expect(noSchool.status).toBe(400);
    expect(noSchool.body).toMatchObject({ message: 'Please select a school first', errors: { schoolId: 'Please select a school first' } });

    const unknown = await staff.post('/api/albums', { name: 'Grade 1', schoolId: 999999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(MSG.schoolNotFound);
  });

  it('POST /api/albums: creates a class; a password is stored as an argon2id hash', async () => {
    const open = await staff.post('/api/albums', { name: ' Grade 4 ', schoolId: school.id, password: '' });
    expect(open.status).toBe(201);
    expect(albumResponseSchema.strict().parse(open.body)).toEqual({
      id: expect.any(Number),
      name: 'Grade 4',
      schoolId: school.id,
      hasPassword: false,
      photoCount: 0,
      // A class of a school_password school is live at once (the spec's flow: upload, then parents see).
      status: 'published',
      publishAt: null,
      pendingReview: 0,
      archived: false,
    });
    const locked = await staff.post('/api/albums', { name: 'Grade 5', schoolId: String(school.id), password: 'tiny' });
    expect(locked.status).toBe(201);
    expect(locked.body.hasPassword).toBe(true);
    const row = await server.runtime.knex('albums').where({ id: locked.body.id }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.name).toBe('Grade 5');
    expect(await server.runtime.knex('albums').where({ id: open.body.id }).first('password_hash')).toEqual({ password_hash: null });
  });

  it('PATCH /api/albums/:id: absent password keeps it, a new one replaces it, blank or null removes it', async () => {
    const album = await createAlbum(staff, school.id, 'Grade 6', 'first-pass');
    expect((await anon.patch(`/api/albums/${album.id}`, { name: 'X' })).status).toBe(401);
    expect((await customer.patch(`/api/albums/${album.id}`, { name: 'X' })).status).toBe(403);
    const blank = await staff.patch(`/api/albums/${album.id}`, { name: '' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Please enter a class name');
    expect((await staff.patch('/api/albums/999999', { name: 'X' })).status).toBe(404);

    const hash = async () => (await server.runtime.knex('albums').where({ id: album.id }).first('password_hash')).password_hash;
    const original = await hash();
    const renamed = await staff.patch(`/api/albums/${album.id}`, { name: 'Grade 6A' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: album.id, name: 'Grade 6A', hasPassword: true });
    expect(await hash()).toBe(original);

    await staff.patch(`/api/albums/${album.id}`, { password: 'second-pass' });
    const replaced = await hash();
    expect(replaced).not.toBe(original);
    expect(replaced).toMatch(/^\$argon2id\$/);

    const cleared = await staff.patch(`/api/albums/${album.id}`, { name: 'Grade 6A', password: '' });
    expect(cleared.body.hasPassword).toBe(false);
    expect(await hash()).toBeNull();

    await staff.patch(`/api/albums/${album.id}`, { password: 'third-pass' });
    expect((await staff.patch(`/api/albums/${album.id}`, { password: null })).body.hasPassword).toBe(false);
  });

  it('POST /api/albums/:id/verify-password: the school must be unlocked first', async () => {
    const album = await createAlbum(staff, school.id, 'Grade 7', 'class-pass');
    const stranger = new Client(server.url);
    const res = await stranger.post(`/api/albums/${album.id}/verify-password`, { password: 'class-pass' });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
    const open = await createAlbum(staff, school.id, 'Grade 7 open');
    expect((await stranger.post(`/api/albums/${open.id}/verify-password`, { password: 'x' })).status).toBe(401);
    expect((await stranger.get(`/api/schools/${school.id}/albums`)).status).toBe(401);
  });

  it('POST /api/albums/:id/verify-password: wrong gives success false, right grants the class', async () => {
    const album = await createAlbum(staff, school.id, 'Grade 8', 'class-pass');
    const parent = await unlockedParent();
    expect((await parent.post(`/api/albums/${album.id}/verify-password`, {})).status).toBe(400);
    expect((await parent.post('/api/albums/999999/verify-password', { password: 'x' })).status).toBe(404);

    const wrong = await parent.post(`/api/albums/${album.id}/verify-password`, { password: 'nope' });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toEqual({ success: false, message: 'Incorrect password. Please try again.' });

    const right = await parent.post(`/api/albums/${album.id}/verify-password`, { password: 'class-pass' });
    expect(right.status).toBe(200);
    expect(right.body).toEqual({ success: true });
    const cookie = right.headers.getSetCookie().find((c) => c.startsWith('gallery_access='));
    expect(cookie).toMatch(/;\s*httponly/i);
    expect(cookie).toMatch(/;\s*samesite=lax/i);
    // The grant still covers the school after the class was added to it.
    expect((await parent.get(`/api/schools/${school.id}/albums`)).status).toBe(200);
  });

  it('POST /api/albums/:id/verify-password: a class without a password answers success', async () => {
    const album = await createAlbum(staff, school.id, 'Grade 9');
    const parent = await unlockedParent();
    const res = await parent.post(`/api/albums/${album.id}/verify-password`, { password: 'anything' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
  });

  // Issue 22 point 7: the 11th failure makes this client wait (a short wait, no longer a block).
  it('POST /api/albums/:id/verify-password: after the 11th wrong try from one client the next gets 429 with Retry-After', async () => {
    const album = await createAlbum(staff, school.id, 'Grade 11', 'class-pass');
    const parent = await unlockedParent();
    for (let i = 0; i < 11; i++) {
      const res = await parent.post(`/api/albums/${album.id}/verify-password`, { password: `wrong-${i}` });
      expect(res.body.success).toBe(false);
    }
    const limited = await parent.post(`/api/albums/${album.id}/verify-password`, { password: 'class-pass' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('DELETE /api/albums/:id: the ladder; removes the class, its photos and their files', async () => {
    const album = await createAlbum(staff, school.id, 'Grade 12');
    const keys = await insertPhotos(server, album.id, 3);
    expect((await anon.delete(`/api/albums/${album.id}`)).status).toBe(401);
    expect((await customer.delete(`/api/albums/${album.id}`)).status).toBe(403);
    // Admins only (docs/accounts.md, "What a photographer may not do"); the photographer's try changes nothing.
    const refused = await staff.delete(`/api/albums/${album.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ADMIN_ONLY');
    const admin = await staffClient(server, 'admin');
    expect((await admin.delete('/api/albums/999999')).status).toBe(404);

    const removePhoto = vi.spyOn(server.runtime.media, 'removePhoto');
    const res = await admin.delete(`/api/albums/${album.id}`);
    expect(res.status).toBe(200);
    expect(removePhoto.mock.calls.map(([photo]) => photo.storageKey).sort()).toEqual([...keys].sort());
    removePhoto.mockRestore();
    expect(await server.runtime.knex('albums').where({ id: album.id }).first()).toBeUndefined();
    expect(await server.runtime.knex('photos').where({ album_id: album.id })).toEqual([]);
  });
});

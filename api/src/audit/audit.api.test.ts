import { afterAll, beforeAll, expect, it } from 'vitest';
import { AUDIT_MSG, type AuditEntry, type AuditPage } from '../../contract/audit';
import { MSG } from '../../contract/messages';
import type { Student } from '../../contract/students';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { addChildWithPhotos, addPhoto, createAlbum, createSchool, customerClient } from '../../test/fixtures';
import { insertedId } from '../db/knex';

/**
 * Staff roles and the audit log (docs/accounts.md, "What a photographer may not do" and "The audit
 * log"): clearing do not publish, deleting a class, bulk-deleting photos and erasing a guardian are
 * admins' (403 ADMIN_ONLY for a photographer, nothing changed); each, and every erasure, is written
 * with who and when to a log only admins read.
 */
describeApi('staff roles and the audit log', () => {
  let server: TestServer;
  let admin: Client & { userId: number };
  let photographer: Client & { userId: number };
  let school: { id: number; name: string };
  const db = () => server.runtime.knex;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await staffClient(server, 'admin');
    photographer = await staffClient(server, 'photographer');
    school = await createSchool(server, { name: 'Thornhill Primary' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const entries = async (): Promise<AuditEntry[]> => {
    const res = await admin.get<AuditPage>('/api/audit-log?limit=200');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.entries;
  };
  const emailOf = async (id: number) => ((await db()('staff').where({ id }).first('email')) as { email: string }).email;
  const expectAdminOnly = (res: { status: number; body: { code?: string; message?: string } }) => {
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.code).toBe('ADMIN_ONLY');
    expect(res.body.message).toEqual(expect.any(String));
  };

  async function guardian(email: string): Promise<number> {
    const at = Date.now();
    return insertedId(await db()('guardians').insert({ email, consent_version: 'v1', consent_at: at, confirmed_at: at, created_at: at, updated_at: at }));
  }

  it('lets a photographer mark a child do not publish, but only an admin clear it; both are logged', async () => {
    const albumId = await createAlbum(server, school.id, { name: 'Grade 2B' });
    const created = await admin.post<{ students: Student[] }>(`/api/albums/${albumId}/students`, { students: [{ name: 'Onalenna Sebina' }] });
    const child = created.body.students[0]!;

    const set = await photographer.patch<Student>(`/api/students/${child.id}`, { doNotPublish: true });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.doNotPublish).toBe(true);

    const refused = await photographer.patch(`/api/students/${child.id}`, { doNotPublish: false, name: 'Onalenna S.' });
    expectAdminOnly(refused);
    expect(refused.body.message).toBe(AUDIT_MSG.clearDoNotPublishAdminOnly);
    // Nothing half-written: neither the flag nor the name changed.
    const row = (await db()('students').where({ id: child.id }).first('do_not_publish', 'name')) as { do_not_publish: number; name: string };
    expect(Boolean(Number(row.do_not_publish))).toBe(true);
    expect(row.name).toBe('Onalenna Sebina');

    // A photographer may still edit other fields of a do-not-publish child (the flag stays).
    expect((await photographer.patch(`/api/students/${child.id}`, { number: '17', doNotPublish: true })).status).toBe(200);

    const cleared = await admin.patch<Student>(`/api/students/${child.id}`, { doNotPublish: false });
    expect(cleared.status).toBe(200);
    expect(cleared.body.doNotPublish).toBe(false);

    const mine = (await entries()).filter((entry) => entry.targetId === child.id);
    expect(mine.map((entry) => entry.action)).toEqual(['do_not_publish_cleared', 'do_not_publish_set']);
    expect(mine[0]).toMatchObject({
      staff: { id: admin.userId, email: await emailOf(admin.userId), role: 'admin' },
      subject: 'Onalenna Sebina',
      school: { id: school.id, name: 'Thornhill Primary' },
      album: { id: albumId, name: 'Grade 2B' },
    });
    expect(mine[1]).toMatchObject({ staff: { id: photographer.userId, role: 'photographer' } });
    expect(Math.abs(Date.parse(mine[0]!.at) - Date.now())).toBeLessThan(60 * 60 * 1000);
  });

  it('keeps class deletion to admins and logs it with the class and its photo count', async () => {
    const albumId = await createAlbum(server, school.id, { name: 'Grade 5A' });
    await addPhoto(server, albumId, 'IMG_0001.jpg');
    await addPhoto(server, albumId, 'IMG_0002.jpg');

    expectAdminOnly(await photographer.delete(`/api/albums/${albumId}`));
    expect(await db()('albums').where({ id: albumId }).first('id')).toBeTruthy();
    expect(Number(((await db()('photos').where({ album_id: albumId }).count('* as n').first()) as { n: number }).n)).toBe(2);

    const res = await admin.delete(`/api/albums/${albumId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const entry = (await entries()).find((e) => e.action === 'class_deleted' && e.targetId === albumId);
    expect(entry).toMatchObject({ staff: { id: admin.userId }, album: { id: albumId, name: 'Grade 5A' }, school: { id: school.id, name: 'Thornhill Primary' }, count: 2 });
  });

  it('keeps bulk photo deletion to admins and logs one entry per class', async () => {
    const first = await createAlbum(server, school.id, { name: 'Grade 6A' });
    const second = await createAlbum(server, school.id, { name: 'Grade 6B' });
    const ids = [await addPhoto(server, first, 'a.jpg'), await addPhoto(server, first, 'b.jpg'), await addPhoto(server, second, 'c.jpg')];

    expectAdminOnly(await photographer.delete('/api/photos/bulk-delete', { photoIds: ids }));
    expect((await db()('photos').whereIn('id', ids).select('id')).length).toBe(3);

    const res = await admin.delete<{ deletedCount: number }>('/api/photos/bulk-delete', { photoIds: ids });
    expect(res.body.deletedCount).toBe(3);
    const logged = (await entries()).filter((e) => e.action === 'photos_deleted');
    expect(logged.find((e) => e.album?.id === first)).toMatchObject({ count: 2, staff: { id: admin.userId } });
    expect(logged.find((e) => e.album?.id === second)).toMatchObject({ count: 1, staff: { id: admin.userId } });
  });

  it('keeps guardian erasure to admins and logs it without the address', async () => {
    const id = await guardian('kgomotso.parent@family.example');
    expectAdminOnly(await photographer.delete(`/api/guardians/${id}`));
    expect(await db()('guardians').where({ id }).first('id')).toBeTruthy();

    expect((await admin.delete(`/api/guardians/${id}`)).status).toBe(200);
    expect(await db()('guardians').where({ id }).first('id')).toBeUndefined();
    const entry = (await entries()).find((e) => e.action === 'guardian_erased' && e.targetId === id);
    expect(entry).toMatchObject({ staff: { id: admin.userId }, subject: null });
    const stored = JSON.stringify(await db()('audit_log').select());
    expect(stored).not.toContain('kgomotso');
  });

  it('logs a child\'s erasure, and the entry keeps nothing of the child', async () => {
    const albumId = await createAlbum(server, school.id, { name: 'Grade 7C' });
    const photo = await addPhoto(server, albumId, 'p.jpg');
    const studentId = await addChildWithPhotos(server, albumId, 'Boitumelo Kgosi', [photo]);
    expect((await admin.patch(`/api/students/${studentId}`, { doNotPublish: true })).status).toBe(200);
    expect((await admin.post(`/api/students/${studentId}/erase`)).status).toBe(200);

    const logged = (await entries()).filter((e) => e.targetId === studentId && (e.action === 'student_erased' || e.action === 'do_not_publish_set'));
    expect(logged.map((e) => e.action)).toEqual(['student_erased', 'do_not_publish_set']);
    expect(logged[0]).toMatchObject({ count: 1, subject: null, album: { id: albumId, name: 'Grade 7C' }, staff: { id: admin.userId } });
    // The earlier entry no longer names the erased child either.
    expect(logged[1]?.subject).toBeNull();
    expect(JSON.stringify(await db()('audit_log').select())).not.toContain('Boitumelo');
  });

  it('is read by admins only, newest first, a page at a time', async () => {
    expectAdminOnly(await photographer.get('/api/audit-log'));
    expect((await new Client(server.url).get('/api/audit-log')).status).toBe(401);
    const customer = await customerClient(server);
    const asCustomer = await customer.get('/api/audit-log');
    expect(asCustomer.status).toBe(403);
    expect(asCustomer.body.message).toBe(MSG.staffOnly);

    const all = await entries();
    expect(all.length).toBeGreaterThan(3);
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => b - a));
    const page = await admin.get<AuditPage>('/api/audit-log?limit=2');
    expect(page.body.entries.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    expect(page.body.nextBefore).toBe(all[1]!.id);
    const next = await admin.get<AuditPage>(`/api/audit-log?limit=2&before=${page.body.nextBefore}`);
    expect(next.body.entries.map((e) => e.id)).toEqual(all.slice(2, 4).map((e) => e.id));
    expect(page.headers.get('cache-control')).toContain('no-store');

    for (const bad of ['limit=0', 'limit=201', 'limit=abc', 'before=-1', 'before=x']) {
      const res = await admin.get(`/api/audit-log?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
  });
});

import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, describeApi } from '../../test/harness';
import { solidJpeg } from '../../test/images';
import { migratedDatabase, outboxServers, type FreshDatabase } from '../../test/processes';
import { photoForm } from '../photos/photos.test-helpers';
import { schoolInput } from '../schools/schools.test-helpers';

const ADMIN = { email: 'two-processes@example.test', password: 'two-processes-password' };
/** Far more than the one second the rule allows: only a loaded CI machine should come near it. */
const DEADLINE_MS = 20_000;

/**
 * Two server processes on one database (docs/access.md, "The gallery cookie"): a family served by
 * process B, whose grant B keeps, loses the images within a second of a change made through
 * process A. The second itself is the version reader's rule, proved under a fake clock in
 * access-version.unit.test.ts; here B is polled with a generous deadline.
 */
describeApi('images across two processes', () => {
  let db: FreshDatabase;
  let knex: Knex;
  const servers = outboxServers(() => db);
  let a: Client;
  let b: string;

  beforeAll(async () => {
    ({ db, knex } = await migratedDatabase('images-processes-'));
    const secret = randomBytes(32).toString('base64url');
    const env = { INITIAL_ADMIN_EMAIL: ADMIN.email, INITIAL_ADMIN_PASSWORD: ADMIN.password };
    // One after the other: two starting at once on a loaded machine come nearer the start deadline.
    const first = await servers.start(secret, env);
    const second = await servers.start(secret, env);
    const login = await new Client(first.url).post('/api/auth/login', ADMIN);
    expect(login.status).toBe(200);
    a = new Client(first.url, login.body.token as string);
    b = second.url;
  }, 180_000);

  afterAll(async () => {
    servers.killAll();
    await knex?.destroy();
    await db?.drop();
  });

  /** A school with a password, a class with one child (with a code) and one photo of the child, made through A. */
  async function school(slug: string): Promise<{ schoolId: number; photoId: number; studentId: number; code: string }> {
    const created = await a.post('/api/schools', schoolInput({ slug, name: `School ${slug}`, password: 'first-password' }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const schoolId = created.body.id as number;
    const album = await a.post('/api/albums', { schoolId, name: 'Class 1A' });
    expect(album.status, JSON.stringify(album.body)).toBe(201);
    const albumId = album.body.id as number;
    const students = await a.post(`/api/albums/${albumId}/students`, { students: [{ name: 'Kabo Ramotswe' }] });
    expect(students.status).toBe(201);
    const student = students.body.students[0] as { id: number; code: string };
    const upload = await a.post('/api/photos/upload-batch', photoForm([{ name: 'IMG_0001.JPG', bytes: await solidJpeg(800, 600) }], { albumId: String(albumId) }));
    expect(upload.status).toBe(201);
    const photoId = upload.body.photos[0].id as number;
    expect((await a.put('/api/photos/student', { photoIds: [photoId], studentId: student.id })).status).toBe(200);
    return { schoolId, photoId, studentId: student.id, code: student.code };
  }

  /** A family's browser on process B: unlocked with the school password, or with the child's code. */
  async function familyOnB(unlock: { slug: string } | { code: string }): Promise<Client> {
    const family = new Client(b);
    const res = 'slug' in unlock ? await family.post(`/api/schools/${unlock.slug}/verify`, { password: 'first-password' }) : await family.post('/api/students/verify', { code: unlock.code });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return family;
  }

  /** Polls B until the image answers 404; fails past the deadline. */
  async function goneOnB(family: Client, photoId: number): Promise<void> {
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      const status = (await family.get(`/api/images/${photoId}/thumbnail`)).status;
      if (status === 404) return;
      expect(status).toBe(200);
      if (Date.now() > deadline) throw new Error(`process B still served the image ${DEADLINE_MS} ms after the change`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** B serves the image a few times over more than a second, so its grant is kept and its version read again. */
  async function seenOnB(family: Client, photoId: number): Promise<void> {
    for (let i = 0; i < 4; i++) {
      expect((await family.get(`/api/images/${photoId}/thumbnail`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
  }

  it('a new school password made through A cuts the family on B', async () => {
    const { schoolId, photoId } = await school('two-a');
    const family = await familyOnB({ slug: 'two-a' });
    await seenOnB(family, photoId);
    expect((await a.patch(`/api/schools/${schoolId}`, { password: 'second-password' })).status).toBe(200);
    await goneOnB(family, photoId);
  }, 60_000);

  it("a child's new code made through A cuts the family on B", async () => {
    const { studentId, photoId, code } = await school('two-b');
    const family = await familyOnB({ code });
    await seenOnB(family, photoId);
    expect((await a.patch(`/api/students/${studentId}`, { newCode: true })).status).toBe(200);
    await goneOnB(family, photoId);
  }, 60_000);

  it('an erasure made through A cuts the family on B', async () => {
    const { studentId, photoId, code } = await school('two-c');
    const family = await familyOnB({ code });
    await seenOnB(family, photoId);
    expect((await a.post(`/api/students/${studentId}/erase`)).status).toBe(200);
    await goneOnB(family, photoId);
  }, 60_000);

  it('a photo withdrawn through A (back to the tray) is gone on B', async () => {
    const { photoId } = await school('two-d');
    const family = await familyOnB({ slug: 'two-d' });
    await seenOnB(family, photoId);
    expect((await a.put('/api/photos/tray', { photoIds: [photoId] })).status).toBe(200);
    await goneOnB(family, photoId);
  }, 60_000);
});

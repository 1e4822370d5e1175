import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Student } from '../../contract/students';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { createShop, type Shop } from '../../test/shop';
import { addStudents, familyWith } from './students.test-helpers';

/** What the family of an erased child sees (docs/access.md): their device is told the child is gone, and no e-mail is offered for them. */
describeApi('an erased child, as their family sees it (GET /api/students/removed)', () => {
  let server: TestServer;
  let admin: Client & { userId: number };
  let shop: Shop;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await staffClient(server, 'admin');
    shop = await createShop(server);
  });
  afterAll(() => server?.close());

  it('names the children this browser held that were erased; nothing for another family, a child still there or a new code', async () => {
    const [kabo, neo, tumi] = (await addStudents(admin, shop.openAlbumId, ['Kabo Ramotswe', 'Neo Molefe', 'Tumi Dube'])) as [Student, Student, Student];
    const family = await familyWith(server, kabo.code);
    expect((await family.post('/api/students/verify', { code: neo.code })).status).toBe(200);
    const other = await familyWith(server, tumi.code);
    const removed = async (client: Client) => {
      const res = await client.get('/api/students/removed');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      return res.body;
    };
    expect(await removed(family)).toEqual({ studentIds: [] });
    expect(await removed(new Client(server.url))).toEqual({ studentIds: [] });

    expect((await admin.post(`/api/students/${kabo.id}/erase`)).status).toBe(200);
    // A new code is not an erasure: the family is asked for the new code, as before.
    expect((await admin.patch(`/api/students/${tumi.id}`, { newCode: true })).status).toBe(200);

    expect(await removed(family)).toEqual({ studentIds: [kabo.id] });
    expect(await removed(other)).toEqual({ studentIds: [] });
    // The child is gone from what the family holds, and asking to be e-mailed names nothing of them.
    expect(((await family.get('/api/students/unlocked')).body as { student: { id: number } }[]).map((held) => held.student.id)).toEqual([neo.id]);
    const onlyKabo = await familyWith(server, neo.code);
    expect((await admin.post(`/api/students/${neo.id}/erase`)).status).toBe(200);
    const subscribe = await onlyKabo.post('/api/guardians/subscribe', { email: 'kabo.mum@example.test', consent: true });
    expect(subscribe.status).toBe(403);
    expect(subscribe.body.code).toBe('NOTHING_UNLOCKED');
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Student } from '../../contract/students';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { createShop, type Shop } from '../../test/shop';
import { addStudents } from '../students/students.test-helpers';

/** A well-formed code that is (almost surely) nobody's: ZZZZ and n written with the symbols 2 to 9. */
const wrongCode = (n: number) => `ZZZZ${n.toString(8).padStart(4, '0').replace(/[0-7]/g, (d) => String(Number(d) + 2))}`;

/** docs/access.md, "Limits that slow a guesser": a carrier's shared address is slowed, never locked out. */
describeApi('unlock limits that do not lock out a carrier', () => {
  let server: TestServer;
  let shop: Shop;
  let kids: Student[];

  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true' });
    const staff = await staffClient(server, 'photographer');
    shop = await createShop(server);
    kids = await addStudents(staff, shop.openAlbumId, ['Kagiso Dube', 'Neo Molefe']);
  });
  afterAll(() => server?.close());

  const from = (ip: string) => ({ 'X-Forwarded-For': ip });

  it('sixty wrong codes from one carrier address, then the right code opens (was 429, Retry-After 86400)', async () => {
    const carrier = from('41.76.8.15');
    const wrong = await Promise.all(Array.from({ length: 60 }, (_, i) => new Client(server.url).post('/api/students/verify', { code: wrongCode(i) }, carrier)));
    expect(wrong.map((res) => res.status)).toEqual(Array(60).fill(401));
    const right = await new Client(server.url).post('/api/students/verify', { code: kids[0]!.code }, carrier);
    expect(right.status).toBe(200);
  });

  it('300 wrong school passwords from 300 addresses do not lock the school: the right one opens at once', async () => {
    for (let batch = 0; batch < 6; batch++) {
      const wrong = await Promise.all(
        Array.from({ length: 50 }, (_, i) => new Client(server.url).post(`/api/schools/${shop.slug}/verify`, { password: 'not-the-password' }, from(`10.9.${batch}.${i + 1}`))),
      );
      expect(wrong.map((res) => res.status)).toEqual(Array(50).fill(401));
    }
    const parent = await new Client(server.url).post(`/api/schools/${shop.slug}/verify`, { password: shop.password }, from('41.76.9.20'));
    expect(parent.status).toBe(200);
  }, 240_000);

  it('an IPv6 client is counted by its /64: hopping addresses inside it buys no more tries', async () => {
    const code = wrongCode(999);
    for (let i = 1; i <= 11; i++) {
      expect((await new Client(server.url).post('/api/students/verify', { code }, from(`2001:db8:1:2::${i.toString(16)}`))).status).toBe(401);
    }
    const waits = await new Client(server.url).post('/api/students/verify', { code }, from('2001:db8:1:2::ff'));
    expect(waits.status).toBe(429);
    expect(Number(waits.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Another subscriber's /64 is not held up.
    expect((await new Client(server.url).post('/api/students/verify', { code }, from('2001:db8:1:3::1'))).status).toBe(401);
  });
});

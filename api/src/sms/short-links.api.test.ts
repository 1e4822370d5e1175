import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, startTestServer, type TestServer } from '../../test/harness';
import { SHORT_LINK_MSG } from '../../contract/short-links';

/** `PUBLIC_URL/s/{token}` (docs/sms.md, "Short links"). */
describeApi('short links', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 302 to the page on PUBLIC_URL, short enough for an SMS', async () => {
    const link = await server.runtime.services.shortLinks.create('/orders/ABC123?t=secret-token');
    expect(link.startsWith(`${server.config.publicUrl}/s/`)).toBe(true);
    expect(link.length - server.config.publicUrl.length).toBeLessThan(40);
    const token = link.slice(`${server.config.publicUrl}/s/`.length);
    expect(token).toMatch(/^[A-Za-z0-9_-]{1,12}$/);
    const res = await fetch(link, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${server.config.publicUrl}/orders/ABC123?t=secret-token`);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('gives each link its own token', async () => {
    const links = new Set(await Promise.all(Array.from({ length: 20 }, () => server.runtime.services.shortLinks.create('/cart'))));
    expect(links.size).toBe(20);
  });

  it('answers a plain 404 page for an unknown, malformed or expired link', async () => {
    const expired = await server.runtime.services.shortLinks.create('/cart', { expiresAt: Date.now() - 1000 });
    for (const url of [`${server.url}/s/nosuchtoken1`, `${server.url}/s/${'x'.repeat(40)}`, `${server.url}/s/bad%20token`, expired]) {
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const body = await res.text();
      expect(body).toContain(SHORT_LINK_MSG.notFoundTitle);
      expect(body).toContain('href="/"');
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('forgets links a day after they expired (the maintenance job)', async () => {
    const { shortLinks } = server.runtime.services;
    const token = (link: string) => link.slice(link.lastIndexOf('/') + 1);
    const old = await shortLinks.create('/cart', { expiresAt: Date.now() - 2 * 24 * 60 * 60_000 });
    const recent = await shortLinks.create('/cart', { expiresAt: Date.now() - 60_000 });
    const kept = await shortLinks.create('/cart');
    expect(await shortLinks.deleteExpired()).toBeGreaterThanOrEqual(1);
    const left = ((await server.runtime.knex('short_links').whereIn('token', [old, recent, kept].map(token)).select('token')) as { token: string }[]).map((row) => row.token);
    expect(left.sort()).toEqual([recent, kept].map(token).sort());
  });

  it('points only to a path on this site', async () => {
    const { shortLinks } = server.runtime.services;
    for (const target of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'cart', '/cart\r\nLocation: x']) {
      await expect(shortLinks.create(target), target).rejects.toThrow(/path on PUBLIC_URL/);
    }
  });
});

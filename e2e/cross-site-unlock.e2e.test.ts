/**
 * A page of another site cannot change which children a family's browser holds (docs/access.md,
 * "Grants end"): a form it posts, or a fetch it sends, to the unlock endpoints is refused, and the
 * family's gallery still shows the child they unlocked and no other.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Student } from '../api/contract/students';
import { adminToken, api } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

/** Another site's server, answering every path with the page given for it. */
function startOtherSite(pages: Map<string, string>): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(pages.get(req.url ?? '/') ?? '<!doctype html><title>Other site</title>');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as AddressInfo).port, close: () => new Promise<void>((done) => server.close(() => done())) }),
    );
  });
}

/** The children the family's browser holds, as the gallery reads them. */
const held = (page: Page, base: string) =>
  page.evaluate(async (url) => ((await (await fetch(`${url}/api/students/unlocked`)).json()) as { student: { id: number } }[]).map((u) => u.student.id), base);

describeJourney('a page of another site and the unlock endpoints', (env) => {
  let other: { port: number; close: () => Promise<void> };
  const pages = new Map<string, string>();
  beforeAll(async () => {
    other = await startOtherSite(pages);
  });
  afterAll(() => other?.close());

  it("cannot overwrite or add to a family's unlocked children, by a form or a fetch", async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const schools = await api<{ slug: string; albums: { id: number; name: string }[] }[]>(base, '/api/schools', { token });
    const classA = schools.find((school) => school.slug === 'demo-primary')!.albums.find((album) => album.name === 'Class 1A')!;
    const [kagiso, stranger] = (
      await api<{ students: Student[] }>(base, `/api/albums/${classA.id}/students`, { method: 'POST', token, body: { students: [{ name: 'Kagiso Dube' }, { name: 'Stranger Child' }] } })
    ).students as [Student, Student];

    const form = (action: string) =>
      `<!doctype html><title>Win a prize</title><form method="post" action="${action}"><input name="code" value="${stranger.code}"><button>Claim</button></form>`;
    pages.set('/form', form(`${base}/api/students/verify`));
    pages.set('/school-form', `<!doctype html><title>Win</title><form method="post" action="${base}/api/schools/demo-primary/verify"><input name="password" value="wrong-guess"><button>Claim</button></form>`);
    pages.set(
      '/fetch',
      `<!doctype html><title>Win a prize</title><script>
        // The answers are opaque or refused (no CORS); what matters is what the server did with them.
        window.sent = Promise.all([
          fetch('${base}/api/students/verify', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'code=${stranger.code}' }).catch(() => null),
          fetch('${base}/api/students/${kagiso.id}/access', { method: 'DELETE', credentials: 'include' }).catch(() => null),
        ]).then(() => true);
      </script>`,
    );

    const context = await env.browser.newContext();
    const family = await context.newPage();
    await family.goto(`${base}/code/${kagiso.code}`);
    await family.waitForURL(`**/children?student=${kagiso.id}`);
    expect(await held(family, base)).toEqual([kagiso.id]);

    // Another site (localhost is not 127.0.0.1's site) and another origin of the same site (another port).
    for (const origin of [`http://localhost:${other.port}`, `http://127.0.0.1:${other.port}`]) {
      const attacker = await context.newPage();
      await attacker.goto(`${origin}/form`);
      const [posted] = await Promise.all([attacker.waitForNavigation(), attacker.getByRole('button', { name: 'Claim' }).click()]);
      expect(posted?.status(), origin).toBe(403);
      await attacker.goto(`${origin}/school-form`);
      const [school] = await Promise.all([attacker.waitForNavigation(), attacker.getByRole('button', { name: 'Claim' }).click()]);
      expect(school?.status(), origin).toBe(403);
      await attacker.goto(`${origin}/fetch`);
      await attacker.waitForFunction(() => (window as unknown as { sent?: Promise<boolean> }).sent !== undefined);
      await attacker.evaluate(() => (window as unknown as { sent: Promise<boolean> }).sent);
      await attacker.close();
      expect(await held(family, base), origin).toEqual([kagiso.id]);
    }

    // The family's own gallery still shows their child, and only theirs.
    await family.reload();
    await family.getByRole('tab', { name: 'Kagiso Dube', selected: true }).waitFor();
    expect(await family.getByRole('tab', { name: 'Stranger Child' }).count()).toBe(0);
    await context.close();
  });
});

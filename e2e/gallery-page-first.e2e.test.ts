/**
 * A parent following a link straight to a class they unlocked before: the page arrives with the
 * class's answers in it, so the grid shows without a single request to the gallery API, its first
 * row of thumbnails already asked for by the page's head; once the first service worker takes the
 * page over, what the page showed is handed to it, so the class opens offline at once. Code the
 * gallery loads later (its dialogs, the IndexedDB mirror) arrives without a hitch. A staff session
 * in the same browser still gets its own views from the API.
 */
import { expect, it } from 'vitest';
import { openClass, unlockSchool } from './support/journey';
import { describeJourney } from './support/journey-suite';
import { PHONE, loadAllThumbnails, recordWire } from '../scripts/wire-measure';

const GALLERY_API = /\/api\/(schools\/|albums\/\d+\/photos)/;

describeJourney('a gallery link opens from the page itself', (env) => {
  /**
   * A first visit to a class link, then offline. `cpuSlowdown` slows the page's main thread (not the
   * worker's), so the worker takes over before the grid is drawn and while the page head's
   * thumbnails and the answers are still arriving, as on a slow phone.
   */
  async function firstVisitThenOffline(cpuSlowdown = 1) {
    const context = await env.browser.newContext(PHONE);
    // The school was unlocked earlier in this browser: its access cookie is all the page has.
    const unlocked = await context.request.post(`${env.server.url}/api/schools/demo-primary/verify`, { data: { password: 'demo1234' } });
    expect(unlocked.status()).toBe(200);
    const school = (await (await context.request.get(`${env.server.url}/api/schools/demo-primary`)).json()) as { id: number };
    const albums = (await (await context.request.get(`${env.server.url}/api/schools/${school.id}/albums`)).json()) as { id: number; name: string }[];
    const classId = albums.find((album) => album.name === 'Class 1A')!.id;
    const url = `${env.server.url}/school/demo-primary?class=${classId}`;

    const page = await context.newPage();
    if (cpuSlowdown > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    const wire = await recordWire(page);
    await page.goto(url);
    await page.getByRole('heading', { name: 'Demo Primary School' }).waitFor();
    await page.getByRole('button', { name: 'Back to Classes' }).waitFor();
    expect(await loadAllThumbnails(page)).toBe(12);
    const requests = wire.stop();
    expect(requests.filter((r) => GALLERY_API.test(r.url)).map((r) => r.url)).toEqual([]);
    // The first row was asked for by the page's head, before any script ran, and the grid used that
    // answer: each thumbnail crossed the wire once.
    const first = await page.locator('.photo-tile img').first().evaluate((img: HTMLImageElement) => img.currentSrc);
    expect(first).toMatch(/\/thumbnail\?size=small$/);
    const thumbnails = requests.filter((r) => /\/thumbnail/.test(r.url) && r.bytes > 0);
    expect(thumbnails.filter((r) => r.url === first)).toHaveLength(1);
    expect(new Set(thumbnails.map((r) => r.url)).size).toBe(thumbnails.length);
    expect(await page.locator('#gallery-page-data').count()).toBe(0);

    // The first worker takes over and keeps what the page already showed.
    const wire2 = await recordWire(page);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
    const kept = () =>
      page.evaluate(async () => {
        const count = async (name: string) => ((await caches.has(name)) ? (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname) : []);
        return { data: await count('gallery-data-v1'), images: (await count('gallery-images-v1')).length };
      });
    await expect.poll(async () => (await kept()).images, { timeout: 15_000 }).toBe(12);
    // Handed over from the browser's own cache: nothing downloaded again.
    expect(wire2.stop().filter((r) => /\/thumbnail/.test(r.url) && r.bytes > 0)).toEqual([]);
    expect((await kept()).data).toEqual(expect.arrayContaining(['/api/schools/demo-primary', `/api/schools/${school.id}/albums`, `/api/albums/${classId}/photos`]));

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('button', { name: 'Back to Classes' }).waitFor();
    const shown = await page.evaluate(async () => {
      const images = [...document.querySelectorAll<HTMLImageElement>('.photo-tile img')];
      await Promise.all(images.map((img) => img.decode()));
      return images.filter((img) => img.complete && img.naturalWidth > 0).length;
    });
    expect(shown).toBe(12);
    expect(await page.getByText('We could not load the photos of this class', { exact: false }).count()).toBe(0);
    await context.setOffline(false);
    await context.close();
  }

  it('shows the class without asking the gallery API, then opens offline once the worker is in control', () => firstVisitThenOffline());

  it('on a slow phone, keeps the class for offline use although the worker takes over before the grid is drawn', () => firstVisitThenOffline(8));

  it('code a lazy screen loads later arrives: the class password dialog, and the unlock kept in IndexedDB', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const failures: string[] = [];
    page.on('pageerror', (err) => failures.push(err.message));
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') failures.push(message.text());
    });
    await unlockSchool(page, env.server.url, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 10C', 'class10');
    await page.locator('.photo-tile img').first().waitFor();
    // The unlock is mirrored to IndexedDB by code the gallery imports when needed.
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              // The probe never creates the database, and closes its connection at once: an open
              // one would block the app's own upgrade of it (a warning the test counts).
              void indexedDB.databases().then((databases) => {
                if (!databases.some((database) => database.name === 'lesedi-photos')) return resolve(0);
                const open = indexedDB.open('lesedi-photos');
                open.onsuccess = () => {
                  const db = open.result;
                  if (!db.objectStoreNames.contains('unlockedClasses')) {
                    db.close();
                    return resolve(0);
                  }
                  const count = db.transaction('unlockedClasses').objectStore('unlockedClasses').count();
                  count.onsuccess = () => {
                    db.close();
                    resolve(count.result);
                  };
                };
                open.onerror = () => resolve(0);
              });
            }),
        ),
      )
      .toBe(1);
    expect(failures).toEqual([]);
    await context.close();
  });

  it('a staff session in the same browser asks the API for its own view', async () => {
    const context = await env.browser.newContext();
    await context.request.post(`${env.server.url}/api/schools/demo-primary/verify`, { data: { password: 'demo1234' } });
    const login = await context.request.post(`${env.server.url}/api/auth/login`, { data: { email: 'admin@example.com', password: 'photos123' } });
    expect(login.status()).toBe(200);
    const { token, user } = (await login.json()) as { token: string; user: unknown };
    await context.addInitScript(
      ([t, u]) => {
        localStorage.setItem('token', t);
        localStorage.setItem('user', u);
      },
      [token, JSON.stringify(user)] as const,
    );
    const page = await context.newPage();
    const wire = await recordWire(page);
    const served = await page.goto(`${env.server.url}/school/demo-primary`);
    // The page carries the parent's answers (the cookie opens the school)…
    expect(await served?.text()).toContain('id="gallery-page-data"');
    await page.getByRole('heading', { name: 'Demo Primary School' }).waitFor();
    await page.locator('.class-card').first().waitFor();
    // …which the staff session leaves aside, asking the API with its token instead.
    const asked = wire.stop().filter((r) => GALLERY_API.test(r.url));
    expect(asked.map((r) => new URL(r.url).pathname)).toEqual(expect.arrayContaining(['/api/schools/demo-primary']));
    await context.close();
  });
});

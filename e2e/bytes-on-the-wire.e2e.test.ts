/**
 * What a phone receives, seen from Chromium: the main script and a large JSON answer come
 * brotli-compressed, images never are; the home page paints its first screen from the HTML alone
 * (prerendered, styles inline) and hydrates it without replacing it; the page links one manifest;
 * the configured BUSINESS_NAME is in the served HTML, on screen, in the titles and the manifest;
 * on a phone the grid asks for the small thumbnails, and with Save-Data too.
 */
import { expect, it } from 'vitest';
import { openClass, unlockSchool } from './support/journey';
import { describeJourney } from './support/journey-suite';
import { PHONE, isThumbnail, loadAllThumbnails, recordWire } from '../scripts/wire-measure';

const NAME = 'Thuso & Kgosi Photos';

describeJourney(
  'bytes on the wire',
  (env) => {
    it('brotli on the main script and a large JSON answer, none on images', async () => {
      const context = await env.browser.newContext();
      const page = await context.newPage();
      const wire = await recordWire(page);
      await unlockSchool(page, env.server.url, 'Demo Primary School', 'demo1234');
      await openClass(page, 'Class 1A');
      await loadAllThumbnails(page);
      const requests = wire.stop();

      const entry = await page.evaluate(() => document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src ?? '');
      expect(entry).toMatch(/\/assets\/index-[\w-]+\.js$/);
      const main = requests.find((r) => r.url === entry);
      expect(main?.encoding).toBe('br');
      expect(main!.bytes).toBeLessThan(100 * 1024);

      const photos = requests.find((r) => /\/api\/albums\/\d+\/photos$/.test(r.url));
      expect(photos?.status).toBe(200);
      expect(photos?.encoding).toBe('br');
      const raw = await page.evaluate(async (url) => (await (await fetch(url)).text()).length, photos!.url);
      expect(raw).toBeGreaterThan(1024);
      expect(photos!.bytes).toBeLessThan(raw);

      // SVG is text and is compressed like any text; photos are never.
      const images = requests.filter((r) => r.type === 'Image' && r.status === 200 && !r.mimeType.includes('svg'));
      expect(images.filter(isThumbnail).length).toBeGreaterThanOrEqual(12);
      for (const image of images) expect(image.encoding, image.url).toBeNull();
      await context.close();
    });

    it('paints the prerendered home from the HTML alone, then hydrates it in place', async () => {
      // Without JavaScript: the first screen is all there, with the configured name.
      const bare = await env.browser.newContext({ javaScriptEnabled: false });
      const still = await bare.newPage();
      await still.goto(`${env.server.url}/`);
      await still.getByRole('heading', { name: 'Professional School Photography' }).waitFor();
      await still.getByRole('heading', { name: 'Select Your School' }).waitFor();
      await still.getByRole('button', { name: 'Access Photo Gallery' }).waitFor();
      expect(await still.title()).toBe(NAME);
      expect(await still.locator('.logo span').textContent()).toBe(NAME);
      expect(await still.locator('style').count()).toBeGreaterThan(0);
      expect(await still.locator('link[rel="stylesheet"]').count()).toBe(0);
      await still.goto(`${env.server.url}/how-it-works`);
      await still.getByRole('heading', { name: 'How It Works', level: 1 }).waitFor();
      expect(await still.title()).toBe(`How It Works | ${NAME}`);
      await bare.close();

      // With JavaScript: the same heading element survives hydration and nothing moves.
      const context = await env.browser.newContext();
      const page = await context.newPage();
      await page.addInitScript(() => {
        const w = window as unknown as { __shift: number };
        w.__shift = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[]) w.__shift += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        // The first frame shows the whole prerendered screen, never a part the parser had reached.
        requestAnimationFrame(() => {
          (w as unknown as { __firstFrameWhole: boolean }).__firstFrameWhole = document.querySelector('#root footer .copyright') !== null;
        });
        document.addEventListener('DOMContentLoaded', () => {
          const h1 = document.querySelector('h1') as (HTMLElement & { __prerendered?: boolean }) | null;
          if (h1) h1.__prerendered = true;
        });
      });
      await page.goto(`${env.server.url}/`);
      // Hydrated: the persisted-or-fetched school list fills the dropdown.
      await page.getByLabel('School', { exact: true }).locator('option', { hasText: 'Demo Primary School' }).waitFor({ state: 'attached' });
      expect(await page.evaluate(() => (document.querySelector('h1') as HTMLElement & { __prerendered?: boolean }).__prerendered === true)).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { __firstFrameWhole?: boolean }).__firstFrameWhole)).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(0);
      expect(await page.locator('link[rel="manifest"]').count()).toBe(1);
      const manifest = await page.evaluate(async () => (await fetch('/manifest.webmanifest')).json());
      expect(manifest).toMatchObject({ name: NAME, short_name: 'Thuso' });

      // The name on screen in a screen rendered by the client alone, and in its title.
      await page.goto(`${env.server.url}/school/demo-primary`);
      await page.getByRole('heading', { name: 'Demo Primary School' }).waitFor();
      expect(await page.getByRole('link', { name: `${NAME} home` }).count()).toBe(1);
      await expect.poll(() => page.title()).toBe(`Demo Primary School | ${NAME}`);
      expect(await page.locator('.copyright').textContent()).toContain(NAME);
      await context.close();
    });

    it('a phone asks for the small thumbnails, and Save-Data gets them for the full-size address', async () => {
      const context = await env.browser.newContext(PHONE);
      const page = await context.newPage();
      const wire = await recordWire(page);
      await unlockSchool(page, env.server.url, 'Demo Primary School', 'demo1234');
      await openClass(page, 'Class 1A');
      await loadAllThumbnails(page);
      const thumbnails = wire.stop().filter(isThumbnail);
      expect(thumbnails.length).toBe(12);
      for (const thumbnail of thumbnails) expect(thumbnail.url).toMatch(/\/thumbnail\?size=small$/);
      const sides = await page.evaluate(() => [...document.querySelectorAll<HTMLImageElement>('.photo-tile img')].map((img) => Math.max(img.naturalWidth, img.naturalHeight)));
      expect(new Set(sides)).toEqual(new Set([320]));

      // Without a service worker in between, so the header reaches the server as the page sent it.
      // A sharp laptop screen: its grid asks for the full thumbnail.
      const saveData = await env.browser.newContext({ extraHTTPHeaders: { 'Save-Data': 'on' }, serviceWorkers: 'block', deviceScaleFactor: 2 });
      const wide = await saveData.newPage();
      await unlockSchool(wide, env.server.url, 'Demo Primary School', 'demo1234');
      await openClass(wide, 'Class 1A');
      await loadAllThumbnails(wide);
      // A wide screen asks for the full thumbnail; with Save-Data the server answers with the small one.
      const wideSides = await wide.evaluate(() =>
        Promise.all(
          [...document.querySelectorAll<HTMLImageElement>('.photo-tile img')].map(async (img) => {
            const bitmap = await createImageBitmap(await (await fetch(img.currentSrc)).blob());
            return [img.currentSrc, Math.max(bitmap.width, bitmap.height)] as const;
          }),
        ),
      );
      expect(wideSides).toHaveLength(12);
      for (const [src, side] of wideSides) {
        expect(src).toMatch(/\/thumbnail$/);
        expect(side).toBe(320);
      }
      await saveData.close();
      await context.close();
    });
  },
  { serverEnv: { BUSINESS_NAME: NAME } },
);

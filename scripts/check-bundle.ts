/**
 * The wire budget: what a parent's phone really receives. Starts the real server (child process,
 * fresh SQLite, demo data) on the built app, and in Debian's Chromium, as a phone with an empty
 * cache, opens the home page, unlocks the demo school and opens a class. Every request's bytes on
 * the wire (CDP encodedDataLength) are summed: the JS and CSS of that first visit must stay at or
 * under 150 KiB. Then a second visit to the same class must download 0 bytes of scripts and 0 of
 * thumbnails (precache and image cache). Run after `npm run build`; with CI=true a missing
 * Chromium is a failure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CHROMIUM_PATH, hasChromium, launchBrowser } from '../e2e/support/browser';
import { startServer } from '../e2e/support/server';
import { PHONE, attribute, isCode, isThumbnail, kib, loadAllThumbnails, recordWire, recordWorker, sum, type Attributed } from './wire-measure';

const BUDGET_KIB = 150;
const SCHOOL = { name: 'Demo Primary School', slug: 'demo-primary', password: 'demo1234' };
const CLASS_NAME = 'Class 1A';
/** A class of this many photos must fit in the thumbnail budget on a phone. */
const CLASS_PHOTOS = 40;
const THUMBNAIL_BUDGET_KB = 400;

if (!fs.existsSync(path.resolve('pwa/dist/index.html'))) {
  console.error('No pwa/dist/index.html: run `npm run build` first.');
  process.exit(1);
}
if (!hasChromium) {
  // browser.ts already threw under CI=true; elsewhere the check is skipped loudly.
  console.warn(`*** SKIPPING THE WIRE BUDGET: no Chromium at ${CHROMIUM_PATH} ***`);
  process.exit(0);
}

const short = (url: string) => {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`.slice(0, 70);
};

function table(title: string, rows: Attributed[]): void {
  console.log(`\n${title}`);
  for (const row of [...rows].sort((a, b) => b.bytes - a.bytes)) {
    console.log(`${kib(row.bytes).padStart(8)} KiB  ${(row.encoding ?? '-').padEnd(5)} ${row.viaWorker ? 'w' : ' '} ${row.type.padEnd(11)} ${short(row.url)}`);
  }
}

const [server, browser] = await Promise.all([startServer(), launchBrowser()]);
let failed = false;
try {
  const context = await browser.newContext(PHONE);

  // First visit: home, then the gallery with a class open, as a parent would get there.
  const worker = recordWorker(context);
  const page = await context.newPage();
  const first = await recordWire(page);
  await page.goto(`${server.url}/`, { waitUntil: 'load' });
  await page.getByLabel('School', { exact: true }).locator('option', { hasText: SCHOOL.name }).waitFor({ state: 'attached' });
  await page.getByLabel('School', { exact: true }).selectOption({ label: SCHOOL.name });
  await page.getByLabel('School Password').fill(SCHOOL.password);
  await page.getByRole('button', { name: 'Access Photo Gallery' }).click();
  await page.waitForURL(`**/school/${SCHOOL.slug}`);
  await page.getByRole('button', { name: new RegExp(`^${CLASS_NAME}\\b`) }).click();
  await page.getByRole('button', { name: 'Back to Classes' }).waitFor();
  const photos = await loadAllThumbnails(page);
  const galleryUrl = page.url();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.waitForLoadState('networkidle');
  const { used, unused } = attribute(first.stop(), await worker.stop());

  const code = used.filter(isCode);
  const thumbs = used.filter(isThumbnail);
  table('First visit: scripts and styles (w: downloaded by the service worker)', code);
  const codeBytes = sum(code);
  const thumbBytes = sum(thumbs);
  const perThumb = thumbs.length ? thumbBytes / thumbs.length : 0;
  console.log(`\nFirst visit: ${kib(sum(used))} KiB on the wire for what the two pages used (${used.length} addresses)`);
  console.log(`  documents ${kib(sum(used.filter((r) => r.type === 'Document')))} KiB, API ${kib(sum(used.filter((r) => /\/api\/(?!images)/.test(r.url))))} KiB, thumbnails ${kib(thumbBytes)} KiB (${thumbs.length} for ${photos} photos)`);
  console.log(`  precached for later screens and offline use: ${kib(sum(unused))} KiB (${unused.length} files, ${kib(sum(unused.filter(isCode)))} KiB of it code)`);
  console.log(`  a ${CLASS_PHOTOS}-photo class at ${(perThumb / 1000).toFixed(1)} kB per thumbnail: ${((perThumb * CLASS_PHOTOS) / 1000).toFixed(0)} kB (budget ${THUMBNAIL_BUDGET_KB} kB)`);
  console.log(`JS + CSS on the wire, home + class gallery: ${kib(codeBytes)} KiB; budget ${BUDGET_KIB} KiB.`);
  if (codeBytes > BUDGET_KIB * 1024) {
    console.error(`Over budget by ${kib(codeBytes - BUDGET_KIB * 1024)} KiB.`);
    failed = true;
  }
  if (thumbs.length !== photos || perThumb === 0) {
    console.error(`Measured ${thumbs.length} thumbnails (${kib(thumbBytes)} KiB) for ${photos} photos: the measurement is broken.`);
    failed = true;
  }
  if (perThumb * CLASS_PHOTOS > THUMBNAIL_BUDGET_KB * 1000) {
    console.error(`Thumbnails over budget: ${((perThumb * CLASS_PHOTOS) / 1000).toFixed(0)} kB for ${CLASS_PHOTOS} photos.`);
    failed = true;
  }
  await page.close();

  // Repeat visit: the same class again in a new tab of the same browser profile.
  const secondWorker = recordWorker(context);
  const again = await context.newPage();
  const second = await recordWire(again);
  await again.goto(galleryUrl, { waitUntil: 'load' });
  await again.getByRole('button', { name: 'Back to Classes' }).waitFor();
  await loadAllThumbnails(again);
  await again.waitForLoadState('networkidle');
  const repeat = attribute(second.stop(), await secondWorker.stop());
  const everything = [...repeat.used, ...repeat.unused];
  const repeatCode = sum(everything.filter(isCode));
  const repeatThumbs = sum(everything.filter(isThumbnail));
  console.log(`\nRepeat visit: scripts and styles ${kib(repeatCode)} KiB, thumbnails ${kib(repeatThumbs)} KiB, everything ${kib(sum(everything))} KiB.`);
  if (repeatCode > 0 || repeatThumbs > 0) {
    table('Repeat visit: downloads', everything.filter((r) => r.bytes > 0).map((r) => ({ type: 'type' in r ? r.type : 'worker', encoding: 'encoding' in r ? r.encoding : null, viaWorker: !('type' in r), url: r.url, bytes: r.bytes })));
    console.error('A repeat visit must download 0 bytes of scripts and thumbnails.');
    failed = true;
  }
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}
process.exit(failed ? 1 : 0);

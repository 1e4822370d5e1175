/**
 * The wire budget: what a parent's phone really receives. Starts the real server (child process,
 * fresh SQLite, demo data) on the built app, and in Debian's Chromium, as a phone with an empty
 * cache, opens the home page, unlocks the demo school and opens a class. Every request's bytes on
 * the wire (CDP encodedDataLength) are summed, the page's and its service worker's alike (the
 * worker's script, its precache, its runtime fetches): the JS and CSS the phone receives during
 * that first visit must stay at or under 140 KiB, whether or not the two pages used them (docs/performance.md,
 * "What loads when": aim at 135 KiB, so the next parent screens fit), and none of it
 * may be the Reports tab's chart code (checked in the build's files first: uPlot only in the staff-charts
 * chunk, which no parent chunk imports and the worker does not precache). Then a second visit to the same
 * class must download 0 bytes of scripts and 0 of
 * thumbnails (precache and image cache). Last, the main thread while the first screens open on a
 * slow phone (CPU slowed 4x in Chromium, read from its trace; scripts/main-thread.ts): the home
 * page and the class gallery, each opened cold MAIN_THREAD_RUNS times (7 unless told), must each
 * stay within their script-time and blocking-time budgets at the median (docs/performance.md,
 * "The first screen"). Run after `npm run build`; with CI=true a missing Chromium is a failure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CHROMIUM_PATH, hasChromium, launchBrowser } from '../e2e/support/browser';
import { startServer } from '../e2e/support/server';
import { PHONE, attribute, isCode, isThumbnail, kib, loadAllThumbnails, recordWire, recordWorker, sum, type Attributed } from './wire-measure';
import { REFERENCE_BENCHMARK_INDEX, atReferenceSpeed, benchmarkScore, printReport, traceMainThread, type MainThreadReport } from './main-thread';
import { firstTapRuns } from './first-taps';

const BUDGET_KIB = 140;
const SCHOOL = { name: 'Demo Primary School', slug: 'demo-primary', password: 'demo1234' };
const CLASS_NAME = 'Class 1A';
/** A class of this many photos must fit in the thumbnail budget on a phone. */
const CLASS_PHOTOS = 40;
const THUMBNAIL_BUDGET_KB = 400;
/**
 * The main thread on a slow phone (milliseconds with the CPU slowed 4x, the median of the cold
 * opens): the script time each first screen may take, and its blocking time (what its long tasks
 * run beyond 50 ms after the first paint). Set from measurements on the 2-core development
 * machine (docs/performance.md, "The first screen"), 5 cold opens each (the check makes 7):
 * - home: script time 249-370 ms (median 322), blocking 22-68 ms (median 47); with hydration in
 *   one task as before, script time 344-413 ms (median 361) and blocking 125-202 ms (median 145);
 * - the gallery with a class open: script time 426-472 ms (median 442), blocking 55-94 ms (median 59),
 *   as before (its first render was already a transition).
 * In clean-clone CI runs and later checks on the same machine, home measured 312-374 ms of script
 * time and 48-79 ms of blocking, the gallery 388-497 ms and 31-43 ms. The script budgets leave
 * room for a busier machine and catch new work on the first screen; the blocking budgets catch
 * work that stops yielding (home's old 145 ms fails).
 */
const MAIN_THREAD_BUDGET = {
  home: { scriptMs: 500, blockingMs: 120 },
  gallery: { scriptMs: 700, blockingMs: 150 },
};
/**
 * The speed those budgets hold for: Lighthouse's benchmark index of the browser with the CPU
 * slowed 4x. This shared machine's speed changes from day to day: on one day every figure above
 * came out 2.2-2.5 times larger for the same code, with the index at 4x reading 203-330. So each
 * open is preceded by the benchmark in the same browser context, and its figures are read at this
 * index: times scaled by score / 600 before the budgets apply (atReferenceSpeed in
 * scripts/main-thread.ts). 600 is what that day's runs imply for the days above; read at it, that
 * day gave home 231-459 ms of script time and 17-61 ms of blocking, the gallery 318-615 and
 * 35-153 ms, and home with its old one-task hydration 304-534 ms and 70-297 ms (median 195: it
 * fails). The figures as measured are printed beside them.
 */
const MAIN_THREAD_REFERENCE_SCORE = REFERENCE_BENCHMARK_INDEX;
const MAIN_THREAD_RUNS = Number(process.env.MAIN_THREAD_RUNS ?? 7);

if (!fs.existsSync(path.resolve('pwa/dist/index.html'))) {
  console.error('No pwa/dist/index.html: run `npm run build` first.');
  process.exit(1);
}
/**
 * The Reports tab's chart code (uPlot, docs/reports.md "The Reports tab") is staff-only: it must sit
 * in the staff-charts chunk that the staff screens import dynamically, in no file the service
 * worker precaches, and in no file a parent chunk imports, statically or lazily. uPlot is found by
 * its own class names; finding it nowhere means the marker is out of date, which fails too.
 */
const CHART_MARKERS = ['u-cursor-pt', 'u-legend'];
const assetsDir = path.resolve('pwa/dist/assets');
const chartFiles = fs
  .readdirSync(assetsDir)
  .filter((file) => /\.(js|css)$/.test(file) && CHART_MARKERS.some((marker) => fs.readFileSync(path.join(assetsDir, file), 'utf8').includes(marker)))
  .map((file) => `assets/${file}`);
const chartProblems: string[] = [];
if (!chartFiles.some((file) => file.endsWith('.js'))) chartProblems.push(`uPlot (${CHART_MARKERS.join(', ')}) was found in no script: the check's markers are out of date`);
for (const file of chartFiles) if (!/^assets\/staff-charts-[\w-]+\.(js|css)$/.test(file)) chartProblems.push(`${file} holds chart code but is not the staff-charts chunk`);
const workerScript = fs.readFileSync(path.resolve('pwa/dist/sw.js'), 'utf8');
for (const file of chartFiles) if (workerScript.includes(file)) chartProblems.push(`the service worker precaches ${file}`);
const buildManifest = JSON.parse(fs.readFileSync(path.resolve('pwa/dist/.vite/manifest.json'), 'utf8')) as Record<string, { file: string; css?: string[]; imports?: string[]; dynamicImports?: string[] }>;
const chartKeys = Object.entries(buildManifest)
  .filter(([, chunk]) => chartFiles.includes(chunk.file))
  .map(([key]) => key);
for (const [key, chunk] of Object.entries(buildManifest)) {
  if (/^assets\/staff-/.test(chunk.file)) continue;
  if (chartFiles.some((file) => chunk.css?.includes(file))) chartProblems.push(`${chunk.file} loads the chart styles`);
  for (const imported of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) if (chartKeys.includes(imported)) chartProblems.push(`${key} imports the chart chunk`);
}
console.log(`Chart code (uPlot): ${chartFiles.join(', ') || 'not found'}; in no parent chunk and not precached: ${chartProblems.length === 0 ? 'yes' : 'NO'}`);
if (chartProblems.length > 0) {
  for (const problem of chartProblems) console.error(`Chart code: ${problem}.`);
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
  const workerDownloads = await worker.stop();
  const { used, unused } = attribute(first.stop(), workerDownloads);
  const everything = [...used, ...unused];

  // Every script and stylesheet the phone received during the visit: the page's own, the service
  // worker's script, and whatever the worker downloaded for its precache or runtime caches.
  const code = everything.filter((r) => isCode(r) && r.bytes > 0);
  const thumbs = used.filter(isThumbnail);
  table('First visit: scripts and styles on the wire (w: downloaded by the service worker)', code);
  const codeBytes = sum(code);
  const chartDownloads = everything.filter((r) => chartFiles.some((file) => new URL(r.url).pathname === `/${file}`));
  if (chartDownloads.length > 0) {
    console.error(`A parent's first visit downloaded the chart code: ${chartDownloads.map((r) => short(r.url)).join(', ')}`);
    failed = true;
  }
  const thumbBytes = sum(thumbs);
  const perThumb = thumbs.length ? thumbBytes / thumbs.length : 0;
  const workerScript = workerDownloads.filter((d) => new URL(d.url).pathname === '/sw.js');
  console.log(`\nFirst visit: ${kib(sum(everything))} KiB on the wire in all (${everything.length} addresses)`);
  console.log(`  documents ${kib(sum(everything.filter((r) => r.type === 'Document')))} KiB, API ${kib(sum(everything.filter((r) => /\/api\/(?!images)/.test(r.url))))} KiB, thumbnails ${kib(thumbBytes)} KiB (${thumbs.length} for ${photos} photos), other images ${kib(sum(everything.filter((r) => r.type === 'Image' && !isThumbnail(r))))} KiB`);
  console.log(
    `  scripts and styles the two pages ran ${kib(sum(used.filter(isCode)))} KiB; the service worker's script ${kib(sum(workerScript))} KiB; ` +
      `code downloaded but not run in this visit (precached for offline use) ${kib(sum(unused.filter((r) => isCode(r) && new URL(r.url).pathname !== '/sw.js')))} KiB`,
  );
  console.log(`  a ${CLASS_PHOTOS}-photo class at ${(perThumb / 1000).toFixed(1)} kB per thumbnail: ${((perThumb * CLASS_PHOTOS) / 1000).toFixed(0)} kB (budget ${THUMBNAIL_BUDGET_KB} kB)`);
  console.log(`JS + CSS on the wire, home + class gallery, service worker included: ${kib(codeBytes)} KiB; budget ${BUDGET_KIB} KiB.`);
  if (codeBytes > BUDGET_KIB * 1024) {
    console.error(`Over budget by ${kib(codeBytes - BUDGET_KIB * 1024)} KiB.`);
    failed = true;
  }
  // The worker's script is downloaded on every first visit; not seeing it means the worker's
  // downloads were not recorded, and the total above would be too low.
  if (sum(workerScript) === 0) {
    console.error('The service worker\'s own script was not seen on the wire: the measurement of its downloads is broken.');
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
  const repeatAll = [...repeat.used, ...repeat.unused];
  const repeatCode = sum(repeatAll.filter(isCode));
  const repeatThumbs = sum(repeatAll.filter(isThumbnail));
  console.log(`\nRepeat visit: scripts and styles ${kib(repeatCode)} KiB, thumbnails ${kib(repeatThumbs)} KiB, everything ${kib(sum(repeatAll))} KiB.`);
  if (repeatCode > 0 || repeatThumbs > 0) {
    table('Repeat visit: downloads', repeatAll.filter((r) => r.bytes > 0));
    console.error('A repeat visit must download 0 bytes of scripts and thumbnails.');
    failed = true;
  }
  await context.close();

  // The main thread's script time and blocking time on the first screens, each opened cold in a new profile.
  const verify = await fetch(`${server.url}/api/schools/${SCHOOL.slug}/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ password: SCHOOL.password }) });
  const cookies = verify.headers.getSetCookie().map((cookie) => {
    const [pair = ''] = cookie.split(';');
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url: server.url };
  });
  if (!verify.ok || cookies.length === 0) throw new Error(`unlocking ${SCHOOL.name} for the main-thread check failed: ${verify.status}`);
  const screens = [
    { key: 'home' as const, url: `${server.url}/` },
    { key: 'gallery' as const, url: galleryUrl },
  ];
  console.log(`\nMain thread on a slow phone (CPU slowed 4x, read at a benchmark index of ${MAIN_THREAD_REFERENCE_SCORE}), ${MAIN_THREAD_RUNS} cold opens each:`);
  for (const screen of screens) {
    const reports: MainThreadReport[] = [];
    for (let run = 1; run <= MAIN_THREAD_RUNS; run++) {
      const cold = await browser.newContext(PHONE);
      if (screen.key === 'gallery') await cold.addCookies(cookies);
      const score = await benchmarkScore(cold);
      const measured = await traceMainThread(cold, screen.url);
      await cold.close();
      const report = atReferenceSpeed(measured, score, MAIN_THREAD_REFERENCE_SCORE);
      console.log(
        `${screen.key} #${run}: benchmark index ${Math.round(score)} at 4x; as measured, scripts ${Math.round(measured.scriptMs)} ms and blocking ${Math.round(measured.blockingMs)} ms; at index ${MAIN_THREAD_REFERENCE_SCORE}:`,
      );
      printReport(`${screen.key} #${run}`, report);
      reports.push(report);
    }
    const median = (pick: (report: MainThreadReport) => number) => {
      const sorted = reports.map(pick).sort((a, b) => a - b);
      return { median: sorted[sorted.length >> 1] as number, runs: sorted.map(Math.round).join(', ') };
    };
    const budget = MAIN_THREAD_BUDGET[screen.key];
    const script = median((report) => report.scriptMs);
    const blocking = median((report) => report.blockingMs);
    console.log(
      `${screen.key}: script time ${Math.round(script.median)} ms at the median (runs ${script.runs}; budget ${budget.scriptMs} ms), ` +
        `blocking time ${Math.round(blocking.median)} ms (runs ${blocking.runs}; budget ${budget.blockingMs} ms).`,
    );
    if (script.median > budget.scriptMs) {
      console.error(`${screen.key}: over the main-thread script budget by ${Math.round(script.median - budget.scriptMs)} ms.`);
      failed = true;
    }
    if (blocking.median > budget.blockingMs) {
      console.error(`${screen.key}: over the blocking-time budget by ${Math.round(blocking.median - budget.blockingMs)} ms.`);
      failed = true;
    }
  }

  // The first taps on the class gallery, opened cold and left idle (scripts/first-taps.ts): a
  // thumbnail to the photo dialog, "Add to Cart" to the cart badge, each painted within the budget.
  console.log(`\nThe first taps on a slow phone (CPU slowed 4x, read at a benchmark index of ${MAIN_THREAD_REFERENCE_SCORE}), ${MAIN_THREAD_RUNS} cold opens:`);
  const taps = await firstTapRuns(browser, { url: galleryUrl, cookies, runs: MAIN_THREAD_RUNS, reference: MAIN_THREAD_REFERENCE_SCORE, contextOptions: PHONE });
  if (!taps.pass) {
    console.error('The first taps: over the interaction budget (Interaction to Next Paint of the tap, or the paint that shows its result).');
    failed = true;
  }
} finally {
  await browser.close();
  await server.stop();
}
process.exit(failed ? 1 : 0);

/**
 * Lighthouse on what a parent opens first, with the mobile preset (simulated slow 4G, 4x CPU
 * slowdown, a Moto G Power screen) in Debian's Chromium: the home page, and a school gallery with
 * a class open (unlocked through the API first; the access cookie rides along). Each page is
 * measured cold (Lighthouse clears storage and caches first). Prints the performance,
 * accessibility and best-practices scores, LCP, TBT, CLS and the bytes transferred, against the
 * targets. As a reference in the same run, the same pages are measured once more with
 * `Accept-Encoding: identity`, i.e. without the compression the server applies, and the byte
 * ratio is printed. The machine may be shared: scores vary by a few points between runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM_PATH } from '../../e2e/support/browser';
import { startServer } from '../../e2e/support/server';

interface Measured {
  label: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  totalBytes: number;
  scriptBytes: number;
  styleBytes: number;
  imageBytes: number;
  /** Audits of accessibility and best practices that did not pass, and the LCP element. */
  notes: string[];
}

const TARGETS = { performance: 95, accessibility: 100, bestPractices: 100, lcpMs: 2500, tbtMs: 200, cls: 0.1 };
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 1);

async function classUrl(baseUrl: string): Promise<{ url: string; cookie: string }> {
  const verify = await fetch(`${baseUrl}/api/schools/demo-primary/verify`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ password: 'demo1234' }),
  });
  if (!verify.ok) throw new Error(`unlocking the demo school failed: ${verify.status}`);
  const cookie = verify.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const school = (await (await fetch(`${baseUrl}/api/schools/demo-primary`, { headers: { Cookie: cookie } })).json()) as { id: number };
  const albums = (await (await fetch(`${baseUrl}/api/schools/${school.id}/albums`, { headers: { Cookie: cookie } })).json()) as { id: number; name: string }[];
  const album = albums.find((a) => a.name === 'Class 1A');
  if (!album) throw new Error('the demo class Class 1A is missing');
  return { url: `${baseUrl}/school/demo-primary?class=${album.id}`, cookie };
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART); such a run is repeated, twice at most. */
async function measure(label: string, url: string, port: number, headers: Record<string, string>): Promise<Measured> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measureOnce(label, url, port, headers);
    } catch (err) {
      if (attempt >= 3) throw err;
      console.warn(`${label}: ${(err as Error).message}; trying again`);
    }
  }
}

async function measureOnce(label: string, url: string, port: number, headers: Record<string, string>): Promise<Measured> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'], extraHeaders: headers, formFactor: 'mobile' },
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  // The full report, for a closer look (bench-results/ is not committed).
  fs.mkdirSync('bench-results', { recursive: true });
  fs.writeFileSync(path.join('bench-results', `lighthouse-${label.replace(/[^\w]+/g, '-')}.json`), JSON.stringify(lhr));
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const resources = (lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ?? [];
  const bytes = (type: string) => resources.find((item) => item.resourceType === type)?.transferSize ?? 0;
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const notes: string[] = [];
  for (const category of ['accessibility', 'best-practices']) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) notes.push(`${category} fails ${ref.id}: ${audit.title}`);
    }
  }
  const lcpItems = (lhr.audits['largest-contentful-paint-element']?.details as { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined)?.items;
  const lcpNode = lcpItems?.[0]?.items?.[0]?.node?.snippet;
  if (lcpNode) notes.push(`LCP element: ${lcpNode.slice(0, 120)}`);
  const phases = (lcpItems?.[1] as { items?: { phase: string; timing: number }[] } | undefined)?.items ?? [];
  if (phases.length) notes.push(`LCP phases: ${phases.map((p) => `${p.phase} ${Math.round(p.timing)} ms`).join(', ')}`);
  const bootup = (lhr.audits['bootup-time']?.details as { items?: { url: string; total: number; scripting: number }[] } | undefined)?.items ?? [];
  const busiest = bootup.slice(0, 3).map((item) => `${item.url.replace(/^https?:\/\/[^/]+/, '')} ${Math.round(item.total)} ms`);
  if (busiest.length) notes.push(`main thread (4x slower CPU): ${busiest.join(', ')}`);
  return {
    label,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    fcpMs: audit('first-contentful-paint'),
    totalBytes: bytes('total'),
    scriptBytes: bytes('script'),
    styleBytes: bytes('stylesheet'),
    imageBytes: bytes('image'),
    notes,
  };
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

function print(rows: Measured[]): void {
  for (const r of rows) {
    const flag = (ok: boolean) => (ok ? '' : ' (below target)');
    console.log(
      `${r.label.padEnd(34)} perf ${r.performance}${flag(r.performance >= TARGETS.performance)}, a11y ${r.accessibility}${flag(r.accessibility >= TARGETS.accessibility)}, best practices ${r.bestPractices}${flag(r.bestPractices >= TARGETS.bestPractices)}`,
    );
    console.log(
      `${''.padEnd(34)} FCP ${(r.fcpMs / 1000).toFixed(2)} s, LCP ${(r.lcpMs / 1000).toFixed(2)} s${flag(r.lcpMs < TARGETS.lcpMs)}, TBT ${Math.round(r.tbtMs)} ms${flag(r.tbtMs < TARGETS.tbtMs)}, CLS ${r.cls.toFixed(3)}${flag(r.cls < TARGETS.cls)}`,
    );
    console.log(`${''.padEnd(34)} transferred ${kib(r.totalBytes)} (scripts ${kib(r.scriptBytes)}, styles ${kib(r.styleBytes)}, images ${kib(r.imageBytes)})`);
    for (const note of r.notes) console.log(`${''.padEnd(34)} ${note}`);
  }
}

const server = await startServer();
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const gallery = await classUrl(server.url);
  const pages = [
    { label: 'home /', url: `${server.url}/`, headers: {} as Record<string, string> },
    { label: 'gallery, Class 1A open', url: gallery.url, headers: { Cookie: gallery.cookie } },
  ];
  const results: Measured[] = [];
  for (const page of pages) {
    for (let run = 1; run <= RUNS; run++) results.push(await measure(RUNS > 1 ? `${page.label} #${run}` : page.label, page.url, chrome.port, page.headers));
  }
  const reference: Measured[] = [];
  for (const page of pages) {
    reference.push(await measure(`${page.label} (identity encoding)`, page.url, chrome.port, { ...page.headers, 'Accept-Encoding': 'identity' }));
  }
  console.log(`\nLighthouse ${'12'} mobile preset, Chromium at ${CHROMIUM_PATH}; targets: performance >= ${TARGETS.performance}, accessibility and best practices ${TARGETS.accessibility}, LCP < 2.5 s, TBT < 200 ms, CLS < 0.1\n`);
  print(results);
  console.log('\nReference in the same run: the same pages asking for no compression\n');
  print(reference);
  if (RUNS > 1) {
    // Scores move by a few points between runs on a shared machine: the median run of each page.
    console.log(`\nMedian of ${RUNS} runs\n`);
    for (const page of pages) {
      const runs = results.filter((r) => r.label.startsWith(page.label)).sort((a, b) => a.performance - b.performance || b.lcpMs - a.lcpMs);
      const median = runs[Math.floor(runs.length / 2)];
      if (median) print([{ ...median, label: `${page.label} (median)`, notes: [] }]);
    }
  }
  for (const page of pages) {
    const ours = results.find((r) => r.label.startsWith(page.label));
    const ref = reference.find((r) => r.label.startsWith(page.label));
    if (ours && ref) console.log(`${page.label}: ${kib(ours.totalBytes)} vs ${kib(ref.totalBytes)} uncompressed, ratio ${(ours.totalBytes / ref.totalBytes).toFixed(2)}`);
  }
} finally {
  chrome.kill();
  await server.stop();
}

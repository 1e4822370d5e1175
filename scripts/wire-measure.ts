/**
 * Measures what a parent's phone receives, in Debian's Chromium against the real server: bytes on
 * the wire per request (CDP Network.loadingFinished encodedDataLength: compressed body plus
 * headers) for the page, and for the service worker's target its own downloads (its script, its
 * precache, its runtime fetches) beside them.
 * Shared by `npm run build:check` (the budget) and the browser journey that checks it.
 */
import type { BrowserContext, CDPSession, Page, Request } from 'playwright-core';

export interface WireRequest {
  url: string;
  /** CDP resource type: Document, Script, Stylesheet, Image, Fetch, XHR, Manifest, Other … */
  type: string;
  mimeType: string;
  status: number;
  /** Bytes on the wire; 0 when the answer came from the service worker's Cache Storage or the memory cache. */
  bytes: number;
  encoding: string | null;
  /** Where a service worker got its answer: cache-storage, network, http-cache, fallback-code. */
  swSource: string | null;
  fromServiceWorker: boolean;
  fromCache: boolean;
}

/** A phone like Lighthouse's mobile preset (Moto G Power): 412 x 823 CSS pixels at 1.75x. */
export const PHONE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
};

interface Pending {
  url: string;
  type: string;
  mimeType: string;
  status: number;
  encoding: string | null;
  swSource: string | null;
  fromServiceWorker: boolean;
  fromCache: boolean;
}

/** Records every request of one page over CDP until stop(). */
export async function recordWire(page: Page): Promise<{ cdp: CDPSession; stop(): WireRequest[] }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  // Chromium's own HTTP cache is part of a repeat visit, so it stays on.
  const pending = new Map<string, Pending>();
  const done: WireRequest[] = [];
  cdp.on('Network.requestWillBeSent', (event) => {
    pending.set(event.requestId, {
      url: event.request.url,
      type: event.type ?? 'Other',
      mimeType: '',
      status: 0,
      encoding: null,
      swSource: null,
      fromServiceWorker: false,
      fromCache: false,
    });
  });
  cdp.on('Network.responseReceived', (event) => {
    const entry = pending.get(event.requestId);
    if (!entry) return;
    const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    entry.type = event.type ?? entry.type;
    entry.mimeType = event.response.mimeType;
    entry.status = event.response.status;
    entry.encoding = headers['content-encoding'] ?? null;
    entry.fromServiceWorker = Boolean(event.response.fromServiceWorker);
    entry.swSource = event.response.serviceWorkerResponseSource ?? null;
    entry.fromCache = Boolean(event.response.fromDiskCache || event.response.fromPrefetchCache);
  });
  cdp.on('Network.requestServedFromCache', (event) => {
    const entry = pending.get(event.requestId);
    if (entry) entry.fromCache = true;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const entry = pending.get(event.requestId);
    if (!entry) return;
    pending.delete(event.requestId);
    // An answer from the worker's Cache Storage never touched the network, whatever Chromium counts.
    const offWire = entry.fromServiceWorker && entry.swSource === 'cache-storage';
    done.push({ ...entry, bytes: offWire ? 0 : event.encodedDataLength });
  });
  return {
    cdp,
    stop() {
      void cdp.detach().catch(() => undefined);
      return done;
    },
  };
}

export interface WorkerDownload {
  url: string;
  /** Bytes on the wire: headers plus the compressed body; 0 when Chromium's HTTP cache answered. */
  bytes: number;
  encoding: string | null;
}

/**
 * The service worker's own network fetches (its script, its precache, its runtime caches). Playwright
 * attaches to every service worker target over CDP and reports that target's Network events as
 * requests with `serviceWorker()` set, with sizes from Network.loadingFinished (encodedDataLength).
 * Chromium fetches a worker's main script in the browser process and reports only its headers there,
 * so a body the answer declares (Content-Length of the compressed file) but the event left out is
 * added: the phone did receive it.
 */
export function recordWorker(context: BrowserContext): { stop(): Promise<WorkerDownload[]> } {
  const downloads: WorkerDownload[] = [];
  const pendingSizes: Promise<void>[] = [];
  const onFinished = (request: Request) => {
    if (!request.serviceWorker()) return;
    pendingSizes.push(
      (async () => {
        const sizes = await request.sizes();
        const response = await request.response();
        const declared = Number((await response?.headerValue('content-length')) ?? NaN);
        // Playwright splits encodedDataLength into headers and body; 0 in all means Chromium's HTTP
        // cache answered and nothing was downloaded.
        const onWire = sizes.responseHeadersSize + sizes.responseBodySize;
        const complete = onWire > 0 && Number.isFinite(declared) ? Math.max(onWire, sizes.responseHeadersSize + declared) : onWire;
        downloads.push({ url: request.url(), bytes: complete, encoding: (await response?.headerValue('content-encoding')) ?? null });
      })().catch(() => undefined),
    );
  };
  context.on('requestfinished', onFinished);
  return {
    async stop() {
      context.off('requestfinished', onFinished);
      await Promise.all(pendingSizes);
      return downloads;
    },
  };
}

/** The URL a precache download stands for: Workbox adds a revision parameter to unhashed files. */
const withoutRevision = (url: string) => url.replace(/[?&]__WB_REVISION__=[^&]*$/, '');

export interface Attributed {
  url: string;
  type: string;
  encoding: string | null;
  /** Bytes on the wire for this URL, whether the page or its service worker downloaded it. */
  bytes: number;
  /** Downloaded (at least partly) by the service worker rather than the page. */
  viaWorker: boolean;
}

/**
 * Every byte of one visit, each on the wire once: what the page fetched itself (a request the
 * service worker answered cost the page nothing on the wire: the worker's own fetch, if it made
 * one, is among the worker downloads), plus every download of the worker. `used` lists the URLs
 * the page asked for, with all that was downloaded for them by either; `unused` lists what the
 * worker downloaded that the page never asked for (its precache for later screens, its own
 * script). The two together are the visit's total: nothing is left out, nothing counted twice.
 */
export function attribute(page: WireRequest[], worker: WorkerDownload[]): { used: Attributed[]; unused: Attributed[] } {
  const byUrl = new Map<string, number>();
  for (const download of worker) byUrl.set(withoutRevision(download.url), (byUrl.get(withoutRevision(download.url)) ?? 0) + download.bytes);
  const used = new Map<string, Attributed>();
  for (const request of page) {
    const own = request.fromServiceWorker ? 0 : request.bytes;
    const seen = used.get(request.url);
    if (seen) seen.bytes += own;
    else used.set(request.url, { url: request.url, type: request.type, encoding: request.encoding, bytes: own, viaWorker: false });
  }
  for (const entry of used.values()) {
    const fromWorker = byUrl.get(entry.url) ?? 0;
    entry.bytes += fromWorker;
    entry.viaWorker = fromWorker > 0;
    entry.encoding ??= worker.find((download) => withoutRevision(download.url) === entry.url && download.bytes > 0)?.encoding ?? null;
  }
  const unused = new Map<string, Attributed>();
  for (const download of worker) {
    const url = withoutRevision(download.url);
    if (used.has(url)) continue;
    const seen = unused.get(url);
    if (seen) seen.bytes += download.bytes;
    else unused.set(url, { url, type: typeFromPath(url), encoding: download.encoding, bytes: download.bytes, viaWorker: true });
  }
  return { used: [...used.values()], unused: [...unused.values()] };
}

function typeFromPath(url: string): string {
  const path = new URL(url).pathname;
  if (/\.m?js$/.test(path)) return 'Script';
  if (path.endsWith('.css')) return 'Stylesheet';
  if (path.endsWith('.html')) return 'Document';
  if (/\.(png|svg|webp|jpe?g|gif|ico)$/.test(path)) return 'Image';
  return 'Other';
}

export const isCode = (r: { type: string; url: string }) =>
  r.type === 'Script' || r.type === 'Stylesheet' || /\.(js|css)(\?|$)/.test(new URL(r.url).pathname);
export const isThumbnail = (r: { url: string }) => /\/api\/images\/\d+\/thumbnail/.test(r.url);
export const sum = (rows: { bytes: number }[]) => rows.reduce((total, row) => total + row.bytes, 0);
export const kib = (bytes: number) => (bytes / 1024).toFixed(1);

/** Waits until every thumbnail in the grid has loaded, scrolling each into view so lazy ones are asked for. */
export async function loadAllThumbnails(page: Page): Promise<number> {
  const images = page.locator('.photo-tile img');
  await images.first().waitFor();
  const count = await images.count();
  for (let i = 0; i < count; i++) {
    const img = images.nth(i);
    await img.scrollIntoViewIfNeeded();
    await img.evaluate(
      (el: HTMLImageElement) =>
        el.complete && el.naturalWidth > 0
          ? true
          : new Promise((resolve, reject) => {
              el.addEventListener('load', () => resolve(true), { once: true });
              el.addEventListener('error', () => reject(new Error(`thumbnail ${el.currentSrc} failed`)), { once: true });
            }),
    );
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return count;
}

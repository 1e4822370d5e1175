/**
 * Measures what a parent's phone receives, in Debian's Chromium against the real server: bytes on
 * the wire per request (CDP Network.loadingFinished encodedDataLength: compressed body plus
 * headers) for the page, and the service worker's own downloads (its precache) beside them.
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
  bytes: number;
}

/** The service worker's own network fetches (precache, runtime caches), via Playwright's worker events. */
export function recordWorker(context: BrowserContext): { stop(): Promise<WorkerDownload[]> } {
  const downloads: WorkerDownload[] = [];
  const pendingSizes: Promise<void>[] = [];
  const onFinished = (request: Request) => {
    if (!request.serviceWorker()) return;
    pendingSizes.push(
      request
        .sizes()
        .then((sizes) => {
          downloads.push({ url: request.url(), bytes: sizes.responseBodySize + sizes.responseHeadersSize });
        })
        .catch(() => undefined),
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
  /** Downloaded by the service worker (its precache or a runtime cache) rather than the page. */
  viaWorker: boolean;
}

/**
 * What the page used, each URL once, at the bytes it cost on the wire: a request the page made
 * itself counts as measured; one the worker answered counts the worker's own download of that
 * URL (at install, in the precache, or when it fetched it for the page). Worker downloads the
 * page never used are returned apart.
 */
export function attribute(page: WireRequest[], worker: WorkerDownload[]): { used: Attributed[]; unused: WorkerDownload[] } {
  const byUrl = new Map<string, number>();
  for (const download of worker) byUrl.set(withoutRevision(download.url), (byUrl.get(withoutRevision(download.url)) ?? 0) + download.bytes);
  const used = new Map<string, Attributed>();
  for (const request of page) {
    if (used.has(request.url)) continue;
    const fromWorker = request.bytes === 0 ? (byUrl.get(request.url) ?? 0) : 0;
    used.set(request.url, { url: request.url, type: request.type, encoding: request.encoding, bytes: request.bytes + fromWorker, viaWorker: fromWorker > 0 });
  }
  const unused = worker.filter((download) => !used.has(withoutRevision(download.url)));
  return { used: [...used.values()], unused };
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

import fs from 'node:fs';
import path from 'node:path';

/** One chunk of Vite's build manifest (`.vite/manifest.json`), as far as the precache needs it. */
export interface ManifestChunk {
  file: string;
  name?: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
export type BuildManifest = Record<string, ManifestChunk>;

interface PrecacheEntry {
  url: string;
  revision: string | null;
  size: number;
}

/**
 * The scripts and styles a parent's first visit runs: the entry and the given lazy chunks (a source
 * path relative to the app root, e.g. `src/app/mobile-drawer.tsx`, or the name of a chunk grouped
 * by chunks.ts, e.g. `school-gallery`), each with everything they import statically. Other screens
 * are left to the service worker's runtime cache.
 */
export function parentCode(manifest: BuildManifest, screens: readonly string[]): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key] ?? namedChunk(manifest, key);
    if (!chunk) throw new Error(`precache: ${key} is not in the build manifest`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.css?.forEach((css) => files.add(css));
    chunk.imports?.forEach(visit);
  };
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length === 0) throw new Error('precache: the build manifest has no entry');
  for (const [key] of entries) visit(key);
  for (const screen of screens) visit(screen);
  return files;
}

/** A chunk the build grouped from several modules (chunks.ts) is listed by its name. */
function namedChunk(manifest: BuildManifest, name: string): ManifestChunk | undefined {
  const found = Object.values(manifest).filter((chunk) => chunk.name === name && !chunk.isEntry);
  return found.length === 1 ? found[0] : undefined;
}

const CODE = /\.(m?js|css)$/;

/**
 * A Workbox manifest transform: the precache keeps every page, the manifest and the favicon, and of
 * the code only what `parentCode` lists. Everything the service worker precaches is downloaded
 * during a parent's first visit, so code for screens the parent may never open (staff, account,
 * orders, checkout) is fetched when first used instead, and kept then by the runtime cache. The
 * install icons are the browser's to fetch when it installs the app.
 */
export function parentPrecache(outDir: string, screens: readonly string[]) {
  return (entries: PrecacheEntry[]) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as BuildManifest;
    const code = parentCode(manifest, screens);
    const kept = entries.filter(({ url }) => (CODE.test(url) ? code.has(url) : !url.startsWith('icons/')));
    const missing = [...code].filter((file) => !kept.some((entry) => entry.url === file) && !file.endsWith('.css'));
    return { manifest: kept, warnings: missing.map((file) => `precache: ${file} is needed by a parent's first visit but was not found`) };
  };
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parentCode, parentPrecache, type BuildManifest } from './precache';
import { appChunkGroups, staticClosure } from './chunks';

/** A build as Vite lists it: the entry, a gallery grouped with its dependencies, and other screens. */
const manifest: BuildManifest = {
  'index.html': { file: 'assets/index-AAAAAAAA.js', name: 'index', isEntry: true, imports: ['_runtime-BBBBBBBB.js'], css: ['assets/index-CCCCCCCC.css'] },
  '_runtime-BBBBBBBB.js': { file: 'assets/runtime-BBBBBBBB.js' },
  '_school-gallery-DDDDDDDD.js': { file: 'assets/school-gallery-DDDDDDDD.js', name: 'school-gallery', imports: ['_runtime-BBBBBBBB.js', 'index.html'] },
  'src/app/mobile-drawer.tsx': { file: 'assets/mobile-drawer-EEEEEEEE.js', name: 'mobile-drawer', imports: ['_school-gallery-DDDDDDDD.js'] },
  'src/app/routes/checkout.tsx': { file: 'assets/checkout-FFFFFFFF.js', name: 'checkout', imports: ['_fields-GGGGGGGG.js', 'index.html'] },
  '_fields-GGGGGGGG.js': { file: 'assets/fields-GGGGGGGG.js', name: 'fields' },
  'src/app/routes/staff-dashboard.tsx': { file: 'assets/staff-dashboard-HHHHHHHH.js', name: 'staff-dashboard', imports: ['index.html'] },
};

describe('the precache of a parent first visit', () => {
  it('lists the entry and the given screens with what they import, and nothing else', () => {
    const code = parentCode(manifest, ['school-gallery', 'src/app/mobile-drawer.tsx']);
    expect([...code].sort()).toEqual([
      'assets/index-AAAAAAAA.js',
      'assets/index-CCCCCCCC.css',
      'assets/mobile-drawer-EEEEEEEE.js',
      'assets/runtime-BBBBBBBB.js',
      'assets/school-gallery-DDDDDDDD.js',
    ]);
  });

  it('refuses a screen the build does not have, rather than precaching less than the visit runs', () => {
    expect(() => parentCode(manifest, ['school-galery'])).toThrow(/not in the build manifest/);
    expect(() => parentCode(manifest, ['src/app/routes/school-gallery.tsx'])).toThrow(/not in the build manifest/);
  });

  it('keeps pages, the manifest and the favicon, drops other screens and the install icons', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'precache-'));
    fs.mkdirSync(path.join(dir, '.vite'));
    fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
    const entry = (url: string) => ({ url, revision: url.includes('-') ? null : 'r1', size: 100 });
    const all = [
      'index.html',
      'app-shell.html',
      'how-it-works.html',
      'manifest.webmanifest',
      'favicon.svg',
      'icons/icon-512.png',
      'icons/apple-touch-icon.png',
      ...Object.values(manifest).map((chunk) => chunk.file),
    ].map(entry);
    const { manifest: kept, warnings } = parentPrecache(dir, ['school-gallery'])(all);
    expect(kept.map((item) => item.url).sort()).toEqual([
      'app-shell.html',
      'assets/index-AAAAAAAA.js',
      'assets/runtime-BBBBBBBB.js',
      'assets/school-gallery-DDDDDDDD.js',
      'favicon.svg',
      'how-it-works.html',
      'index.html',
      'manifest.webmanifest',
    ]);
    expect(warnings).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the chunks of a parent first visit', () => {
  const graph = {
    modules: {
      '/app/main.tsx': ['/app/router.tsx', '/nm/react.js'],
      '/app/router.tsx': ['/nm/react.js'],
      '/app/routes/school-gallery.tsx': ['/app/features/gallery/photo-grid.tsx', '/nm/react.js', '/nm/radix-dialog.js'],
      '/app/features/gallery/photo-grid.tsx': ['/nm/react.js'],
      '/nm/radix-dialog.js': ['/nm/react.js'],
      '/app/routes/checkout.tsx': ['/nm/zod.js'],
      '/nm/zod.js': [],
      '/nm/react.js': [],
    } as Record<string, string[]>,
    getModuleInfo(id: string) {
      const imports = this.modules[id];
      return imports ? { importedIds: imports } : null;
    },
  };

  it('follows static imports only', () => {
    expect([...staticClosure('/app/routes/school-gallery.tsx', graph)].sort()).toEqual([
      '/app/features/gallery/photo-grid.tsx',
      '/app/routes/school-gallery.tsx',
      '/nm/radix-dialog.js',
      '/nm/react.js',
    ]);
  });

  it('groups the entry first (its libraries apart from its own code), then each lazy chunk under its name', () => {
    const [vendor, entry, gallery, checkout] = appChunkGroups([
      { name: 'school-gallery', modules: ['/app/routes/school-gallery.tsx'] },
      { name: 'checkout', modules: ['/app/routes/checkout.tsx', '/app/features/gallery/photo-grid.tsx'] },
    ]);
    expect(vendor).toMatchObject({ name: 'vendor', tags: ['$initial'] });
    expect((vendor as { test: RegExp }).test.test('/repo/node_modules/react-dom/index.js')).toBe(true);
    expect((vendor as { test: RegExp }).test.test('/repo/pwa/src/main.tsx')).toBe(false);
    expect(entry).toMatchObject({ name: 'index', tags: ['$initial'] });
    expect(vendor!.priority).toBeGreaterThan(entry!.priority);
    // The first lazy chunk takes what it shares with a later one.
    expect(entry!.priority).toBeGreaterThan(gallery!.priority);
    expect(gallery!.priority).toBeGreaterThan(checkout!.priority);
    const inGallery = gallery!.name as (id: string, ctx: typeof graph) => string | null;
    const inCheckout = checkout!.name as (id: string, ctx: typeof graph) => string | null;
    expect(inGallery('/nm/radix-dialog.js', graph)).toBe('school-gallery');
    expect(inGallery('/app/features/gallery/photo-grid.tsx', graph)).toBe('school-gallery');
    expect(inGallery('/nm/zod.js', graph)).toBeNull();
    expect(inCheckout('/nm/zod.js', graph)).toBe('checkout');
    expect(inCheckout('/app/features/gallery/photo-grid.tsx', graph)).toBe('checkout');
    expect(inCheckout('/app/router.tsx', graph)).toBeNull();
  });
});

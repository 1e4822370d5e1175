import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { webManifest } from './pwa/manifest';
import { prerender } from './pwa/prerender-plugin';
import { parentPrecache } from './pwa/precache';
import { appChunkGroups } from './pwa/chunks';
import { BUSINESS_NAME_PLACEHOLDER } from './api/contract/brand';

/**
 * The PWA build (pwa/ -> pwa/dist, served by the API process in production), in two passes run by
 * `npm run build`: an SSR build of src/entry-server.tsx (the prerenderer, into node_modules/.cache),
 * then the client build, which prerenders home and how-it-works into their pages before the
 * service worker's precache is listed. During development `vite` proxies /api and the payment
 * sandbox to the server on PORT (8080).
 */
const api = `http://localhost:${process.env.PORT ?? 8080}`;
const prerenderDir = fileURLToPath(new URL('./node_modules/.cache/prerender', import.meta.url));
const pwaRoot = fileURLToPath(new URL('./pwa', import.meta.url));
const outDir = `${pwaRoot}/dist`;
/**
 * A parent's gallery in two files: the screen, and the dialogs opened on a tap (choosing products,
 * a class password, and the header's menu drawer, which needs the same dialog code), which the first
 * screen does not wait for. One file for the dialogs: every response costs about a kilobyte of
 * headers, more than the drawer's own code.
 */
const galleryChunks = [
  { name: 'school-gallery', modules: [`${pwaRoot}/src/app/routes/school-gallery.tsx`] },
  {
    name: 'gallery-dialogs',
    modules: [`${pwaRoot}/src/features/gallery/photo-dialog.tsx`, `${pwaRoot}/src/features/gallery/class-password-dialog.tsx`, `${pwaRoot}/src/app/mobile-drawer.tsx`],
  },
];
/** What a parent's first visit may run besides the entry (home, how-it-works): precached. */
const parentScreens = galleryChunks.map((chunk) => chunk.name);

export default defineConfig(({ isSsrBuild }) => ({
  root: pwaRoot,
  plugins: [
    react(),
    ...(isSsrBuild
      ? []
      : [
          prerender({
            serverEntry: `${prerenderDir}/entry-server.js`,
            shellFile: 'app-shell.html',
            shellPreload: ['src/app/routes/school-gallery.tsx'],
            routes: [
              { path: '/', file: 'index.html', title: BUSINESS_NAME_PLACEHOLDER },
              { path: '/how-it-works', file: 'how-it-works.html', title: `How It Works | ${BUSINESS_NAME_PLACEHOLDER}` },
            ],
          }),
          VitePWA({
            strategies: 'injectManifest',
            srcDir: 'src',
            filename: 'sw.ts',
            // Registered by the app (pwa/src/app/sw-register.ts, with the update prompt), not by an injected script.
            injectRegister: null,
            manifest: webManifest,
            // The favicon shows in every page; the install icons are fetched by the browser when it
            // installs the app, not downloaded by every parent's first visit.
            includeAssets: ['favicon.svg'],
            includeManifestIcons: false,
            injectManifest: {
              globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
              // Staff screens are never precached: a parent's phone should not download them.
              globIgnores: ['**/staff-*', '**/node_modules/**'],
              // Nor any other code a parent's first visit does not run: what the worker precaches is
              // downloaded during that visit. The rest is kept by the worker's runtime cache when used.
              manifestTransforms: [parentPrecache(outDir, parentScreens)],
            },
            devOptions: { enabled: false },
          }),
        ]),
  ],
  resolve: {
    alias: [
      // react-router only exports its development build (warnings and checks included); a parent's
      // phone gets the production one, which its package ships beside it.
      { find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) },
      { find: /^react-router\/dom$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/dom-export.mjs', import.meta.url)) },
      { find: /^@contract$/, replacement: fileURLToPath(new URL('./api/contract/index.ts', import.meta.url)) },
      { find: /^@contract\/(.*)$/, replacement: `${fileURLToPath(new URL('./api/contract/', import.meta.url))}$1` },
    ],
  },
  build: isSsrBuild
    ? { outDir: prerenderDir, emptyOutDir: true, sourcemap: false }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        sourcemap: true,
        manifest: true,
        // No modulepreload polyfill in the entry: a browser without modulepreload (Safari before 17)
        // still loads every module, only without the early start.
        modulePreload: { polyfill: false },
        rolldownOptions: {
          output: {
            // Few files for a parent's first visit: the entry's code in one, the gallery's in another.
            codeSplitting: { groups: appChunkGroups(galleryChunks) },
          },
        },
      },
  server: { proxy: { '/api': api, '/payweb3': api } },
}));

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { webManifest } from './pwa/manifest';
import { prerender } from './pwa/prerender-plugin';
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

export default defineConfig(({ isSsrBuild }) => ({
  root: fileURLToPath(new URL('./pwa', import.meta.url)),
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
            // Registered by the app through workbox-window (update prompt), not by an injected script.
            injectRegister: null,
            manifest: webManifest,
            includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
            injectManifest: {
              globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
              // Staff screens are never precached: a parent's phone should not download them.
              globIgnores: ['**/staff-*', '**/node_modules/**'],
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
    : { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
  server: { proxy: { '/api': api, '/payweb3': api } },
}));

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { webManifest } from './pwa/manifest';

/**
 * The PWA build (pwa/ -> pwa/dist, served by the API process in production). During development
 * `vite` proxies /api and the payment sandbox to the server on PORT (8080).
 */
const api = `http://localhost:${process.env.PORT ?? 8080}`;

export default defineConfig({
  root: fileURLToPath(new URL('./pwa', import.meta.url)),
  plugins: [
    react(),
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
  ],
  resolve: {
    alias: [
      { find: /^@contract$/, replacement: fileURLToPath(new URL('./api/contract/index.ts', import.meta.url)) },
      { find: /^@contract\/(.*)$/, replacement: `${fileURLToPath(new URL('./api/contract/', import.meta.url))}$1` },
    ],
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
  server: { proxy: { '/api': api, '/payweb3': api } },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The PWA build (pwa/ -> pwa/dist, served by the API process in production). During development
 * `vite` proxies /api and the payment sandbox to the server on PORT (8080).
 */
const api = `http://localhost:${process.env.PORT ?? 8080}`;

export default defineConfig({
  root: fileURLToPath(new URL('./pwa', import.meta.url)),
  plugins: [react()],
  resolve: {
    alias: { '@contract': fileURLToPath(new URL('./api/contract/index.ts', import.meta.url)) },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: { proxy: { '/api': api, '/payweb3': api } },
});

import { BRAND_NAME, BRAND_SHORT_NAME, BRAND_DESCRIPTION, THEME_COLOR, BACKGROUND_COLOR } from './src/lib/brand';

/** The web app manifest (installability: name, icons 192/512 + maskable, standalone, scope). */
export const webManifest = {
  id: '/',
  name: BRAND_NAME,
  short_name: BRAND_SHORT_NAME,
  description: BRAND_DESCRIPTION,
  theme_color: THEME_COLOR,
  background_color: BACKGROUND_COLOR,
  display: 'standalone' as const,
  start_url: '/',
  scope: '/',
  lang: 'en',
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512-maskable.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
};

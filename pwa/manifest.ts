import { BUSINESS_NAME_PLACEHOLDER, BUSINESS_SHORT_NAME_PLACEHOLDER } from '../api/contract/brand';

/**
 * The web app manifest (installability: name, icons 192/512 + maskable, standalone, scope). The
 * names are placeholders the server replaces with BUSINESS_NAME.
 */
export const webManifest = {
  id: '/',
  name: BUSINESS_NAME_PLACEHOLDER,
  short_name: BUSINESS_SHORT_NAME_PLACEHOLDER,
  description: 'View your child’s school photos and order prints and digital copies, delivered to the school.',
  theme_color: '#1e3a8a',
  background_color: '#ffffff',
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

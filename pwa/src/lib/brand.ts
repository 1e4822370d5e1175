/**
 * The business name shown in the header and the manifest. The server's BUSINESS_NAME is not exposed
 * to the client yet (the watermark is drawn server-side), so the PWA carries its own constant.
 */
export const BRAND_NAME = 'Lesedi School Photos';
export const BRAND_SHORT_NAME = 'Lesedi Photos';
export const BRAND_DESCRIPTION = 'View your child’s school photos and order prints and digital copies, delivered to the school.';
export const THEME_COLOR = '#1e3a8a';
export const BACKGROUND_COLOR = '#ffffff';

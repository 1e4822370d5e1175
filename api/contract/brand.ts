/**
 * The business name (BUSINESS_NAME) as the server and the PWA share it. The built HTML and the web
 * app manifest carry placeholders that the server replaces once at start-up with the configured
 * name, so one build serves any studio; the PWA then reads the name back from the page's
 * `business-name` meta tag for its header, footer, titles and the upload preview watermark.
 */
export const DEFAULT_BUSINESS_NAME = 'Lesedi School Photos';
/** The launcher label under the installed app's icon, when the default name is in use. */
export const DEFAULT_BUSINESS_SHORT_NAME = 'Lesedi Photos';
export const BUSINESS_NAME_PLACEHOLDER = '__BUSINESS_NAME__';
export const BUSINESS_SHORT_NAME_PLACEHOLDER = '__BUSINESS_SHORT_NAME__';
export const BUSINESS_NAME_META = 'business-name';

/** A configured name is its own short name (the launcher truncates); the default keeps its short form. */
export function businessShortName(name: string): string {
  return name === DEFAULT_BUSINESS_NAME ? DEFAULT_BUSINESS_SHORT_NAME : name;
}

/**
 * The business name (BUSINESS_NAME) as the server and the PWA share it. The built HTML and the web
 * app manifest carry placeholders that the server replaces once at start-up with the configured
 * name, so one build serves any studio; the PWA then reads the name back from the page's
 * `business-name` meta tag for its header, footer, titles and the upload preview watermark.
 */
export const DEFAULT_BUSINESS_NAME = 'Lesedi School Photos';
/** The launcher label under the installed app's icon, when the default name is in use. */
export const DEFAULT_BUSINESS_SHORT_NAME = 'Lesedi';
/** A home screen shows about this many characters under an icon before cutting the label. */
export const SHORT_NAME_MAX = 12;
export const BUSINESS_NAME_PLACEHOLDER = '__BUSINESS_NAME__';
export const BUSINESS_SHORT_NAME_PLACEHOLDER = '__BUSINESS_SHORT_NAME__';
export const BUSINESS_NAME_META = 'business-name';

/**
 * The installed app's label under its icon (the manifest's `short_name`), at most SHORT_NAME_MAX
 * characters so a home screen shows it whole: the name's leading words that fit ("Thuso & Kgosi
 * Photos" is "Thuso"), never ending on a word without a letter or digit ("&"); a first word longer
 * than that is cut. A name that fits is its own short name; the default has its own short form.
 */
export function businessShortName(name: string): string {
  if (name === DEFAULT_BUSINESS_NAME) return DEFAULT_BUSINESS_SHORT_NAME;
  const trimmed = name.trim();
  if (trimmed.length <= SHORT_NAME_MAX) return trimmed;
  const words = trimmed.split(/\s+/);
  const kept: string[] = [];
  for (const word of words) {
    if ([...kept, word].join(' ').length > SHORT_NAME_MAX) break;
    kept.push(word);
  }
  while (kept.length > 0 && !/[\p{L}\p{N}]/u.test(kept.at(-1) ?? '')) kept.pop();
  return kept.length > 0 ? kept.join(' ') : [...trimmed].slice(0, SHORT_NAME_MAX).join('').trim();
}

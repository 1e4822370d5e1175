import { BUSINESS_NAME_META, BUSINESS_NAME_PLACEHOLDER, DEFAULT_BUSINESS_NAME } from '@contract/brand';

/**
 * The business name (BUSINESS_NAME), read from the page: the server writes the configured name
 * into the `business-name` meta tag of every page it serves. During the build's prerender there
 * is no page yet, so the placeholder is rendered and the server fills it in like the rest.
 */
export function businessName(): string {
  if (typeof document === 'undefined') return BUSINESS_NAME_PLACEHOLDER;
  const content = document.querySelector(`meta[name="${BUSINESS_NAME_META}"]`)?.getAttribute('content')?.trim();
  // The Vite dev server serves the page as built, placeholder and all.
  return content && content !== BUSINESS_NAME_PLACEHOLDER ? content : DEFAULT_BUSINESS_NAME;
}


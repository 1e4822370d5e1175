import { afterEach, describe, expect, it } from 'vitest';
import { BUSINESS_NAME_PLACEHOLDER, DEFAULT_BUSINESS_NAME } from '@contract/brand';
import { businessName } from './brand';

function setMeta(content: string | null): void {
  document.querySelector('meta[name="business-name"]')?.remove();
  if (content === null) return;
  const meta = document.createElement('meta');
  meta.name = 'business-name';
  meta.content = content;
  document.head.append(meta);
}

describe('businessName', () => {
  afterEach(() => setMeta(null));

  it('reads the name the server wrote into the page', () => {
    setMeta('Thuso & Kgosi Photos');
    expect(businessName()).toBe('Thuso & Kgosi Photos');
  });

  it('falls back to the default name without a filled-in meta tag (dev server, tests)', () => {
    setMeta(BUSINESS_NAME_PLACEHOLDER);
    expect(businessName()).toBe(DEFAULT_BUSINESS_NAME);
    setMeta(null);
    expect(businessName()).toBe(DEFAULT_BUSINESS_NAME);
    setMeta('   ');
    expect(businessName()).toBe(DEFAULT_BUSINESS_NAME);
  });
});

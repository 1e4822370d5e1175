import { describe, expect, it } from 'vitest';
import { DEFAULT_BUSINESS_NAME, SHORT_NAME_MAX, businessShortName } from './brand';

describe('businessShortName (the installed app label)', () => {
  it('fits a home screen: 12 characters or fewer, whole words, never a dangling "&"', () => {
    expect(businessShortName(DEFAULT_BUSINESS_NAME)).toBe('Lesedi');
    expect(businessShortName('Thuso & Kgosi Photos')).toBe('Thuso');
    expect(businessShortName('Kagiso & Sons <Photos>')).toBe('Kagiso');
    expect(businessShortName('Mpho Studio Francistown')).toBe('Mpho Studio');
    expect(businessShortName('Photo Co')).toBe('Photo Co');
    expect(businessShortName('Tshwaragano Photographers')).toBe('Tshwaragano');
    expect(businessShortName('Kgalagadiphotographic Works')).toBe('Kgalagadipho');
    for (const name of [DEFAULT_BUSINESS_NAME, 'Thuso & Kgosi Photos', 'Kgalagadiphotographic Works', 'A B C D E F G H I J']) {
      expect(businessShortName(name).length).toBeLessThanOrEqual(SHORT_NAME_MAX);
    }
  });
});

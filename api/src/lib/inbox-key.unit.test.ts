import { describe, expect, it } from 'vitest';
import { inboxKey } from './inbox-key';

describe('inboxKey', () => {
  it('ignores case, spaces around and a +tag, for every provider', () => {
    expect(inboxKey('  Jane.Doe@Example.TEST ')).toBe('jane.doe@example.test');
    expect(inboxKey('jane+spring@example.test')).toBe('jane@example.test');
    expect(inboxKey('jane+a+b@example.test')).toBe('jane@example.test');
  });

  it('ignores the dots Gmail ignores, and reads googlemail.com as Gmail', () => {
    expect(inboxKey('J.a.N.e@gmail.com')).toBe('jane@gmail.com');
    expect(inboxKey('j.ane+x1@googlemail.com')).toBe('jane@gmail.com');
    // Dots elsewhere are part of the address.
    expect(inboxKey('j.ane@example.test')).not.toBe(inboxKey('jane@example.test'));
  });

  it('leaves what is not an ordinary address as typed (lower case)', () => {
    expect(inboxKey('+tag@example.test')).toBe('+tag@example.test');
    expect(inboxKey('NoAt')).toBe('noat');
    expect(inboxKey('...@gmail.com')).toBe('...@gmail.com');
  });
});

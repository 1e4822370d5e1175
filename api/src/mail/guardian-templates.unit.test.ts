import { describe, expect, it } from 'vitest';
import { GUARDIAN_MSG } from '../../contract/messages';
import { followedText, guardianConfirmEmail } from './guardian-templates';

describe('the guardian confirmation e-mail', () => {
  const base = { businessName: 'Lens & Light', confirmUrl: 'https://shop.example/api/guardians/confirm?token=abc', children: { count: 0, schools: [] }, schools: [], marketing: false };

  it('says what the request follows without naming a child', () => {
    expect(followedText({ children: { count: 1, schools: ['Maru-a-Pula'] }, schools: [] })).toBe('the photos of your child at Maru-a-Pula');
    expect(followedText({ children: { count: 2, schools: ['A', 'B'] }, schools: ['C'] })).toBe('the photos of your 2 children at A and B, and the photos of C');
  });

  it('carries the link as a button and as text, escapes the HTML, and mentions marketing only when asked', () => {
    const plain = guardianConfirmEmail({ ...base, schools: ['<Tsholofelo> Primary'] });
    expect(plain.subject).toBe(GUARDIAN_MSG.confirmSubject('Lens & Light'));
    expect(plain.text).toContain(base.confirmUrl);
    expect(plain.html).toContain('&#60;Tsholofelo&#62; Primary');
    expect(plain.html).not.toContain('<Tsholofelo>');
    expect(plain.text).not.toContain(GUARDIAN_MSG.confirmMarketing);
    expect(guardianConfirmEmail({ ...base, schools: ['X'], marketing: true }).text).toContain(GUARDIAN_MSG.confirmMarketing);
  });

  it('refuses a link that is not http(s)', () => {
    expect(() => guardianConfirmEmail({ ...base, schools: ['X'], confirmUrl: 'javascript:alert(1)' })).toThrow(TypeError);
  });
});

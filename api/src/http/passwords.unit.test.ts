import { describe, expect, it } from 'vitest';
import { hashPassword, verifySharedPassword } from './passwords';

describe('verifySharedPassword (docs/accounts.md, "Passwords")', () => {
  it('answers every parent sending the right password at once, and the wrong one as wrong', async () => {
    const hash = await hashPassword('school-pass-1');
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => verifySharedPassword(hash, 'school-pass-1')),
      verifySharedPassword(hash, 'school-pass-2'),
      verifySharedPassword(hash, ''),
    ]);
    expect(answers.slice(0, 20)).toEqual(Array.from({ length: 20 }, () => true));
    expect(answers.slice(20)).toEqual([false, false]);
  });

  it('remembers a success only for the hash it was checked against', async () => {
    const before = await hashPassword('school-pass-3');
    expect(await verifySharedPassword(before, 'school-pass-3')).toBe(true);
    expect(await verifySharedPassword(before, 'school-pass-3')).toBe(true);
    // The school's password changed: the remembered success of the old one opens nothing.
    const after = await hashPassword('school-pass-4');
    expect(await verifySharedPassword(after, 'school-pass-3')).toBe(false);
    expect(await verifySharedPassword(after, 'school-pass-4')).toBe(true);
  });

  it('never remembers a wrong password, and refuses against a missing hash', async () => {
    const hash = await hashPassword('school-pass-5');
    expect(await verifySharedPassword(hash, 'guess')).toBe(false);
    expect(await verifySharedPassword(hash, 'guess')).toBe(false);
    expect(await verifySharedPassword(null, 'school-pass-5')).toBe(false);
    expect(await verifySharedPassword(undefined, '')).toBe(false);
  });
});

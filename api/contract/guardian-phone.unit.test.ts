import { describe, expect, it } from 'vitest';
import { guardianConfirmByTokenSchema } from './guardian-consent';
import { GUARDIAN_PHONE_MSG, guardianConfirmByCodeSchema, guardianConfirmSchemaFor, guardianPhoneCodeSms } from './guardian-phone';
import { SMS_MAX_UNITS, smsSegments } from './sms-text';

describe("the code's SMS (docs/sms.md, \"Consent by phone\")", () => {
  it('starts with the code, has no link, and stays one GSM-7 segment whatever the shop is called', () => {
    for (const name of ['Lesedi Photo Studio', 'Ṱhabo & Sons Photographers of Francistown and Maun (Pty) Ltd', '€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€', '写真スタジオ', '   ']) {
      const text = guardianPhoneCodeSms('012345', name);
      expect(text.startsWith('012345 is your ')).toBe(true);
      expect(text).not.toMatch(/https?:|\/s\//);
      const { encoding, units, segments } = smsSegments(text);
      expect({ encoding, segments }).toEqual({ encoding: 'GSM-7', segments: 1 });
      expect(units).toBeLessThanOrEqual(SMS_MAX_UNITS);
    }
    expect(guardianPhoneCodeSms('012345', 'Ṱhabo Studio')).toContain('Thabo Studio code');
  });
});

describe('POST /api/guardians/confirm bodies', () => {
  it('a code is six digits, spaces and dashes ignored; the number is parsed to E.164', () => {
    expect(guardianConfirmByCodeSchema.parse({ phone: '71 234 567', code: '123 456' })).toEqual({ phone: '+26771234567', code: '123456' });
    expect(guardianConfirmByCodeSchema.parse({ phone: '+267 71 234 567', code: '123-456' }).code).toBe('123456');
    for (const code of ['12345', '1234567', 'abcdef', '']) {
      const result = guardianConfirmByCodeSchema.safeParse({ phone: '71234567', code });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(GUARDIAN_PHONE_MSG.codeRequired);
    }
  });

  it('a body with a token is a link, one with a phone or a code is a code, an empty one is told its token is missing', () => {
    expect(guardianConfirmSchemaFor({ token: 'x' })).toBe(guardianConfirmByTokenSchema);
    expect(guardianConfirmSchemaFor({ phone: '71234567', code: '123456' })).toBe(guardianConfirmByCodeSchema);
    expect(guardianConfirmSchemaFor({ code: '123456' })).toBe(guardianConfirmByCodeSchema);
    expect(guardianConfirmSchemaFor({})).toBe(guardianConfirmByTokenSchema);
    expect(guardianConfirmSchemaFor(null)).toBe(guardianConfirmByTokenSchema);
  });
});

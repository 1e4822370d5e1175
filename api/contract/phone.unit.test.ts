import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PHONE_MSG, maskPhone, parsePhone, phoneField } from './phone';

describe('parsePhone (docs/sms.md, "Phone numbers")', () => {
  it('reads what parents type as one E.164 number', () => {
    for (const typed of ['71 234 567', '+267 71 234 567', '26771234567', '  71234567 ', '0026771234567', '+267-71-234-567', '(+267) 71 234 567']) {
      expect(parsePhone(typed), typed).toEqual({ ok: true, e164: '+26771234567' });
    }
    expect(parsePhone('77 001 122')).toEqual({ ok: true, e164: '+26777001122' });
  });

  it('refuses a Botswana landline, never as a mobile', () => {
    for (const landline of ['391 2345', '+267 391 2345']) {
      const parsed = parsePhone(landline);
      expect(parsed.ok, landline).toBe(false);
      if (!parsed.ok) expect(['not_mobile', 'invalid']).toContain(parsed.reason);
    }
    expect(parsePhone('391 2345')).toEqual({ ok: false, reason: 'not_mobile' });
  });

  it('accepts other countries\' mobiles by their own rules', () => {
    expect(parsePhone('+27 82 123 4567')).toEqual({ ok: true, e164: '+27821234567' });
    expect(parsePhone('+27 11 123 4567')).toEqual({ ok: false, reason: 'not_mobile' });
    expect(parsePhone('+44 7911 123456')).toEqual({ ok: true, e164: '+447911123456' });
  });

  it('refuses what is no phone number', () => {
    for (const bad of ['', '   ', 'abc', '7123', '71 234', '+999 71 234 567', '71234567x', '1'.repeat(60)]) {
      expect(parsePhone(bad), bad).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});

describe('phoneField', () => {
  const schema = z.object({ phone: phoneField });
  it('outputs E.164', () => {
    expect(schema.parse({ phone: ' 71 234 567 ' })).toEqual({ phone: '+26771234567' });
  });
  it('names the field with PHONE_MSG', () => {
    const landline = schema.safeParse({ phone: '391 2345' });
    expect(landline.success).toBe(false);
    expect(landline.error?.issues[0]).toMatchObject({ path: ['phone'], message: PHONE_MSG.notMobile });
    const invalid = schema.safeParse({ phone: 'hello' });
    expect(invalid.error?.issues[0]).toMatchObject({ path: ['phone'], message: PHONE_MSG.invalid });
    const missing = schema.safeParse({});
    expect(missing.error?.issues[0]).toMatchObject({ path: ['phone'], message: PHONE_MSG.required });
    const number = schema.safeParse({ phone: 71234567 });
    expect(number.success).toBe(false);
  });
});

describe('maskPhone', () => {
  it('shows the country code, the first digit and the last two', () => {
    expect(maskPhone('+26771234567')).toBe('+267 7••• ••67');
    expect(maskPhone('+27821234567')).toBe('+27 8 •••• ••67');
  });
});

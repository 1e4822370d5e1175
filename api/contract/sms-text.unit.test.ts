import { describe, expect, it } from 'vitest';
import { SMS_MAX_UNITS, isGsm7, smsSegments, toGsm7 } from './sms-text';

describe('toGsm7 (docs/sms.md, "The SMS text")', () => {
  it('writes names in their closest GSM letters', () => {
    expect(toGsm7('Ṱhabo')).toBe('Thabo');
    expect(toGsm7('Tšhepo Ṅwana ḓivha ḽa')).toBe('Tshepo Nwana divha la');
    expect(toGsm7('Naledi’s “photos” – ready…')).toBe('Naledi\'s "photos" - ready...');
    expect(toGsm7('Ŋwana Łukasz')).toBe('Nwana Lukasz');
  });

  it('keeps what GSM has, its accented letters and extension characters included', () => {
    const text = 'Héllo Zoë, Ñandú @ £5 {x} [y] ~ € | ^ \\ Ä ü à';
    expect(toGsm7('é ñ Ä ü à Ç ø Δ')).toBe('é ñ Ä ü à Ç ø Δ');
    expect(isGsm7(toGsm7(text))).toBe(true);
    expect(toGsm7('{[]}€')).toBe('{[]}€');
  });

  it('makes what has no close letter a "?"', () => {
    expect(toGsm7('Hi 😀 漢')).toBe('Hi ? ?');
    expect(isGsm7(toGsm7('Hi 😀 漢 Ṱ š'))).toBe(true);
  });
});

describe('smsSegments', () => {
  it('counts GSM-7 septets: 160 in one segment, 153 a part beyond', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
    expect(smsSegments('a'.repeat(306))).toEqual({ encoding: 'GSM-7', units: 306, segments: 2 });
    expect(smsSegments('a'.repeat(307))).toEqual({ encoding: 'GSM-7', units: 307, segments: 3 });
    expect(SMS_MAX_UNITS).toBe(160);
  });

  it('counts extension characters double', () => {
    expect(smsSegments('{€}')).toEqual({ encoding: 'GSM-7', units: 6, segments: 1 });
    expect(smsSegments(`${'a'.repeat(158)}€`)).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSegments(`${'a'.repeat(159)}€`)).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
  });

  it('falls back to UCS-2 for the whole message: 70 in one segment, 67 a part beyond', () => {
    expect(smsSegments('Ṱhabo')).toEqual({ encoding: 'UCS-2', units: 5, segments: 1 });
    expect(smsSegments(`Ṱ${'a'.repeat(69)}`)).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsSegments(`Ṱ${'a'.repeat(70)}`)).toEqual({ encoding: 'UCS-2', units: 71, segments: 2 });
    expect(smsSegments(`Ṱ${'a'.repeat(133)}`)).toEqual({ encoding: 'UCS-2', units: 134, segments: 2 });
    expect(smsSegments(`Ṱ${'a'.repeat(134)}`)).toEqual({ encoding: 'UCS-2', units: 135, segments: 3 });
    expect(smsSegments('😀')).toEqual({ encoding: 'UCS-2', units: 2, segments: 1 });
  });
});

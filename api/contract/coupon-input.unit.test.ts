import { describe, expect, it } from 'vitest';
import { couponCreateSchema } from './coupons';
import { COUPON_MSG } from './messages';

/** The first message per field of a coupon as the staff form or the API would send it. */
function refusals(input: Record<string, unknown>): Record<string, string> {
  const result = couponCreateSchema.safeParse({ code: 'SPRING10', kind: 'percent', value: '10', ...input });
  if (result.success) return {};
  const found: Record<string, string> = {};
  for (const issue of result.error.issues) found[issue.path.join('.')] ??= issue.message;
  return found;
}

describe('a coupon refused field by field, in the words staff read', () => {
  it('names a minimum order that is not an amount in Pula', () => {
    expect(refusals({ minOrder: '12.345' })).toEqual({ minOrder: COUPON_MSG.minimumInvalid });
    expect(refusals({ minOrder: 'ten' })).toEqual({ minOrder: COUPON_MSG.minimumInvalid });
    expect(refusals({ minOrder: '' })).toEqual({});
  });

  it('names total uses that are not a whole number of at least 1', () => {
    expect(refusals({ maxUses: 1.5 })).toEqual({ maxUses: COUPON_MSG.maxUsesInvalid });
    expect(refusals({ maxUses: 0 })).toEqual({ maxUses: COUPON_MSG.maxUsesInvalid });
    expect(refusals({ maxUses: 'many' })).toEqual({ maxUses: COUPON_MSG.maxUsesInvalid });
    expect(refusals({ maxUses: null })).toEqual({});
  });

  it('names a percent out of range, an amount of zero, and days out of order', () => {
    expect(refusals({ value: '150' })).toEqual({ value: COUPON_MSG.percentInvalid });
    expect(refusals({ kind: 'amount', value: '0' })).toEqual({ value: COUPON_MSG.amountInvalid });
    expect(refusals({ startsOn: '2026-12-10', endsOn: '2026-12-01' })).toEqual({ endsOn: COUPON_MSG.datesInvalid });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { id } from '../../contract/fields';
import { AppError } from '../http/errors';
import { pathId } from './path-id';

const viaSchema = (raw: string | undefined): number | null => {
  const result = id().safeParse(raw);
  return result.success ? result.data : null;
};
const viaPathId = (raw: string | undefined): number | null => {
  try {
    return pathId(raw, 'gone');
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(404);
    return null;
  }
};

describe('pathId', () => {
  it('accepts exactly what the contract id() field accepts from a path', () => {
    const cases = [undefined, '', '0', '1', '42', ' 7 ', '\t8\n', '007', '2147483647', '2147483648', '9999999999', '12345678901', '-1', '1.5', '1e3', '0x10', '١٢', 'abc', '12abc'];
    for (const raw of cases) expect(viaPathId(raw)).toBe(viaSchema(raw));
    fc.assert(fc.property(fc.string(), (raw) => viaPathId(raw) === viaSchema(raw)));
    fc.assert(fc.property(fc.integer({ min: -10, max: 3_000_000_000 }), (n) => viaPathId(String(n)) === viaSchema(String(n))));
  });
});

import { notFound } from '../http/errors';

/** What the shared `id()` field accepts from text: 1 to 10 digits, surrounding blanks ignored. */
const DIGITS = /^\s*(\d{1,10})\s*$/;
const MAX_ID = 2_147_483_647;

/**
 * An id in a URL path: anything that is not a valid id names nothing, so it is a 404, not a 400.
 * The same rule as the contract's `id()` field, checked without building a schema per request:
 * this runs on every image a gallery shows.
 */
export function pathId(raw: string | undefined, notFoundMessage: string): number {
  const digits = raw === undefined ? undefined : DIGITS.exec(raw)?.[1];
  const value = digits === undefined ? NaN : Number(digits);
  if (!(value >= 1 && value <= MAX_ID)) throw notFound(notFoundMessage);
  return value;
}

/** Field errors from a zod result: the first message per top-level field, as the spec words them. */
import type { ZodError } from 'zod';

export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

export function fieldErrors<K extends string>(error: ZodError): FieldErrors<K> {
  const result: FieldErrors<K> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '') as K;
    if (key && result[key] === undefined) result[key] = issue.message;
  }
  return result;
}

import type { z } from 'zod';
import { MSG } from '../../contract/messages';
import { badRequest } from './errors';

/**
 * Parses input with a contract schema. A failure is a 400 whose message is the first issue's (the
 * product's exact words, from api/contract/messages.ts) and whose `errors` names every failing
 * field (docs/errors.md, "Validation").
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    errors[key] ??= issue.message;
  }
  const first = result.error.issues[0];
  throw badRequest(first?.message ?? MSG.invalidRequest, errors);
}

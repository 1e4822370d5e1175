import { id } from '../../contract/fields';
import { notFound } from '../http/errors';

/** An id in a URL path: anything that is not a valid id names nothing, so it is a 404, not a 400. */
export function pathId(raw: string | undefined, notFoundMessage: string): number {
  const result = id().safeParse(raw);
  if (!result.success) throw notFound(notFoundMessage);
  return result.data;
}

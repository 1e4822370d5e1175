import type { AppContext } from '../../http/context';
import { parseFormPairs, type FormPairs } from './checksum';

const UNPARSED = Symbol.for('unparsedBody');
/** Bigger than any PayWeb3 message (a few hundred bytes); stops a sandbox route buffering junk. */
const MAX_FORM_BYTES = 64 * 1024;

/**
 * The urlencoded request body as ordered pairs. Checksums depend on the posted order, so the raw
 * body is preferred: koa-body 8 with includeUnparsed keeps it on ctx.request.rawBody (older
 * versions used the unparsedBody symbol on the parsed body). Without a body parser the stream is
 * read here; a parsed object without its raw text is re-serialised, which keeps insertion order.
 */
export async function readFormPairs(ctx: AppContext): Promise<FormPairs> {
  if (!ctx.is('application/x-www-form-urlencoded')) return [];
  const request = ctx.request as { rawBody?: unknown; body?: unknown };
  if (typeof request.rawBody === 'string') return parseFormPairs(request.rawBody);
  const body = request.body;
  if (body !== null && typeof body === 'object') {
    const unparsed = (body as Record<symbol, unknown>)[UNPARSED];
    if (typeof unparsed === 'string') return parseFormPairs(unparsed);
    return Object.entries(body as Record<string, unknown>).flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).map((item): [string, string] => [name, String(item ?? '')]),
    );
  }
  if (body === undefined && !ctx.req.readableEnded) return parseFormPairs(await readStream(ctx));
  return [];
}

async function readStream(ctx: AppContext): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_FORM_BYTES) ctx.throw(413, 'Form body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

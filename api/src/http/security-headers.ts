import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers every answer carries, as helmet writes them for `options`
 * (docs/architecture.md, the middleware chain). Our options have no per-request part (no nonce, no
 * function), so helmet is run once, here, on a response that records what it does, and every
 * request then gets those headers set in one loop: an image answer, the most frequent by far, no
 * longer runs helmet's chain of a dozen middleware functions. Options that would make a header
 * differ between requests are refused at start.
 */
export function securityHeaders(options: HelmetOptions): Middleware {
  if (hasFunction(options)) throw new Error('security headers must not be computed per request (a function in the options)');
  const headers: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`security header ${name} is not a fixed text`);
      headers.push([name, value]);
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let outcome: unknown = 'helmet did not finish at once';
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    outcome = err;
  });
  if (outcome !== undefined) throw new Error(`security headers could not be computed once: ${String(outcome)}`);
  return async (ctx, next) => {
    const res = ctx.res;
    for (const [name, value] of headers) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    await next();
  };
}

/** Whether a function is anywhere in the value: helmet calls such a directive on every request. */
function hasFunction(value: unknown): boolean {
  if (typeof value === 'function') return true;
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(hasFunction);
}

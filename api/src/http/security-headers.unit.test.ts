import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import helmet from 'helmet';
import { afterEach, describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers';

const OPTIONS = {
  contentSecurityPolicy: { useDefaults: true, directives: { 'img-src': ["'self'", 'data:'], 'frame-ancestors': ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'same-origin' as const },
  strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
};

const servers: http.Server[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function headersOf(handler: http.RequestListener): Promise<Headers> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await res.arrayBuffer();
  return res.headers;
}

describe('security headers computed once (docs/architecture.md, the middleware chain)', () => {
  it('an answer gets exactly the headers helmet itself writes for the same options, X-Powered-By removed', async () => {
    const byHelmet = await headersOf((req, res) => {
      res.setHeader('X-Powered-By', 'something');
      helmet(OPTIONS)(req, res, () => res.end('ok'));
    });
    const app = new Koa();
    app.use(async (ctx, next) => {
      ctx.res.setHeader('X-Powered-By', 'something');
      await next();
    });
    app.use(securityHeaders(OPTIONS));
    app.use((ctx) => {
      ctx.body = 'ok';
    });
    const ours = await headersOf(app.callback());
    const security = (headers: Headers) =>
      [...headers.entries()].filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'content-type', 'transfer-encoding'].includes(name));
    expect(security(byHelmet).length).toBeGreaterThanOrEqual(10);
    expect(security(ours)).toEqual(security(byHelmet));
    expect(ours.get('x-powered-by')).toBeNull();
    expect(ours.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(ours.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('refuses at start options whose header would differ between requests', () => {
    const perRequest = { contentSecurityPolicy: { directives: { 'script-src': ["'self'", () => "'nonce-abc'"] } } };
    expect(() => securityHeaders(perRequest)).toThrow(/must not be computed per request/);
  });
});

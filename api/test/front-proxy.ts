import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy in front of several server processes, as a load balancer is in production: each
 * request goes to the process `route` picks, and every decision is recorded so a test can show
 * which process answered what.
 */
export interface FrontProxy {
  url: string;
  routed: { method: string; path: string; to: string }[];
  close(): Promise<void>;
}

export async function startFrontProxy(route: (req: IncomingMessage) => { name: string; url: string }): Promise<FrontProxy> {
  const routed: FrontProxy['routed'] = [];
  const server = http.createServer((req, res) => {
    const upstream = route(req);
    routed.push({ method: req.method ?? 'GET', path: req.url ?? '/', to: upstream.name });
    const target = new URL(req.url ?? '/', upstream.url);
    const forward = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SHUTDOWN_MSG } from '../../contract/messages';
import { createDrain, RESTART_RETRY_AFTER_SECONDS } from './drain';

function get(port: number, agent: http.Agent, path = '/'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

describe('the drain of a stopping server (docs/operations.md, "Stopping cleanly")', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('lets a request under way finish without keep-alive, answers a later one on a kept-alive connection 503, and says when all are done', async () => {
    const drain = createDrain();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    server = http.createServer(
      drain.wrap(async (req, res) => {
        if (req.url === '/slow') await held;
        res.end('done');
      }),
    );
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const slowAgent = new http.Agent({ keepAlive: true });

    expect((await get(port, agent)).status).toBe(200);
    const slow = get(port, slowAgent, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(drain.inFlight).toBe(1);

    drain.begin();
    // The kept-alive connection is reused: refused with the JSON 503, and closed.
    const refused = await get(port, agent);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe(String(RESTART_RETRY_AFTER_SECONDS));
    expect(refused.headers.connection).toBe('close');
    expect(JSON.parse(refused.body)).toEqual({ message: SHUTDOWN_MSG.restarting, code: 'SERVER_RESTARTING' });

    expect(await drain.idle(50)).toBe(false);
    const idle = drain.idle(5000);
    release();
    const answered = await slow;
    expect(answered.body).toBe('done');
    expect(answered.headers.connection).toBe('close');
    expect(await idle).toBe(true);
    expect(drain.inFlight).toBe(0);
    agent.destroy();
    slowAgent.destroy();
  });
});

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, inRequest, prettyLogStream, wantsPrettyLogs } from './logger';

// eslint-disable-next-line no-control-regex
const plain = (line: string) => line.replace(/\u001b\[[0-9;]*m/g, '');

describe('the server log', () => {
  it('is pretty only outside production and on a terminal', () => {
    expect(wantsPrettyLogs('development', { isTTY: true })).toBe(true);
    expect(wantsPrettyLogs('development', { isTTY: false })).toBe(false);
    expect(wantsPrettyLogs('development', {})).toBe(false);
    expect(wantsPrettyLogs('production', { isTTY: true })).toBe(false);
  });

  it('puts the request id on every line written while serving a request, from any logger', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const other = logger.child({ job: 'outbox' });
    logger.info('before');
    await inRequest('req-1', async () => {
      logger.info('in the route');
      await new Promise((resolve) => setTimeout(resolve, 5));
      other.warn({ path: '/x' }, 'in a service, after waiting');
    });
    logger.info('after');
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((entry) => [entry.msg, entry.requestId])).toEqual([
      ['before', undefined],
      ['in the route', 'req-1'],
      ['in a service, after waiting', 'req-1'],
      ['after', undefined],
    ]);
  });

  it('pretty-prints a request as one line: its id, method, path, status and time', async () => {
    const out: string[] = [];
    const terminal = new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('info', prettyLogStream(terminal));
    inRequest('0b7c4c1e-request', () => logger.info({ method: 'GET', path: '/api/schools', status: 200, ms: 12 }, 'GET /api/schools 200 12 ms'));
    logger.warn({ schools: 2 }, 'demo data created');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const text = plain(out.join(''));
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: 0b7c4c1e-request GET \/api\/schools 200 12 ms$/);
    expect(lines[1]).toMatch(/WARN: demo data created \{"schools":2\}$/);
  });
});

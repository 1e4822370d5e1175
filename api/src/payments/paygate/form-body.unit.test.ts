import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import type { AppContext, AppState } from '../../http/context';
import { readFormPairs } from './form-body';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function echo(withParser: boolean, body: string, type = 'application/x-www-form-urlencoded') {
  const app = new Koa<AppState>();
  if (withParser) app.use(koaBody({ urlencoded: true, json: true, multipart: false, includeUnparsed: true }));
  app.use(async (ctx) => {
    ctx.body = await readFormPairs(ctx as AppContext);
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'Content-Type': type }, body });
  return res.json();
}

describe('readFormPairs', () => {
  const body = 'Z=1&A=two+words&M=%26%3D&Z=2&EMPTY=';
  const expected = [['Z', '1'], ['A', 'two words'], ['M', '&='], ['Z', '2'], ['EMPTY', '']];

  it('keeps posted order and repeats behind koa-body with includeUnparsed (production set-up)', async () => {
    expect(await echo(true, body)).toEqual(expected);
  });

  it('reads the stream itself when no body parser ran', async () => {
    expect(await echo(false, body)).toEqual(expected);
  });

  it('ignores bodies that are not urlencoded', async () => {
    expect(await echo(true, '{"A":"1"}', 'application/json')).toEqual([]);
  });
});

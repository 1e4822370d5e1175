import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { HARDENING_MSG, MSG } from '../../contract/messages';
import type { Client} from '../../test/harness';
import { describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { rawRequest } from '../../test/raw-http';

/** Hostile and malformed requests get a clear 4xx JSON answer, never a 500. */
describeApi('hardening: no 5xx for a client mistake', () => {
  let server: TestServer;
  let staff: Client & { userId: number };

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'admin');
  });
  afterAll(() => server?.close());

  describe('unusual methods', () => {
    for (const method of ['PROPFIND', 'MKCOL', 'TRACE', 'LOCK', 'COPY', 'MOVE', 'SEARCH', 'REPORT']) {
      it(`${method} /api/schools is 501 JSON with Allow`, async () => {
        const res = await rawRequest(server.url, method, '/api/schools');
        expect(res.status).toBe(501);
        expect(res.headers['content-type']).toContain('application/json');
        expect(res.json()).toEqual({ message: HARDENING_MSG.methodNotImplemented(method), code: 'NOT_IMPLEMENTED', requestId: res.headers['x-request-id'] });
        expect(res.headers.allow?.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
      });
    }

    it('a known method a path does not take is 405 JSON with Allow', async () => {
      const res = await rawRequest(server.url, 'PUT', '/api/schools');
      expect(res.status).toBe(405);
      expect(res.json()).toEqual({ message: HARDENING_MSG.methodNotAllowed('PUT'), code: 'METHOD_NOT_ALLOWED', requestId: res.headers['x-request-id'] });
      expect(res.headers.allow?.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
      const order = await rawRequest(server.url, 'DELETE', '/api/orders/ABCDEFGHJK');
      expect(order.status).toBe(405);
      expect(order.headers.allow?.split(', ').sort()).toEqual(['GET', 'HEAD', 'PUT']);
    });

    it('an unusual method on an unknown API path is a 501 JSON too; a known method there a 404', async () => {
      const res = await rawRequest(server.url, 'PROPFIND', '/api/no-such-thing');
      expect(res.status).toBe(501);
      expect(res.json()).toEqual({ message: HARDENING_MSG.methodNotImplemented('PROPFIND'), code: 'NOT_IMPLEMENTED', requestId: res.headers['x-request-id'] });
      const get = await rawRequest(server.url, 'GET', '/api/no-such-thing');
      expect(get.status).toBe(404);
      expect(get.json()).toMatchObject({ message: MSG.notFound });
    });
  });

  describe('Content-Encoding', () => {
    const login = JSON.stringify({ email: 'nobody@example.test', password: 'whatever1' });
    const post = (encoding: string, body: Buffer) =>
      rawRequest(server.url, 'POST', '/api/auth/login', { 'content-type': 'application/json', 'content-encoding': encoding }, body);

    for (const encoding of ['gzip', 'deflate', 'br']) {
      it(`${encoding} that does not match the bytes is 400`, async () => {
        const res = await post(encoding, Buffer.from(login));
        expect(res.status).toBe(400);
        expect(res.json()).toEqual({ message: HARDENING_MSG.badContentEncoding, code: 'BAD_CONTENT_ENCODING', requestId: res.headers['x-request-id'] });
      });
    }

    it('a truncated gzip body is 400, an unknown encoding 415, a real gzip body is read', async () => {
      const truncated = await post('gzip', zlib.gzipSync(Buffer.from(login)).subarray(0, 12));
      expect(truncated.status).toBe(400);
      expect(truncated.json().code).toBe('BAD_CONTENT_ENCODING');
      const unknown = await post('compress', Buffer.from(login));
      expect(unknown.status).toBe(415);
      expect(unknown.json().message).toBe(HARDENING_MSG.unsupportedContentEncoding('compress'));
      // A correctly compressed body is parsed: the wrong password is checked (401), not refused.
      const real = await post('gzip', zlib.gzipSync(Buffer.from(login)));
      expect(real.status).toBe(401);
      expect(real.json().message).toBe(MSG.invalidCredentials);
    });

    it('a gzip bomb is cut at the JSON limit (413), not inflated whole', async () => {
      const bomb = zlib.gzipSync(Buffer.concat([Buffer.from('{"email":"'), Buffer.alloc(50 * 1024 * 1024, 0x61), Buffer.from('"}')]));
      const res = await post('gzip', bomb);
      expect(res.status).toBe(413);
    });

    it('a compressed multipart upload is refused with 415', async () => {
      const res = await rawRequest(
        server.url,
        'POST',
        '/api/photos/upload-batch',
        { 'content-type': 'multipart/form-data; boundary=x', 'content-encoding': 'gzip', authorization: `Bearer ${staff.token}` },
        zlib.gzipSync(Buffer.from('--x--\r\n')),
      );
      expect(res.status).toBe(415);
      expect(res.json().message).toBe(HARDENING_MSG.unsupportedContentEncoding('gzip'));
    });
  });

  describe('signed tokens with a bad subject', () => {
    const sign = (claims: Record<string, unknown>, audience: string | string[] = 'staff') =>
      jwt.sign({ t: Date.now(), ...claims }, server.config.jwtSecret, { algorithm: 'HS256', audience, expiresIn: '1h' });

    for (const [label, claims] of [
      ['a word', { sub: 'abc' }],
      ['zero', { sub: '0' }],
      ['a fraction', { sub: '1.5' }],
      ['a huge number', { sub: '99999999999999999999' }],
      ['no subject', {}],
    ] as [string, Record<string, unknown>][]) {
      it(`${label} as subject is a 401`, async () => {
        const res = await rawRequest(server.url, 'GET', '/api/photographers', { authorization: `Bearer ${sign(claims)}` });
        expect(res.status).toBe(401);
        expect(res.json()).toEqual({ message: MSG.sessionExpired, code: 'TOKEN_INVALID', requestId: res.headers['x-request-id'] });
        const customer = await rawRequest(server.url, 'GET', '/api/customer/orders', { authorization: `Bearer ${sign(claims, 'customer')}` });
        expect(customer.status).toBe(401);
      });
    }

    it('a token for both audiences at once is refused', async () => {
      const res = await rawRequest(server.url, 'GET', '/api/photographers', { authorization: `Bearer ${sign({ sub: String(staff.userId) }, ['staff', 'customer'])}` });
      expect(res.status).toBe(401);
    });
  });

  describe('gateway callbacks', () => {
    it('a notify or return body over 8 KB is 413 before it is read', async () => {
      const big = `PAY_REQUEST_ID=x&JUNK=${'a'.repeat(200 * 1024)}`;
      for (const path of ['/api/payment/notify', '/api/payment/return?orderId=ABCDEFGHJK']) {
        const res = await rawRequest(server.url, 'POST', path, { 'content-type': 'application/x-www-form-urlencoded' }, big);
        expect(res.status).toBe(413);
        expect(res.json()).toMatchObject({ message: HARDENING_MSG.requestTooLarge });
      }
      expect(await server.runtime.knex('payment_callbacks').count({ n: '*' }).first()).toMatchObject({ n: 0 });
      // Other forms keep their larger limit.
      const form = await rawRequest(server.url, 'POST', '/api/auth/login', { 'content-type': 'application/x-www-form-urlencoded' }, `email=a%40b.test&password=wrong-one&pad=${'a'.repeat(20 * 1024)}`);
      expect(form.status).toBe(401);
    });
  });
});

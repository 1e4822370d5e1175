import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { encodeFormPairs, parseFormPairs, requestChecksum, signPairs, verifyPostedChecksum, type FormPairs } from './checksum';
import { createPayGateClient, formatTransactionDate, type InitiateInput } from './client';
import { PayGateError } from './errors';

const ID = '10011072130';
const KEY = 'secret';
const PRID = '23B785AE-C96C-32AF-4879-D2C9363DB6E8';

interface Captured {
  url: string;
  body: FormPairs;
}

function fakeFetch(answer: (request: Captured) => string | Promise<string>, captured: Captured[] = []): typeof fetch {
  return (async (url: string | URL | Request, init?: RequestInit) => {
    const request = { url: String(url), body: parseFormPairs(String(init?.body ?? '')) };
    captured.push(request);
    return new Response(await answer(request), { status: 200, headers: { 'Content-Type': 'text/html' } });
  }) as typeof fetch;
}

const input: InitiateInput = {
  reference: 'ORD-1001',
  amountThebe: 12550,
  currency: 'BWP',
  returnUrl: 'https://shop.example.bw/pay/return',
  notifyUrl: 'https://shop.example.bw/pay/notify',
  email: 'buyer@example.bw',
  country: 'BWA',
  transactionDate: new Date('2025-01-15T08:30:00Z'),
};

const signedInitiateAnswer = (reference = 'ORD-1001', paygateId = ID) =>
  encodeFormPairs(signPairs([['PAYGATE_ID', paygateId], ['PAY_REQUEST_ID', PRID], ['REFERENCE', reference]], KEY));

describe('PayGate client', () => {
  it('posts the initiate in canonical order with the checksum of the documented test vector 6', async () => {
    const captured: Captured[] = [];
    const client = createPayGateClient({ paygateId: ID, secret: KEY, baseUrl: 'https://gw.example/', fetch: fakeFetch(() => signedInitiateAnswer(), captured) });
    const result = await client.initiate(input);
    expect(captured[0]?.url).toBe('https://gw.example/payweb3/initiate.trans');
    expect(captured[0]?.body).toEqual([
      ['PAYGATE_ID', ID],
      ['REFERENCE', 'ORD-1001'],
      ['AMOUNT', '12550'],
      ['CURRENCY', 'BWP'],
      ['RETURN_URL', 'https://shop.example.bw/pay/return'],
      ['TRANSACTION_DATE', '2025-01-15 08:30:00'],
      ['LOCALE', 'en'],
      ['COUNTRY', 'BWA'],
      ['EMAIL', 'buyer@example.bw'],
      ['NOTIFY_URL', 'https://shop.example.bw/pay/notify'],
      ['CHECKSUM', '459168f9c63034076e3b4779d789ad7d'],
    ]);
    expect(result).toEqual({
      payRequestId: PRID,
      checksum: requestChecksum({ paygateId: ID, payRequestId: PRID, reference: 'ORD-1001' }, KEY),
      processUrl: 'https://gw.example/payweb3/process.trans',
    });
  });

  it('with an in-process answer: posts the same body to the path, and checks the answer as it checks one over HTTP', async () => {
    const calls: { path: string; body: FormPairs }[] = [];
    let answer = signedInitiateAnswer();
    const client = createPayGateClient({
      paygateId: ID,
      secret: KEY,
      baseUrl: 'https://gw.example/',
      answer: async (path, body) => {
        calls.push({ path, body: parseFormPairs(body) });
        return answer;
      },
    });
    const result = await client.initiate(input);
    expect(calls.map((call) => call.path)).toEqual(['/payweb3/initiate.trans']);
    expect(calls[0]?.body.at(-1)).toEqual(['CHECKSUM', '459168f9c63034076e3b4779d789ad7d']);
    expect(result.processUrl).toBe('https://gw.example/payweb3/process.trans');
    answer = signedInitiateAnswer().replace(/CHECKSUM=[0-9a-f]+/, 'CHECKSUM=00');
    await expect(client.initiate(input)).rejects.toMatchObject({ code: 'BAD_RESPONSE_CHECKSUM' });
    answer = 'ERROR=DATA_CHK';
    await expect(client.initiate(input)).rejects.toMatchObject({ code: 'DATA_CHK' });
  });

  it('sends PAY_METHOD and PAY_METHOD_DETAIL in their canonical place, signed, when a method is given', async () => {
    const captured: Captured[] = [];
    const client = createPayGateClient({ paygateId: ID, secret: KEY, baseUrl: 'https://gw.example/', fetch: fakeFetch(() => signedInitiateAnswer(), captured) });
    await client.initiate({ ...input, payMethod: 'BT', payMethodDetail: 'SID' });
    const body = captured[0]?.body ?? [];
    expect(body.map(([name]) => name)).toEqual([
      'PAYGATE_ID', 'REFERENCE', 'AMOUNT', 'CURRENCY', 'RETURN_URL', 'TRANSACTION_DATE', 'LOCALE', 'COUNTRY', 'EMAIL', 'PAY_METHOD', 'PAY_METHOD_DETAIL', 'NOTIFY_URL', 'CHECKSUM',
    ]);
    expect(body.slice(9, 11)).toEqual([['PAY_METHOD', 'BT'], ['PAY_METHOD_DETAIL', 'SID']]);
    expect(verifyPostedChecksum(body, KEY)).toBe(true);
    // E-wallet: a method without a detail sends PAY_METHOD alone.
    await client.initiate({ ...input, payMethod: 'EW' });
    expect(captured[1]?.body.filter(([name]) => name.startsWith('PAY_METHOD'))).toEqual([['PAY_METHOD', 'EW']]);
  });

  it('formats TRANSACTION_DATE in UTC', () => {
    expect(formatTransactionDate(new Date('2025-12-31T23:59:59.999+02:00'))).toBe('2025-12-31 21:59:59');
  });

  it.each([
    ['ERROR=DATA_CUR', 'DATA_CUR'],
    [`PAYGATE_ID=${ID}&PAY_REQUEST_ID=${PRID}&REFERENCE=ORD-1001&CHECKSUM=${'0'.repeat(32)}`, 'BAD_RESPONSE_CHECKSUM'],
    [`PAYGATE_ID=${ID}&PAY_REQUEST_ID=${PRID}&REFERENCE=ORD-1001`, 'BAD_RESPONSE'],
    ['<html>Service Unavailable</html>', 'BAD_RESPONSE'],
    [signedInitiateAnswer('ORD-9999'), 'RESPONSE_MISMATCH'],
    [signedInitiateAnswer('ORD-1001', '10011099999'), 'RESPONSE_MISMATCH'],
  ])('initiate answer %s -> PayGateError %s', async (body, code) => {
    const client = createPayGateClient({ paygateId: ID, secret: KEY, baseUrl: 'https://gw.example', fetch: fakeFetch(() => body) });
    const error = await client.initiate(input).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(PayGateError);
    expect(error).toMatchObject({ code });
  });

  it('maps a timeout and a network failure', async () => {
    const slow = createPayGateClient({
      paygateId: ID,
      secret: KEY,
      baseUrl: 'https://gw.example',
      timeoutMs: 20,
      fetch: ((_url: string, init?: RequestInit) =>
        new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))) as typeof fetch,
    });
    await expect(slow.initiate(input)).rejects.toMatchObject({ code: 'TIMEOUT', fromGateway: false });
    const down = createPayGateClient({ paygateId: ID, secret: KEY, baseUrl: 'http://127.0.0.1:1' });
    await expect(down.query({ payRequestId: PRID, reference: 'x' })).rejects.toMatchObject({ code: 'NETWORK' });
  });

  it('refuses amounts that are not positive whole thebe before calling the gateway', async () => {
    const client = createPayGateClient({ paygateId: ID, secret: KEY, baseUrl: 'https://gw.example', fetch: fakeFetch(() => '') });
    for (const amountThebe of [0, -5, 12.5, Number.NaN]) {
      await expect(client.initiate({ ...input, amountThebe })).rejects.toBeInstanceOf(RangeError);
    }
  });

  it('query verifies the answer over all fields in order and returns the typed view', async () => {
    const answer = signPairs(
      [
        ['PAYGATE_ID', ID],
        ['PAY_REQUEST_ID', PRID],
        ['REFERENCE', 'ORD-1001'],
        ['TRANSACTION_STATUS', '2'],
        ['RESULT_CODE', '900003'],
        ['AUTH_CODE', ''],
        ['CURRENCY', 'BWP'],
        ['AMOUNT', '12550'],
        ['RESULT_DESC', 'Insufficient Funds'],
        ['TRANSACTION_ID', '12345678'],
        ['RISK_INDICATOR', 'NX'],
        ['PAY_METHOD', 'CC'],
        ['PAY_METHOD_DETAIL', 'MasterCard'],
        ['USER1', 'x&y'],
      ],
      KEY,
    ).map(([name, value]): [string, string] => [name, name === 'AUTH_CODE' ? 'null' : value]);
    const captured: Captured[] = [];
    const client = createPayGateClient({ paygateId: ID, secret: KEY, baseUrl: 'https://gw.example', fetch: fakeFetch(() => encodeFormPairs(answer), captured) });
    const result = await client.query({ payRequestId: PRID, reference: 'ORD-1001' });
    expect(captured[0]?.body).toEqual([
      ['PAYGATE_ID', ID],
      ['PAY_REQUEST_ID', PRID],
      ['REFERENCE', 'ORD-1001'],
      ['CHECKSUM', requestChecksum({ paygateId: ID, payRequestId: PRID, reference: 'ORD-1001' }, KEY)],
    ]);
    expect(verifyPostedChecksum(result.fields, KEY)).toBe(true);
    expect(result.transaction).toEqual({
      paygateId: ID,
      payRequestId: PRID,
      reference: 'ORD-1001',
      transactionStatus: 2,
      resultCode: '900003',
      resultDesc: 'Insufficient Funds',
      authCode: null,
      currency: 'BWP',
      amount: 12550,
      transactionId: '12345678',
      riskIndicator: 'NX',
      payMethod: 'CC',
      payMethodDetail: 'MasterCard',
      user1: 'x&y',
    });
  });

  it('over node:http: a kept-open connection the gateway closed is not a failure, the request goes again on a new one', async () => {
    // A gateway that keeps its first connection open after answering, then drops it when the next
    // request arrives on it without answering; later connections answer normally.
    const requests: number[] = [];
    let connections = 0;
    const gateway = net.createServer((socket) => {
      const connection = ++connections;
      let buffered = '';
      socket.on('data', (data: Buffer) => {
        buffered += data.toString('latin1');
        const end = buffered.indexOf('\r\n\r\n');
        const length = Number(/content-length: (\d+)/i.exec(buffered)?.[1] ?? 0);
        if (end < 0 || buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        requests.push(connection);
        if (connection === 1 && requests.filter((c) => c === 1).length > 1) {
          socket.destroy();
          return;
        }
        const answer = 'ERROR=DATA_CHK';
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${answer.length}\r\nConnection: keep-alive\r\n\r\n${answer}`);
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { port } = gateway.address() as net.AddressInfo;
      const client = createPayGateClient({ paygateId: ID, secret: KEY, baseUrl: `http://127.0.0.1:${port}` });
      // Both answered by the gateway (its ERROR), neither a network failure.
      await expect(client.query({ payRequestId: PRID, reference: 'x' })).rejects.toMatchObject({ code: 'DATA_CHK' });
      await expect(client.query({ payRequestId: PRID, reference: 'x' })).rejects.toMatchObject({ code: 'DATA_CHK' });
      expect(requests).toEqual([1, 1, 2]);
    } finally {
      gateway.close();
    }
  });

  it('query refuses a signed answer about another transaction', async () => {
    const other = encodeFormPairs(signPairs([['PAYGATE_ID', ID], ['PAY_REQUEST_ID', 'OTHER'], ['REFERENCE', 'ORD-1001'], ['TRANSACTION_STATUS', '1'], ['CURRENCY', 'BWP'], ['AMOUNT', '1']], KEY));
    const client = createPayGateClient({ paygateId: ID, secret: KEY, baseUrl: 'https://gw.example', fetch: fakeFetch(() => other) });
    await expect(client.query({ payRequestId: PRID, reference: 'ORD-1001' })).rejects.toMatchObject({ code: 'RESPONSE_MISMATCH' });
  });
});

import {
  encodeFormPairs,
  pairValue,
  parseFormPairs,
  requestChecksum,
  signedInitiatePairs,
  verifyPostedChecksum,
  type FormPairs,
} from './checksum';
import http from 'node:http';
import https from 'node:https';
import { PayGateError } from './errors';
import { parsePayGateResult, type PayGateResult } from './result';

export interface PayGateClientOptions {
  paygateId: string;
  /** The encryption key configured for the PayGate ID; never leaves the server. */
  secret: string;
  /** 'https://secure.paygate.co.za', or the app's own origin for the sandbox. */
  baseUrl: string;
  /** PayGate's own PHP library uses 10 s (docs/payments.md, "Talking to the gateway"). */
  timeoutMs?: number;
  /** Replaces the HTTP transport (tests); without it, node's own HTTP client is used. */
  fetch?: typeof fetch;
  /**
   * The gateway's answer to a POST of `body` to `path`, given in this process: the built-in
   * sandbox's own (sandbox.ts `answer`), so the server does not call itself over HTTP
   * (docs/payments.md, "The built-in sandbox"). Timeouts and transport errors do not apply.
   */
  answer?: (path: string, body: string) => Promise<string>;
}

export interface InitiateInput {
  reference: string;
  amountThebe: number;
  currency: string;
  returnUrl: string;
  notifyUrl: string;
  email: string;
  locale?: string;
  country: string;
  transactionDate?: Date;
  /** PayWeb3 `PAY_METHOD` ("CC", "EW", "BT"); not sent when absent (docs/payments.md, "Payment methods"). */
  payMethod?: string;
  /** PayWeb3 `PAY_METHOD_DETAIL` ("SID"); not sent when absent. */
  payMethodDetail?: string;
}

export interface InitiateResult {
  payRequestId: string;
  /** Also the CHECKSUM the browser posts to processUrl with PAY_REQUEST_ID. */
  checksum: string;
  processUrl: string;
}

export interface QueryInput {
  payRequestId: string;
  reference: string;
}

export interface QueryResult {
  /** Exactly as returned, in order, CHECKSUM included: store it raw (docs/payments.md, "Callback records"). */
  fields: FormPairs;
  transaction: PayGateResult;
}

export interface PayGateClient {
  initiate(input: InitiateInput): Promise<InitiateResult>;
  query(input: QueryInput): Promise<QueryResult>;
  /** The redirect fields of a request initiated earlier (no call: the checksum is recomputed). */
  resume(input: QueryInput): InitiateResult;
}

/**
 * Connections to the gateway are kept open between calls, so a rush of payments does not open one
 * each; one left unused for 4 s is closed by us (servers commonly close theirs after 5 s).
 */
const AGENTS = { http: new http.Agent({ keepAlive: true, timeout: 4_000 }), https: new https.Agent({ keepAlive: true, timeout: 4_000 }) };
/** A PayWeb3 answer is a few hundred bytes; anything far larger is not one. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** A kept-open connection the server had closed: the request never reached it. */
class StaleConnection extends Error {}

/**
 * POSTs a form with node's own HTTP client and resolves the answer's text whatever its status
 * (PayGate's own code reads the body and ignores the status). A redirect is refused; past
 * `timeoutMs` the request is abandoned with a TimeoutError. A request sent on a kept-open
 * connection that the server closed at that moment is sent once more on a new one (nothing was
 * answered, so nothing was done twice). fetch did the same at about three times the CPU per call,
 * which a rush of checkouts pays once each.
 */
async function postForm(url: string, body: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  try {
    return await postOnce(new URL(url), body, deadline);
  } catch (err) {
    if (!(err instanceof StaleConnection)) throw err;
    return postOnce(new URL(url), body, deadline);
  }
}

function postOnce(target: URL, body: string, deadline: number): Promise<string> {
  const secure = target.protocol === 'https:';
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = (secure ? https : http).request(
      target,
      {
        method: 'POST',
        agent: secure ? AGENTS.https : AGENTS.http,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) },
      },
      (response) => {
        answered = true;
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.resume();
          reject(new Error(`redirected (${status})`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) request.destroy(new Error('answer too large'));
          else chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', reject);
      },
    );
    const timer = setTimeout(
      () => {
        const timeout = new Error('no answer in time');
        timeout.name = 'TimeoutError';
        request.destroy(timeout);
      },
      Math.max(0, deadline - Date.now()),
    );
    request.on('error', (err: NodeJS.ErrnoException) => {
      const closedUnderUs = err.code === 'ECONNRESET' || err.message === 'socket hang up';
      reject(request.reusedSocket && !answered && closedUnderUs ? new StaleConnection(err.message, { cause: err }) : err);
    });
    request.on('close', () => clearTimeout(timer));
    request.end(body);
  });
}

export function createPayGateClient(options: PayGateClientOptions): PayGateClient {
  const { paygateId, secret, timeoutMs = 10_000 } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const injected = options.fetch;
  /** The gateway's answer to a POST of `body` to `path`, whatever its HTTP status. */
  const send: (path: string, body: string) => Promise<string> = options.answer
    ? options.answer
    : injected
    ? async (path, body) => {
        const response = await injected(`${baseUrl}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body,
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
        // As with PayGate's own code, the answer is read whatever the HTTP status.
        return response.text();
      }
    : (path, body) => postForm(`${baseUrl}${path}`, body, timeoutMs);

  async function post(path: string, pairs: FormPairs): Promise<FormPairs> {
    let text: string;
    try {
      text = await send(path, encodeFormPairs(pairs));
    } catch (err) {
      const name = (err as Error | undefined)?.name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new PayGateError('TIMEOUT', `PayGate did not answer ${path} within ${timeoutMs} ms`, { cause: err });
      }
      throw new PayGateError('NETWORK', `PayGate ${path} could not be reached`, { cause: err });
    }
    const fields = parseFormPairs(text.trim());
    const error = pairValue(fields, 'ERROR');
    if (error !== undefined) throw new PayGateError(error || 'BAD_RESPONSE', `PayGate ${path} answered ERROR=${error}`);
    return fields;
  }

  function expectSigned(fields: FormPairs, path: string): void {
    if (pairValue(fields, 'CHECKSUM') === undefined) {
      throw new PayGateError('BAD_RESPONSE', `PayGate ${path} answered without a CHECKSUM`);
    }
    if (!verifyPostedChecksum(fields, secret)) {
      throw new PayGateError('BAD_RESPONSE_CHECKSUM', `PayGate ${path} answer failed checksum verification`);
    }
  }

  function expectEqual(fields: FormPairs, expected: Record<string, string>, path: string): void {
    for (const [name, value] of Object.entries(expected)) {
      if (pairValue(fields, name) !== value) {
        throw new PayGateError('RESPONSE_MISMATCH', `PayGate ${path} answered for a different ${name}`);
      }
    }
  }

  return {
    async initiate(input) {
      if (!Number.isSafeInteger(input.amountThebe) || input.amountThebe <= 0) {
        throw new RangeError(`PayGate amounts are positive whole thebe, got ${input.amountThebe}`);
      }
      const path = '/payweb3/initiate.trans';
      const fields = await post(
        path,
        signedInitiatePairs(
          {
            PAYGATE_ID: paygateId,
            REFERENCE: input.reference,
            AMOUNT: String(input.amountThebe),
            CURRENCY: input.currency,
            RETURN_URL: input.returnUrl,
            TRANSACTION_DATE: formatTransactionDate(input.transactionDate ?? new Date()),
            LOCALE: input.locale ?? 'en',
            COUNTRY: input.country,
            EMAIL: input.email,
            ...(input.payMethod && { PAY_METHOD: input.payMethod }),
            ...(input.payMethodDetail && { PAY_METHOD_DETAIL: input.payMethodDetail }),
            NOTIFY_URL: input.notifyUrl,
          },
          secret,
        ),
      );
      expectSigned(fields, path);
      expectEqual(fields, { PAYGATE_ID: paygateId, REFERENCE: input.reference }, path);
      const payRequestId = pairValue(fields, 'PAY_REQUEST_ID');
      if (!payRequestId) throw new PayGateError('BAD_RESPONSE', `PayGate ${path} answered without a PAY_REQUEST_ID`);
      return {
        payRequestId,
        checksum: requestChecksum({ paygateId, payRequestId, reference: input.reference }, secret),
        processUrl: `${baseUrl}/payweb3/process.trans`,
      };
    },

    resume(input) {
      return {
        payRequestId: input.payRequestId,
        checksum: requestChecksum({ paygateId, payRequestId: input.payRequestId, reference: input.reference }, secret),
        processUrl: `${baseUrl}/payweb3/process.trans`,
      };
    },

    async query(input) {
      const path = '/payweb3/query.trans';
      const identity = { paygateId, payRequestId: input.payRequestId, reference: input.reference };
      const fields = await post(path, [
        ['PAYGATE_ID', paygateId],
        ['PAY_REQUEST_ID', input.payRequestId],
        ['REFERENCE', input.reference],
        ['CHECKSUM', requestChecksum(identity, secret)],
      ]);
      expectSigned(fields, path);
      expectEqual(fields, { PAYGATE_ID: paygateId, PAY_REQUEST_ID: input.payRequestId, REFERENCE: input.reference }, path);
      return { fields, transaction: parsePayGateResult(fields.filter(([name]) => name !== 'CHECKSUM')) };
    },
  };
}

/** PayGate wants UTC as 'YYYY-MM-DD HH:MM:SS' (docs/payments.md, "Talking to the gateway"). */
export function formatTransactionDate(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

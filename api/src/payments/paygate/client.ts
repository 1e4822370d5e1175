import {
  encodeFormPairs,
  pairValue,
  parseFormPairs,
  requestChecksum,
  signedInitiatePairs,
  verifyPostedChecksum,
  type FormPairs,
} from './checksum';
import { PayGateError } from './errors';
import { parsePayGateResult, type PayGateResult } from './result';

export interface PayGateClientOptions {
  paygateId: string;
  /** The encryption key configured for the PayGate ID; never leaves the server (checklist H3). */
  secret: string;
  /** 'https://secure.paygate.co.za', or the app's own origin for the sandbox. */
  baseUrl: string;
  /** PayGate's own PHP library uses 10 s (reference §11.16). */
  timeoutMs?: number;
  fetch?: typeof fetch;
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
  /** Exactly as returned, in order, CHECKSUM included: store it raw (checklist H7). */
  fields: FormPairs;
  transaction: PayGateResult;
}

export interface PayGateClient {
  initiate(input: InitiateInput): Promise<InitiateResult>;
  query(input: QueryInput): Promise<QueryResult>;
  /** The redirect fields of a request initiated earlier (no call: the checksum is recomputed). */
  resume(input: QueryInput): InitiateResult;
}

export function createPayGateClient(options: PayGateClientOptions): PayGateClient {
  const { paygateId, secret, timeoutMs = 10_000 } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  async function post(path: string, pairs: FormPairs): Promise<FormPairs> {
    let text: string;
    try {
      const response = await doFetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: encodeFormPairs(pairs),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
      // PayGate's own code ignores the HTTP status and reads the body (reference §1).
      text = await response.text();
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

/** PayGate wants UTC as 'YYYY-MM-DD HH:MM:SS' (reference §11.10). */
export function formatTransactionDate(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A failed exchange with PayGate. `code` is either the gateway's own ERROR code (DATA_CHK,
 * ND_INV_PRID, …; docs/payments.md, "Gateway error codes") or one of ours for failures on our side of the wire.
 */
export type LocalPayGateErrorCode =
  /** Connection refused, DNS failure, reset. */
  | 'NETWORK'
  /** No answer within timeoutMs. */
  | 'TIMEOUT'
  /** The body is not a PayGate answer (no fields we can use, or malformed ones). */
  | 'BAD_RESPONSE'
  /** The answer's CHECKSUM does not match: tampered, or a different encryption key. */
  | 'BAD_RESPONSE_CHECKSUM'
  /** The answer is signed but for another PayGate ID, request or reference. */
  | 'RESPONSE_MISMATCH';

export class PayGateError extends Error {
  constructor(
    readonly code: LocalPayGateErrorCode | (string & {}),
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PayGateError';
  }

  /** True when the gateway itself answered ERROR=<code>. */
  get fromGateway(): boolean {
    return !LOCAL_CODES.has(this.code);
  }
}

const LOCAL_CODES = new Set<string>(['NETWORK', 'TIMEOUT', 'BAD_RESPONSE', 'BAD_RESPONSE_CHECKSUM', 'RESPONSE_MISMATCH']);

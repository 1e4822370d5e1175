import { createHash, timingSafeEqual } from 'node:crypto';

/** A urlencoded body as ordered name/value pairs: PayGate checksums depend on field order. */
export type FormPairs = [string, string][];

/** Canonical initiate order (docs/payments.md, "Checksums"); the checksum covers only the fields actually sent. */
export const INITIATE_FIELDS = [
  'PAYGATE_ID',
  'REFERENCE',
  'AMOUNT',
  'CURRENCY',
  'RETURN_URL',
  'TRANSACTION_DATE',
  'LOCALE',
  'COUNTRY',
  'EMAIL',
  'PAY_METHOD',
  'PAY_METHOD_DETAIL',
  'NOTIFY_URL',
  'USER1',
  'USER2',
  'USER3',
  'VAULT',
  'VAULT_ID',
] as const;
export type InitiateField = (typeof INITIATE_FIELDS)[number];
export type InitiateFields = Partial<Record<InitiateField, string>>;

/** MD5 (lowercase hex) of the values concatenated with no separator, then the encryption key. */
export function payGateChecksum(values: readonly string[], key: string): string {
  return createHash('md5').update(values.join('') + key, 'utf8').digest('hex');
}

/** Constant-time comparison of two checksums (docs/payments.md, "Comparing checksums"); unequal lengths fail before comparing. */
export function checksumEquals(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  if (a.length !== b.length) return false;
  return timingSafeEqual(a, b);
}

/**
 * Verifies a message signed over "every posted field except CHECKSUM, in posted order" (notify,
 * query response, initiate response). PayGate sometimes posts AUTH_CODE as the text `null` while
 * signing it as empty (docs/payments.md, "The null authorisation code"), so that one substitution is tried as a second reading.
 */
export function verifyPostedChecksum(fields: readonly [string, string][], key: string): boolean {
  const posted = fields.filter(([name]) => name === 'CHECKSUM');
  const received = posted.length === 1 ? posted[0]?.[1] : undefined;
  if (received === undefined) return false;
  const signed = fields.filter(([name]) => name !== 'CHECKSUM');
  if (checksumEquals(payGateChecksum(signed.map(([, value]) => value), key), received)) return true;
  if (!signed.some(([name, value]) => name === 'AUTH_CODE' && value === 'null')) return false;
  const tolerated = signed.map(([name, value]) => (name === 'AUTH_CODE' && value === 'null' ? '' : value));
  return checksumEquals(payGateChecksum(tolerated, key), received);
}

/** The initiate request fields that are present, in canonical order (empty values are not sent). */
export function initiatePairs(fields: InitiateFields): FormPairs {
  const pairs: FormPairs = [];
  for (const name of INITIATE_FIELDS) {
    const value = fields[name];
    if (value !== undefined && value !== '') pairs.push([name, value]);
  }
  return pairs;
}

export function initiateChecksum(fields: InitiateFields, key: string): string {
  return payGateChecksum(
    initiatePairs(fields).map(([, value]) => value),
    key,
  );
}

/** The initiate request as it goes on the wire: canonical order, CHECKSUM last. */
export function signedInitiatePairs(fields: InitiateFields, key: string): FormPairs {
  return signPairs(initiatePairs(fields), key);
}

export interface RequestIdentity {
  paygateId: string;
  payRequestId: string;
  reference: string;
}

/** Initiate response, redirect to process.trans and query request all sign these three values. */
export function requestChecksum(identity: RequestIdentity, key: string): string {
  return payGateChecksum([identity.paygateId, identity.payRequestId, identity.reference], key);
}

/** The browser return: PAYGATE_ID and REFERENCE are signed but not posted; the merchant supplies them. */
export function returnChecksum(identity: RequestIdentity & { transactionStatus: string }, key: string): string {
  return payGateChecksum([identity.paygateId, identity.payRequestId, identity.transactionStatus, identity.reference], key);
}

/** Appends CHECKSUM over the values in the given order (notify, query response). */
export function signPairs(pairs: readonly [string, string][], key: string): FormPairs {
  const unsigned = pairs.filter(([name]) => name !== 'CHECKSUM');
  return [...unsigned, ['CHECKSUM', payGateChecksum(unsigned.map(([, value]) => value), key)]];
}

/** Decodes a urlencoded body keeping field order and duplicates; '+' becomes a space. */
export function parseFormPairs(raw: string): [string, string][] {
  return [...new URLSearchParams(raw)];
}

export function encodeFormPairs(pairs: readonly [string, string][]): string {
  return new URLSearchParams(pairs as [string, string][]).toString();
}

/** The first value posted under a name, or undefined. */
export function pairValue(pairs: readonly [string, string][], name: string): string | undefined {
  return pairs.find(([key]) => key === name)?.[1];
}

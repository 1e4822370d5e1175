import { checksumEquals, initiateChecksum, INITIATE_FIELDS, pairValue, type FormPairs, type InitiateFields } from './checksum';

/** Currencies the sandbox PayGate ID has enabled: BWP for this app plus the test account's three (docs/payments.md, "Test cards"). */
export const SANDBOX_CURRENCIES: readonly string[] = ['BWP', 'ZAR', 'USD', 'EUR'];

/** Every PAY_METHOD PayWeb3 knows; one the merchant account does not carry is PGID_NOT_EN, an unknown one DATA_PM. */
const PAY_METHODS = new Set(['CC', 'DC', 'EW', 'BT', 'CV', 'PC']);
/** The only bank-transfer PAY_METHOD_DETAIL PayGate offers (SiD instant EFT). */
const BANK_TRANSFER_DETAILS = new Set(['', 'SID']);
const MANDATORY = ['PAYGATE_ID', 'REFERENCE', 'AMOUNT', 'CURRENCY', 'RETURN_URL', 'TRANSACTION_DATE', 'LOCALE', 'COUNTRY', 'EMAIL'] as const;
/** int(11) in PayGate's tables. */
const MAX_AMOUNT = 2_147_483_647;

export type InitiateValidation = { ok: true; fields: InitiateFields } | { ok: false; error: string };

/**
 * The sandbox's reading of an initiate request (docs/payments.md, "Gateway error codes" and "The built-in sandbox"). PayGate does not itemise
 * which check runs first, so the order is: a field not posted at all → DATA_PW; then the PayGate
 * ID, then the checksum (it needs the key of that ID, and a request whose signature fails says
 * nothing reliable about its values); then each value. A field posted empty gets that field's own
 * code (DATA_CREF, DATA_URL, DATA_REGION, INV_EMAIL, DATA_AMT_NUM) — the "no X" wording of PayGate's error list.
 * The checksum is recomputed in canonical order whatever the posting order (inferred from how PayGate verifies queries).
 * TRANSACTION_DATE is checked for shape and calendar validity only; a time window is unconfirmed.
 * A PAY_METHOD PayWeb3 does not know is DATA_PM; one it knows that the merchant account does not `carry`
 * (the sandbox's account carries the configured PAYMENT_METHODS) is PGID_NOT_EN; a bank transfer's
 * PAY_METHOD_DETAIL other than SID is DATA_PM.
 */
export function validateInitiate(pairs: FormPairs, paygateId: string, secret: string, carried: readonly string[] = ['CC']): InitiateValidation {
  const fail = (error: string): InitiateValidation => ({ ok: false, error });
  const fields: InitiateFields = {};
  for (const name of INITIATE_FIELDS) {
    const value = pairValue(pairs, name);
    if (value !== undefined) fields[name] = value;
  }
  const checksum = pairValue(pairs, 'CHECKSUM');
  if (checksum === undefined || MANDATORY.some((name) => fields[name] === undefined)) return fail('DATA_PW');
  if (fields.PAYGATE_ID !== paygateId) return fail('ND_INV_PGID');
  if (!checksumEquals(initiateChecksum(fields, secret), checksum)) return fail('DATA_CHK');

  const f = fields as Required<Pick<InitiateFields, (typeof MANDATORY)[number]>> & InitiateFields;
  if (!/^\d{1,11}$/.test(f.AMOUNT) || Number(f.AMOUNT) > MAX_AMOUNT) return fail('DATA_AMT_NUM');
  if (Number(f.AMOUNT) === 0) return fail('DATA_AMT_ZERO');
  if (!SANDBOX_CURRENCIES.includes(f.CURRENCY)) return fail('DATA_CUR');
  if (!isTransactionDate(f.TRANSACTION_DATE)) return fail('DATA_DTTM');
  if (f.REFERENCE.trim() === '' || f.REFERENCE.length > 110) return fail('DATA_CREF');
  if (!isHttpUrl(f.RETURN_URL)) return fail('DATA_URL');
  if (f.NOTIFY_URL !== undefined && f.NOTIFY_URL !== '' && !isHttpUrl(f.NOTIFY_URL)) return fail('DATA_URL');
  if (f.LOCALE === '' || f.COUNTRY === '') return fail('DATA_REGION');
  if (!/^[A-Z]{3}$/.test(f.COUNTRY)) return fail('CNTRY_INVALID');
  if (!/^[a-z]{2}(?:-[a-z]{2})?$/i.test(f.LOCALE)) return fail('LOCALE_INVALID');
  if (!isEmail(f.EMAIL)) return fail('INV_EMAIL');
  if (f.PAY_METHOD !== undefined && f.PAY_METHOD !== '') {
    if (!PAY_METHODS.has(f.PAY_METHOD)) return fail('DATA_PM');
    if (!carried.includes(f.PAY_METHOD)) return fail('PGID_NOT_EN');
    if (f.PAY_METHOD === 'BT' && !BANK_TRANSFER_DETAILS.has(f.PAY_METHOD_DETAIL ?? '')) return fail('DATA_PM');
  }
  if (f.VAULT !== undefined && f.VAULT !== '' && f.VAULT !== '0' && f.VAULT !== '1') return fail('INVALID_VAULT');
  return { ok: true, fields };
}

function isTransactionDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60
  );
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

function isEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

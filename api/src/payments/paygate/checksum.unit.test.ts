import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  encodeFormPairs,
  initiateChecksum,
  parseFormPairs,
  payGateChecksum,
  requestChecksum,
  returnChecksum,
  signPairs,
  signedInitiatePairs,
  verifyPostedChecksum,
  type FormPairs,
} from './checksum';
import { BWP_INITIATE, TEST_PAYGATE_ID } from './checksum.test-helpers';

const KEY = 'secret';
const ID = TEST_PAYGATE_ID;
const PRID = '23B785AE-C96C-32AF-4879-D2C9363DB6E8';
const REF = 'pgtest_123456789';

const vector1 = {
  PAYGATE_ID: ID,
  REFERENCE: REF,
  AMOUNT: '3299',
  CURRENCY: 'ZAR',
  RETURN_URL: 'https://my.return.url/page',
  TRANSACTION_DATE: '2018-01-01 12:00:00',
  LOCALE: 'en-za',
  COUNTRY: 'ZAF',
  EMAIL: 'customer@paygate.co.za',
};

describe('the gateway documentation\'s test vectors (key "secret")', () => {
  it('1: initiate request', () => {
    expect(initiateChecksum(vector1, KEY)).toBe('59229d9c6cb336ae4bd287c87e6f0220');
    expect(payGateChecksum(Object.values(vector1), KEY)).toBe('59229d9c6cb336ae4bd287c87e6f0220');
  });

  it('2: initiate with NOTIFY_URL and USER1, optional fields not sent', () => {
    const fields = { ...vector1, NOTIFY_URL: 'https://my.notify.url/page', USER1: 'UserField' };
    expect(initiateChecksum(fields, KEY)).toBe('a7e87c0c9070b79c1b163b8c3262068b');
    // Canonical order puts NOTIFY_URL after EMAIL and before USER1, with PAY_METHOD* absent.
    const insertedOutOfOrder = Object.fromEntries(Object.entries(fields).reverse());
    expect(signedInitiatePairs(insertedOutOfOrder, KEY).map(([name]) => name)).toEqual([
      'PAYGATE_ID', 'REFERENCE', 'AMOUNT', 'CURRENCY', 'RETURN_URL', 'TRANSACTION_DATE', 'LOCALE', 'COUNTRY', 'EMAIL',
      'NOTIFY_URL', 'USER1', 'CHECKSUM',
    ]);
  });

  it('3: initiate response / redirect / query request', () => {
    expect(requestChecksum({ paygateId: ID, payRequestId: PRID, reference: REF }, KEY)).toBe('b41a77f83a275a849f23e30b4666e837');
  });

  it('4: notify, verified from the wire form where RESULT_DESC is Auth+Done', () => {
    const wire =
      `PAYGATE_ID=${ID}&PAY_REQUEST_ID=${PRID}&REFERENCE=${REF}&TRANSACTION_STATUS=1&RESULT_CODE=990017` +
      '&AUTH_CODE=5T8A0Z&CURRENCY=ZAR&AMOUNT=3299&RESULT_DESC=Auth+Done&TRANSACTION_ID=78705178&RISK_INDICATOR=AX' +
      '&PAY_METHOD=CC&PAY_METHOD_DETAIL=Visa&CHECKSUM=f57ccf051307d8d0a0743b31ea379aa1';
    const pairs = parseFormPairs(wire);
    expect(pairs.find(([name]) => name === 'RESULT_DESC')).toEqual(['RESULT_DESC', 'Auth Done']);
    expect(verifyPostedChecksum(pairs, KEY)).toBe(true);
    expect(signPairs(pairs, KEY).at(-1)).toEqual(['CHECKSUM', 'f57ccf051307d8d0a0743b31ea379aa1']);
    expect(verifyPostedChecksum(pairs, 'other-key')).toBe(false);
  });

  it('5: browser return', () => {
    expect(returnChecksum({ paygateId: ID, payRequestId: PRID, transactionStatus: '1', reference: REF }, KEY)).toBe(
      '4d6f22d0abdf222e3c9559d2383c12e2',
    );
  });

  it('6: BWP initiate', () => {
    expect(initiateChecksum(BWP_INITIATE, KEY)).toBe('459168f9c63034076e3b4779d789ad7d');
  });
});

describe('verifyPostedChecksum edge cases', () => {
  const base: FormPairs = [
    ['PAYGATE_ID', ID],
    ['PAY_REQUEST_ID', PRID],
    ['AUTH_CODE', ''],
    ['RESULT_DESC', 'Declined'],
  ];

  it('accepts AUTH_CODE posted as the text null but signed as empty', () => {
    const signed = signPairs(base, KEY);
    const posted = signed.map(([name, value]): [string, string] => [name, name === 'AUTH_CODE' ? 'null' : value]);
    expect(verifyPostedChecksum(posted, KEY)).toBe(true);
  });

  it('rejects a missing, repeated, empty or upper-case CHECKSUM', () => {
    const signed = signPairs(base, KEY);
    const checksum = signed.at(-1)?.[1] ?? '';
    expect(verifyPostedChecksum(base, KEY)).toBe(false);
    expect(verifyPostedChecksum([...signed, ['CHECKSUM', checksum]], KEY)).toBe(false);
    expect(verifyPostedChecksum([...base, ['CHECKSUM', '']], KEY)).toBe(false);
    expect(verifyPostedChecksum([...base, ['CHECKSUM', checksum.toUpperCase()]], KEY)).toBe(false);
  });

  it('documents the protocol limit: moving a boundary between two values is invisible to MD5-of-concatenation', () => {
    const signed = signPairs([['A', 'ab'], ['B', 'c']], KEY);
    const shifted: FormPairs = [['A', 'a'], ['B', 'bc'], ['CHECKSUM', signed.at(-1)?.[1] ?? '']];
    expect(verifyPostedChecksum(shifted, KEY)).toBe(true);
  });

  it('round-trips pairs through the wire form in order, including &, = and spaces', () => {
    const pairs: FormPairs = [['Z', 'a&b=c d+e'], ['A', 'é ü'], ['Z', '2']];
    expect(parseFormPairs(encodeFormPairs(pairs))).toEqual(pairs);
  });
});

const name = fc.stringMatching(/^[A-Z][A-Z0-9_]{0,15}$/).filter((value) => value !== 'CHECKSUM');
const value = fc.string({ maxLength: 40 });
const fieldList = fc.array(fc.tuple(name, value), { minLength: 1, maxLength: 12 }) as fc.Arbitrary<FormPairs>;
const key = fc.string({ minLength: 1, maxLength: 32 });
const concat = (pairs: FormPairs) => pairs.map(([, v]) => v).join('');

describe('checksum properties', () => {
  it('is always 32 lowercase hex characters', () => {
    fc.assert(fc.property(fc.array(value), key, (values, k) => /^[0-9a-f]{32}$/.test(payGateChecksum(values, k))));
  });

  it('a freshly signed field list verifies, also after a trip through the wire form', () => {
    fc.assert(
      fc.property(fieldList, key, (pairs, k) => {
        const signed = signPairs(pairs, k);
        return verifyPostedChecksum(signed, k) && verifyPostedChecksum(parseFormPairs(encodeFormPairs(signed)), k);
      }),
    );
  });

  it('changing one value fails verification', () => {
    fc.assert(
      fc.property(fieldList, key, fc.nat(), value, (pairs, k, index, replacement) => {
        const signed = signPairs(pairs, k);
        const i = index % pairs.length;
        const changed = signed.map(([n, v], j): [string, string] => [n, j === i ? replacement : v]);
        fc.pre(concat(changed.slice(0, -1)) !== concat(pairs));
        return !verifyPostedChecksum(changed, k);
      }),
    );
  });

  it('swapping two fields fails verification', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { minLength: 2, maxLength: 12 }), key, fc.nat(), fc.nat(), (pairs, k, a, b) => {
        const i = a % pairs.length;
        const j = b % pairs.length;
        const signed = signPairs(pairs as FormPairs, k);
        const swapped = [...signed];
        [swapped[i], swapped[j]] = [signed[j] as [string, string], signed[i] as [string, string]];
        // Equal values, or values whose concatenation is unchanged, cannot be told apart by design.
        fc.pre(concat(swapped.slice(0, -1)) !== concat(pairs as FormPairs));
        return !verifyPostedChecksum(swapped, k);
      }),
    );
  });

  it('an extra non-empty field anywhere fails verification', () => {
    fc.assert(
      fc.property(fieldList, key, fc.nat(), name, fc.string({ minLength: 1, maxLength: 20 }), (pairs, k, at, extraName, extraValue) => {
        const signed = signPairs(pairs, k);
        const position = at % signed.length;
        const withExtra: FormPairs = [...signed.slice(0, position), [extraName, extraValue], ...signed.slice(position)];
        return !verifyPostedChecksum(withExtra, k);
      }),
    );
  });

  it('a tampered CHECKSUM fails verification', () => {
    fc.assert(
      fc.property(fieldList, key, fc.nat(31), fc.constantFrom(...'0123456789abcdefABCDEF'), fc.stringMatching(/^[0-9a-f]{0,40}$/), (pairs, k, at, digit, random) => {
        const genuine = signPairs(pairs, k).at(-1)?.[1] ?? '';
        const flipped = genuine.slice(0, at) + digit + genuine.slice(at + 1);
        return [flipped, random].every((forged) => forged === genuine || !verifyPostedChecksum([...pairs, ['CHECKSUM', forged]], k));
      }),
    );
  });
});

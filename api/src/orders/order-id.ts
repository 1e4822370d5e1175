import { randomInt } from 'node:crypto';

/** Crockford base32 without I, L, O, U: easy to read out over the phone. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 13;

/** Order ids appear in URLs, so they are random: 13 symbols of 5 bits = 65 bits (docs/access.md). */
export function newOrderId(): string {
  let id = '';
  for (let i = 0; i < LENGTH; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

export const ORDER_ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{13}$/;

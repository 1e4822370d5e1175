import { createHash, randomInt } from 'node:crypto';
import { STUDENT_CODE_ALPHABET, STUDENT_CODE_LENGTH } from '../../contract/student-codes';

/**
 * A new private code: 8 symbols drawn uniformly (crypto.randomInt has no modulo bias) from 32,
 * so 40 random bits. Stored normalised (no dash); uniqueness is the database's unique index.
 */
export function newStudentCode(): string {
  let code = '';
  for (let i = 0; i < STUDENT_CODE_LENGTH; i++) code += STUDENT_CODE_ALPHABET[randomInt(STUDENT_CODE_ALPHABET.length)];
  return code;
}

/**
 * What is kept of a replaced code: its SHA-256, enough to know a card photographed with it as the
 * child's (and erase it with them), never the code (docs/access.md, "Erasure, completely").
 */
export function pastCodeDigest(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

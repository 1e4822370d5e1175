import { randomInt } from 'node:crypto';
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

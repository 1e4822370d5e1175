/**
 * Checking a student code (code-form.tsx): read as typed (any case, with or without the dash), its
 * format, then the server. Loaded when a parent reaches for the form (focus, a press, typing), not
 * with the first screen (docs/performance.md, "What loads when").
 */
import { isStudentCode, normaliseStudentCode } from '@contract/student-codes';
import type { StudentVerifyResponse } from '@contract/students';
import { verifyStudentCode } from './api';

/** The code is not 8 of the alphabet's symbols: nothing was sent. */
export class CodeFormatError extends Error {
  readonly codeFormat = true;
}

export function checkStudentCode(raw: string): Promise<StudentVerifyResponse> {
  const normalised = normaliseStudentCode(raw);
  if (!isStudentCode(normalised)) return Promise.reject(new CodeFormatError(raw));
  return verifyStudentCode(normalised);
}

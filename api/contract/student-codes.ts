/**
 * Private student codes: 8 symbols from a 32-symbol alphabet (40 random bits), shown as
 * XXXX-XXXX. The alphabet leaves out 0/O and 1/I so a code copied from paper is never ambiguous;
 * what a parent types is read case- and dash-insensitively. Zod-free so the first visit stays light.
 */
export const STUDENT_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const STUDENT_CODE_LENGTH = 8;

const VALID = new RegExp(`^[${STUDENT_CODE_ALPHABET}]{${STUDENT_CODE_LENGTH}}$`);

/** Upper case, spaces and dashes (and look-alike dashes) removed. */
export function normaliseStudentCode(raw: string): string {
  return raw.normalize('NFKC').toUpperCase().replace(/[\s\-‐-―−_.]/g, '');
}

export function isStudentCode(normalised: string): boolean {
  return VALID.test(normalised);
}

/** K7Q2M9XD -> K7Q2-M9XD */
export function formatStudentCode(code: string): string {
  const plain = normaliseStudentCode(code);
  return plain.length === STUDENT_CODE_LENGTH ? `${plain.slice(0, 4)}-${plain.slice(4)}` : plain;
}

export const ACCESS_MODES = ['school_password', 'student_codes'] as const;
export type AccessMode = (typeof ACCESS_MODES)[number];
export const DEFAULT_ACCESS_MODE: AccessMode = 'school_password';
export const ACCESS_MODE_LABELS: Record<AccessMode, string> = {
  school_password: 'School password (whole school)',
  student_codes: 'Private student codes (each child)',
};

/** Roster imports: rows and bytes at most per request. */
export const ROSTER_MAX_ROWS = 1000;
export const ROSTER_MAX_BYTES = 256 * 1024;

/**
 * Flyers: cards per A4 page (2 columns x 2 rows). Each card is also what the child holds up for the
 * card photo at the shoot, so its QR code fills the card's width (about 85 mm): big enough to be
 * read from 3 m in an ordinary portrait frame.
 */
export const FLYER_COLUMNS = 2;
export const FLYER_ROWS = 2;

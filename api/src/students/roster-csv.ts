import { parse } from 'csv-parse/sync';
import { STUDENT_MSG } from '../../contract/messages';
import { ROSTER_MAX_ROWS } from '../../contract/student-codes';
import { badRequest } from '../http/errors';

/** One line of a roster as read, before the row rules run; `row` is the line number in the file. */
export interface RawRosterRow {
  row: number;
  name: unknown;
  number: unknown;
  guardianEmail: unknown;
  guardianPhone?: unknown;
}

type Column = 'name' | 'number' | 'guardianEmail' | 'guardianPhone';

/** Header words schools' exports use; anything else in the first line means it is a student. */
const HEADERS: Record<string, Column> = {
  name: 'name',
  'student name': 'name',
  'full name': 'name',
  student: 'name',
  learner: 'name',
  'learner name': 'name',
  pupil: 'name',
  number: 'number',
  'student number': 'number',
  'student no': 'number',
  'student no.': 'number',
  'student id': 'number',
  'learner number': 'number',
  no: 'number',
  'no.': 'number',
  id: 'number',
  email: 'guardianEmail',
  'e-mail': 'guardianEmail',
  'guardian email': 'guardianEmail',
  'guardian e-mail': 'guardianEmail',
  'parent email': 'guardianEmail',
  'parent e-mail': 'guardianEmail',
  // A guardian's mobile number, for the code by SMS (docs/sms.md, "Codes recovered by phone").
  phone: 'guardianPhone',
  mobile: 'guardianPhone',
  cell: 'guardianPhone',
  cellphone: 'guardianPhone',
  'phone number': 'guardianPhone',
  'mobile number': 'guardianPhone',
  'cell number': 'guardianPhone',
  'guardian phone': 'guardianPhone',
  'guardian mobile': 'guardianPhone',
  'guardian cell': 'guardianPhone',
  'parent phone': 'guardianPhone',
  'parent mobile': 'guardianPhone',
  'parent cell': 'guardianPhone',
  guardianphone: 'guardianPhone',
};

const headerKey = (cell: string) => cell.normalize('NFC').trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * Reads a pasted or uploaded roster: columns name, optional student number, optional guardian
 * e-mail, optional guardian mobile number, with or without a header row (a header may name the
 * columns in any order). Commas,
 * semicolons and tabs are all accepted as separators, since spreadsheets export any of them.
 */
export function parseRosterCsv(text: string): RawRosterRow[] {
  const body = text.replace(/^\uFEFF/, '');
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(body, {
      delimiter: detectDelimiter(body),
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      bom: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch {
    throw badRequest(STUDENT_MSG.rosterUnreadable, undefined, 'ROSTER_UNREADABLE');
  }
  records = records.filter(({ record }) => record.some((cell) => cell !== ''));
  const [head] = records;
  if (!head) throw badRequest(STUDENT_MSG.rosterEmpty, undefined, 'ROSTER_EMPTY');

  let columns: Column[] = ['name', 'number', 'guardianEmail', 'guardianPhone'];
  const first = head.record.map(headerKey);
  if (first.some((cell) => cell in HEADERS)) {
    columns = first.map((cell) => HEADERS[cell] ?? ('ignored' as Column));
    records = records.slice(1);
    if (records.length === 0) throw badRequest(STUDENT_MSG.rosterEmpty, undefined, 'ROSTER_EMPTY');
  }
  if (records.length > ROSTER_MAX_ROWS) throw badRequest(STUDENT_MSG.rosterTooManyRows(ROSTER_MAX_ROWS), undefined, 'ROSTER_TOO_MANY_ROWS');

  return records.map(({ record, info }) => {
    const row: RawRosterRow = { row: info.lines, name: '', number: null, guardianEmail: null, guardianPhone: null };
    record.forEach((cell, index) => {
      const column = columns[index];
      if (column === 'name' || column === 'number' || column === 'guardianEmail' || column === 'guardianPhone') row[column] = cell;
    });
    // Without a header, "name, e-mail" is a common two-column export: an @ says which it is.
    if (columns[1] === 'number' && record.length === 2 && record[1]?.includes('@')) {
      row.number = null;
      row.guardianEmail = record[1];
    }
    return row;
  });
}

/** The separator used most on the first line, outside quoted fields. */
function detectDelimiter(text: string): string {
  const firstLine = (text.split(/\r?\n/, 1)[0] ?? '').replace(/"[^"]*"/g, '');
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ',';
}

import { formatStudentCode } from '../../contract/student-codes';
import type { ErasureResponse, RosterPreview, Student, UnlockedStudent } from '../../contract/students';
import { toIso } from '../db/knex';
import { compareNames } from '../../contract/format';
import type { GrantedStudent, StudentRecord } from './students.repository';
import type { CheckedRow, ErasureRecord } from './students.service';

/** Rosters read alphabetically, as a class list does. */
export function byStudentName(a: { name: string; id: number }, b: { name: string; id: number }): number {
  return compareNames(a.name, b.name) || a.id - b.id;
}

export function presentStudent(student: StudentRecord): Student {
  return {
    id: student.id,
    albumId: student.albumId,
    name: student.name,
    number: student.number,
    guardianEmail: student.guardianEmail,
    guardianPhone: student.guardianPhone,
    code: formatStudentCode(student.code),
    doNotPublish: student.doNotPublish,
    photoCount: student.photoCount,
    defaultPhotoId: student.defaultPhotoId,
    createdAt: student.createdAt,
  };
}

export function presentUnlocked(student: GrantedStudent): UnlockedStudent {
  return {
    student: { id: student.id, name: student.name },
    school: { id: student.schoolId, name: student.schoolName, slug: student.schoolSlug },
    album: { id: student.albumId, name: student.albumName },
  };
}

/** ?dryRun=true: every row as it would be imported, with its problem if it has one. */
export function presentRosterPreview(checked: CheckedRow[]): RosterPreview {
  return {
    valid: checked.every((row) => row.error === null),
    rows: checked.map((row) => ({ row: row.row, ...row.raw, error: row.error })),
  };
}

export function presentErasure(erasure: ErasureRecord): ErasureResponse {
  return { erasedAt: toIso(erasure.erasedAt), photosDeleted: erasure.photosDeleted, orderLinesRedacted: erasure.orderLinesRedacted };
}

import { formatStudentCode } from '../../contract/student-codes';
import type { Student, UnlockedStudent } from '../../contract/students';
import { compareNames } from '../../contract/format';
import type { GrantedStudent, StudentRecord } from './students.repository';

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
    code: formatStudentCode(student.code),
    doNotPublish: student.doNotPublish,
    photoCount: student.photoCount,
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

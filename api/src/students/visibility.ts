import { MSG, STUDENT_MSG } from '../../contract/messages';
import type { AccessMode } from '../../contract/student-codes';
import type { AlbumStatus } from '../../contract/constants';
import { forbidden, notFound, unauthorized } from '../http/errors';
import type { Grant, Viewer } from '../http/access';
import type { GrantedStudent, StudentRepository } from './students.repository';

/** A class as the rule needs it. */
export interface ClassRef {
  id: number;
  schoolId: number;
  hasPassword: boolean;
  accessMode: AccessMode;
  /** Published, or a draft whose publishAt has come (docs/access.md, "Draft and published classes"). */
  published: boolean;
}

/**
 * Whether families may see a class now: published, or a draft whose scheduled time has come (the
 * background job records it within a minute; the rule does not wait for it), and not archived
 * (docs/access.md, "Archived classes": hidden from families, kept for the orders that need it).
 */
export function isPublished(
  album: { status: AlbumStatus | string; publishAt: number | null; archivedAt?: number | string | null },
  at: number = Date.now(),
): boolean {
  if (album.archivedAt !== undefined && album.archivedAt !== null) return false;
  return album.status === 'published' || (album.publishAt !== null && album.publishAt <= at);
}

/**
 * Photos only staff see: a child's QR card, one waiting in the unmatched tray, and one placed by a
 * card or a file name that staff have not released yet.
 */
export function isWithheld(photo: { kind: string; inTray: boolean; pendingReview: boolean }): boolean {
  return photo.kind === 'card' || photo.inTray || photo.pendingReview;
}

/** A photo as the rule needs it: whose it is, and whether that child may be published. */
export interface PhotoRef {
  studentId: number | null;
  /** The photo's student is marked "do not publish". */
  doNotPublish: boolean;
  /** A card, a photo in the unmatched tray or one waiting for review: for staff only (isWithheld). */
  withheld: boolean;
}

/**
 * What a viewer may see of one class:
 * - staff: every photo, card photos and the unmatched tray included;
 * - class: every published photo (the school password, plus the class password if it has one,
 *   in a school_password school);
 * - students: the photos of these children and the class's group photos (student codes);
 * - none: nothing, with the reason a parent is told.
 */
export type ClassAccess =
  | { kind: 'staff' }
  | { kind: 'class'; studentIds: number[] }
  | { kind: 'students'; studentIds: number[] }
  | { kind: 'none'; reason: 'school' | 'class' | 'codes' | 'draft' };

/**
 * The one visibility rule for children's photos. Every path that lists, shows, sells or delivers
 * a photo to a family goes through classAccess and photoVisible.
 */
export function classAccess(viewer: Viewer, album: ClassRef, granted: readonly GrantedStudent[]): ClassAccess {
  if (viewer.staff) return { kind: 'staff' };
  // A draft class is not there for families, whatever they hold.
  if (!album.published) return { kind: 'none', reason: 'draft' };
  const studentIds = granted.filter((student) => student.albumId === album.id).map((student) => student.id);
  if (album.accessMode === 'school_password') {
    const school = viewer.grant.schools.includes(album.schoolId);
    if (school && (!album.hasPassword || viewer.grant.albums.includes(album.id))) return { kind: 'class', studentIds };
    if (studentIds.length > 0) return { kind: 'students', studentIds };
    return { kind: 'none', reason: school ? 'class' : 'school' };
  }
  // In a student_codes school the school and class passwords open nothing: only a child's code does.
  if (studentIds.length > 0) return { kind: 'students', studentIds };
  return { kind: 'none', reason: 'codes' };
}

export function photoVisible(access: ClassAccess, photo: PhotoRef): boolean {
  if (access.kind === 'staff') return true;
  if (photo.withheld) return false;
  switch (access.kind) {
    case 'class':
      return !photo.doNotPublish;
    case 'students':
      return !photo.doNotPublish && (photo.studentId === null || access.studentIds.includes(photo.studentId));
    case 'none':
      return false;
  }
}

/**
 * The student id a family may be shown for a photo: their own children's, never another child's
 * (a school-password family sees the photo but not whose it is).
 */
export function visibleStudentId(access: ClassAccess, photo: PhotoRef): number | null {
  if (photo.studentId === null) return null;
  if (access.kind === 'staff') return photo.studentId;
  return access.kind !== 'none' && access.studentIds.includes(photo.studentId) ? photo.studentId : null;
}

export function accessError(access: ClassAccess & { kind: 'none' }) {
  if (access.reason === 'draft') return notFound(MSG.classNotFound);
  if (access.reason === 'class') return forbidden(MSG.classAccessRequired, 'CLASS_LOCKED');
  if (access.reason === 'codes') return unauthorized(STUDENT_MSG.studentAccessRequired, 'STUDENT_LOCKED');
  return unauthorized(MSG.schoolAccessRequired, 'SCHOOL_LOCKED');
}

/**
 * The children a grant still holds. The grant was already checked against each child's current
 * code (AccessService.viewer: a new code cuts off every device that used the old one); an erased
 * child is not found.
 */
export async function heldStudents(students: Pick<StudentRepository, 'granted'>, grant: Grant): Promise<GrantedStudent[]> {
  if (grant.students.length === 0) return [];
  return students.granted(grant.students);
}

/** Resolves a viewer's granted children from the database on every request. */
export function createVisibility(students: Pick<StudentRepository, 'granted'>) {
  return {
    grantedStudents: (viewer: Viewer): Promise<GrantedStudent[]> => (viewer.staff ? Promise.resolve([]) : heldStudents(students, viewer.grant)),

    /** Throws the parent-facing 401/403 when the viewer may see nothing of the class. */
    async requireClass(viewer: Viewer, album: ClassRef): Promise<Exclude<ClassAccess, { kind: 'none' }>> {
      const granted = viewer.staff ? [] : await heldStudents(students, viewer.grant);
      const access = classAccess(viewer, album, granted);
      if (access.kind === 'none') throw accessError(access);
      return access;
    },
  };
}
export type Visibility = ReturnType<typeof createVisibility>;

/**
 * The classes of one school a viewer is shown: all of them to staff; to families only published
 * ones, all of them with a school grant in a school_password school (protected ones still ask for their password), otherwise only the
 * classes of the children the viewer holds codes for, which need no class password. Null when the
 * viewer may see nothing of the school.
 */
export function visibleClasses<A extends { id: number; hasPassword: boolean; published: boolean }>(
  viewer: Viewer,
  school: { id: number; accessMode: AccessMode },
  albums: readonly A[],
  granted: readonly GrantedStudent[],
): A[] | null {
  if (viewer.staff) return [...albums];
  const live = albums.filter((album) => album.published);
  if (school.accessMode === 'school_password' && viewer.grant.schools.includes(school.id)) return live;
  const held = new Set(granted.map((student) => student.albumId));
  const shown = live.filter((album) => held.has(album.id)).map((album) => ({ ...album, hasPassword: false }));
  // A family whose child's class is still a draft holds the school, with nothing in it yet.
  return albums.some((album) => held.has(album.id)) ? shown : null;
}

/** Whether the viewer may see anything of the school (the gallery's `unlocked`). */
export function schoolUnlocked(viewer: Viewer, school: { id: number; accessMode: AccessMode }, granted: readonly GrantedStudent[]): boolean {
  if (viewer.staff) return true;
  if (school.accessMode === 'school_password' && viewer.grant.schools.includes(school.id)) return true;
  return granted.some((student) => student.schoolId === school.id);
}

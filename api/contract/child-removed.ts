/**
 * A child erased at the school's request, as their family sees it on a device that held them
 * (docs/access.md, "Erasure"). No code brings the child back, so the family is not asked for it,
 * and nothing offers e-mails about them. Part of the gallery's first download: no zod here.
 */
export const CHILD_REMOVED_MSG = {
  removed: "This child's photos were removed at the school's request.",
  noCode: 'There is no need to enter the code again: it no longer opens anything, and we will not e-mail you about this child.',
  forget: 'Remove from this device',
} as const;

/** GET /api/students/removed: the children this browser's gallery cookie held that no longer exist. */
export interface RemovedStudents {
  studentIds: number[];
}

/** The answer is checked by hand (the gallery's first download carries no zod). */
export function isRemovedStudents(value: unknown): value is RemovedStudents {
  const ids = (value as RemovedStudents | null)?.studentIds;
  return Array.isArray(ids) && ids.every((id) => Number.isSafeInteger(id));
}

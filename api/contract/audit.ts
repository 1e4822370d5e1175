import { z } from 'zod';
import { id } from './fields';

/**
 * The staff audit log (docs/accounts.md, "The audit log"): the admin-only actions and every
 * erasure, with who did it and when. Admins read it on the dashboard's Audit Log tab. Staff-only:
 * the PWA imports this module from staff screens only.
 */
export const AUDIT_ACTIONS = [
  'do_not_publish_set',
  'do_not_publish_cleared',
  'class_deleted',
  'photos_deleted',
  'student_erased',
  'guardian_erased',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

export const AUDIT_MSG = {
  tab: 'Audit Log',
  title: 'Audit log',
  hint: 'Who cleared a do-not-publish, deleted a class or photos, or erased a child or a guardian, and when. Only administrators see this.',
  empty: 'Nothing recorded yet.',
  loadOlder: 'Load older entries',
  loading: 'Loading...',
  loadFailed: 'Could not load the audit log',
  columnWhen: 'When',
  columnWho: 'Who',
  columnWhat: 'What',
  columnWhere: 'School / class',
  limitInvalid: `limit must be a whole number from 1 to ${AUDIT_PAGE_MAX}`,
  beforeInvalid: 'before must be an entry id (a positive whole number)',
  /** A photographer's try at an admin-only action (403 ADMIN_ONLY), shown where the PWA still offers it. */
  adminOnlyExplained: 'Only an administrator can do this. Ask an administrator of your studio.',
  clearDoNotPublishAdminOnly: 'Only an administrator can clear do not publish: once cleared, this child\'s photos can be seen by their family again.',
  /** What an entry says, with its count where it has one. */
  action: {
    do_not_publish_set: 'Marked a child do not publish',
    do_not_publish_cleared: 'Cleared a child\'s do not publish',
    class_deleted: 'Deleted a class',
    photos_deleted: 'Deleted photos',
    student_erased: 'Erased a child',
    guardian_erased: 'Erased a guardian',
  } satisfies Record<AuditAction, string>,
  countText: (action: AuditAction, count: number): string =>
    action === 'student_erased' || action === 'class_deleted' || action === 'photos_deleted' ? `${count} ${count === 1 ? 'photo' : 'photos'}` : '',
  erasedSubject: 'erased',
  guardianSubject: (guardianId: number) => `guardian #${guardianId}`,
  studentSubject: (studentId: number) => `child #${studentId}`,
  schoolGone: (schoolId: number) => `school #${schoolId}`,
} as const;

/** GET /api/audit-log?before=&limit=: newest first, `before` an entry id for the next page. */
export const auditQuerySchema = z.object({
  before: id(AUDIT_MSG.beforeInvalid).optional(),
  limit: z
    .union([z.number(), z.string().trim().regex(/^\d{1,4}$/, AUDIT_MSG.limitInvalid).transform(Number)], { error: AUDIT_MSG.limitInvalid })
    .pipe(z.number().int(AUDIT_MSG.limitInvalid).min(1, AUDIT_MSG.limitInvalid).max(AUDIT_PAGE_MAX, AUDIT_MSG.limitInvalid))
    .optional(),
});

export const auditEntrySchema = z.object({
  id: z.number(),
  action: z.enum(AUDIT_ACTIONS),
  at: z.string(),
  staff: z.object({ id: z.number(), email: z.string(), role: z.string() }),
  /** The student, class or guardian acted on (by id: the log keeps nothing personal of them). */
  targetId: z.number().nullable(),
  /** The child's name while they are still on a roster; null once erased, and for guardians. */
  subject: z.string().nullable(),
  school: z.object({ id: z.number(), name: z.string() }).nullable(),
  album: z.object({ id: z.number(), name: z.string() }).nullable(),
  count: z.number().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  /** Pass as `before` for older entries; null when there are none. */
  nextBefore: z.number().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

import type { StaffGuardian } from '../../contract/outreach';
import { toIso } from '../db/knex';
import type { StaffGuardianRecord } from './guardians.repository';

/** A guardian as staff see them, field by field (GET /api/schools/{id}/guardians). */
export function presentStaffGuardian(record: StaffGuardianRecord): StaffGuardian {
  return {
    id: record.id,
    email: record.email,
    phone: record.phone,
    confirmed: (record.confirmedAt !== null || record.phoneConfirmedAt !== null) && record.unsubscribedAt === null,
    phoneConfirmed: record.phoneConfirmedAt !== null && record.unsubscribedAt === null,
    marketing: record.marketing,
    unsubscribed: record.unsubscribedAt !== null,
    // A guardian who never confirmed gave no consent: staff see "not confirmed", never a consent.
    consentVersion: record.confirmedAt === null && record.phoneConfirmedAt === null ? null : record.consentVersion,
    consentAt: record.confirmedAt === null && record.phoneConfirmedAt === null ? null : toIso(record.consentAt),
    follows: record.follows.map((follow) => ({ studentId: follow.studentId, studentName: follow.studentName, albumName: follow.albumName })),
  };
}

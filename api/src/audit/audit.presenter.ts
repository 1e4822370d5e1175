import type { AuditEntry, AuditPage } from '../../contract/audit';
import { toIso } from '../db/knex';
import type { AuditRecord } from './audit.repository';

/** One entry, field by field (docs/architecture.md, "Presenters allow-list output"). */
export function presentAuditEntry(record: AuditRecord): AuditEntry {
  return {
    id: record.id,
    action: record.action,
    at: toIso(record.at),
    staff: { id: record.staffId, email: record.staffEmail, role: record.staffRole },
    targetId: record.targetId,
    subject: record.studentName,
    school: record.schoolId === null ? null : { id: record.schoolId, name: record.schoolName ?? `#${record.schoolId}` },
    album: record.albumId === null ? null : { id: record.albumId, name: record.albumName ?? `#${record.albumId}` },
    count: record.count,
  };
}

export function presentAuditPage(records: AuditRecord[], limit: number): AuditPage {
  const last = records.at(-1);
  return { entries: records.map(presentAuditEntry), nextBefore: records.length === limit && last ? last.id : null };
}

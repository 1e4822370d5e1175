import { AUDIT_PAGE_DEFAULT } from '../../contract/audit';
import type { Deps } from '../deps';
import { createAuditRepository, type AuditRecord } from './audit.repository';

/**
 * The audit log admins read (docs/accounts.md, "The audit log"). Entries are written by the
 * services whose actions they record, in those actions' own transactions
 * (`createAuditRepository(knex).record(…, tx)`), so an action and its entry commit together.
 */
export function createAuditService(deps: Pick<Deps, 'knex'>) {
  const repo = createAuditRepository(deps.knex);
  return {
    list: (page: { before?: number | undefined; limit?: number | undefined }): Promise<AuditRecord[]> =>
      repo.list({ before: page.before ?? null, limit: page.limit ?? AUDIT_PAGE_DEFAULT }),
  };
}
export type AuditService = ReturnType<typeof createAuditService>;

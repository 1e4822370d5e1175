import { AUDIT_MSG, type AuditEntry } from '@contract/audit';
import { formatDate } from '@contract/format';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { useAuditLog } from '../api/audit';

/** What was acted on: the child while still on a roster, else by id (the log keeps nothing personal of them). */
function subjectOf(entry: AuditEntry): string | null {
  if (entry.action === 'guardian_erased') return entry.targetId === null ? null : AUDIT_MSG.guardianSubject(entry.targetId);
  if (entry.action === 'do_not_publish_set' || entry.action === 'do_not_publish_cleared' || entry.action === 'student_erased') {
    if (entry.subject) return entry.subject;
    return entry.targetId === null ? null : `${AUDIT_MSG.studentSubject(entry.targetId)} (${AUDIT_MSG.erasedSubject})`;
  }
  return null;
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const subject = subjectOf(entry);
  const count = entry.count === null ? '' : AUDIT_MSG.countText(entry.action, entry.count);
  return (
    <tr>
      <td>{formatDate(entry.at, 'dateTime')}</td>
      <td>
        {entry.staff.email}{' '}
        <Badge tone={entry.staff.role === 'admin' ? 'indigo' : 'neutral'}>{entry.staff.role === 'admin' ? 'Administrator' : 'Photographer'}</Badge>
      </td>
      <td>
        {AUDIT_MSG.action[entry.action]}
        {subject ? `: ${subject}` : ''}
        {count ? ` (${count})` : ''}
      </td>
      <td>{[entry.school?.name, entry.album?.name].filter(Boolean).join(' / ')}</td>
    </tr>
  );
}

/** The admins' audit log (docs/accounts.md, "The audit log"); the dashboard offers the tab to admins only. */
export function AuditTab() {
  const log = useAuditLog(true);
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <Card>
      <CardBody className="stack">
        <h2>{AUDIT_MSG.title}</h2>
        <p className="muted">{AUDIT_MSG.hint}</p>
        {log.isPending ? <PageSpinner label={AUDIT_MSG.loading} /> : null}
        {log.isError ? <p className="alert alert-danger">{errorMessage(log.error, AUDIT_MSG.loadFailed)}</p> : null}
        {log.isSuccess && entries.length === 0 ? <p className="muted">{AUDIT_MSG.empty}</p> : null}
        {entries.length > 0 ? (
          <table className="staff-table stacked-table" aria-label={AUDIT_MSG.title}>
            <thead>
              <tr>
                <th>{AUDIT_MSG.columnWhen}</th>
                <th>{AUDIT_MSG.columnWho}</th>
                <th>{AUDIT_MSG.columnWhat}</th>
                <th>{AUDIT_MSG.columnWhere}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <AuditRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        ) : null}
        {log.hasNextPage ? (
          <Button variant="outline" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
            {log.isFetchingNextPage ? AUDIT_MSG.loading : AUDIT_MSG.loadOlder}
          </Button>
        ) : null}
      </CardBody>
    </Card>
  );
}

/**
 * The guardians who follow a school (GET /api/schools/{id}/guardians): confirmed or not, marketing,
 * unsubscribed, the consent text version and when it was given, and what they follow. Staff may
 * erase one after a confirmation (docs/outreach.md, "Erasure").
 */
import { formatDate } from '@contract/format';
import { useSession } from '../../../lib/session';
import { GUARDIAN_CONSENT_MSG } from '@contract/guardian-consent';
import { STAFF_MESSAGES_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import type { StaffGuardian } from '@contract/outreach';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { Loaded } from '../../../components/ui/loaded';
import { errorMessage } from '../../../lib/api-client';
import { useEraseGuardian, useSchoolGuardians } from '../api/messages';
import { useConfirmDelete } from '../use-confirm-delete';

const follows = (follow: StaffGuardian['follows'][number]): string => {
  if (follow.studentName) return M.followsChild(follow.studentName, follow.albumName);
  if (follow.albumName) return M.followsClass(follow.albumName);
  return M.followsSchool;
};

export function GuardiansCard({ schoolId }: { schoolId: number }) {
  const guardians = useSchoolGuardians(schoolId);
  const erase = useEraseGuardian(schoolId);
  // Erasing a guardian is an admin's (docs/accounts.md, "What a photographer may not do").
  const isAdmin = useSession().staffUser?.role === 'admin';
  const erasure = useConfirmDelete<StaffGuardian, unknown>(erase, {
    title: M.eraseQuestion,
    description: (guardian) => M.eraseWarning(guardian ? M.contact(guardian.email, guardian.phone) : null),
    confirmLabel: M.erase,
    deletedTitle: M.erasedTitle,
    deleted: (guardian) => M.erased(M.contact(guardian.email, guardian.phone)),
    failed: (err) => errorMessage(err, M.eraseFailed),
  });

  return (
    <Card>
      <CardBody className="stack">
        <h2>{M.guardiansHeading}</h2>
        <p className="muted">{M.guardiansHint}</p>
        <Loaded query={guardians} failed={M.guardiansFailed} loading={M.loadingGuardians}>
          {(list) =>
            list.length === 0 ? (
              <p className="muted">{M.guardiansEmpty}</p>
            ) : (
              <div className="table-wrap">
                <table className="staff-table stacked-table" aria-label={M.guardiansTable}>
                  <thead>
                    <tr>
                      <th scope="col">{M.columnEmail}</th>
                      <th scope="col">{M.columnStatus}</th>
                      <th scope="col">{M.columnConsent}</th>
                      <th scope="col">{M.columnFollows}</th>
                      <th scope="col">
                        <span className="sr-only">{M.erase}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((guardian) => (
                      <tr key={guardian.id}>
                        <td data-label={M.columnEmail} className="preview-email">
                          {M.contact(guardian.email, guardian.phone)}
                        </td>
                        <td data-label={M.columnStatus}>
                          <span className="row badges">
                            <Badge tone={guardian.confirmed ? 'green' : 'yellow'}>{guardian.confirmed ? M.confirmed : M.notConfirmed}</Badge>
                            {guardian.phone !== null && guardian.confirmed && !guardian.phoneConfirmed ? <Badge tone="yellow">{M.phoneNotConfirmed}</Badge> : null}
                            {guardian.marketing ? <Badge tone="blue">{M.marketing}</Badge> : null}
                            {guardian.unsubscribed ? <Badge tone="red">{M.unsubscribed}</Badge> : null}
                          </span>
                        </td>
                        <td data-label={M.columnConsent}>
                          {guardian.consentVersion !== null && guardian.consentAt !== null
                            ? M.consentLine(guardian.consentVersion, formatDate(guardian.consentAt, 'dateTime'))
                            : GUARDIAN_CONSENT_MSG.consentNotGiven}
                        </td>
                        <td data-label={M.columnFollows}>
                          <ul className="plain-list">
                            {guardian.follows.map((follow, index) => (
                              <li key={`${follow.studentId ?? 'x'}-${follow.albumName ?? ''}-${index}`}>{follows(follow)}</li>
                            ))}
                          </ul>
                        </td>
                        <td>
                          {isAdmin ? (
                            <Button variant="destructive" size="sm" onClick={() => erasure.ask(guardian)} aria-label={M.eraseLabel(M.contact(guardian.email, guardian.phone))}>
                              {M.erase}
                            </Button>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </Loaded>
        {erasure.dialog}
      </CardBody>
    </Card>
  );
}

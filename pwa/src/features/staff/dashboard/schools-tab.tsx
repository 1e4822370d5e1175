import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { StaffSchool } from '@contract/schools';
import { STAFF_MESSAGES_SCREEN_MSG, STAFF_MSG } from '@contract/staff-screen-messages';
import { formatDate } from '@contract/format';
import { ACCESS_MODE_LABELS } from '@contract/student-codes';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useDeleteSchool, useStaffSchools } from '../api/schools';
import { useConfirmDelete } from '../use-confirm-delete';
import { SchoolForm } from './school-form';
import { useSession } from '../../../lib/session';

export function SchoolsTab() {
  // Deleting a school is for admins (docs/accounts.md, "What a photographer may not do").
  const isAdmin = useSession().staffUser?.role === 'admin';
  const schools = useStaffSchools();
  const remove = useDeleteSchool();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const deletion = useConfirmDelete<StaffSchool, unknown>(remove, {
    title: STAFF_MSG.deleteSchoolQuestion,
    description: (school) => STAFF_MSG.deleteSchoolWarning(school?.name ?? null),
    confirmLabel: STAFF_MSG.deleteSchool,
    deletedTitle: STAFF_MSG.schoolDeletedTitle,
    deleted: (school) => STAFF_MSG.deleted(school.name),
    failed: (err) => errorMessage(err, STAFF_MSG.deleteSchoolFailed),
  });

  return (
    <div className="stack">
      <Card>
        <CardBody className="stack">
          <div className="row between">
            <h2>Schools</h2>
            {!creating ? <Button onClick={() => setCreating(true)}>Add School</Button> : null}
          </div>
          {creating ? <SchoolForm onDone={() => setCreating(false)} /> : null}
        </CardBody>
      </Card>
      {schools.isPending ? <PageSpinner label="Loading schools..." /> : null}
      {schools.isError ? <p className="alert alert-danger">Schools could not be loaded.</p> : null}
      {schools.data?.length === 0 ? <p className="muted">No schools yet. Add the first one above.</p> : null}
      <ul className="grid grid-2 staff-cards">
        {schools.data?.map((school) => (
          <li key={school.id} style={editing === school.id ? { gridColumn: '1 / -1' } : undefined}>
            <Card>
              {editing === school.id ? (
                <CardBody className="stack">
                  <h3>Edit {school.name}</h3>
                  <SchoolForm school={school} onDone={() => setEditing(null)} />
                </CardBody>
              ) : (
                <CardBody className="stack-tight">
                  <h3>{school.name}</h3>
                  <span className="muted">/{school.slug} · {school.contactEmail}</span>
                  <span>
                    {school.albums.length} class(es) · {school.albums.reduce((sum, album) => sum + album.photoCount, 0)} photos · {school.priceListName ?? 'Built-in products'}
                  </span>
                  <span>{STAFF_MSG.accessModeOnCard(ACCESS_MODE_LABELS[school.accessMode])}</span>
                  {school.closingDate ? <span className="muted">{STAFF_MSG.schoolCloses(formatDate(school.closingDate, 'short'))}</span> : null}
                  <div className="row">
                    <Link to={paths.school(school.slug)} className={buttonClass('outline', 'btn-sm')} aria-label={`View ${school.name}`}>
                      View
                    </Link>
                    <Button variant="outline" size="sm" onClick={() => setEditing(school.id)} aria-label={`Edit ${school.name}`}>
                      Edit
                    </Button>
                    <Link to={paths.staffClasses(school.id)} className={buttonClass('secondary', 'btn-sm')} aria-label={`Manage classes of ${school.name}`}>
                      Manage Classes
                    </Link>
                    <Link to={paths.staffMessages(school.id)} className={buttonClass('outline', 'btn-sm')} aria-label={STAFF_MESSAGES_SCREEN_MSG.openLabel(school.name)}>
                      {STAFF_MESSAGES_SCREEN_MSG.openLink}
                    </Link>
                    {isAdmin ? (
                      <Button variant="destructive" size="sm" onClick={() => deletion.ask(school)} aria-label={`Delete ${school.name}`}>
                        Delete
                      </Button>
                    ) : null}
                  </div>
                </CardBody>
              )}
            </Card>
          </li>
        ))}
      </ul>
      {deletion.dialog}
    </div>
  );
}

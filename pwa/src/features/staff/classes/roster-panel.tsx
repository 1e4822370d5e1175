/**
 * A class's roster: students with their private codes (shown, so a lost flyer can be reprinted),
 * one-by-one adding, CSV import, the flyers PDF, "do not publish", a new code, removal and erasure.
 */
import { useState } from 'react';
import type { AlbumSummary } from '@contract/schools';
import type { Student } from '@contract/students';
import { AUDIT_MSG } from '@contract/audit';
import { studentInputSchema } from '@contract/students';
import { PWA_MSG } from '@contract/messages';
import { STAFF_MSG, STAFF_SMALL_MSG } from '@contract/staff-screen-messages';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Dialog } from '../../../components/ui/dialog';
import { PageSpinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { downloadFlyers, useAddStudent, useAlbumStudents, useEraseStudent, useRemoveStudent, useUpdateStudent } from '../api/students';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useSoldPhotoConfirm } from '../common/sold-photo-confirm';
import { RosterImportDialog } from './roster-import-dialog';
import { StudentFields, displayPhone, type StudentValues } from './student-fields';
import { STUDENT_PHONE_MSG } from '@contract/code-recovery';
import { useSession } from '../../../lib/session';

type Confirm = { kind: 'remove' | 'erase' | 'new-code'; student: Student } | null;
const EMPTY: StudentValues = { name: '', number: '', guardianEmail: '', guardianPhone: '' };

const flyerName = (album: AlbumSummary, student?: Student) =>
  `${['flyers', album.name, student?.name].filter(Boolean).join(' ')}`.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') + '.pdf';

export function RosterPanel({ album }: { album: AlbumSummary }) {
  const students = useAlbumStudents(album.id);
  const add = useAddStudent(album.id);
  const update = useUpdateStudent(album.id);
  const sold = useSoldPhotoConfirm();
  const remove = useRemoveStudent(album.id);
  const erase = useEraseStudent(album.id);
  // Erasure is for admins (docs/accounts.md, "What a photographer may not do").
  const isAdmin = useSession().staffUser?.role === 'admin';
  const { values, errors, set, handleSubmit, reset } = useZodForm(studentInputSchema, EMPTY);
  const [importing, setImporting] = useState(false);
  const [editing, setEditing] = useState<Student | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [downloading, setDownloading] = useState(false);
  const helpId = `roster-help-${album.id}`;

  // The raw values go to the API, which trims and validates them again.
  const submit = handleSubmit(() =>
    add.mutate(values, {
      onSuccess: (result) => {
        toast({ title: STAFF_MSG.studentAddedTitle, description: STAFF_MSG.studentAdded(result.students[0]?.name ?? values.name, result.students[0]?.code ?? ''), variant: 'success' });
        reset();
      },
      onError: (err) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, STAFF_MSG.addStudentFailed), variant: 'destructive' }),
    }),
  );

  const flyers = async (student?: Student) => {
    setDownloading(true);
    try {
      await downloadFlyers(album.id, flyerName(album, student), student?.id);
      toast({ title: STAFF_MSG.flyersReadyTitle, description: student ? STAFF_MSG.flyerDownloaded(student.name) : STAFF_MSG.flyersDownloaded(album.name), variant: 'success' });
    } catch (err) {
      toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, STAFF_MSG.flyersFailed), variant: 'destructive' });
    } finally {
      setDownloading(false);
    }
  };

  const setDoNotPublish = (student: Student, doNotPublish: boolean, confirm = false) =>
    update.mutate(
      { id: student.id, doNotPublish, ...(confirm ? { confirm: true as const } : {}) },
      {
        onSuccess: () =>
          toast({
            title: doNotPublish ? 'Not Published' : 'Published',
            description: doNotPublish ? `${student.name}'s photos are hidden from every family and cannot be ordered.` : `${student.name}'s photos can be seen by their family again.`,
            variant: 'success',
          }),
        onError: (err) => {
          // Families paid for photos of this child: say what will happen, then hide only if staff go on (docs/access.md, "Moving a sold photo").
          if (sold.intercept(err, 'hide', () => setDoNotPublish(student, doNotPublish, true))) return;
          toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, PWA_MSG.updateStudentFailed), variant: 'destructive' });
        },
      },
    );

  const runConfirmed = () => {
    if (!confirm) return;
    const { kind, student } = confirm;
    const done = { onSettled: () => setConfirm(null) };
    const failed = (fallback: string) => (err: unknown) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, fallback), variant: 'destructive' });
    if (kind === 'remove') {
      remove.mutate(student.id, {
        ...done,
        onSuccess: () => toast({ title: STAFF_MSG.studentRemovedTitle, description: STAFF_MSG.studentRemoved(student.name, album.name), variant: 'success' }),
        onError: failed('Failed to remove the student'),
      });
    } else if (kind === 'erase') {
      erase.mutate(student.id, {
        ...done,
        onSuccess: (result) =>
          toast({ title: STAFF_MSG.studentErasedTitle, description: STAFF_MSG.studentErased(student.name, result.photosDeleted), variant: 'success' }),
        onError: failed('Failed to erase the student'),
      });
    } else {
      update.mutate(
        { id: student.id, newCode: true },
        {
          ...done,
          onSuccess: (updated) => toast({ title: STAFF_MSG.newCodeTitle, description: STAFF_MSG.newCode(student.name, updated.code), variant: 'success' }),
          onError: failed('Failed to issue a new code'),
        },
      );
    }
  };

  if (students.isPending) return <PageSpinner label="Loading students..." />;
  if (students.isError) return <p className="alert alert-danger">Students could not be loaded.</p>;
  const list = students.data;

  return (
    <div className="stack">
      <div className="row between">
        <h2>
          Students <span className="muted">({list.length})</span>
        </h2>
        <div className="row">
          <Button variant="outline" size="sm" onClick={() => setImporting(true)}>
            Import Roster
          </Button>
          <Button variant="outline" size="sm" onClick={() => void flyers()} disabled={list.length === 0 || downloading}>
            {downloading ? 'Preparing...' : 'Download Flyers (PDF)'}
          </Button>
        </div>
      </div>
      <form onSubmit={submit} noValidate aria-label="Add a student" className="roster-add">
        <StudentFields idPrefix="student" values={values} errors={errors} set={set} />
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? 'Adding...' : 'Add Student'}
        </Button>
      </form>
      {list.length === 0 ? (
        <p className="muted">No students yet. Add them one by one or import the class list; each gets a private code for their flyer.</p>
      ) : (
        <div className="table-wrap">
          <table className="staff-table" aria-label={`Students of ${album.name}`}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Code</th>
                <th scope="col">Photos</th>
                <th scope="col">Do not publish</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((student) => (
                <tr key={student.id}>
                  <th scope="row">
                    {student.name}
                    {student.number ? <div className="muted photo-name">No. {student.number}</div> : null}
                    {student.guardianEmail ? <div className="muted photo-name">{student.guardianEmail}</div> : null}
                    {/* Under the name with the e-mail, not a column of its own: a tablet's row stays without sideways scrolling. */}
                    {student.guardianPhone ? (
                      <div className="muted photo-name roster-phone">
                        <span className="sr-only">{STUDENT_PHONE_MSG.column}: </span>
                        <span>{displayPhone(student.guardianPhone)}</span>
                      </div>
                    ) : null}
                  </th>
                  <td>
                    <code className="student-code">{student.code}</code>
                  </td>
                  <td>{student.photoCount}</td>
                  <td>
                    {/* Any staff member may set it; only an admin may clear it (docs/accounts.md, "What a photographer may not do"). */}
                    <Checkbox
                      checked={student.doNotPublish}
                      disabled={student.doNotPublish && !isAdmin}
                      title={student.doNotPublish && !isAdmin ? AUDIT_MSG.clearDoNotPublishAdminOnly : undefined}
                      onCheckedChange={(on) => setDoNotPublish(student, on === true)}
                      aria-label={`Do not publish ${student.name}`}
                    />
                  </td>
                  <td>
                    {/* Two lines at most on a tablet: the everyday actions, then the two that take a child away. */}
                    <div className="roster-actions">
                      <div className="row">
                        <Button variant="ghost" size="sm" onClick={() => void flyers(student)} aria-label={`Print flyer for ${student.name}`}>
                          Print Flyer
                        </Button>
                        <Button variant="ghost" size="sm" onClick={() => setEditing(student)} aria-label={`Edit ${student.name}`}>
                          Edit
                        </Button>
                        <Button variant="ghost" size="sm" onClick={() => setConfirm({ kind: 'new-code', student })} aria-label={`New code for ${student.name}`}>
                          New Code
                        </Button>
                      </div>
                      <div className="row">
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setConfirm({ kind: 'remove', student })}
                          aria-label={`Remove ${student.name}`}
                          aria-describedby={`${helpId}-remove`}
                          title={STAFF_SMALL_MSG.removeHelp}
                        >
                          Remove
                        </Button>
                        {isAdmin ? (
                          <Button
                            variant="ghost"
                            size="sm"
                            onClick={() => setConfirm({ kind: 'erase', student })}
                            aria-label={`Erase ${student.name}`}
                            aria-describedby={`${helpId}-erase`}
                            title={STAFF_SMALL_MSG.eraseHelp}
                          >
                            Erase
                          </Button>
                        ) : null}
                      </div>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.length > 0 ? (
        <ul className="muted roster-help">
          <li id={`${helpId}-remove`}>{STAFF_SMALL_MSG.removeHelp}</li>
          <li id={`${helpId}-erase`}>{STAFF_SMALL_MSG.eraseHelp}</li>
        </ul>
      ) : null}
      <RosterImportDialog albumId={album.id} albumName={album.name} open={importing} onOpenChange={setImporting} />
      <EditStudentDialog student={editing} albumId={album.id} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={confirm?.kind === 'erase' ? `Erase ${confirm.student.name}?` : confirm?.kind === 'remove' ? `Remove ${confirm.student.name}?` : `New code for ${confirm?.student.name ?? ''}?`}
        description={
          confirm?.kind === 'erase'
            ? `At the family's request: ${confirm.student.name}'s ${confirm.student.photoCount} photo(s) are deleted for good, with their code and roster entry. Paid orders keep their lines as text and their totals. This cannot be undone.`
            : confirm?.kind === 'remove'
              ? `${confirm.student.name} is taken off the roster and their code stops working.`
              : 'The current code stops working at once; print the new flyer for the family.'
        }
        confirmLabel={confirm?.kind === 'erase' ? 'Erase Student' : confirm?.kind === 'remove' ? 'Remove Student' : 'Issue New Code'}
        busy={remove.isPending || erase.isPending || update.isPending}
        onConfirm={runConfirmed}
      />
      {sold.dialog}
    </div>
  );
}

function EditStudentDialog({ student, albumId, onClose }: { student: Student | null; albumId: number; onClose: () => void }) {
  const update = useUpdateStudent(albumId);
  const { values, errors, set, handleSubmit, reset } = useZodForm(studentInputSchema, EMPTY);
  const [shown, setShown] = useState<number | null>(null);
  if (student && shown !== student.id) {
    setShown(student.id);
    reset({ name: student.name, number: student.number ?? '', guardianEmail: student.guardianEmail ?? '', guardianPhone: student.guardianPhone ? displayPhone(student.guardianPhone) : '' });
  }

  // The form shows only while a student is open.
  const submit = handleSubmit(() => {
    if (!student) return;
    update.mutate(
      { id: student.id, ...values },
      {
        onSuccess: (saved) => {
          toast({ title: STAFF_MSG.studentUpdatedTitle, description: STAFF_MSG.saved(saved.name), variant: 'success' });
          setShown(null);
          onClose();
        },
        onError: (err) => toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, PWA_MSG.updateStudentFailed), variant: 'destructive' }),
      },
    );
  });

  return (
    <Dialog
      open={student !== null}
      onOpenChange={(open) => {
        if (!open) {
          setShown(null);
          onClose();
        }
      }}
      title={`Edit ${student?.name ?? 'student'}`}
      size="sm"
    >
      <form onSubmit={submit} noValidate aria-label="Edit student">
        <StudentFields idPrefix="edit-student" values={values} errors={errors} set={set} />
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Student'}
        </Button>
      </form>
    </Dialog>
  );
}

import { useEffect, useState } from 'react';
import { HARDENING_MSG, MSG, PWA_MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { CLASS_PAGE_MSG } from '@contract/class-page';
import { albumCreateSchema } from '@contract/albums';
import type { AlbumSummary } from '@contract/schools';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { getStaffToken } from '../../../lib/storage';
import { useCreateClass, useUpdateClass } from '../api/albums';

/** The class form checks the name as the API does; the password is checked by the API. */
const classNameSchema = albumCreateSchema.pick({ name: true });

/**
 * Create a class, or edit its name and password. Editing a protected class keeps its password
 * unless a new one is typed or "Remove the password" is ticked: the old password is never shown,
 * so an untouched empty field must not read as "no password". A student-codes school's class has
 * no password field (families open it with their child's code), only the removal of an old one.
 */
export function ClassFormDialog({
  open,
  onOpenChange,
  schoolId,
  album,
  onSaved,
  codesSchool = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  schoolId: number;
  album: AlbumSummary | null;
  onSaved: (id: number) => void;
  /** A student-codes school: families open a class with their child's code, so no class password is offered (only removing an old one). */
  codesSchool?: boolean;
}) {
  const { values, set, setValues, handleSubmit } = useZodForm(classNameSchema, { name: '', password: '' });
  const { name, password } = values;
  const [removePassword, setRemovePassword] = useState(false);
  const create = useCreateClass();
  const update = useUpdateClass();
  const busy = create.isPending || update.isPending;

  useEffect(() => {
    if (open) {
      setValues({ name: album?.name ?? '', password: '' });
      setRemovePassword(false);
    }
  }, [open, album, setValues]);

  const submit = handleSubmit(save, (errors) => toast({ title: PWA_MSG.errorTitle, description: errors.name ?? MSG.classNameRequired, variant: 'destructive' }));

  function save() {
    if (album) {
      if (!getStaffToken()) return toast({ title: PWA_MSG.updateFailedTitle, description: STAFF_MSG.loginToUpdateClass, variant: 'destructive' });
      update.mutate(
        { id: album.id, name: name.trim(), password: removePassword ? null : password === '' ? undefined : password },
        {
          onSuccess: (saved) => {
            toast({ title: STAFF_MSG.classUpdatedTitle, description: STAFF_MSG.classUpdated(saved.name, saved.hasPassword), variant: 'success' });
            onSaved(saved.id);
            onOpenChange(false);
          },
          onError: (err) => toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, STAFF_MSG.updateClassFailed), variant: 'destructive' }),
        },
      );
    } else {
      create.mutate(
        { name: name.trim(), schoolId, ...(password ? { password } : {}) },
        {
          onSuccess: (saved) => {
            toast({ title: PWA_MSG.classCreatedTitle, description: `${saved.name} created successfully. You can now upload photos.`, variant: 'success' });
            onSaved(saved.id);
            onOpenChange(false);
          },
          onError: (err) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, PWA_MSG.createClassFailed), variant: 'destructive' }),
        },
      );
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={album ? 'Edit class' : 'Create class'} size="sm">
      <form onSubmit={submit} noValidate className="stack">
        <Field id="class-name" label="Class name" value={name} onChange={set('name')} />
        {codesSchool && !album?.hasPassword ? <p className="muted">{CLASS_PAGE_MSG.noClassPassword}</p> : null}
        {codesSchool && !album?.hasPassword ? null : (
          <Field
            id="class-password"
            label="Class password (optional)"
            type="password"
            autoComplete="new-password"
            value={password}
            disabled={removePassword}
            onChange={set('password')}
            hint={album?.hasPassword ? HARDENING_MSG.keepClassPasswordHint : 'Students must enter it to see this class.'}
            extra={
              album?.hasPassword ? (
                <div className="row">
                  <Checkbox
                    id="class-password-remove"
                    checked={removePassword}
                    onCheckedChange={(checked) => {
                      setRemovePassword(checked === true);
                      if (checked === true) setValues((current) => ({ ...current, password: '' }));
                    }}
                  />
                  <Label htmlFor="class-password-remove">{HARDENING_MSG.removeClassPassword}</Label>
                </div>
              ) : null
            }
          />
        )}
        <div className="row">
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving...' : album ? 'Save Class' : 'Create Class'}
          </Button>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

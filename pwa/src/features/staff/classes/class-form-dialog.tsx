import { useEffect, useState, type FormEvent } from 'react';
import { HARDENING_MSG, MSG } from '@contract/messages';
import type { AlbumSummary } from '@contract/schools';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Dialog } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { getStaffToken } from '../../../lib/storage';
import { useCreateClass, useUpdateClass } from '../api/albums';

/**
 * Create a class, or edit its name and password. Editing a protected class keeps its password
 * unless a new one is typed or "Remove the password" is ticked: the old password is never shown,
 * so an untouched empty field must not read as "no password".
 */
export function ClassFormDialog({ open, onOpenChange, schoolId, album, onSaved }: { open: boolean; onOpenChange: (open: boolean) => void; schoolId: number; album: AlbumSummary | null; onSaved: (id: number) => void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [removePassword, setRemovePassword] = useState(false);
  const create = useCreateClass();
  const update = useUpdateClass();
  const busy = create.isPending || update.isPending;

  useEffect(() => {
    if (open) {
      setName(album?.name ?? '');
      setPassword('');
      setRemovePassword(false);
    }
  }, [open, album]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return toast({ title: 'Error', description: MSG.classNameRequired, variant: 'destructive' });
    if (album) {
      if (!getStaffToken()) return toast({ title: 'Update Failed', description: 'You must be logged in to update a class. Please log in again.', variant: 'destructive' });
      update.mutate(
        { id: album.id, name: name.trim(), password: removePassword ? null : password === '' ? undefined : password },
        {
          onSuccess: (saved) => {
            toast({ title: 'Class Updated', description: `${saved.name} ${saved.hasPassword ? 'is password protected' : 'has no password'}.`, variant: 'success' });
            onSaved(saved.id);
            onOpenChange(false);
          },
          onError: (err) => toast({ title: 'Update Failed', description: errorMessage(err, 'Failed to update class'), variant: 'destructive' }),
        },
      );
    } else {
      create.mutate(
        { name: name.trim(), schoolId, ...(password ? { password } : {}) },
        {
          onSuccess: (saved) => {
            toast({ title: 'Class Created', description: `${saved.name} created successfully. You can now upload photos.`, variant: 'success' });
            onSaved(saved.id);
            onOpenChange(false);
          },
          onError: (err) => toast({ title: 'Error', description: errorMessage(err, 'Failed to create class'), variant: 'destructive' }),
        },
      );
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={album ? 'Edit class' : 'Create class'} size="sm">
      <form onSubmit={submit} noValidate className="stack">
        <div className="field">
          <Label htmlFor="class-name">Class name</Label>
          <Input id="class-name" value={name} onChange={(event) => setName(event.target.value)} />
        </div>
        <div className="field">
          <Label htmlFor="class-password">Class password (optional)</Label>
          <Input
            id="class-password"
            type="password"
            autoComplete="new-password"
            value={password}
            disabled={removePassword}
            onChange={(event) => setPassword(event.target.value)}
            aria-describedby="class-password-hint"
          />
          <p id="class-password-hint" className="muted">
            {album?.hasPassword ? HARDENING_MSG.keepClassPasswordHint : 'Students must enter it to see this class.'}
          </p>
          {album?.hasPassword ? (
            <div className="row">
              <Checkbox
                id="class-password-remove"
                checked={removePassword}
                onCheckedChange={(checked) => {
                  setRemovePassword(checked === true);
                  if (checked === true) setPassword('');
                }}
              />
              <Label htmlFor="class-password-remove">{HARDENING_MSG.removeClassPassword}</Label>
            </div>
          ) : null}
        </div>
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

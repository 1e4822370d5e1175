/** 'Class Password Required': success unlocks the class; failure keeps the dialog open with an error. */
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { AlbumSummary } from '@contract/schools';
import { FIRST_VISIT_MSG } from '@contract/first-visit-messages';
import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { ApiError } from '../../lib/api-client';
import { isGivenPassword } from '../../lib/form';
import { verifyClassPassword } from './api';

export interface ClassPasswordDialogProps {
  album: AlbumSummary | null;
  onCancel: () => void;
  onUnlocked: (album: AlbumSummary) => void;
}

export function ClassPasswordDialog({ album, onCancel, onUnlocked }: ClassPasswordDialogProps) {
  return (
    <Dialog
      open={album !== null}
      onOpenChange={(open) => !open && onCancel()}
      title="Class Password Required"
      description={album ? `${album.name} is protected. Enter the class password to view its photos.` : undefined}
      size="sm"
    >
      {album ? <ClassPasswordForm key={album.id} album={album} onCancel={onCancel} onUnlocked={onUnlocked} /> : null}
    </Dialog>
  );
}

function ClassPasswordForm({ album, onCancel, onUnlocked }: ClassPasswordDialogProps & { album: AlbumSummary }) {
  // Checked with isGivenPassword, not useZodForm: zod stays out of what a parent's first visit downloads.
  const [password, setPassword] = useState('');
  const isValid = isGivenPassword(password);
  const [error, setError] = useState<string | null>(null);
  const verify = useMutation({
    mutationFn: () => verifyClassPassword(album.id, password),
    onSuccess: (result) => {
      if (result.success) onUnlocked(album);
      else setError(FIRST_VISIT_MSG.incorrectClassPassword);
    },
    onError: (err) => {
      setError(err instanceof ApiError && err.status === 429 && err.serverMessage ? err.serverMessage : 'Failed to verify password. Please try again.');
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isValid || verify.isPending) return;
    setError(null);
    verify.mutate();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Field label="Class password" type="password" autoComplete="off" autoFocus value={password} error={error} onChange={(event) => setPassword(event.target.value)} />
      <div className="dialog-footer">
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={!isValid || verify.isPending}>
          {verify.isPending ? 'Verifying...' : 'Access Photos'}
        </Button>
      </div>
    </form>
  );
}

import { useState } from 'react';
import type { AlbumSummary } from '@contract/schools';
import { MATCHING_MSG, PWA_MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { useSession } from '../../../lib/session';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { PageSpinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAlbumPhotos, useDeletePhotos } from '../api/albums';
import { useAlbumStudents, useAssignPhotos } from '../api/students';
import { useSoldPhotoConfirm } from '../common/sold-photo-confirm';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { AuthedImage } from '../../../components/authed-image';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { GROUP, StudentOptions } from './student-fields';


/**
 * The selected class's photos with multi-select, bulk delete and assignment to a student (or back
 * to the class's group photos, which every family of the class sees).
 */
export function ClassPhotos({ album }: { album: AlbumSummary }) {
  const photos = useAlbumPhotos(album.id);
  const students = useAlbumStudents(album.id);
  const remove = useDeletePhotos(album.id);
  // Deleting photos is an admin's (docs/accounts.md, "What a photographer may not do").
  const isAdmin = useSession().staffUser?.role === 'admin';
  const assign = useAssignPhotos(album.id);
  const sold = useSoldPhotoConfirm();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [unassignedOnly, setUnassignedOnly] = useState(false);
  const [target, setTarget] = useState('');
  const nameOf = new Map((students.data ?? []).map((student) => [student.id, student.name]));

  const applyAssignment = (confirm = false) => {
    const studentId = target === GROUP ? null : Number(target);
    const who = studentId === null ? 'group photos' : (nameOf.get(studentId) ?? 'the student');
    assign.mutate(
      { photoIds: [...selected], studentId, confirm },
      {
        onSuccess: (result) => {
          toast({ title: STAFF_MSG.photosAssignedTitle, description: STAFF_MSG.photosAssigned(result.updated, who), variant: 'success' });
          setSelected(new Set());
          setTarget('');
        },
        onError: (err) => {
          // A photo a family paid for: say what will happen first (docs/access.md, "Moving a sold photo").
          if (sold.intercept(err, 'move', () => applyAssignment(true))) return;
          toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, PWA_MSG.assignPhotosFailed), variant: 'destructive' });
        },
      },
    );
  };

  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const confirmDelete = () =>
    remove.mutate([...selected], {
      onSuccess: (result) => {
        toast({ title: STAFF_MSG.photosDeletedTitle, description: STAFF_MSG.photosDeleted(result.deletedCount), variant: 'success' });
        setSelected(new Set());
      },
      onError: (err) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, STAFF_MSG.deletePhotosFailed), variant: 'destructive' }),
      onSettled: () => setConfirming(false),
    });

  if (photos.isPending) return <PageSpinner label="Loading photos..." />;
  if (photos.isError) return <p className="alert alert-danger">Photos could not be loaded.</p>;
  const all = unassignedOnly ? photos.data.filter((photo) => photo.studentId === null) : photos.data;
  // Card photos are never assigned (families never see them), so selecting all leaves them out.
  const selectable = all.filter((photo) => !photo.card);

  return (
    <div className="stack">
      <div className="row between">
        <h2>
          {album.name} <span className="muted">({all.length} photos)</span>
        </h2>
        <div className="row">
          {all.length > 0 ? (
            <Button variant="outline" size="sm" onClick={() => setSelected(selected.size === selectable.length ? new Set() : new Set(selectable.map((photo) => photo.id)))}>
              {selected.size === selectable.length ? 'Clear Selection' : 'Select All'}
            </Button>
          ) : null}
          {isAdmin ? (
            <Button variant="destructive" size="sm" disabled={selected.size === 0} onClick={() => setConfirming(true)}>
              Delete Selected ({selected.size})
            </Button>
          ) : null}
        </div>
      </div>
      <label className="row">
        <Checkbox checked={unassignedOnly} onCheckedChange={(on) => setUnassignedOnly(on === true)} />
        <span>Show only unassigned (group) photos</span>
      </label>
      {selected.size > 0 ? (
        <div className="assign-bar" role="group" aria-label="Assign selected photos">
          <div className="field">
            <Label htmlFor="assign-target">Assign {selected.size} selected photo(s) to</Label>
            <Select id="assign-target" value={target} onChange={(event) => setTarget(event.target.value)}>
              <option value="">Choose a student...</option>
              <option value={GROUP}>Group photo (every family of the class)</option>
              <StudentOptions students={students.data ?? []} />
            </Select>
          </div>
          <Button onClick={() => applyAssignment()} disabled={target === '' || assign.isPending}>
            {assign.isPending ? 'Assigning...' : 'Assign'}
          </Button>
        </div>
      ) : null}
      {photos.data.length === 0 ? <p className="muted">No photos in this class yet. Upload them from the dashboard's Upload Photos tab.</p> : null}
      {photos.data.length > 0 && all.length === 0 ? <p className="muted">Every photo of this class is assigned to a student.</p> : null}
      <ul className="staff-photo-grid">
        {all.map((photo) => (
          <li key={photo.id} className={selected.has(photo.id) ? 'staff-photo selected' : 'staff-photo'}>
            <AuthedImage src={`/api/images/${photo.id}/thumbnail`} alt={photo.originalName} width={photo.thumbnailWidth} height={photo.thumbnailHeight} />
            <label className="row">
              <Checkbox checked={selected.has(photo.id)} disabled={photo.card === true} onCheckedChange={(on) => toggle(photo.id, on === true)} aria-label={`Select ${photo.originalName}`} />
              <span className="photo-name">{photo.originalName}</span>
            </label>
            <p className="photo-student muted" style={{ margin: 0, padding: '0 var(--space-2) var(--space-2)' }}>
              {photo.card ? 'Card photo (never shown to families)' : photo.inTray ? `${MATCHING_MSG.trayTitle}: not shown to families yet` : photo.studentId === null ? 'Group photo' : (nameOf.get(photo.studentId) ?? 'Student')}
            </p>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete selected photos?"
        description={`${selected.size} photo(s) will be deleted from ${album.name}. This cannot be undone.`}
        confirmLabel="Delete Photos"
        busy={remove.isPending}
        onConfirm={confirmDelete}
      />
      {sold.dialog}
    </div>
  );
}

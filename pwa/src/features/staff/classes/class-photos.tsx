import { useState } from 'react';
import type { AlbumSummary } from '@contract/schools';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { PageSpinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAlbumPhotos, useDeletePhotos } from '../api/albums';
import { AuthedImage } from '../common/authed-image';
import { ConfirmDialog } from '../common/confirm-dialog';

/** The selected class's photos with multi-select and bulk delete. */
export function ClassPhotos({ album }: { album: AlbumSummary }) {
  const photos = useAlbumPhotos(album.id);
  const remove = useDeletePhotos(album.id);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [confirming, setConfirming] = useState(false);

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
        toast({ title: 'Photos Deleted', description: `${result.deletedCount} photo(s) deleted.`, variant: 'success' });
        setSelected(new Set());
      },
      onError: (err) => toast({ title: 'Error', description: errorMessage(err, 'Failed to delete photos'), variant: 'destructive' }),
      onSettled: () => setConfirming(false),
    });

  if (photos.isPending) return <PageSpinner label="Loading photos..." />;
  if (photos.isError) return <p className="alert alert-danger">Photos could not be loaded.</p>;
  const all = photos.data;

  return (
    <div className="stack">
      <div className="row between">
        <h2>
          {album.name} <span className="muted">({all.length} photos)</span>
        </h2>
        <div className="row">
          {all.length > 0 ? (
            <Button variant="outline" size="sm" onClick={() => setSelected(selected.size === all.length ? new Set() : new Set(all.map((photo) => photo.id)))}>
              {selected.size === all.length ? 'Clear Selection' : 'Select All'}
            </Button>
          ) : null}
          <Button variant="destructive" size="sm" disabled={selected.size === 0} onClick={() => setConfirming(true)}>
            Delete Selected ({selected.size})
          </Button>
        </div>
      </div>
      {all.length === 0 ? <p className="muted">No photos in this class yet. Upload them from the dashboard's Upload Photos tab.</p> : null}
      <ul className="staff-photo-grid">
        {all.map((photo) => (
          <li key={photo.id} className={selected.has(photo.id) ? 'staff-photo selected' : 'staff-photo'}>
            <AuthedImage src={`/api/images/${photo.id}/thumbnail`} alt={photo.originalName} width={photo.thumbnailWidth} height={photo.thumbnailHeight} />
            <label className="row">
              <Checkbox checked={selected.has(photo.id)} onCheckedChange={(on) => toggle(photo.id, on === true)} aria-label={`Select ${photo.originalName}`} />
              <span className="photo-name">{photo.originalName}</span>
            </label>
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
    </div>
  );
}

import { useState } from 'react';
import { PWA_MSG } from '@contract/messages';
import { STAFF_MSG, TRAY_MSG } from '@contract/staff-screen-messages';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeletePhotos } from '../api/albums';
import { useMarkCards } from '../api/tray';
import { useSoldPhotoConfirm } from '../common/sold-photo-confirm';

type Asked = { id: number; originalName: string };

/**
 * "This is a card photo", asked first: a card is a card for good (never shown, sold or given to a
 * child again), and the photos taken after it leave their child for the tray.
 */
export function useMarkCardDialog(albumId: number) {
  const mark = useMarkCards(albumId);
  const sold = useSoldPhotoConfirm();
  const [asked, setAsked] = useState<Asked | null>(null);
  const send = (photo: Asked, confirmed: boolean) =>
    mark.mutate(confirmed ? { photoIds: [photo.id], confirm: true } : [photo.id], {
      onSuccess: () => toast({ title: TRAY_MSG.markedTitle, description: TRAY_MSG.marked(photo.originalName), variant: 'success' }),
      onError: (err) => {
        // A photo a family paid for: say what will happen first (docs/access.md, "Moving a sold photo").
        if (sold.intercept(err, 'tray', () => send(photo, true))) return;
        toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, TRAY_MSG.markFailed), variant: 'destructive' });
      },
      onSettled: () => setAsked(null),
    });
  const confirm = () => {
    if (asked) send(asked, false);
  };
  return {
    ask: setAsked,
    busy: mark.isPending,
    dialog: (
      <ConfirmDialog
        open={asked !== null}
        onOpenChange={(open) => !open && setAsked(null)}
        title={TRAY_MSG.markCardTitle}
        description={asked ? TRAY_MSG.markCardConfirm(asked.originalName) : ''}
        confirmLabel={TRAY_MSG.markCard}
        confirmVariant="primary"
        busy={mark.isPending}
        onConfirm={confirm}
      />
    ),
    soldDialog: sold.dialog,
  };
}

/** Deleting one photo of the class, asked first (it cannot be undone). */
export function useDeletePhotoDialog(albumId: number) {
  const remove = useDeletePhotos(albumId);
  const [asked, setAsked] = useState<Asked | null>(null);
  const confirm = () => {
    if (!asked) return;
    remove.mutate([asked.id], {
      onSuccess: () => toast({ title: STAFF_MSG.photosDeletedTitle, description: TRAY_MSG.photoDeleted(asked.originalName), variant: 'success' }),
      onError: (err) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, STAFF_MSG.deletePhotosFailed), variant: 'destructive' }),
      onSettled: () => setAsked(null),
    });
  };
  return {
    ask: setAsked,
    busy: remove.isPending,
    dialog: (
      <ConfirmDialog
        open={asked !== null}
        onOpenChange={(open) => !open && setAsked(null)}
        title={TRAY_MSG.deletePhotoTitle}
        description={asked ? TRAY_MSG.deletePhotoConfirm(asked.originalName) : ''}
        confirmLabel={TRAY_MSG.deletePhotoConfirmLabel}
        busy={remove.isPending}
        onConfirm={confirm}
      />
    ),
  };
}

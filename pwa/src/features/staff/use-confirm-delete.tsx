/** Deleting one item on a staff screen: ask first, then delete, then say how it went. */
import { useState } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { PWA_MSG } from '@contract/messages';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { toast } from '../../components/ui/toast';

export interface ConfirmDeleteTexts<T> {
  /** The dialog's question, its description (the item, or null while it closes) and its button. */
  title: string;
  description: (item: T | null) => string;
  confirmLabel: string;
  /** The toasts after the answer. */
  deletedTitle: string;
  deleted: (item: T) => string;
  failed: (err: unknown) => string;
}

/**
 * The item waiting for an answer, and the dialog that asks. `ask(item)` opens the dialog; on
 * confirm the mutation runs with the item's id, a toast tells the result, and the dialog closes.
 */
export function useConfirmDelete<T extends { id: number }, TData>(
  remove: Pick<UseMutationResult<TData, Error, number>, 'mutate' | 'isPending'>,
  texts: ConfirmDeleteTexts<T>,
  onDeleted?: (item: T) => void,
) {
  const [deleting, setDeleting] = useState<T | null>(null);

  const confirm = () => {
    if (!deleting) return;
    const item = deleting;
    remove.mutate(item.id, {
      onSuccess: () => {
        toast({ title: texts.deletedTitle, description: texts.deleted(item), variant: 'success' });
        onDeleted?.(item);
      },
      onError: (err) => toast({ title: PWA_MSG.errorTitle, description: texts.failed(err), variant: 'destructive' }),
      onSettled: () => setDeleting(null),
    });
  };

  const dialog = (
    <ConfirmDialog
      open={deleting !== null}
      onOpenChange={(open) => !open && setDeleting(null)}
      title={texts.title}
      description={texts.description(deleting)}
      confirmLabel={texts.confirmLabel}
      busy={remove.isPending}
      onConfirm={confirm}
    />
  );

  return { ask: setDeleting, dialog };
}

import { PWA_MSG } from '@contract/messages';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { Button, type ButtonVariant } from './button';
import { cx } from './cx';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  /** The button that leaves things as they are; "Cancel" unless that would read as the action. */
  cancelLabel?: string;
  busy?: boolean;
  /** Destructive by default; a step forward (such as marking a batch delivered) is primary. */
  confirmVariant?: ButtonVariant;
  onConfirm: () => void;
  onOpenChange: (open: boolean) => void;
}

/**
 * Asks before a destructive action or any step that cannot be undone. Focus starts on Cancel, and a
 * click outside does not dismiss it (Escape and Cancel do). It keeps the role "dialog" that the
 * end-to-end tests look for.
 */
export function ConfirmDialog({ open, title, description, confirmLabel, cancelLabel = 'Cancel', busy = false, confirmVariant = 'destructive', onConfirm, onOpenChange }: ConfirmDialogProps) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content role="dialog" className={cx('dialog', 'dialog-sm')}>
          <div className="dialog-header">
            <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
            <AlertDialog.Description className="dialog-description">{description}</AlertDialog.Description>
          </div>
          <div className="dialog-footer">
            <AlertDialog.Cancel asChild>
              <Button variant="outline" disabled={busy}>
                {cancelLabel}
              </Button>
            </AlertDialog.Cancel>
            {/* Not an AlertDialog.Action: the dialog stays open, busy, until the caller closes it. */}
            <Button variant={confirmVariant} onClick={onConfirm} disabled={busy}>
              {busy ? PWA_MSG.working : confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

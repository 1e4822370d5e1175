import { Button, type ButtonVariant } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  busy?: boolean;
  /** Destructive by default; a step forward (such as marking a batch delivered) is primary. */
  confirmVariant?: ButtonVariant;
  onConfirm: () => void;
  onOpenChange: (open: boolean) => void;
}

/** Every destructive staff action asks first (spec section 2), and so does any step that cannot be undone. */
export function ConfirmDialog({ open, title, description, confirmLabel, busy = false, confirmVariant = 'destructive', onConfirm, onOpenChange }: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </Button>
          <Button variant={confirmVariant} onClick={onConfirm} disabled={busy}>
            {busy ? 'Working...' : confirmLabel}
          </Button>
        </>
      }
    />
  );
}

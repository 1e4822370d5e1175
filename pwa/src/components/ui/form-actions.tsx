/** A form's submit button that says when it is working, and the submit-and-cancel row of staff forms. */
import { Button, type ButtonProps } from './button';

export interface SubmitButtonProps extends Omit<ButtonProps, 'type'> {
  busy: boolean;
  /** Shown instead of the label while busy (such as "Saving..."). */
  busyLabel: string;
}

/** Disabled while busy (or when told), with the busy label in place of its own. */
export function SubmitButton({ busy, busyLabel, disabled, children, ...props }: SubmitButtonProps) {
  return (
    <Button type="submit" disabled={busy || disabled} {...props}>
      {busy ? busyLabel : children}
    </Button>
  );
}

/** Submit and Cancel side by side. */
export function FormActions({ busy, busyLabel, label, onCancel }: { busy: boolean; busyLabel: string; label: string; onCancel: () => void }) {
  return (
    <div className="row">
      <SubmitButton busy={busy} busyLabel={busyLabel}>
        {label}
      </SubmitButton>
      <Button variant="outline" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}

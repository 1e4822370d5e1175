import { useId, useState, type InputHTMLAttributes } from 'react';
import { Input } from './input';
import { FieldError, Label } from './label';

export interface PasswordFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  label: string;
  error?: string | null;
}

/** A password input with a show/hide toggle that says what it does. */
export function PasswordField({ label, error, ...props }: PasswordFieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className="field">
      <Label htmlFor={id}>{label}</Label>
      <div className="password-field">
        <Input id={id} type={visible ? 'text' : 'password'} invalid={Boolean(error)} aria-describedby={error ? `${id}-error` : undefined} {...props} />
        <button
          type="button"
          className="btn btn-ghost btn-sm password-toggle"
          aria-controls={id}
          aria-pressed={visible}
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          onClick={() => setVisible((value) => !value)}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
      <FieldError id={`${id}-error`}>{error ?? null}</FieldError>
    </div>
  );
}

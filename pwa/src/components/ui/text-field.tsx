import { useId, type InputHTMLAttributes } from 'react';
import { Input } from './input';
import { FieldError, Label } from './label';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string | null;
  hint?: string;
}

/** Label + input + error, wired for screen readers (aria-invalid, aria-describedby). */
export function TextField({ label, error, hint, ...props }: TextFieldProps) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} invalid={Boolean(error)} aria-describedby={describedBy} {...props} />
      {hint ? (
        <p id={`${id}-hint`} className="muted" style={{ fontSize: '0.875rem', margin: 'var(--space-1) 0 0' }}>
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`}>{error ?? null}</FieldError>
    </div>
  );
}

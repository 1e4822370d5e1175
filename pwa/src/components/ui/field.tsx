import { useId, useState, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { Input, Textarea } from './input';
import { FieldError, Label } from './label';

interface FieldBase {
  label: string;
  error?: string | null;
  hint?: string;
  /** A password input with a Show/Hide button that says what it does. */
  revealable?: boolean;
  /** Shown under the hint, inside the field (such as a checkbox that belongs to it). */
  extra?: ReactNode;
}

/** A one-line input (the default), or with `multiline` a textarea (such as notes). */
export type FieldProps = FieldBase &
  ((InputHTMLAttributes<HTMLInputElement> & { multiline?: false }) | (TextareaHTMLAttributes<HTMLTextAreaElement> & { multiline: true; revealable?: false }));

/**
 * The one form field: label, input, hint and error, wired for screen readers (aria-invalid,
 * aria-describedby). Without an id, one is made up.
 */
export function Field(fieldProps: FieldProps) {
  const { id: givenId, label, error, hint, revealable = false, extra } = fieldProps;
  const madeUpId = useId();
  const id = givenId ?? madeUpId;
  const [visible, setVisible] = useState(false);
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  let input: ReactNode;
  if (fieldProps.multiline) {
    const { id: _id, label: _label, error: _error, hint: _hint, revealable: _revealable, extra: _extra, multiline: _multiline, ...props } = fieldProps;
    input = <Textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...props} />;
  } else {
    const { id: _id, label: _label, error: _error, hint: _hint, revealable: _revealable, extra: _extra, multiline: _multiline, type, ...props } = fieldProps;
    input = <Input id={id} type={revealable ? (visible ? 'text' : 'password') : type} invalid={Boolean(error)} aria-describedby={describedBy} {...props} />;
  }
  return (
    <div className="field">
      <Label htmlFor={id}>{label}</Label>
      {revealable ? (
        <div className="password-field">
          {input}
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
      ) : (
        input
      )}
      {hint ? (
        <p id={`${id}-hint`} className="muted" style={{ fontSize: '0.875rem', margin: 'var(--space-1) 0 0' }}>
          {hint}
        </p>
      ) : null}
      {extra}
      <FieldError id={`${id}-error`}>{error ?? null}</FieldError>
    </div>
  );
}

import type { InputHTMLAttributes } from 'react';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';

/** A labelled input with its error tied by aria-describedby. */
export function Field({ id, label, error, ...props }: InputHTMLAttributes<HTMLInputElement> & { id: string; label: string; error?: string | null }) {
  return (
    <div className="field">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} invalid={Boolean(error)} aria-describedby={error ? `${id}-error` : undefined} {...props} />
      <FieldError id={`${id}-error`}>{error ?? null}</FieldError>
    </div>
  );
}

/** First message per field from a zod error's issues. */
export function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '');
    errors[key] ??= issue.message;
  }
  return errors;
}

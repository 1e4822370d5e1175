import type { LabelHTMLAttributes } from 'react';
import { cx } from './cx';

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cx('label', className)} {...props} />;
}

/** A field error, tied to its input with aria-describedby={id}. */
export function FieldError({ id, children }: { id: string; children?: string | null }) {
  if (!children) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {children}
    </p>
  );
}

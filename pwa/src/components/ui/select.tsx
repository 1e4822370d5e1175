import type { Ref, SelectHTMLAttributes } from 'react';
import { cx } from './cx';

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  ref?: Ref<HTMLSelectElement>;
}

/**
 * A styled native select: phones show their own picker, screen readers know it, and it costs no
 * JavaScript on the home page (a parent's first visit).
 */
export function Select({ className, children, ...props }: SelectProps) {
  return (
    <span className="select-wrap">
      <select className={cx('input', 'select', className)} {...props}>
        {children}
      </select>
    </span>
  );
}

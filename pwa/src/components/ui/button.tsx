import type { ButtonHTMLAttributes, Ref } from 'react';
import { cx } from './cx';

export type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'destructive';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'md' | 'sm' | 'lg';
  block?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/** The one button: 44 px minimum touch target, visible focus ring (styles/components.css). */
export function Button({ variant = 'primary', size = 'md', block = false, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={cx('btn', `btn-${variant}`, size !== 'md' && `btn-${size}`, block && 'btn-block', className)} {...props} />;
}

/** Link styles for react-router Links and anchors that look like buttons. */
export const buttonClass = (variant: ButtonVariant = 'primary', extra?: string) => cx('btn', `btn-${variant}`, extra);

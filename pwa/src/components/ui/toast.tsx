/**
 * One toast system: at most TOAST_LIMIT visible, TOAST_DURATION_MS each, swipe
 * right past TOAST_SWIPE_THRESHOLD_PX to dismiss, F8 focuses the region (Radix's default hotkey),
 * viewport at most 420 px wide from medium screens up (styles). `toast()` works from anywhere.
 */
import * as ToastPrimitive from '@radix-ui/react-toast';
import { useSyncExternalStore } from 'react';
import { TOAST_DURATION_MS, TOAST_LIMIT, TOAST_SWIPE_THRESHOLD_PX } from '@contract/constants';
import { cx } from './cx';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive' | 'success';
  action?: { label: string; altText: string; onClick: () => void };
  /** Override the display time; Infinity keeps it until dismissed (update prompt). */
  duration?: number;
}
interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

let nextId = 0;
let items: ToastItem[] = [];
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function toast(input: ToastInput): number {
  nextId += 1;
  items = [{ ...input, id: nextId, open: true }, ...items].slice(0, TOAST_LIMIT);
  emit();
  return nextId;
}

export function dismissToast(id: number): void {
  items = items.filter((item) => item.id !== id);
  emit();
}

export function resetToasts(): void {
  items = [];
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, () => items, () => items);
}

export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD_PX} label="Notification">
      {toasts.map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          open={item.open}
          duration={item.duration}
          type={item.variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id);
          }}
          className={cx('toast', item.variant && `toast-${item.variant}`)}
        >
          <ToastPrimitive.Title className="toast-title">{item.title}</ToastPrimitive.Title>
          {item.description ? <ToastPrimitive.Description className="toast-description">{item.description}</ToastPrimitive.Description> : null}
          {item.action ? (
            <ToastPrimitive.Action className="btn btn-outline btn-sm" altText={item.action.altText} onClick={item.action.onClick}>
              {item.action.label}
            </ToastPrimitive.Action>
          ) : null}
          <ToastPrimitive.Close className="toast-close" aria-label="Dismiss notification">
            <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
              <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="toast-viewport" />
    </ToastPrimitive.Provider>
  );
}

/**
 * One toast system: at most TOAST_LIMIT visible, TOAST_DURATION_MS each (paused while the pointer
 * or the focus is on it, or the window is in the background), swipe right past
 * TOAST_SWIPE_THRESHOLD_PX to dismiss, Escape dismisses the focused one, F8 focuses the region,
 * viewport at most 420 px wide from medium screens up (styles). `toast()` works from anywhere.
 * Each new toast is read out by a live region that is always there (assertive for a destructive
 * one), as a region added with its text is not announced reliably; the toasts themselves are
 * plain items of the region's list. The browser's own events, not
 * Radix's Toast: its 5 KiB compressed were part of every first visit (docs/performance.md, "What
 * loads when").
 */
import { useEffect, useRef, useState, useSyncExternalStore, type PointerEvent } from 'react';
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

/** What the live region reads out for a toast: "Notification", its texts and what its action does. */
const announcement = (item: ToastItem) => `Notification: ${[item.title, item.description, item.action?.altText].filter(Boolean).join('. ')}`;

export function Toaster() {
  const toasts = useToasts();
  const viewport = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'F8') viewport.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  const [newest] = toasts;
  const urgent = newest?.variant === 'destructive';
  return (
    <div role="region" aria-label="Notifications (F8)" tabIndex={-1}>
      <ol ref={viewport} className="toast-viewport" tabIndex={-1}>
        {toasts.map((item) => (
          <ToastView key={item.id} item={item} />
        ))}
      </ol>
      <div className="sr-only" aria-live="polite" aria-atomic="true">
        {newest && !urgent ? announcement(newest) : null}
      </div>
      <div className="sr-only" aria-live="assertive" aria-atomic="true">
        {newest && urgent ? announcement(newest) : null}
      </div>
    </div>
  );
}

function ToastView({ item }: { item: ToastItem }) {
  const [held, setHeld] = useState({ pointer: false, focus: false, hidden: typeof document !== 'undefined' && document.hidden });
  const [swipe, setSwipe] = useState<{ start: number; x: number } | null>(null);
  const duration = item.duration ?? TOAST_DURATION_MS;
  const left = useRef(duration);
  const paused = held.pointer || held.focus || held.hidden;

  useEffect(() => {
    const onVisibility = () => setHeld((state) => ({ ...state, hidden: document.hidden }));
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);
  // The time left runs only while nothing holds the toast.
  useEffect(() => {
    if (paused || !Number.isFinite(left.current)) return;
    const started = Date.now();
    const timer = window.setTimeout(() => dismissToast(item.id), left.current);
    return () => {
      window.clearTimeout(timer);
      left.current -= Date.now() - started;
    };
  }, [paused, item.id]);

  const onPointerUp = (event: PointerEvent) => {
    if (!swipe) return;
    setSwipe(null);
    if (event.clientX - swipe.start > TOAST_SWIPE_THRESHOLD_PX) dismissToast(item.id);
  };
  return (
    // A plain list item (a role on it would break the list); the live regions read it out.
    <li
      tabIndex={0}
      className={cx('toast', item.variant && `toast-${item.variant}`)}
      data-swipe={swipe ? 'move' : undefined}
      style={swipe ? { transform: `translateX(${Math.max(0, swipe.x - swipe.start)}px)` } : undefined}
      onPointerEnter={() => setHeld((state) => ({ ...state, pointer: true }))}
      onPointerLeave={() => setHeld((state) => ({ ...state, pointer: false }))}
      onFocus={() => setHeld((state) => ({ ...state, focus: true }))}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setHeld((state) => ({ ...state, focus: false }));
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') dismissToast(item.id);
      }}
      onPointerDown={(event) => {
        // The buttons keep their own taps; anywhere else a press may start a swipe.
        if ((event.target as Element).closest('button') || event.button !== 0) return;
        event.currentTarget.setPointerCapture?.(event.pointerId);
        setSwipe({ start: event.clientX, x: event.clientX });
      }}
      onPointerMove={(event) => swipe && setSwipe({ ...swipe, x: event.clientX })}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setSwipe(null)}
    >
      <div className="toast-title">{item.title}</div>
      {item.description ? <div className="toast-description">{item.description}</div> : null}
      {item.action ? (
        <button
          type="button"
          className="btn btn-outline btn-sm"
          onClick={() => {
            item.action?.onClick();
            dismissToast(item.id);
          }}
        >
          {item.action.label}
        </button>
      ) : null}
      <button type="button" className="toast-close" aria-label="Dismiss notification" onClick={() => dismissToast(item.id)}>
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </li>
  );
}

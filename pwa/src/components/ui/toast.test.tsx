import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX } from '@contract/constants';
import { Toaster, resetToasts, toast } from './toast';

afterEach(() => act(() => resetToasts()));

describe('toasts', () => {
  it('shows at most one at a time: the newest replaces the older', () => {
    const { container } = render(<Toaster />);
    act(() => {
      toast({ title: 'Added to Cart', description: '1 product(s) added to your cart' });
      toast({ title: 'Access Denied', description: 'Invalid password. Please try again.', variant: 'destructive' });
      toast({ title: 'Access Granted', description: 'Welcome to Demo Primary School' });
    });
    const toasts = container.ownerDocument.querySelectorAll('li.toast');
    expect(toasts).toHaveLength(1);
    expect(toasts[0]?.textContent).toContain('Access Granted');
    expect(toasts[0]?.textContent).toContain('Welcome to Demo Primary School');
  });

  it('has a labelled region that F8 focuses', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Email sent!' });
    });
    const region = screen.getByRole('region', { name: /Notification.*F8/ });
    fireEvent.keyDown(document, { key: 'F8' });
    expect(region.contains(document.activeElement)).toBe(true);
  });
});

describe('a toast on screen', () => {
  afterEach(() => vi.useRealTimers());

  it('goes after TOAST_DURATION_MS, but not while the pointer is on it', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => void toast({ title: 'Added to Cart' }));
    const shown = screen.getByText('Added to Cart').closest('li') as HTMLElement;
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1000));
    fireEvent.pointerEnter(shown);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 3));
    expect(screen.queryByText('Added to Cart')).not.toBeNull();
    fireEvent.pointerLeave(shown);
    act(() => vi.advanceTimersByTime(900));
    expect(screen.queryByText('Added to Cart')).not.toBeNull();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Added to Cart')).toBeNull();
  });

  it('stays with an infinite duration until dismissed; Escape or the close button dismisses it', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => void toast({ title: 'Update available', duration: Infinity }));
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 10));
    fireEvent.keyDown(screen.getByText('Update available').closest('li') as HTMLElement, { key: 'Escape' });
    expect(screen.queryByText('Update available')).toBeNull();
    act(() => void toast({ title: 'Email sent!', duration: Infinity }));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Email sent!')).toBeNull();
  });

  it('is read out by a live region that was there before it, assertively when destructive; its action runs and dismisses it', () => {
    const { container } = render(<Toaster />);
    const polite = container.querySelector('[aria-live="polite"]');
    const assertive = container.querySelector('[aria-live="assertive"]');
    expect(polite?.textContent).toBe('');
    act(() => void toast({ title: 'Access Granted', description: 'Welcome to Demo Primary School' }));
    expect(polite?.textContent).toBe('Notification: Access Granted. Welcome to Demo Primary School');
    const onClick = vi.fn();
    act(() => void toast({ title: 'Access Denied', variant: 'destructive', action: { label: 'Retry', altText: 'Try the password again', onClick } }));
    expect(assertive?.textContent).toBe('Notification: Access Denied. Try the password again');
    expect(polite?.textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Access Denied')).toBeNull();
  });

  it('goes when swiped right past TOAST_SWIPE_THRESHOLD_PX, and stays after a shorter swipe', () => {
    render(<Toaster />);
    act(() => void toast({ title: 'Added to Cart', duration: Infinity }));
    const shown = () => screen.getByText('Added to Cart').closest('li') as HTMLElement;
    fireEvent.pointerDown(shown(), { clientX: 100, button: 0, pointerId: 1 });
    fireEvent.pointerMove(shown(), { clientX: 100 + TOAST_SWIPE_THRESHOLD_PX - 10 });
    fireEvent.pointerUp(shown(), { clientX: 100 + TOAST_SWIPE_THRESHOLD_PX - 10 });
    expect(shown()).toBeTruthy();
    fireEvent.pointerDown(shown(), { clientX: 100, button: 0, pointerId: 1 });
    fireEvent.pointerUp(shown(), { clientX: 100 + TOAST_SWIPE_THRESHOLD_PX + 10 });
    expect(screen.queryByText('Added to Cart')).toBeNull();
  });
});

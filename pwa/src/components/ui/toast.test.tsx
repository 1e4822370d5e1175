import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
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
    expect(screen.getByRole('region', { name: /Notification.*F8/ })).toBeTruthy();
  });
});

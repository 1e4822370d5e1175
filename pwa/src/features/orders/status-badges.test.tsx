import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OrderBadges } from './status-badges';

describe('an order\'s badges on a parent\'s screen', () => {
  it('a cancelled order never paid shows "Cancelled" alone, no "Payment pending"', () => {
    const { container } = render(<OrderBadges status="cancelled" paymentStatus="pending" />);
    expect(screen.getByText('Cancelled')).toBeTruthy();
    expect(container.textContent).not.toMatch(/Payment pending/i);
  });

  it('a cancelled order paid meanwhile still says so, an unpaid one its payment alone', () => {
    const { container, rerender } = render(<OrderBadges status="cancelled" paymentStatus="completed" />);
    expect(container.textContent).toContain('Payment completed');
    rerender(<OrderBadges status="pending" paymentStatus="pending" />);
    expect(container.textContent).toBe('Payment pending');
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CheckoutForm } from './checkout-form';

describe('the checkout form', () => {
  it('shows the spec messages and sends nothing while invalid', async () => {
    const onSubmit = vi.fn();
    render(<CheckoutForm initial={{}} busy={false} busyLabel="Placing order..." onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('button', { name: 'Place Order and Pay' }));
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Valid email is required')).toBeTruthy();
    expect(screen.getByText('Student name is required')).toBeTruthy();
    expect(screen.getByLabelText('Your name').getAttribute('aria-invalid')).toBe('true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits trimmed values with an optional phone left empty', async () => {
    const onSubmit = vi.fn();
    render(<CheckoutForm initial={{}} busy={false} busyLabel="Placing order..." onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Your name'), ' Naledi ');
    await userEvent.type(screen.getByLabelText('Email'), 'Naledi@Example.com');
    await userEvent.type(screen.getByLabelText('Student name'), 'Kagiso');
    await userEvent.click(screen.getByRole('button', { name: 'Place Order and Pay' }));
    expect(onSubmit).toHaveBeenCalledWith({ customerName: 'Naledi', customerEmail: 'naledi@example.com', customerPhone: null, studentName: 'Kagiso', notes: null });
  });
});

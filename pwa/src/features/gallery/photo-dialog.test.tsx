import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { HARDENING_MSG } from '@contract/messages';
import { PhotoDialog } from './photo-dialog';
import { productsFor } from './products';

const photo = { id: 5, filename: 'a.jpg', originalName: 'IMG_0005.JPG', originalNumber: '0005', fileSize: 1, albumId: 2, studentName: null, studentId: null, thumbnailWidth: 400, thumbnailHeight: 300, createdAt: '' };

describe('the product dialog', () => {
  it('starts empty, selects with quantity 1, offers 1–10 and totals the selection', async () => {
    const onAdd = vi.fn();
    render(<PhotoDialog photo={photo} products={productsFor([])} onClose={() => undefined} onAdd={onAdd} />);
    const add = screen.getByRole('button', { name: 'Add to Cart' });
    expect((add as HTMLButtonElement).disabled).toBe(true);

    await userEvent.click(screen.getByRole('checkbox', { name: /10x15 Print/ }));
    const quantity = screen.getByLabelText('Quantity of 10x15 Print') as HTMLSelectElement;
    expect(quantity.value).toBe('1');
    expect(Array.from(quantity.options, (option) => option.value)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    await userEvent.selectOptions(quantity, '3');
    await userEvent.click(screen.getByRole('checkbox', { name: /Digital Copy/ }));
    expect(screen.getByText('Total: P90.00')).toBeTruthy();

    await userEvent.click(add);
    expect(onAdd).toHaveBeenCalledWith(photo, [
      { product: expect.objectContaining({ id: 'print_10x15' }), quantity: 3 },
      { product: expect.objectContaining({ id: 'digital' }), quantity: 1 },
    ]);
  });

  it('never runs a product\'s name, description and price together, on screen or read aloud', () => {
    render(<PhotoDialog photo={photo} products={productsFor([])} onClose={() => undefined} onAdd={vi.fn()} />);
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes.length).toBeGreaterThan(1);
    for (const box of boxes) {
      const label = document.querySelector(`label[for="${box.id}"]`);
      expect(label?.textContent).not.toMatch(/[^\s]P\d/);
      expect(label?.textContent).toMatch(/ P\d+\.\d\d$/);
    }
    expect(screen.getByRole('checkbox', { name: /^10x15 Print .*P\d+\.\d\d$/ })).toBeTruthy();
  });

  it('offers nothing while the school\'s products load, and an error with a retry if they failed', async () => {
    const { rerender } = render(<PhotoDialog photo={photo} products={null} onClose={() => undefined} onAdd={vi.fn()} />);
    expect(screen.getByText(HARDENING_MSG.pricesLoading)).toBeTruthy();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByText(/10x15 Print/)).toBeNull();

    const retry = vi.fn();
    rerender(<PhotoDialog photo={photo} products={null} productsFailed onRetryProducts={retry} onClose={() => undefined} onAdd={vi.fn()} />);
    expect(screen.getByRole('alert').textContent).toContain(HARDENING_MSG.pricesFailed);
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: HARDENING_MSG.tryAgain }));
    expect(retry).toHaveBeenCalledOnce();
    expect((screen.getByRole('button', { name: 'Add to Cart' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PhotoDialog } from './photo-dialog';
import { productsFor } from './products';

const photo = { id: 5, filename: 'a.jpg', originalName: 'IMG_0005.JPG', fileSize: 1, albumId: 2, studentName: null, thumbnailWidth: 400, thumbnailHeight: 300, createdAt: '' };

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
});

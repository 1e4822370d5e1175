/** A placed order's packages and discounts as the parent reads them (docs/packages-and-coupons.md, "Where packages and discounts show"). */
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fullOrder, packageOrder } from '../../../test/order-fixture';
import { OrderDiscounts, OrderItems } from './order-items';

describe('OrderItems with a package', () => {
  it('shows the single print, then the package with its child, price, saving and contents, and the package download', () => {
    render(<OrderItems order={packageOrder()} />);
    const [single, pack] = screen.getAllByRole('listitem').filter((li) => li.classList.contains('cart-line'));
    expect(single!.textContent).toContain('Glossy Print');
    expect(single!.textContent).toContain('P30.00');
    expect(pack).toBe(screen.getByRole('listitem', { name: 'Family Pack for Tumelo Dube' }));
    expect(pack!.textContent).toContain('P100.00');
    // A package counts its contents, as order management does.
    expect(pack!.textContent).toContain('Qty: 1 · 3 items');
    expect(pack!.textContent).toContain('You saved P37.50 against single prints');
    const contents = within(pack!).getByRole('list', { name: 'Contains: Family Pack' });
    expect(within(contents).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '1 x Large Print, Photo 501',
      '2 x Glossy Print, Photo 502',
      '1 x HD Download, Photo 501Download Photo 501',
    ]);
    expect(within(contents).getByRole('link', { name: 'Download Photo 501' }).getAttribute('href')).toBe('https://photos.example.bw/api/downloads/4?sig=x');
    // Contents carry no price of their own: only the package's and the single print's show.
    expect(screen.queryByText('P0.00')).toBeNull();
  });

  it('does not name the child when the order is for that child alone', () => {
    render(<OrderItems order={packageOrder({ studentName: 'Tumelo Dube' })} />);
    expect(screen.getByRole('listitem', { name: 'Family Pack' })).toBeTruthy();
  });
});

describe('OrderDiscounts', () => {
  it('shows the subtotal, the sibling discount, the coupon and the total, in that order', () => {
    render(<OrderDiscounts order={packageOrder()} withTotal />);
    const list = screen.getByLabelText('Discounts');
    expect([...list.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['Subtotal', 'Sibling discount', 'Coupon SPRING10', 'Total']);
    expect([...list.querySelectorAll('dd')].map((dd) => dd.textContent)).toEqual(['P130.00', '-P13.00', '-P11.70', 'P105.30']);
  });

  it('shows nothing for an order without discounts', () => {
    const { container } = render(<OrderDiscounts order={fullOrder()} withTotal />);
    expect(container.textContent).toBe('');
  });
});

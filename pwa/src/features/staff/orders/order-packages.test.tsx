/** Packages and discounts in order management (docs/packages-and-coupons.md, "Where packages and discounts show"). */
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { packageOrder } from '../../../../test/order-fixture';
import { PREPAID_MSG } from '@contract/prepaid';
import { OrderRow } from './order-row';
import { OrderDetailDialog } from './order-detail-dialog';

describe('a package order in order management', () => {
  it('shows the package as one of the first two lines of its row, and the discounts under the total', () => {
    render(<OrderRow order={packageOrder()} onView={() => undefined} onStatus={() => undefined} busy={false} />);
    const row = screen.getByRole('listitem', { name: 'Order PKG7Q2M9XD3P' });
    const lines = [...row.querySelectorAll('.order-items > li')].map((li) => li.textContent);
    expect(lines).toEqual(['Glossy Print × 1 — IMG_0423.JPG · Neo Dube', 'Package Family Pack × 1 — 3 items · Tumelo Dube']);
    expect(within(row).getByText('P105.30')).toBeTruthy();
    expect(within(row).getByText('Sibling discount -P13.00')).toBeTruthy();
    expect(within(row).getByText('Coupon SPRING10 -P11.70')).toBeTruthy();
    expect(within(row).queryByText(/more item/)).toBeNull();
  });

  it('lists the package row, its contents priced by the package, then subtotal, discounts and total', () => {
    render(<OrderDetailDialog order={packageOrder()} onClose={() => undefined} />);
    const table = screen.getByRole('table', { name: 'Items of order PKG7Q2M9XD3P' });
    const body = [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td, th')].map((cell) => cell.textContent));
    expect(body).toEqual([
      ['IMG_0423.JPG', 'Neo Dube', '0423', 'Glossy Print', '1', 'P30.00', 'P30.00'],
      ['Package 3 items', 'Tumelo Dube', '—', 'Family Pack', '1', 'P100.00', 'P100.00'],
      ['IMG_0501.JPG', 'Tumelo Dube', '0501', 'Large PrintIn Family Pack', '1', 'included', 'included'],
      ['IMG_0502.JPG', 'Tumelo Dube', '0502', 'Glossy PrintIn Family Pack', '2', 'included', 'included'],
      ['IMG_0501.JPG', 'Tumelo Dube', '0501', 'HD DownloadIn Family Pack', '1', 'included', 'included'],
    ]);
    const foot = [...table.querySelectorAll('tfoot tr')].map((tr) => [...tr.querySelectorAll('td, th')].map((cell) => cell.textContent));
    expect(foot).toEqual([
      ['Subtotal', 'P130.00'],
      ['Sibling discount', '-P13.00'],
      ['Coupon SPRING10', '-P11.70'],
      ['Order total', 'P105.30'],
    ]);
  });

  it('marks a package ordered before picture day: waiting for photos in the row, flagged at closing in the dialog', () => {
    const base = packageOrder();
    const waiting = packageOrder({ items: [base.items[0]!], packages: [{ ...base.packages[0]!, prepaid: true, photosChosen: false, posesChosenBy: null, posesDue: '2026-12-11' }] });
    render(<OrderRow order={waiting} onView={() => undefined} onStatus={() => undefined} busy={false} />);
    const row = screen.getByRole('listitem', { name: 'Order PKG7Q2M9XD3P' });
    expect(within(row).getByText(PREPAID_MSG.staffWaiting)).toBeTruthy();
    const flagged = packageOrder({ items: [base.items[0]!], packages: [{ ...base.packages[0]!, prepaid: true, photosChosen: false, posesChosenBy: null, posesDue: '2026-12-11', noPhotoAtClosing: true }] });
    render(<OrderDetailDialog order={flagged} onClose={() => undefined} />);
    const table = screen.getByRole('table', { name: 'Items of order PKG7Q2M9XD3P' });
    expect(within(table).getByText(PREPAID_MSG.noPhotoAtClosing)).toBeTruthy();
  });

  it('shows only the total for an order without discounts', () => {
    render(<OrderDetailDialog order={packageOrder({ siblingDiscount: '0.00', couponCode: null, couponDiscount: '0.00', totalAmount: '130.00' })} onClose={() => undefined} />);
    const foot = [...screen.getByRole('table').querySelectorAll('tfoot tr')].map((tr) => tr.textContent);
    expect(foot).toEqual(['Order totalP130.00']);
  });
});

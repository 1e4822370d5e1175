/**
 * Ordering before picture day (docs/packages-and-coupons.md, "Ordering before picture day"): the
 * child's tab offers the school's packages, one becomes a cart line for that child without photos,
 * and the cart shows it as photos to choose later (the order's line: checkout/prepaid-line.test.ts).
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PREPAID_SCREENS_MSG } from '@contract/prepaid-screens';
import type { PriceList } from '@contract/price-lists';
import { CartLines } from '../../components/cart-lines';
import { Toaster } from '../../components/ui/toast';
import { readCart } from '../../lib/cart';
import { isPrepaidLine, LOCAL_KEYS } from '../../lib/storage';
import { packagesFor, stalePackageLines } from './packages';
import PrepaidOffer, { prepaidCartLine } from './prepaid-offer';

const priceList: PriceList = {
  id: 1,
  name: 'Season 2026',
  description: '',
  createdAt: '2026-11-01T08:00:00.000Z',
  siblingDiscount: null,
  items: [
    { id: 10, productType: '15x20 Print', description: '', price: '60.00', exampleImage: null, kind: 'print', size: '15x20 cm' },
    { id: 12, productType: 'Digital Copy', description: '', price: '65.00', exampleImage: null, kind: 'digital', size: null },
  ],
  packages: [
    { id: 7, name: 'Family Pack', description: 'Prints for the grandparents', price: '45.00', items: [{ productId: 10, quantity: 1 }, { productId: 12, quantity: 1 }], maxPoses: 2, itemsValue: '125.00', savings: '80.00' },
    { id: 8, name: 'Download Duo', description: '', price: '100.00', items: [{ productId: 12, quantity: 2 }], maxPoses: null, itemsValue: '130.00', savings: '30.00' },
  ],
};
const child = { student: { id: 41, name: 'Kagiso Dube' }, school: { id: 2, name: 'Acacia Primary' }, album: { id: 9, name: 'Class 1A' } };

describe('order before picture day', () => {
  it('offers each package with what it holds and its price, and puts the chosen one in the cart for the child', async () => {
    render(
      <>
        <PrepaidOffer child={child} packages={packagesFor([priceList])} />
        <Toaster />
      </>,
    );
    expect(screen.getByRole('heading', { name: PREPAID_SCREENS_MSG.offerTitle })).toBeTruthy();
    const card = screen.getByRole('listitem', { name: 'Family Pack' });
    expect(card.textContent).toContain('P45.00');
    expect(card.textContent).toContain('Includes: 1 x 15x20 Print, 1 x Digital Copy');
    expect(card.textContent).toContain('Choose up to 2 different photos');

    await userEvent.click(within(card).getByRole('button', { name: `${PREPAID_SCREENS_MSG.offerButton}: Family Pack` }));
    const [line] = readCart();
    expect(readCart()).toHaveLength(1);
    expect(line).toMatchObject({
      productType: 'package:7',
      productName: 'Family Pack',
      unitPrice: 45,
      quantity: 1,
      totalPrice: 45,
      schoolId: 2,
      studentId: 41,
      studentName: 'Kagiso Dube',
      package: { packageId: 7, photos: [] },
    });
    expect(isPrepaidLine(line!)).toBe(true);
    // The checkout knows the school; the package shows as in the cart, not offered twice.
    expect(JSON.parse(window.localStorage.getItem(LOCAL_KEYS.currentSchool) ?? 'null')).toEqual({ id: 2, name: 'Acacia Primary' });
    expect(within(card).getByRole('button', { name: `${PREPAID_SCREENS_MSG.inCart}: Family Pack` })).toHaveProperty('disabled', true);
    expect(await screen.findByText(PREPAID_SCREENS_MSG.offerAdded('Family Pack', 'Kagiso Dube'))).toBeTruthy();
    // Another package for the same child is still offered.
    expect(within(screen.getByRole('listitem', { name: 'Download Duo' })).getByRole('button', { name: `${PREPAID_SCREENS_MSG.offerButton}: Download Duo` })).toBeTruthy();
  });

  it('is shown in the cart as photos to choose after picture day, with no photo', () => {
    const line = prepaidCartLine(packagesFor([priceList])[0]!, child);
    const { container } = render(<CartLines lines={[line]} onRemove={() => undefined} />);
    expect(container.textContent).toContain(PREPAID_SCREENS_MSG.cartLine('Kagiso Dube'));
    expect(container.textContent).not.toContain('Photos: ');
    expect(container.querySelector('img')).toBeNull();
  });

  it('is never stale for having no photos', () => {
    const line = prepaidCartLine(packagesFor([priceList])[0]!, child);
    expect(stalePackageLines([line], [priceList])).toEqual([]);
  });
});

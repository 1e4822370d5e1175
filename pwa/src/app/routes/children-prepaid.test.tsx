/**
 * "Order before picture day" on a child's tab (docs/prepaid.md, "Ordering before picture day"):
 * offered while the class has nothing online, and also when the class is online with group photos
 * but none of this child yet; not once the child has photos of their own, nor after the closing date.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PriceList } from '@contract/price-lists';
import { PREPAID_SCREENS_MSG } from '@contract/prepaid-screens';
import { Toaster } from '../../components/ui/toast';
import { readCart } from '../../lib/cart';
import { createQueryClient } from '../../lib/query-client';
import { isPrepaidLine } from '../../lib/storage';
import { UNLOCKED_CHILDREN_KEY } from '../../lib/unlocked-children';
import Children from './children';

const kagiso = { student: { id: 41, name: 'Kagiso Dube' }, school: { id: 2, name: 'Acacia Primary', slug: 'acacia' }, album: { id: 9, name: 'Class 1A' } };
const priceList: PriceList = {
  id: 1,
  name: 'Season 2026',
  description: '',
  createdAt: '2026-11-01T08:00:00.000Z',
  siblingDiscount: null,
  items: [{ id: 12, productType: 'Digital Copy', description: '', price: '65.00', exampleImage: null, kind: 'digital', size: null }],
  packages: [{ id: 7, name: 'Family Pack', description: '', price: '45.00', items: [{ productId: 12, quantity: 1 }], maxPoses: 1, itemsValue: '65.00', savings: '20.00' }],
};
const school = (closingDate: string | null) => ({ id: 2, name: 'Acacia Primary', slug: 'acacia', closingDate, priceListId: 1, contactEmail: 'office@acacia.test', accessMode: 'student_codes', unlocked: true });
const photo = (id: number, studentId: number | null) => ({ id, filename: `${id}.jpg`, originalNumber: `0${id}`, fileSize: 1, albumId: 9, studentId, thumbnailWidth: 400, thumbnailHeight: 300, createdAt: '' });

function open(photos: { status: number; body: unknown }, closingDate: string | null = '2099-12-31') {
  const answers: Record<string, { status: number; body: unknown }> = {
    '/api/students/unlocked': { status: 200, body: [kagiso] },
    '/api/students/removed': { status: 200, body: [] },
    '/api/schools/acacia': { status: 200, body: school(closingDate) },
    '/api/schools/2/price-lists': { status: 200, body: [priceList] },
    '/api/albums/9/photos': photos,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      const answer = answers[path] ?? { status: 404, body: { message: 'not here' } };
      return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/children?student=41']}>
        <Children />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
}

describe("a child's tab offers ordering before picture day", () => {
  beforeEach(() => window.localStorage.setItem(UNLOCKED_CHILDREN_KEY, JSON.stringify([kagiso])));
  afterEach(() => vi.unstubAllGlobals());

  it('while the class has no photos online', async () => {
    open({ status: 404, body: { message: 'Album not found' } });
    expect(await screen.findByRole('heading', { name: PREPAID_SCREENS_MSG.offerTitle })).toBeTruthy();
  });

  it('when the class is online with group photos but none of this child, and the package goes into the cart for the child', async () => {
    open({ status: 200, body: [photo(501, null), photo(502, 77)] });
    await screen.findByText('No photos of Kagiso Dube yet.');
    const offer = (await screen.findByRole('heading', { name: PREPAID_SCREENS_MSG.offerTitle })).closest('section')!;
    // The class's group photos are still shown.
    expect(screen.getByRole('region', { name: 'Class 1A group photos' }).querySelectorAll('img')).toHaveLength(1);
    const card = within(offer).getByRole('listitem', { name: 'Family Pack' });
    await userEvent.click(within(card).getByRole('button', { name: `${PREPAID_SCREENS_MSG.offerButton}: Family Pack` }));
    const lines = readCart();
    expect(lines).toHaveLength(1);
    expect(isPrepaidLine(lines[0]!)).toBe(true);
    expect(lines[0]).toMatchObject({ studentId: 41, productName: 'Family Pack', package: { packageId: 7, photos: [] } });
    await within(offer).findByRole('button', { name: `${PREPAID_SCREENS_MSG.inCart}: Family Pack` });
  });

  it('not once the child has photos of their own', async () => {
    open({ status: 200, body: [photo(501, null), photo(503, 41)] });
    await screen.findByRole('region', { name: 'Photos of Kagiso Dube' });
    await screen.findByRole('button', { name: /Family Pack/ });
    expect(screen.queryByRole('heading', { name: PREPAID_SCREENS_MSG.offerTitle })).toBeNull();
  });

  it('not after the closing date', async () => {
    open({ status: 200, body: [photo(501, null)] }, '2020-01-31');
    await screen.findByText(/The closing date for this school has passed/);
    await screen.findByText('No photos of Kagiso Dube yet.');
    expect(screen.queryByRole('heading', { name: PREPAID_SCREENS_MSG.offerTitle })).toBeNull();
  });
});

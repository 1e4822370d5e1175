/**
 * My Orders with a package paid before picture day (docs/packages-and-coupons.md, "Ordering before
 * picture day"): the package shows as photos to choose after picture day and, once the child's
 * photos are online, "Choose your photos" fills it from the order's own photo list (on any device:
 * this one never opened the child's code) and saves with the PUT; the list is read again after the
 * choice. An unpaid order offers no choice.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order, OrderPackage } from '@contract/orders';
import type { PriceList } from '@contract/price-lists';
import { PREPAID_SCREENS_MSG } from '@contract/prepaid-screens';
import { createQueryClient } from '../../lib/query-client';
import { setCustomerSession } from '../../lib/storage';
import { Toaster } from '../../components/ui/toast';
import { fakeFetch, fullOrder, orderItem } from '../../../test/order-fixture';
import CustomerOrders from './customer-orders';

const pkg = (over: Partial<OrderPackage> = {}): OrderPackage => ({
  id: 50,
  packageId: 7,
  name: 'Family Pack',
  quantity: 1,
  unitPrice: '45.00',
  totalPrice: '45.00',
  itemsValue: '125.00',
  studentId: 41,
  studentName: 'Kagiso Dube',
  photosChosen: false,
  posesChosenBy: null,
  posesDue: '2099-12-31',
  prepaid: true,
  noPhotoAtClosing: false,
  ...over,
});
const order = (over: Partial<Order> = {}): Order =>
  fullOrder({ id: 'PRE7Q2M9XD', studentName: 'Kagiso Dube', orderStatus: 'paid', status: 'paid', paymentStatus: 'completed', totalAmount: '45.00', subtotal: '45.00', items: [], packages: [pkg()], school: { id: 2, name: 'Acacia Primary' }, ...over });
const priceList: PriceList = {
  id: 1,
  name: 'Season 2026',
  description: '',
  createdAt: '2026-11-01T08:00:00.000Z',
  siblingDiscount: null,
  items: [{ id: 12, productType: 'Digital Copy', description: '', price: '65.00', exampleImage: null, kind: 'digital', size: null }],
  packages: [{ id: 7, name: 'Family Pack', description: '', price: '45.00', items: [{ productId: 12, quantity: 1 }], maxPoses: 1, itemsValue: '65.00', savings: '20.00' }],
};
const signed = (id: number, kind: string) => `/api/orders/PRE7Q2M9XD/packages/50/photos/${id}/${kind}?t=signed`;
const photo = (id: number) => ({ id, filename: `${id}.jpg`, originalNumber: `0${id}`, fileSize: 1, albumId: 9, studentId: 41, thumbnailWidth: 400, thumbnailHeight: 300, createdAt: '', thumbnailUrl: signed(id, 'thumbnail'), smallThumbnailUrl: signed(id, 'thumbnail'), previewUrl: signed(id, 'watermarked') });

function open(orders: () => Order[]) {
  const fake = fakeFetch((request) => {
    if (request.path === '/api/customer/orders') return { status: 200, body: orders() };
    if (request.path === '/api/payment/methods') return { status: 200, body: { methods: [] } };
    if (request.path === '/api/schools/2/price-lists') return { status: 200, body: [priceList] };
    if (request.method === 'GET' && request.path === '/api/orders/PRE7Q2M9XD/packages/50/photos') return { status: 200, body: { photos: [photo(501)] } };
    if (request.method === 'PUT' && request.path === '/api/orders/PRE7Q2M9XD/packages/50/photos') return { status: 200, body: orders()[0] };
    return undefined;
  });
  vi.stubGlobal('fetch', vi.fn(fake.fetch));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/customer/orders']}>
        <Routes>
          <Route path="/customer/orders" element={<CustomerOrders />} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return fake.calls;
}

describe('My Orders with a package paid before picture day', () => {
  beforeEach(() => {
    setCustomerSession('customer-token', { id: 7, email: 'mpho@example.com', firstName: 'Mpho', lastName: 'Dube', phone: null, createdAt: '2026-11-01T08:00:00.000Z' });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the package as photos to choose, chooses them and reads the orders again', async () => {
    let current = [order()];
    const calls = open(() => current);
    const line = await screen.findByRole('listitem', { name: 'Family Pack' }, { timeout: 5000 });
    expect(line.textContent).toContain(PREPAID_SCREENS_MSG.photosLater);
    await userEvent.click(await within(line).findByRole('button', { name: `${PREPAID_SCREENS_MSG.chooseAction}: Family Pack` }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Fill Family Pack' });
    expect(within(dialog).getAllByRole('radio').map((radio) => radio.getAttribute('data-photo-id'))).toEqual(['501']);
    expect(within(dialog).getAllByRole('radio')[0]!.querySelector('img')?.getAttribute('src')).toBe(signed(501, 'thumbnail'));
    expect(calls.some((call) => call.path.startsWith('/api/albums/'))).toBe(false);
    current = [order({ packages: [pkg({ photosChosen: true, posesChosenBy: 'family' })], items: [orderItem({ id: 9, photoId: 501, productType: '12', productName: 'Digital Copy', packageLineId: 50, unitPrice: '0.00', totalPrice: '0.00' })] })];
    await userEvent.click(within(dialog).getAllByRole('radio')[0]!);
    await userEvent.click(within(dialog).getByRole('button', { name: PREPAID_SCREENS_MSG.saveChoice }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([{ photos: [501] }]));
    expect(await screen.findByText(PREPAID_SCREENS_MSG.chosenByFamily)).toBeTruthy();
    expect(calls.filter((call) => call.path === '/api/customer/orders').length).toBeGreaterThanOrEqual(2);
    expect(await screen.findByRole('button', { name: `${PREPAID_SCREENS_MSG.changeAction}: Family Pack` })).toBeTruthy();
  });

  it('offers no choice on an order not paid yet', async () => {
    open(() => [order({ orderStatus: 'pending', status: 'pending', paymentStatus: 'pending' })]);
    const line = await screen.findByRole('listitem', { name: 'Family Pack' }, { timeout: 5000 });
    expect(line.textContent).toContain(PREPAID_SCREENS_MSG.photosLater);
    expect(within(line).queryByRole('button')).toBeNull();
  });
});

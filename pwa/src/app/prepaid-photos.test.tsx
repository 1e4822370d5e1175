/**
 * A package paid before picture day on the order's page (docs/packages-and-coupons.md, "Ordering
 * before picture day"): shown as photos to choose after picture day; once the child's photos are
 * online, "Choose your photos" fills it in the package dialog from that child's photos only and
 * saves with the PUT; the family may change it until the closing date, and a package the studio
 * filled says so and offers nothing.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Order, OrderPackage } from '@contract/orders';
import type { PrepaidPhoto } from '@contract/prepaid-photos';
import type { PriceList } from '@contract/price-lists';
import { PREPAID_SCREENS_MSG } from '@contract/prepaid-screens';
import { Toaster } from '../components/ui/toast';
import { OrderItems } from '../features/orders/order-items';
import { mayChoosePhotos } from '../features/orders/prepaid';
import { createQueryClient } from '../lib/query-client';
import { fakeFetch, fullOrder, orderItem, type Route } from '../../test/order-fixture';
import PrepaidPhotos from './prepaid-photos';

const prepaid = (over: Partial<OrderPackage> = {}): OrderPackage => ({
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
const paidOrder = (pkg: OrderPackage, over: Partial<Order> = {}): Order =>
  fullOrder({ id: 'PRE7Q2M9XD', studentName: 'Kagiso Dube', orderStatus: 'paid', status: 'paid', paymentStatus: 'completed', totalAmount: '45.00', subtotal: '45.00', items: [], packages: [pkg], school: { id: 2, name: 'Acacia Primary' }, ...over });

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
  packages: [{ id: 7, name: 'Family Pack', description: '', price: '45.00', items: [{ productId: 10, quantity: 1 }, { productId: 12, quantity: 1 }], maxPoses: 2, itemsValue: '125.00', savings: '80.00' }],
};
/** A photo as the order's photo list gives it: the child's, with addresses signed for the line. */
const photo = (id: number): PrepaidPhoto => ({
  id,
  filename: `${id}.jpg`,
  originalNumber: `0${id}`,
  fileSize: 1,
  albumId: 9,
  studentId: 41,
  thumbnailWidth: 400,
  thumbnailHeight: 300,
  createdAt: '',
  thumbnailUrl: `/api/orders/PRE7Q2M9XD/packages/50/photos/${id}/thumbnail?t=signed`,
  smallThumbnailUrl: `/api/orders/PRE7Q2M9XD/packages/50/photos/${id}/thumbnail?size=small&t=signed`,
  previewUrl: `/api/orders/PRE7Q2M9XD/packages/50/photos/${id}/watermarked?t=signed`,
});
const PHOTOS = '/api/orders/PRE7Q2M9XD/packages/50/photos';

function show(order: Order, route: Route) {
  const fake = fakeFetch((request) => {
    if (request.method === 'GET' && request.path === '/api/schools/2/price-lists') return { status: 200, body: [priceList] };
    return route(request);
  });
  vi.stubGlobal('fetch', vi.fn(fake.fetch));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <OrderItems order={order} packageAction={(pkg) => (mayChoosePhotos(order, pkg) ? <PrepaidPhotos order={order} pkg={pkg} /> : null)} />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return fake.calls;
}

describe('choosing the photos of a package paid before picture day', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says the photos come after picture day while none of the child are online', async () => {
    show(paidOrder(prepaid()), (request) => (request.method === 'GET' && request.path === PHOTOS ? { status: 200, body: { photos: [] } } : undefined));
    const line = screen.getByRole('listitem', { name: 'Family Pack' });
    expect(line.textContent).toContain(PREPAID_SCREENS_MSG.photosLater);
    expect(await within(line).findByText(PREPAID_SCREENS_MSG.waitingForPhotos)).toBeTruthy();
    expect(within(line).queryByRole('button')).toBeNull();
  });

  it("fills the package from the child's own photos once online and saves the choice", async () => {
    const filled = paidOrder(prepaid({ photosChosen: true, posesChosenBy: 'family' }), {
      items: [orderItem({ id: 7, photoId: 502, productType: '10', productName: '15x20 Print', packageLineId: 50, unitPrice: '0.00', totalPrice: '0.00' })],
    });
    const calls = show(paidOrder(prepaid()), (request) => {
      if (request.method === 'GET' && request.path === PHOTOS) return { status: 200, body: { photos: [photo(501), photo(502)] } };
      if (request.method === 'PUT' && request.path === '/api/orders/PRE7Q2M9XD/packages/50/photos') return { status: 200, body: filled };
      if (request.path === '/api/customer/orders') return { status: 200, body: [filled] };
      return undefined;
    });
    const line = screen.getByRole('listitem', { name: 'Family Pack' });
    expect(await within(line).findByText(PREPAID_SCREENS_MSG.chooseUntil('31 December 2099'))).toBeTruthy();
    await userEvent.click(within(line).getByRole('button', { name: `${PREPAID_SCREENS_MSG.chooseAction}: Family Pack` }));
    const dialog = await screen.findByRole('dialog', { name: 'Fill Family Pack' });
    // The photos the order's list gives, their images at the addresses it signed: no code needed on this device.
    expect(within(dialog).getAllByRole('radio').map((radio) => radio.getAttribute('data-photo-id'))).toEqual(['501', '502']);
    expect(within(dialog).getAllByRole('radio').map((radio) => radio.querySelector('img')?.getAttribute('src'))).toEqual([photo(501).smallThumbnailUrl, photo(502).smallThumbnailUrl]);
    expect(calls.some((call) => call.path.startsWith('/api/albums/'))).toBe(false);
    const save = within(dialog).getByRole('button', { name: PREPAID_SCREENS_MSG.saveChoice });
    expect(save).toHaveProperty('disabled', true);
    await userEvent.click(within(dialog).getByLabelText('Use one photo for all'));
    await userEvent.click(within(dialog).getAllByRole('radio')[1]!);
    await userEvent.click(save);
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toEqual([expect.objectContaining({ path: '/api/orders/PRE7Q2M9XD/packages/50/photos', body: { photos: [502] } })]));
    expect(await screen.findByText(PREPAID_SCREENS_MSG.savedText('Family Pack'))).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens a choice already made to change it, with the photos chosen', async () => {
    const order = paidOrder(prepaid({ photosChosen: true, posesChosenBy: 'family' }), {
      items: [
        orderItem({ id: 7, photoId: 501, productType: '10', productName: '15x20 Print', packageLineId: 50, unitPrice: '0.00', totalPrice: '0.00' }),
        orderItem({ id: 8, photoId: 502, productType: '12', productName: 'Digital Copy', packageLineId: 50, unitPrice: '0.00', totalPrice: '0.00' }),
      ],
    });
    show(order, (request) => (request.method === 'GET' && request.path === PHOTOS ? { status: 200, body: { photos: [photo(501), photo(502)] } } : undefined));
    const line = screen.getByRole('listitem', { name: 'Family Pack' });
    expect(line.textContent).toContain(PREPAID_SCREENS_MSG.chosenByFamily);
    await userEvent.click(await within(line).findByRole('button', { name: `${PREPAID_SCREENS_MSG.changeAction}: Family Pack` }));
    const dialog = await screen.findByRole('dialog', { name: 'Fill Family Pack' });
    expect(within(dialog).getByRole('button', { name: '15x20 Print: Photo 501' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Digital Copy: Photo 502' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: PREPAID_SCREENS_MSG.saveChoice })).toHaveProperty('disabled', false);
  });

  it("says so when the order's photos cannot be loaded, with the server's reason", async () => {
    show(paidOrder(prepaid()), (request) => (request.path === PHOTOS ? { status: 409, body: { code: 'ORDER_CANCELLED', message: 'This order was cancelled' } } : undefined));
    const line = screen.getByRole('listitem', { name: 'Family Pack' });
    expect(await within(line).findByText('This order was cancelled')).toBeTruthy();
    expect(within(line).queryByRole('button')).toBeNull();
  });

  it('offers no choice once the studio chose, after the closing date, or before the order is paid, and says when the child had no photo', () => {
    const studio = prepaid({ photosChosen: true, posesChosenBy: 'studio' });
    expect(mayChoosePhotos(paidOrder(studio), studio)).toBe(false);
    expect(mayChoosePhotos(paidOrder(prepaid()), prepaid({ posesDue: '2026-12-01' }), new Date('2026-12-02T00:00:01Z'))).toBe(false);
    expect(mayChoosePhotos(paidOrder(prepaid()), prepaid({ posesDue: '2026-12-01' }), new Date('2026-12-01T20:00:00Z'))).toBe(true);
    expect(mayChoosePhotos(paidOrder(prepaid(), { paymentStatus: 'pending', status: 'pending', orderStatus: 'pending' }), prepaid())).toBe(false);
    expect(mayChoosePhotos(paidOrder(prepaid()), prepaid({ prepaid: false }))).toBe(false);

    const absent = prepaid({ posesDue: '2026-12-01', noPhotoAtClosing: true });
    const { unmount } = render(<OrderItems order={paidOrder(absent)} />);
    expect(screen.getByRole('listitem', { name: 'Family Pack' }).textContent).toContain(PREPAID_SCREENS_MSG.noPhotoAtClosing('Kagiso Dube'));
    unmount();

    show(paidOrder(studio), () => undefined);
    const line = screen.getByRole('listitem', { name: 'Family Pack' });
    expect(line.textContent).toContain(PREPAID_SCREENS_MSG.chosenByStudio);
    expect(within(line).queryByRole('button')).toBeNull();
  });
});

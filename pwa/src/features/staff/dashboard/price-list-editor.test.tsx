import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HARDENING_MSG, PACKAGE_MSG } from '@contract/messages';
import type { PriceList } from '@contract/price-lists';
import { PACKAGE_EDITOR_MSG } from '@contract/staff-screen-messages';
import { Toaster, resetToasts } from '../../../components/ui/toast';
import { PriceListEditor } from './price-list-editor';
import { PriceListsTab } from './price-lists-tab';

const list: PriceList = {
  id: 4,
  name: 'Standard',
  description: '',
  items: [
    { id: 11, productType: '10x15 Print', description: '', price: '25.00', exampleImage: null, kind: 'print', size: '10x15 cm' },
    { id: 12, productType: '15x20 Print', description: '', price: '40.00', exampleImage: null, kind: 'print', size: '15x20 cm' },
    { id: 13, productType: 'Digital Copy', description: '', price: '15.00', exampleImage: null, kind: 'digital', size: null },
  ],
  packages: [
    {
      id: 7,
      name: 'Family Pack',
      description: 'For the grandparents',
      price: '100.00',
      items: [
        { productId: 12, quantity: 1 },
        { productId: 11, quantity: 2 },
        { productId: 13, quantity: 1 },
      ],
      maxPoses: 2,
      itemsValue: '105.00',
      savings: '5.00',
    },
  ],
  siblingDiscount: { percent: 20, maxChildren: 3 },
  createdAt: '2026-11-20T08:00:00.000Z',
};

/** Requests the editor sent: method, URL and the multipart form. */
const sent: { method: string; url: string; form: FormData }[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: list };

beforeEach(() => {
  sent.length = 0;
  answer = { status: 200, body: list };
  window.localStorage.setItem('token', 'staff-token');
  // jsdom has no ResizeObserver; Radix's checkbox inside a form measures itself with one.
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.body instanceof FormData) sent.push({ method: init.method ?? 'GET', url: String(input), form: init.body });
      if ((init?.method ?? 'GET') === 'GET' && String(input) === '/api/price-lists') return new Response(JSON.stringify([list]), { status: 200, headers: { 'Content-Type': 'application/json' } });
      return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});

afterEach(() => {
  act(() => resetToasts());
  vi.unstubAllGlobals();
});

function renderEditor(current: PriceList | null) {
  const onDone = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <PriceListEditor list={current} onDone={onDone} />
      <Toaster />
    </QueryClientProvider>,
  );
  return onDone;
}

const packageGroup = (index: number) => within(screen.getByRole('group', { name: PACKAGE_EDITOR_MSG.packageGroup(index) }));
const contentGroup = (pkg: ReturnType<typeof packageGroup>, index: number) => within(pkg.getByRole('group', { name: PACKAGE_EDITOR_MSG.contentRow(index) }));
const jsonField = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' && value !== '' ? (JSON.parse(value) as unknown) : value;
};

describe('the price list editor: packages and sibling discount', () => {
  it('shows a package with its contents and live savings, follows a renamed product and sends both as JSON fields', async () => {
    const onDone = renderEditor(list);
    const family = packageGroup(1);
    expect((family.getByLabelText(PACKAGE_EDITOR_MSG.packageName) as HTMLInputElement).value).toBe('Family Pack');
    expect((family.getByLabelText(PACKAGE_EDITOR_MSG.maxPoses) as HTMLInputElement).value).toBe('2');
    expect((contentGroup(family, 1).getByLabelText(PACKAGE_EDITOR_MSG.product) as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('15x20 Print');
    expect((contentGroup(family, 2).getByLabelText(PACKAGE_EDITOR_MSG.quantity) as HTMLInputElement).value).toBe('2');
    expect(family.getByText(PACKAGE_EDITOR_MSG.contentsWorth('P105.00', 'P5.00'))).toBeTruthy();

    // The price and the contents change the line as staff type.
    const price = family.getByLabelText(PACKAGE_EDITOR_MSG.packagePrice);
    await userEvent.clear(price);
    await userEvent.type(price, '90');
    expect(family.getByText(PACKAGE_EDITOR_MSG.contentsWorth('P105.00', 'P15.00'))).toBeTruthy();
    await userEvent.click(family.getByRole('button', { name: PACKAGE_EDITOR_MSG.addContent }));
    const added = contentGroup(family, 4);
    await userEvent.selectOptions(added.getByLabelText(PACKAGE_EDITOR_MSG.product), '10x15 Print');
    const quantity = added.getByLabelText(PACKAGE_EDITOR_MSG.quantity);
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '3');
    expect(family.getByText(PACKAGE_EDITOR_MSG.contentsWorth('P180.00', 'P90.00'))).toBeTruthy();

    // Renaming a product keeps it in the package under its new name.
    const large = within(screen.getByRole('group', { name: 'Product 2' })).getByLabelText('Product name');
    await userEvent.clear(large);
    await userEvent.type(large, '15x20 Large Print');

    const sibling = screen.getByLabelText(PACKAGE_EDITOR_MSG.siblingPercent);
    await userEvent.clear(sibling);
    await userEvent.type(sibling, '25');

    await userEvent.click(screen.getByRole('button', { name: 'Update Price List' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect([request?.method, request?.url]).toEqual(['PUT', '/api/price-lists/4']);
    const form = request?.form as FormData;
    expect(form.get('products[1][name]')).toBe('15x20 Large Print');
    expect(jsonField(form, 'packages')).toEqual([
      {
        name: 'Family Pack',
        description: 'For the grandparents',
        price: '90',
        maxPoses: '2',
        items: [
          { productName: '15x20 Large Print', quantity: '1' },
          { productName: '10x15 Print', quantity: '2' },
          { productName: 'Digital Copy', quantity: '1' },
          { productName: '10x15 Print', quantity: '3' },
        ],
      },
    ]);
    expect(jsonField(form, 'siblingDiscount')).toEqual({ percent: '25', maxChildren: '3' });
  });

  it('a new list: sibling discount off by default; a package is added, a content row without a product stops the save', async () => {
    renderEditor(null);
    expect((screen.getByRole('checkbox', { name: PACKAGE_EDITOR_MSG.siblingOffer }) as HTMLElement).getAttribute('aria-checked')).toBe('false');
    expect(screen.queryByLabelText(PACKAGE_EDITOR_MSG.siblingPercent)).toBeNull();
    expect(screen.queryByRole('group', { name: PACKAGE_EDITOR_MSG.packageGroup(1) })).toBeNull();

    await userEvent.type(screen.getByLabelText('Price list name'), 'Spring');
    const product = within(screen.getByRole('group', { name: 'Product 1' }));
    await userEvent.type(product.getByLabelText('Product name'), 'Print');
    await userEvent.type(product.getByLabelText('Price (P)'), '25');

    await userEvent.click(screen.getByRole('button', { name: PACKAGE_EDITOR_MSG.addPackage }));
    const pkg = packageGroup(1);
    await userEvent.type(pkg.getByLabelText(PACKAGE_EDITOR_MSG.packageName), 'Duo');
    await userEvent.type(pkg.getByLabelText(PACKAGE_EDITOR_MSG.packagePrice), '45');
    await userEvent.click(screen.getByRole('button', { name: 'Create Price List' }));
    expect(await screen.findByText(PACKAGE_EDITOR_MSG.contentNeedsProduct('Duo'))).toBeTruthy();
    expect(sent).toEqual([]);

    await userEvent.selectOptions(contentGroup(pkg, 1).getByLabelText(PACKAGE_EDITOR_MSG.product), 'Print');
    const quantity = contentGroup(pkg, 1).getByLabelText(PACKAGE_EDITOR_MSG.quantity);
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '2');
    expect(pkg.getByText(PACKAGE_EDITOR_MSG.contentsWorth('P50.00', 'P5.00'))).toBeTruthy();
    answer = { status: 201, body: { ...list, name: 'Spring' } };
    await userEvent.click(screen.getByRole('button', { name: 'Create Price List' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    const form = sent[0]?.form as FormData;
    expect(sent[0]?.method).toBe('POST');
    expect(jsonField(form, 'packages')).toEqual([{ name: 'Duo', description: '', price: '45', maxPoses: null, items: [{ productName: 'Print', quantity: '2' }] }]);
    expect(form.get('siblingDiscount')).toBe('');
  });

  it('switching the sibling discount off and removing the package sends none; the server\'s reason is shown', async () => {
    answer = { status: 400, body: { message: PACKAGE_MSG.productNotInList('Poster'), code: 'VALIDATION_FAILED' } };
    const onDone = renderEditor(list);
    await userEvent.click(screen.getByRole('checkbox', { name: PACKAGE_EDITOR_MSG.siblingOffer }));
    expect(screen.queryByLabelText(PACKAGE_EDITOR_MSG.siblingPercent)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: PACKAGE_EDITOR_MSG.removePackage(1) }));
    await userEvent.click(screen.getByRole('button', { name: 'Update Price List' }));
    expect(await screen.findByText(`${HARDENING_MSG.priceListFailed.update}: ${PACKAGE_MSG.productNotInList('Poster')}`)).toBeTruthy();
    const form = sent[0]?.form as FormData;
    expect(form.get('packages')).toBe('');
    expect(form.get('siblingDiscount')).toBe('');
    expect(onDone).not.toHaveBeenCalled();
  });

  it('the price list card names its packages and the sibling discount', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <PriceListsTab />
      </QueryClientProvider>,
    );
    expect(await screen.findByText(`${PACKAGE_EDITOR_MSG.packagesOnCard(1)}: Family Pack P100.00`)).toBeTruthy();
    expect(screen.getByText(PACKAGE_EDITOR_MSG.siblingSummary(20, 3))).toBeTruthy();
  });
});

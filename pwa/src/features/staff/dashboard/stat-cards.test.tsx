import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { DashboardStats } from '@contract/dashboard';
import { PREPAID_MSG } from '@contract/prepaid';
import { fakeStaffApi } from '../../../../test/staff-api';
import { StatCards } from './stat-cards';

const { answers } = fakeStaffApi();

const stats = (figures: Partial<DashboardStats>): DashboardStats => ({
  totalPhotos: 120,
  activeOrders: 4,
  totalRevenue: '450.00',
  totalSchools: 2,
  packagesWaitingForPhotos: 0,
  packagesWithoutPhoto: 0,
  ...figures,
});

async function cards() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <StatCards />
    </QueryClientProvider>,
  );
  const list = await screen.findByRole('list', { name: 'Statistics' });
  await within(list).findByText('P450.00');
  return within(list)
    .getAllByRole('listitem')
    .map((item) => [item.querySelector('.stat-label')?.textContent, item.querySelector('.stat-value')?.textContent]);
}

describe('the dashboard stat cards (docs/prepaid.md, "The books")', () => {
  it('shows no prepaid cards while no package waits for photos', async () => {
    answers.set('GET /api/dashboard/stats', stats({}));
    expect(await cards()).toEqual([
      ['Total Photos', '120'],
      ['Active Orders', '4'],
      ['Revenue', 'P450.00'],
      ['Schools', '2'],
    ]);
  });

  it('adds the packages waiting for photos, and those flagged at the closing date, when there are any', async () => {
    answers.set('GET /api/dashboard/stats', stats({ packagesWaitingForPhotos: 5, packagesWithoutPhoto: 2 }));
    expect((await cards()).slice(4)).toEqual([
      [PREPAID_MSG.waitingTitle, '5'],
      [PREPAID_MSG.noPhotoAtClosing, '2'],
    ]);
  });

  it('shows only the waiting card when none was flagged', async () => {
    answers.set('GET /api/dashboard/stats', stats({ packagesWaitingForPhotos: 1 }));
    expect((await cards()).slice(4)).toEqual([[PREPAID_MSG.waitingTitle, '1']]);
  });
});

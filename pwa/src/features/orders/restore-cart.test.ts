/** "Try Again" on a package order: the package's contents never come back as single lines priced P0.00. */
import { beforeEach, describe, expect, it } from 'vitest';
import { readCart } from '../../lib/cart';
import { packageOrder } from '../../../test/order-fixture';
import { restoreCartFrom } from './restore-cart';

describe('restoreCartFrom with a package order', () => {
  beforeEach(() => localStorage.clear());

  it('puts back the single products only', () => {
    restoreCartFrom(packageOrder({ orderStatus: 'pending', status: 'pending', paymentStatus: 'failed' }));
    expect(readCart().map((line) => [line.productName, line.quantity, line.unitPrice])).toEqual([['Glossy Print', 1, 30]]);
  });
});

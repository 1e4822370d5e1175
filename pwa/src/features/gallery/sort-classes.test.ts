import { describe, expect, it } from 'vitest';
import { sortClasses } from './sort-classes';
import { offeredProducts, orderableProducts, productsFor } from './products';

describe('class order', () => {
  it('is numeric-aware and case-insensitive', () => {
    const names = ['Class 10C', 'class 2b', 'Choir', 'Class 1A', 'Class 2A', 'choir B'];
    expect(sortClasses(names.map((name) => ({ name }))).map((item) => item.name)).toEqual(['Choir', 'choir B', 'Class 1A', 'Class 2A', 'class 2b', 'Class 10C']);
  });
});

describe('products', () => {
  it('falls back to the built-in products without a price list', () => {
    const products = productsFor([]);
    expect(products.map((product) => product.id)).toContain('print_10x15');
    expect(products.find((product) => product.id === 'digital')).toMatchObject({ name: 'Digital Copy', price: 15, description: 'No description available' });
  });

  it('uses the item id as the product type of a price list', () => {
    const products = productsFor([
      { id: 1, name: 'Standard', description: '', createdAt: '', packages: [], siblingDiscount: null, items: [{ id: 31, productType: 'Digital Download', description: '', price: '15.00', exampleImage: null, kind: 'digital', size: null }] },
    ]);
    expect(products).toEqual([{ id: '31', name: 'Digital Download', description: 'No description available', price: 15, exampleImage: null, kind: 'digital' }]);
  });

  it('offers only digital or download products after the closing date', () => {
    const names = orderableProducts(productsFor([]), true).map((product) => product.name);
    expect(names).toEqual(['Digital Copy']);
    expect(orderableProducts(productsFor([]), false)).toHaveLength(7);
  });

  it('offers nothing until the price lists have loaded', () => {
    expect(offeredProducts(undefined, false)).toBeNull();
    expect(offeredProducts([], false)).toHaveLength(7);
  });
});

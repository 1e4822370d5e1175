/** The products a photo can be ordered as: the school's price list, else the built-in ones. */
import { DEFAULT_PRODUCT_DESCRIPTION, FALLBACK_PRODUCTS, isDigitalProduct } from '@contract/constants';
import type { PriceList } from '@contract/price-lists';

export interface Product {
  /** Sent as productType: the price list item id, or the built-in product id. */
  id: string;
  name: string;
  description: string;
  /** Pula. */
  price: number;
  exampleImage: string | null;
}

export function productsFor(priceLists: readonly PriceList[]): Product[] {
  const list = priceLists[0];
  if (list && list.items.length > 0) {
    return list.items.map((item) => ({
      id: String(item.id),
      name: item.productType,
      description: item.description || DEFAULT_PRODUCT_DESCRIPTION,
      price: Number(item.price),
      exampleImage: item.exampleImage,
    }));
  }
  return FALLBACK_PRODUCTS.map((product) => ({
    id: product.id,
    name: product.name,
    description: DEFAULT_PRODUCT_DESCRIPTION,
    price: product.priceThebe / 100,
    exampleImage: null,
  }));
}

/** After the closing date only digital or download products are offered. */
export function orderableProducts(products: readonly Product[], closed: boolean): Product[] {
  return closed ? products.filter((product) => isDigitalProduct(product.id, product.name)) : [...products];
}

/**
 * What a photo dialog offers: null until the school's price lists have loaded (while they load or
 * after a failure nothing is offered, never the built-in products meanwhile).
 */
export function offeredProducts(priceLists: readonly PriceList[] | undefined, closed: boolean): Product[] | null {
  return priceLists ? orderableProducts(productsFor(priceLists), closed) : null;
}

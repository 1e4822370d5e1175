/** The products a photo can be ordered as: the school's price list, else the built-in ones. */
import { DEFAULT_PRODUCT_DESCRIPTION, FALLBACK_PRODUCTS, type ProductKind } from '@contract/constants';
import type { PriceList } from '@contract/price-lists';

export interface Product {
  /** Sent as productType: the price list item id, or the built-in product id. */
  id: string;
  name: string;
  description: string;
  /** Pula. */
  price: number;
  exampleImage: string | null;
  /** Print (goes to the lab) or digital (a download). */
  kind: ProductKind;
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
      kind: item.kind,
    }));
  }
  return FALLBACK_PRODUCTS.map((product) => ({
    id: product.id,
    name: product.name,
    description: DEFAULT_PRODUCT_DESCRIPTION,
    price: product.priceThebe / 100,
    exampleImage: null,
    kind: product.kind,
  }));
}

/** After the closing date only digital products are offered (docs/money-and-pricing.md, "Print and digital products"). */
export function orderableProducts(products: readonly Product[], closed: boolean): Product[] {
  return closed ? products.filter((product) => product.kind === 'digital') : [...products];
}

/**
 * What a photo dialog offers: null until the school's price lists have loaded (while they load or
 * after a failure nothing is offered, never the built-in products meanwhile).
 */
export function offeredProducts(priceLists: readonly PriceList[] | undefined, closed: boolean): Product[] | null {
  return priceLists ? orderableProducts(productsFor(priceLists), closed) : null;
}

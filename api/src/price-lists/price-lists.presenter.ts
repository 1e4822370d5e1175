import { EXAMPLE_IMAGE_URL_PREFIX, type PriceList } from '../../contract/price-lists';
import { thebeToDecimal } from '../../contract/money';
import type { PriceListRecord } from './price-lists.repository';

export function presentPriceList(list: PriceListRecord): PriceList {
  return {
    id: list.id,
    name: list.name,
    description: list.description,
    items: list.items.map((item) => ({
      id: item.id,
      productType: item.productName,
      description: item.description,
      price: thebeToDecimal(item.priceThebe),
      exampleImage: item.exampleImage ? `${EXAMPLE_IMAGE_URL_PREFIX}${item.exampleImage}` : null,
      kind: item.kind,
      size: item.printSize,
    })),
    packages: list.packages.map((pkg) => {
      const prices = new Map(list.items.map((item) => [item.id, item.priceThebe]));
      const itemsValue = pkg.items.reduce((sum, item) => sum + (prices.get(item.priceListItemId) ?? 0) * item.quantity, 0);
      return {
        id: pkg.id,
        name: pkg.name,
        description: pkg.description,
        price: thebeToDecimal(pkg.priceThebe),
        items: pkg.items.map((item) => ({ productId: item.priceListItemId, quantity: item.quantity })),
        maxPoses: pkg.maxPoses,
        itemsValue: thebeToDecimal(itemsValue),
        savings: thebeToDecimal(Math.max(0, itemsValue - pkg.priceThebe)),
      };
    }),
    siblingDiscount: list.siblingDiscount,
    createdAt: list.createdAt,
  };
}

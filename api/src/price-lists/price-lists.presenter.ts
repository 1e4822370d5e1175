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
    createdAt: list.createdAt,
  };
}

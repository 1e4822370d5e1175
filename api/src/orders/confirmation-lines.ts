import type { Order } from '../../contract/orders';
import { orderEntries, packageChild } from '../../contract/order-lines';
import { itemFamilyPhotoLabel } from '../../contract/photo-names';
import { PREPAID_MSG } from '../../contract/prepaid';
import type { OrderConfirmationInput } from '../mail/templates';

/**
 * The e-mail's lines: single products, and each package with its contents
 * (docs/packages-and-coupons.md, "Where packages and discounts show"), then the discounts.
 */
export function confirmationLines(order: Order): Pick<OrderConfirmationInput['order'], 'items' | 'packages' | 'subtotal' | 'siblingDiscount' | 'couponCode' | 'couponDiscount'> {
  const entries = orderEntries(order);
  return {
    items: entries.flatMap((entry) =>
      entry.kind === 'item' ? [{ productName: entry.item.productName, photoName: itemFamilyPhotoLabel(entry.item), quantity: entry.item.quantity, totalPrice: entry.item.totalPrice }] : [],
    ),
    packages: entries.flatMap((entry) =>
      entry.kind === 'package'
        ? [
            {
              name: entry.pkg.name,
              quantity: entry.pkg.quantity,
              totalPrice: entry.pkg.totalPrice,
              itemsValue: entry.pkg.itemsValue,
              child: packageChild(entry.pkg, order),
              contents: entry.contents.map((item) => ({ productName: item.productName, photoName: itemFamilyPhotoLabel(item), quantity: item.quantity })),
              // Paid before picture day: its photos are chosen later (docs/prepaid.md).
              note: entry.pkg.prepaid && !entry.pkg.photosChosen ? PREPAID_MSG.photosLater : null,
            },
          ]
        : [],
    ),
    subtotal: order.subtotal,
    siblingDiscount: order.siblingDiscount,
    couponCode: order.couponCode,
    couponDiscount: order.couponDiscount,
  };
}

/**
 * Choosing the photos of a package paid before picture day (docs/packages-and-coupons.md,
 * "Ordering before picture day"): the call, and when a family may make it.
 */
import { isOrderingClosed } from '@contract/constants';
import type { Order, OrderPackage } from '@contract/orders';
import type { PrepaidPhotosResponse } from '@contract/prepaid-photos';
import { apiRequest } from '../../lib/api-client';

/**
 * The family may choose (or change) the photos: a package ordered before picture day, in a paid
 * order, that the studio has not filled, until the end of its closing date. The server checks again
 * (the photos online, the lab).
 */
export const mayChoosePhotos = (order: Pick<Order, 'paymentStatus' | 'status'>, pkg: OrderPackage, now: Date = new Date()): boolean =>
  pkg.prepaid &&
  pkg.posesChosenBy !== 'studio' &&
  pkg.studentId !== null &&
  pkg.packageId !== null &&
  order.paymentStatus === 'completed' &&
  order.status !== 'cancelled' &&
  !isOrderingClosed(pkg.posesDue, now);

/** The photos chosen so far, one per piece of the package's contents (none before any choice). */
export function chosenPhotoIds(order: Pick<Order, 'items'>, pkg: Pick<OrderPackage, 'id' | 'quantity'>): number[] {
  return order.items
    .filter((item) => item.packageLineId === pkg.id && item.photoId !== null)
    .flatMap((item) => Array.from({ length: Math.max(1, Math.round(item.quantity / Math.max(1, pkg.quantity))) }, () => item.photoId ?? 0));
}

/** `PUT /api/orders/{id}/packages/{packageLineId}/photos`: answers the order as it now is. */
export const choosePackagePhotos = (orderId: string, packageLineId: number, photoIds: readonly number[]) =>
  apiRequest<Order>(`/api/orders/${encodeURIComponent(orderId)}/packages/${packageLineId}/photos`, { method: 'PUT', auth: 'customer', body: { photos: photoIds } });

/**
 * `GET /api/orders/{id}/packages/{packageLineId}/photos`: the child's released photos, to the order's
 * owner on any device (this browser placed the order or opened its link, or the customer is signed
 * in), each with image addresses signed for that line (docs/prepaid.md, "Choosing from any device").
 */
export const prepaidPhotosQuery = (orderId: string, packageLineId: number) => ({
  queryKey: ['orders', orderId, 'packages', packageLineId, 'photos'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiRequest<PrepaidPhotosResponse>(`/api/orders/${encodeURIComponent(orderId)}/packages/${packageLineId}/photos`, { auth: 'customer', signal }),
});

/**
 * The two reminders a family may get after choosing photos (docs/outreach.md, "Abandoned carts and
 * unpaid orders"): one "still in your cart" message per cart version left 24 hours without an order,
 * and one reminder per order left 24 hours without payment. Both are non-transactional: never to an
 * address that unsubscribed, with the unsubscribe headers and link, in the school's sending window.
 */
import { ABANDONED_CART_AFTER_MS, UNPAID_ORDER_REMINDER_AFTER_MS } from '../../contract/outreach';
import { isOrderingClosed } from '../../contract/constants';
import { familyPhotoLabel } from '../../contract/photo-names';
import type { Deps } from '../deps';
import { createDatabase } from '../db/database';
import { abandonedCartEmail, unpaidOrderEmail } from '../mail/reminder-templates';
import type { Outbox } from '../outbox/outbox.service';
import { createOrdersRepository } from '../orders/orders.repository';
import { fallbackProducts } from '../orders/pricing';
import { DEFAULT_WINDOW, type SendWindow } from '../outreach/send-window';
import { unsubscribePageUrl, unsubscribeToken } from '../outreach/unsubscribe';
import { createCartRepository, type DueCart, type UnpaidOrderRecord } from './carts.repository';
import { CART_LINK_MAX_GRANTS, CART_LINK_TTL_MS, credentialTag, signCartLink, type CartLinkGrant } from './cart-token';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Neither reminder is written about a cart or an order older than this: the moment has passed. */
export const REMINDER_MAX_AGE_MS = 7 * DAY_MS;

export const cartDedupeKey = (guardianId: number, version: number) => `abandoned_cart:${guardianId}:${version}`;
export const unpaidDedupeKey = (orderId: string) => `unpaid_order:${orderId}`;

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function createReminderService(deps: Pick<Deps, 'knex' | 'config' | 'logger'>, outbox: Outbox) {
  const repo = createCartRepository(deps.knex);
  const orders = createOrdersRepository(deps.knex);
  const database = createDatabase(deps.knex);
  const { publicUrl, jwtSecret: secret, businessName } = deps.config;

  async function windowOf(schoolId: number): Promise<SendWindow> {
    return (await repo.sendWindow(schoolId)) ?? DEFAULT_WINDOW;
  }

  /** Whether the family has paid another order in the school, placed since, for the same child or class. */
  async function paidSince(order: UnpaidOrderRecord): Promise<boolean> {
    const paid = (await repo.paidOrders({ customerId: order.customerId, email: order.customerEmail }, order.schoolId, order.createdAt)).filter((other) => other.id !== order.id);
    if (paid.length === 0) return false;
    const children = new Set((await repo.orderLines([order.id])).map((line) => line.studentId).filter((id): id is number => id !== null));
    return paid.some(
      (other) =>
        sameName(other.studentName, order.studentName) ||
        (order.albumId !== null && other.albumId === order.albumId) ||
        other.studentIds.some((id) => children.has(id)),
    );
  }

  /** Why an order gets no reminder now (null: it may get one). */
  async function orderStop(order: UnpaidOrderRecord & { orderStatus?: string; paymentStatus?: string }, now: number): Promise<string | null> {
    if (order.paymentStatus === 'completed') return 'paid';
    if (order.orderStatus !== undefined && order.orderStatus !== 'pending') return 'not pending';
    if ((await repo.unsubscribed([order.customerEmail])).size > 0) return 'unsubscribed';
    const school = (await repo.schools([order.schoolId])).get(order.schoolId);
    if (!school || isOrderingClosed(school.closingDate, new Date(now))) return 'ordering closed';
    if (await paidSince(order)) return 'paid another order';
    return null;
  }

  /** Why a cart gets no message now (null: it may get one). */
  async function cartStop(cart: DueCart, now: number): Promise<string | null> {
    if (cart.schoolId === null) return 'no school';
    const school = (await repo.schools([cart.schoolId])).get(cart.schoolId);
    if (!school || isOrderingClosed(school.closingDate, new Date(now))) return 'ordering closed';
    if (await repo.orderedSince(cart.email, cart.schoolId, cart.updatedAt)) return 'ordered';
    return null;
  }

  /** The grants the restore link may renew: what the guardian follows in the cart's school, bound to today's credentials. */
  async function linkGrants(guardianId: number, schoolId: number): Promise<CartLinkGrant[]> {
    const follows = await repo.follows(guardianId, schoolId);
    const grants: CartLinkGrant[] = follows.map((follow) =>
      follow.studentId === null
        ? { kind: 'school', id: follow.schoolId, tag: credentialTag(secret, 'school', follow.schoolId, follow.schoolEpoch) }
        : { kind: 'student', id: follow.studentId, tag: credentialTag(secret, 'student', follow.studentId, follow.studentCode ?? '') },
    );
    return grants.filter((grant, i) => grants.findIndex((other) => other.kind === grant.kind && other.id === grant.id) === i).slice(0, CART_LINK_MAX_GRANTS);
  }

  async function writeCartMessage(cart: DueCart, now: number): Promise<boolean> {
    const schoolId = cart.schoolId as number;
    const photos = await orders.photos(cart.items.map((item) => item.photoId));
    const school = await orders.school(schoolId);
    if (!school) return false;
    const products = school.products.length > 0 ? school.products : fallbackProducts();
    // Only what could still be ordered is listed; a photo withdrawn since is left out of the message.
    const lines = cart.items.flatMap((item) => {
      const photo = photos.get(item.photoId);
      const product = products.find((candidate) => candidate.id === item.productType);
      if (!photo || !product || photo.doNotPublish || photo.withheld || !photo.albumPublished) return [];
      return [{ photoName: familyPhotoLabel({ id: photo.id, originalName: photo.originalName, originalNumber: photo.originalNumber }), productName: product.name, quantity: item.quantity }];
    });
    if (lines.length === 0) return false;
    const token = signCartLink(secret, { guardianId: cart.guardianId, version: cart.updatedAt, expiresAt: now + CART_LINK_TTL_MS, grants: await linkGrants(cart.guardianId, schoolId) });
    const unsubscribe = unsubscribeToken(secret, cart.email);
    const content = abandonedCartEmail({
      businessName,
      schoolName: school.name,
      lines,
      restoreUrl: `${publicUrl}/cart/restore?token=${encodeURIComponent(token)}`,
      linkDays: Math.round(CART_LINK_TTL_MS / DAY_MS),
      unsubscribeUrl: unsubscribePageUrl(publicUrl, unsubscribe),
    });
    const window = await windowOf(schoolId);
    return database.transaction((tx) =>
      outbox.enqueueNonTransactional(
        { kind: 'abandoned_cart', to: cart.email, ...content, dedupeKey: cartDedupeKey(cart.guardianId, cart.updatedAt), schoolId, guardianId: cart.guardianId },
        { window, earliest: now },
        tx,
      ),
    );
  }

  async function writeOrderReminder(order: UnpaidOrderRecord, now: number): Promise<boolean> {
    const school = (await repo.schools([order.schoolId])).get(order.schoolId);
    const lines = (await repo.orderLines([order.id])).map((line) => ({
      photoName: familyPhotoLabel({ id: line.photoId, name: line.photoOriginalName ?? line.photoName, number: line.photoOriginalNumber }),
      productName: line.productName,
      quantity: line.quantity,
      totalThebe: line.totalThebe,
    }));
    const unsubscribe = unsubscribeToken(secret, order.customerEmail);
    const content = unpaidOrderEmail({
      businessName,
      customerName: order.customerName,
      orderId: order.id,
      schoolName: school?.name ?? '',
      totalThebe: order.totalThebe,
      lines,
      // The confirmation page offers Try Again (as the payment-expired e-mail's link does).
      payUrl: `${publicUrl}/order-confirmation/${encodeURIComponent(order.id)}`,
      unsubscribeUrl: unsubscribePageUrl(publicUrl, unsubscribe),
    });
    const window = await windowOf(order.schoolId);
    return database.transaction(async (tx) => {
      const state = await repo.orderState(order.id, tx);
      if (!state || state.orderStatus !== 'pending' || state.paymentStatus === 'completed') return false;
      return outbox.enqueueNonTransactional(
        {
          kind: 'unpaid_order',
          to: order.customerEmail,
          ...content,
          dedupeKey: unpaidDedupeKey(order.id),
          schoolId: order.schoolId,
          guardianId: await repo.guardianIdByEmail(order.customerEmail, tx),
          orderId: order.id,
        },
        { window, earliest: now },
        tx,
      );
    });
  }

  /**
   * Withdraws queued reminders whose reason went away since they were written (the sending window
   * may hold one until the next morning): the family ordered or changed the cart, paid or cancelled
   * the order, or unsubscribed. The payment's own hook withdraws at once; this catches the rest.
   */
  async function withdrawStale(now: number): Promise<number> {
    let withdrawn = 0;
    for (const queued of await repo.queuedReminders()) {
      if (queued.kind === 'unpaid_order' && queued.orderId !== null) {
        const order = await repo.order(queued.orderId);
        if (!order || (await orderStop(order, now)) !== null) withdrawn += await outbox.cancelQueued({ kinds: ['unpaid_order'], orderId: queued.orderId });
      } else if (queued.kind === 'abandoned_cart' && queued.guardianId !== null) {
        const version = Number(queued.dedupeKey?.split(':')[2]);
        const guardian = await repo.guardian(queued.guardianId);
        const cart = await repo.cart(queued.guardianId);
        const stale =
          !guardian ||
          guardian.unsubscribedAt !== null ||
          !cart ||
          cart.updatedAt !== version ||
          cart.items.length === 0 ||
          (cart.schoolId !== null && (await repo.orderedSince(guardian.email, cart.schoolId, cart.updatedAt)));
        if (stale) withdrawn += await outbox.cancelQueued({ kinds: ['abandoned_cart'], guardianId: queued.guardianId });
      }
    }
    return withdrawn;
  }

  return {
    /**
     * Writes the reminders due at `now` and withdraws the queued ones no longer wanted; the
     * maintenance job calls it every few minutes, tests with a chosen clock. Each is written once
     * (a dedupe key per cart version and per order), whatever the number of runs or processes.
     */
    async sendDue(now: number = Date.now()): Promise<{ carts: number; orders: number; withdrawn: number }> {
      const withdrawn = await withdrawStale(now);
      let carts = 0;
      for (const cart of await repo.dueCarts(now - ABANDONED_CART_AFTER_MS, now - REMINDER_MAX_AGE_MS)) {
        const stop = await cartStop(cart, now);
        if (stop !== null) continue;
        if (await writeCartMessage(cart, now)) carts++;
      }
      let written = 0;
      for (const order of await repo.unpaidOrders(now - UNPAID_ORDER_REMINDER_AFTER_MS, now - REMINDER_MAX_AGE_MS)) {
        if ((await orderStop(order, now)) !== null) continue;
        if (await writeOrderReminder(order, now)) written++;
      }
      if (carts + written > 0) outbox.kick();
      if (carts + written + withdrawn > 0) deps.logger.info({ carts, orders: written, withdrawn }, 'cart and payment reminders written');
      return { carts, orders: written, withdrawn };
    },
  };
}
export type ReminderService = ReturnType<typeof createReminderService>;

/**
 * The two reminders a family may get after choosing photos (docs/outreach.md, "Abandoned carts and
 * unpaid orders"): one "still in your cart" message per cart version left 24 hours without an order,
 * and one reminder per order left 24 hours without payment. Both are non-transactional: never to an
 * address that unsubscribed, with the unsubscribe headers and link, in the school's sending window.
 * Each also goes by SMS to a guardian's confirmed phone (docs/sms.md, "The season by SMS").
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
import { abandonedCartSms, unpaidOrderSms } from '../sms/season-sms';
import { createSeasonSmsRepository, type DueSmsCart } from '../sms/season-sms.repository';
import { createShortLinks } from '../sms/short-links';
import { smsOptOutPath } from '../sms/sms-opt-out';
import { writeSms } from '../sms/sms-transaction';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Neither reminder is written about a cart or an order older than this: the moment has passed. */
export const REMINDER_MAX_AGE_MS = 7 * DAY_MS;

export const cartDedupeKey = (guardianId: number, version: number) => `abandoned_cart:${guardianId}:${version}`;
export const unpaidDedupeKey = (orderId: string) => `unpaid_order:${orderId}`;
/** The same reminders by SMS (docs/sms.md, "The season by SMS"): their own keys, so each goes once on each channel. */
export const cartSmsDedupeKey = (guardianId: number, version: number) => `sms:${cartDedupeKey(guardianId, version)}`;
export const unpaidSmsDedupeKey = (orderId: string) => `sms:${unpaidDedupeKey(orderId)}`;
/** The order page's short link in an unpaid-order SMS works this long. */
const ORDER_LINK_TTL_MS = 30 * DAY_MS;

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function createReminderService(deps: Pick<Deps, 'knex' | 'config' | 'logger'>, outbox: Outbox) {
  const repo = createCartRepository(deps.knex);
  const smsRepo = createSeasonSmsRepository(deps.knex);
  const shortLinks = createShortLinks(deps);
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

  /** The cart's school and the lines of it that could still be ordered (a photo withdrawn since is left out). */
  async function orderableLines(cart: Pick<DueCart, 'items'>, schoolId: number) {
    const photos = await orders.photos(cart.items.map((item) => item.photoId));
    const school = await orders.school(schoolId);
    if (!school) return null;
    const products = school.products.length > 0 ? school.products : fallbackProducts();
    const lines = cart.items.flatMap((item) => {
      const photo = photos.get(item.photoId);
      const product = products.find((candidate) => candidate.id === item.productType);
      if (!photo || !product || photo.doNotPublish || photo.withheld || !photo.albumPublished) return [];
      return [{ photoName: familyPhotoLabel({ id: photo.id, originalName: photo.originalName, originalNumber: photo.originalNumber }), productName: product.name, quantity: item.quantity }];
    });
    return { school, lines };
  }

  /** The cart's restore path, signed as the e-mail's link is (docs/outreach.md, "The restore link"). */
  async function restorePath(guardianId: number, version: number, schoolId: number, now: number): Promise<string> {
    const token = signCartLink(secret, { guardianId, version, expiresAt: now + CART_LINK_TTL_MS, grants: await linkGrants(guardianId, schoolId) });
    return `/cart/restore?token=${encodeURIComponent(token)}`;
  }

  async function writeCartMessage(cart: DueCart, now: number): Promise<boolean> {
    const schoolId = cart.schoolId as number;
    const found = await orderableLines(cart, schoolId);
    if (!found) return false;
    const { school, lines } = found;
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

  /**
   * The cart's SMS to the guardian's confirmed phone (docs/sms.md, "The season by SMS"): a short
   * link to the same signed restore link the e-mail carries, and the opt-out link.
   */
  async function writeCartSms(cart: DueSmsCart, now: number): Promise<boolean> {
    const found = await orderableLines(cart, cart.schoolId);
    if (!found || found.lines.length === 0) return false;
    const target = await restorePath(cart.guardianId, cart.updatedAt, cart.schoolId, now);
    const window = await windowOf(cart.schoolId);
    return writeSms(database, async (tx) => {
      const link = await shortLinks.create(target, { expiresAt: now + CART_LINK_TTL_MS }, tx);
      const stopUrl = await shortLinks.create(smsOptOutPath(secret, cart.phone), {}, tx);
      const sms = abandonedCartSms({ schoolName: found.school.name, link, stopUrl });
      return outbox.enqueueNonTransactional(
        { channel: 'sms', kind: 'abandoned_cart', to: cart.phone, subject: '', text: sms.text, html: '', dedupeKey: cartSmsDedupeKey(cart.guardianId, cart.updatedAt), schoolId: cart.schoolId, guardianId: cart.guardianId },
        { window, earliest: now },
        tx,
      );
    });
  }

  /** The unpaid order's SMS, to the confirmed phone of the guardian with the order's address or phone; false when there is none. */
  async function writeOrderSms(order: UnpaidOrderRecord, now: number): Promise<boolean> {
    const guardian = await smsRepo.guardianFor({ email: order.customerEmail, phone: await smsRepo.orderPhone(order.id) });
    if (!guardian) return false;
    const school = (await repo.schools([order.schoolId])).get(order.schoolId);
    const window = await windowOf(order.schoolId);
    return writeSms(database, async (tx) => {
      const state = await repo.orderState(order.id, tx);
      if (!state || state.orderStatus !== 'pending' || state.paymentStatus === 'completed') return false;
      const link = await shortLinks.create(`/order-confirmation/${encodeURIComponent(order.id)}`, { expiresAt: now + ORDER_LINK_TTL_MS }, tx);
      const stopUrl = await shortLinks.create(smsOptOutPath(secret, guardian.phone), {}, tx);
      const sms = unpaidOrderSms({ orderId: order.id, schoolName: school?.name ?? null, totalThebe: order.totalThebe, link, stopUrl });
      return outbox.enqueueNonTransactional(
        {
          channel: 'sms',
          kind: 'unpaid_order',
          to: guardian.phone,
          subject: '',
          text: sms.text,
          html: '',
          dedupeKey: unpaidSmsDedupeKey(order.id),
          schoolId: order.schoolId,
          guardianId: guardian.guardianId,
          orderId: order.id,
        },
        { window, earliest: now },
        tx,
      );
    });
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
        // An SMS's key is the e-mail's with "sms:" before it (docs/sms.md, "The season by SMS").
        const bySms = queued.dedupeKey?.startsWith('sms:') === true;
        const version = Number(queued.dedupeKey?.replace(/^sms:/, '').split(':')[2]);
        const guardian = await repo.guardian(queued.guardianId);
        const cart = await repo.cart(queued.guardianId);
        const phone = bySms ? await smsRepo.reachablePhone(queued.guardianId) : null;
        const stale =
          !guardian ||
          guardian.unsubscribedAt !== null ||
          (bySms && phone === null) ||
          !cart ||
          cart.updatedAt !== version ||
          cart.items.length === 0 ||
          (cart.schoolId !== null &&
            (phone !== null
              ? await smsRepo.orderedSince({ email: guardian.email, phone }, cart.schoolId, cart.updatedAt)
              : guardian.email !== null && (await repo.orderedSince(guardian.email, cart.schoolId, cart.updatedAt))));
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
    async sendDue(now: number = Date.now()): Promise<{ carts: number; orders: number; sms: number; withdrawn: number }> {
      const withdrawn = await withdrawStale(now);
      let sms = 0;
      // The SMS first: a guardian with a phone and an address gets the SMS today and the e-mail on a later day (docs/sms.md, "The season by SMS").
      for (const cart of await smsRepo.dueCarts(now - ABANDONED_CART_AFTER_MS, now - REMINDER_MAX_AGE_MS)) {
        const school = (await repo.schools([cart.schoolId])).get(cart.schoolId);
        if (!school || isOrderingClosed(school.closingDate, new Date(now))) continue;
        if (await smsRepo.orderedSince(cart, cart.schoolId, cart.updatedAt)) continue;
        if (await writeCartSms(cart, now)) sms++;
      }
      let carts = 0;
      for (const cart of await repo.dueCarts(now - ABANDONED_CART_AFTER_MS, now - REMINDER_MAX_AGE_MS)) {
        const stop = await cartStop(cart, now);
        if (stop !== null) continue;
        if (await writeCartMessage(cart, now)) carts++;
      }
      let written = 0;
      for (const order of await repo.unpaidOrders(now - UNPAID_ORDER_REMINDER_AFTER_MS, now - REMINDER_MAX_AGE_MS)) {
        if ((await orderStop(order, now)) !== null) continue;
        if (await writeOrderSms(order, now)) sms++;
        if (await writeOrderReminder(order, now)) written++;
      }
      if (carts + written + sms > 0) outbox.kick();
      if (carts + written + sms + withdrawn > 0) deps.logger.info({ carts, orders: written, sms, withdrawn }, 'cart and payment reminders written');
      return { carts, orders: written, sms, withdrawn };
    },
  };
}
export type ReminderService = ReturnType<typeof createReminderService>;

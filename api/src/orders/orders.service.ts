import type { OrderStatus } from '../../contract/constants';
import { isOrderingClosed } from '../../contract/constants';
import { HARDENING_MSG, MSG, ORDER_MSG, REVIEW_MSG, STUDENT_MSG } from '../../contract/messages';
import { isPackageLine, type Order, type OrderCreateInput, type OrderLineInput, type OrderQuoteRequest } from '../../contract/orders';
import type { Deps } from '../deps';
import { conflict, forbidden, notFound } from '../http/errors';
import type { Viewer } from '../http/access';
import { accessError, classAccess, createVisibility, photoVisible } from '../students/visibility';
import { createStudentRepository, type GrantedStudent } from '../students/students.repository';
import { isUniqueViolation } from '../db/errors';
import { createDatabase, type Tx } from '../db/database';
import type { CustomerService } from '../customers/customers.service';
import type { Outbox } from '../outbox/outbox.service';
import { orderConfirmationEmail, paymentExpiredEmail } from '../mail/templates';
import { confirmationLines } from './confirmation-lines';
import { newOrderId } from './order-id';
import { orderRequestHash } from './idempotency';
import { priceOrder, quoteOrder, fallbackProducts, type PhotoInfo, type PrepaidStudent, type PricedOrder, type PricingContext } from './pricing';
import { createOrdersRepository, type NewOrder, type OrderRecord, type OrderSchool } from './orders.repository';
import type { CouponsForOrders } from '../coupons/coupons.types';
import { isPaid, lineWithdrawn, presentOrder } from './orders.presenter';
import { familyPhotoLabel, itemFamilyPhotoLabel } from '../../contract/photo-names';
import type { DownloadLinks } from './downloads';
import type { StreamedFileResponse } from '../media/media.types';
import { createSalesRecording } from '../reports/reports-recording';
import { createHash } from 'node:crypto';
import { WITHDRAWN_MSG } from '../../contract/withdrawn-photos';
import { ORDER_SMS_MSG, fitSms, smsShopName } from '../../contract/order-sms';
import { formatPula } from '../../contract/money';
import { parsePhone } from '../../contract/phone';
import { SCHOOL_TIMEZONE } from '../../contract/outreach';
import { createShortLinks } from '../sms/short-links';
import { createOrderLinks, ORDER_LINK_TTL_SECONDS } from './order-links';

export interface CreateOrderContext {
  /** Set when a signed-in customer orders: the order is theirs whatever e-mail they type. */
  customerId: number | null;
  idempotencyKey: string | null;
  /** Who orders: a family may order only the photos it may see (the same rule as viewing). */
  viewer: Viewer;
  /** The client's address: with the viewer's grant, what the order limit counts (docs/access.md, "Placing orders"). */
  clientIp: string;
}

/**
 * The gallery grant as the order limit knows it: what the browser holds (schools, classes and
 * children by id), not the cookie's text, so unlocking again does not make a new client.
 */
function grantKey(viewer: Viewer): string {
  const { schools, albums, students } = viewer.grant;
  if (schools.length + albums.length + students.length === 0) return 'none';
  const ids = (list: number[]) => [...list].sort((a, b) => a - b).join(',');
  return createHash('sha256').update(`s:${ids(schools)}|a:${ids(albums)}|st:${ids(students)}`).digest('hex').slice(0, 32);
}

export interface OrdersHooks {
  /** Asks the gateway about the order's open payment (payments.service.ts `reconcileOrder`). */
  reconcilePayment?(orderId: string): Promise<void>;
}

/** The photo ids an order's lines name: each single line's, and every photo chosen for a package. */
const photoIdsOf = (items: readonly OrderLineInput[]): number[] => items.flatMap((item) => (isPackageLine(item) ? item.photos.map((photo) => photo.photoId) : [item.photoId]));

/** Every photo a priced order sells: its single lines' and its packages' contents'. */
const pricedPhotos = (priced: PricedOrder): PhotoInfo[] => [...priced.lines, ...priced.packages.flatMap((pkg) => pkg.contents)].map((line) => line.photo);

export function createOrdersService(
  deps: Deps,
  downloads: DownloadLinks,
  hooks: OrdersHooks,
  customers: CustomerService,
  outbox: Pick<Outbox, 'enqueue' | 'kick'>,
  coupons: CouponsForOrders,
) {
  const repo = createOrdersRepository(deps.knex);
  const database = createDatabase(deps.knex);
  const visibility = createVisibility(createStudentRepository(deps.knex));
  const sales = createSalesRecording(deps);
  const shortLinks = createShortLinks(deps);
  const orderLinks = createOrderLinks(deps.config.jwtSecret);
  const smsShop = smsShopName(deps.config.businessName);

  /**
   * An order's transactional SMS (docs/sms.md, "Transactional SMS"), written in `tx` with the change
   * that causes it: to the order's own phone, when it has one; no marketing consent needed, sent at
   * once at any hour, once (its dedupe key). Its short link opens the order's confirmation page as
   * the browser that placed it sees it (order-links.ts).
   */
  async function queueOrderSms(
    order: OrderRecord,
    message: { kind: 'order_paid_sms' | 'transfer_awaiting_sms' | 'transfer_expired_sms'; dedupeKey: string; wordings: (link: string) => readonly string[] },
    tx: Tx,
  ): Promise<void> {
    if (!order.customerPhone) return;
    // Orders placed before the number was checked may hold any text: only a mobile number gets an SMS.
    const phone = parsePhone(order.customerPhone);
    if (!phone.ok) return;
    const link = await shortLinks.create(orderLinks.path(order.id), { expiresAt: Date.now() + ORDER_LINK_TTL_SECONDS * 1000 }, tx);
    await outbox.enqueue(
      {
        channel: 'sms',
        kind: message.kind,
        to: phone.e164,
        subject: '',
        text: fitSms(message.wordings(link)),
        html: '',
        orderId: order.id,
        schoolId: order.schoolId,
        dedupeKey: message.dedupeKey,
      },
      tx,
    );
  }

  /**
   * The children this viewer holds by code (docs/access.md, "Whose photo it is"): staff, placing an
   * order for a family, hold every child.
   */
  async function holdsOf(viewer: Viewer): Promise<{ granted: GrantedStudent[]; holds: (studentId: number) => boolean }> {
    const granted = await visibility.grantedStudents(viewer);
    const held = new Set(granted.map((student) => student.id));
    return { granted, holds: viewer.staff ? () => true : (studentId) => held.has(studentId) };
  }

  /** Do-not-publish photos are never sold, to anyone; every other photo needs the viewing grant. */
  async function assertCanOrder(viewer: Viewer, photos: PhotoInfo[], granted?: readonly GrantedStudent[]): Promise<void> {
    granted ??= await visibility.grantedStudents(viewer);
    for (const photo of photos) {
      if (photo.doNotPublish) throw forbidden(STUDENT_MSG.photoNotAvailable, 'PHOTO_NOT_AVAILABLE');
      // A draft class's photos are not for sale, as if they were not there.
      if (!photo.albumPublished && !viewer.staff) throw forbidden(STUDENT_MSG.photoNotAvailable, 'PHOTO_NOT_AVAILABLE');
      const access = classAccess(
        viewer,
        { id: photo.albumId, schoolId: photo.schoolId, hasPassword: photo.albumHasPassword, accessMode: photo.accessMode, published: photo.albumPublished },
        granted,
      );
      if (access.kind === 'none') throw accessError(access);
      if (!photoVisible(access, photo)) throw forbidden(STUDENT_MSG.photoNotAvailable, 'PHOTO_NOT_AVAILABLE');
    }
  }

  /** What pricing needs of the school: its products (or the built-in ones), packages and family discount. */
  function pricingContext(school: OrderSchool, photos: Map<number, PhotoInfo>, holds: PricingContext['holds'], students: Map<number, PrepaidStudent>): PricingContext {
    return {
      holds,
      accessMode: school.accessMode,
      students,
      closingDate: school.closingDate,
      schoolId: school.id,
      products: school.products.length > 0 ? school.products : fallbackProducts(),
      packages: school.packages,
      sibling: school.sibling,
      photos,
      closed: isOrderingClosed(school.closingDate),
    };
  }

  /** The school (404 when unknown), the lines' photos and the coupon as of now (refused by the coupons service when it may not be used). */
  async function orderInputs(input: Pick<OrderCreateInput, 'schoolId' | 'items' | 'couponCode'>) {
    const school = await repo.school(input.schoolId);
    if (!school) throw notFound(MSG.schoolNotFound);
    const photos = await repo.photos(photoIdsOf(input.items));
    // The children of packages ordered before picture day (docs/prepaid.md).
    const students = await repo.prepaidStudents(input.items.flatMap((item) => (isPackageLine(item) && item.photos.length === 0 && item.studentId !== undefined ? [item.studentId] : [])));
    const coupon = input.couponCode ? await coupons.resolve(input.couponCode, school.id) : null;
    return { school, photos, coupon, students };
  }

  /**
   * What the cart shows before paying (`POST /api/orders/quote`, docs/packages-and-coupons.md,
   * "The order of discounts"): the lines priced as an order would be, the family discount and the
   * coupon, with the same refusals (photos this viewer may not order, a coupon this family may no
   * longer use), nothing written and no use taken.
   */
  async function quote(input: OrderQuoteRequest, viewer: Viewer): Promise<PricedOrder> {
    const { school, photos, coupon, students } = await orderInputs(input);
    const { granted, holds } = await holdsOf(viewer);
    const priced = quoteOrder(input.items, pricingContext(school, photos, holds, students), coupon);
    await assertCanOrder(viewer, pricedPhotos(priced), granted);
    if (priced.coupon) await coupons.checkAvailable(priced.coupon.rule, { email: null, studentIds: priced.studentIds });
    return priced;
  }

  /**
   * A repeated request returns the order it created, but only for the very same request, and only
   * to a browser that may still see its photos (the grant is checked as for a new order).
   */
  async function replay(earlier: OrderRecord, input: OrderCreateInput, requestHash: string, ctx: CreateOrderContext) {
    if (earlier.idempotencyHash !== requestHash) throw conflict(HARDENING_MSG.idempotencyKeyReused, 'IDEMPOTENCY_KEY_REUSED');
    const photos = await repo.photos(photoIdsOf(input.items));
    await assertCanOrder(ctx.viewer, [...photos.values()]);
    return { order: earlier, customerCreated: false, replayed: true };
  }

  async function create(input: OrderCreateInput, ctx: CreateOrderContext): Promise<{ order: OrderRecord; customerCreated: boolean; replayed: boolean }> {
    const requestHash = orderRequestHash(input, ctx.customerId);
    if (ctx.idempotencyKey) {
      const earlier = await repo.findByIdempotencyKey(ctx.idempotencyKey);
      if (earlier) return replay(earlier, input, requestHash, ctx);
    }
    // Every attempt counts, per address and gallery grant: at most ORDER_LIMIT_PER_CLIENT in the
    // window, then 429 with Retry-After (docs/access.md, "Placing orders"). Staff are not limited.
    if (!ctx.viewer.staff) {
      const grant = grantKey(ctx.viewer);
      await deps.limits.guard('order-place', ctx.clientIp, grant);
      await deps.limits.fail('order-place', ctx.clientIp, grant);
    }
    const { school, photos, coupon, students } = await orderInputs(input);
    const { granted, holds } = await holdsOf(ctx.viewer);
    const priced = priceOrder(input, pricingContext(school, photos, holds, students), coupon);
    await assertCanOrder(ctx.viewer, pricedPhotos(priced), granted);

    const id = newOrderId();
    // A new account's "set your password" e-mail, unless its inbox had its day's share (docs/accounts.md, "Account created at checkout").
    const mayMailAccount = ctx.customerId === null ? await customers.setPasswordMailAllowed(input.customerEmail) : false;
    let created: boolean;
    /** What the transaction wrote, for the answer (`repo.placed()`). */
    const wrote: { order?: NewOrder; written?: { createdAt: number; lineIds: number[]; school: OrderSchool } } = {};
    try {
      created = await database.transaction(async (tx): Promise<boolean> => {
        // The coupon's use is taken first, then held by this unpaid order once it is written, or the
        // whole order is refused (docs/packages-and-coupons.md, "Counting a coupon's uses").
        if (priced.coupon) await coupons.take(tx, priced.coupon.rule);
        let customerId = ctx.customerId;
        let account = false;
        if (customerId === null) {
          const found = await customers.findOrCreateCheckoutCustomer({ email: input.customerEmail, name: input.customerName, phone: input.customerPhone }, tx);
          customerId = found.customer.id;
          if (found.created && mayMailAccount) {
            // The account's first link and its e-mail are stored with the order, or none of them (docs/email.md, "The outbox").
            await customers.mailSetPasswordLink(found.customer, await customers.issueSetPasswordToken(customerId, tx), tx);
            account = true;
          } else if (found.created) {
            deps.logger.warn({ orderId: id, customerId }, 'account made at checkout without its set-password e-mail: the inbox had its day\'s share');
          }
        }
        const placing: NewOrder = {
          id,
          schoolId: school.id,
          customerId,
          customerName: input.customerName,
          customerEmail: input.customerEmail,
          customerPhone: input.customerPhone,
          studentName: input.studentName,
          notes: input.notes,
          idempotencyKey: ctx.idempotencyKey,
          idempotencyHash: ctx.idempotencyKey ? requestHash : null,
          totalThebe: priced.totalThebe,
          lines: priced.lines,
          packages: priced.packages,
          subtotalThebe: priced.subtotalThebe,
          siblingDiscountThebe: priced.siblingDiscountThebe,
          coupon: priced.coupon && { id: priced.coupon.rule.id, code: priced.coupon.rule.code, discountThebe: priced.coupon.discountThebe },
        };
        const { createdAt } = await repo.insert(placing, tx);
        // What the answer needs that only the database knows: its lines' ids (docs/performance.md, "Checkout tails on a warm server").
        wrote.order = placing;
        wrote.written = { createdAt, lineIds: priced.packages.length === 0 ? await repo.lineIds(id, tx) : [], school };
        // The season reports' sale lines are written with the order, or not at all (docs/reports.md#revenue-of-a-line).
        await sales.orderPlaced(
          {
            orderId: id,
            schoolId: school.id,
            totalThebe: priced.totalThebe,
            placedAt: createdAt,
            singles: priced.lines.map((line) => ({
              albumId: line.photo.albumId,
              studentId: line.photo.studentId,
              productId: line.product.id,
              productName: line.product.name,
              kind: line.product.kind,
              quantity: line.quantity,
              totalThebe: line.totalThebe,
            })),
            packages: priced.packages.map((pkg) => ({
              packageId: pkg.package.id,
              name: pkg.package.name,
              quantity: pkg.quantity,
              totalThebe: pkg.totalThebe,
              studentId: pkg.studentId,
              prepaid: pkg.prepaid,
              albumId: pkg.albumId,
              // A prepaid package has no contents yet: its digital part is its products' (docs/prepaid.md, "The books").
              contents: pkg.prepaid
                ? pkg.package.items.map((item) => ({ albumId: pkg.albumId, kind: item.product.kind, totalThebe: item.product.priceThebe * item.quantity * pkg.quantity }))
                : pkg.contents.map((line) => ({ albumId: line.photo.albumId, kind: line.product.kind, totalThebe: line.product.priceThebe * line.quantity })),
            })),
          },
          tx,
        );
        if (priced.coupon) await coupons.hold(tx, { coupon: priced.coupon.rule, orderId: id, email: input.customerEmail, studentIds: priced.studentIds });
        return account;
      });
    } catch (err) {
      // Two tries with one key raced: the first one stands.
      if (ctx.idempotencyKey && isUniqueViolation(err)) {
        const earlier = await repo.findByIdempotencyKey(ctx.idempotencyKey);
        if (earlier) return replay(earlier, input, requestHash, ctx);
      }
      throw err;
    }
    // Committed: the sender picks the account's e-mail up at once, off the request's path.
    if (created) {
      outbox.kick();
      await customers.setPasswordMailSent(input.customerEmail);
    }
    // The order as written, not read back; one with package lines is read back (`placed()`).
    const record = (wrote.order && wrote.written && (await repo.placed(wrote.order, wrote.written))) ?? (await repo.find(id));
    if (!record) throw new Error(`order ${id} vanished after insert`);
    return { order: record, customerCreated: created, replayed: false };
  }

  async function get(id: string): Promise<OrderRecord> {
    const record = await repo.find(id);
    if (!record) throw notFound(ORDER_MSG.orderNotFound);
    return record;
  }

  /**
   * A paid digital copy behind a signed link (docs/access.md): the full-resolution original, only
   * while the order stays paid, never of a child who may not be published.
   */
  async function download(token: string): Promise<StreamedFileResponse> {
    const link = downloads.verify(token);
    if (!link) throw forbidden(ORDER_MSG.downloadInvalid, 'DOWNLOAD_LINK_INVALID');
    const order = await repo.find(link.orderId).catch(() => undefined);
    const item = order?.items.find((candidate) => candidate.id === link.itemId);
    if (!order || !item || item.kind !== 'digital') throw forbidden(ORDER_MSG.downloadInvalid, 'DOWNLOAD_LINK_INVALID');
    if (!isPaid(order)) throw forbidden(ORDER_MSG.downloadNotReady, 'ORDER_NOT_PAID');
    // An erased photo is gone for good (its line keeps only text); a do-not-publish one is never
    // delivered, and neither is one that is no longer the ordering child's (docs/access.md, "Withdrawn photos").
    const photo = item.photoId === null ? undefined : await repo.photoForDownload(item.photoId);
    if (!photo) throw notFound(ORDER_MSG.downloadInvalid);
    if (photo.doNotPublish) throw forbidden(STUDENT_MSG.photoNotAvailable, 'PHOTO_NOT_AVAILABLE');
    if (lineWithdrawn({ ...item, photoNow: photo.now })) throw forbidden(REVIEW_MSG.photoWithdrawnHelp, 'PHOTO_WITHDRAWN');
    const file = await deps.media.originalDownload(photo, downloadName(order.schoolName, familyPhotoLabel({ id: item.photoId, originalName: item.photoOriginalName, name: item.photoName }), photo.filename));
    if (!file) throw notFound(ORDER_MSG.downloadInvalid);
    return file;
  }

  return {
    create,
    quote,
    get,

    /** The order for its confirmation page: an unpaid one is settled with the gateway first. */
    async getSettled(id: string): Promise<OrderRecord> {
      const order = await get(id);
      if (order.paymentStatus === 'completed' || !hooks.reconcilePayment) return order;
      await hooks.reconcilePayment(id);
      return get(id);
    },

    /**
     * How much of an order a reader sees (docs/access.md, "Reading an order"): staff all of it; its
     * customer, signed in, or the browser that placed it (its confirmation token) the family's
     * view; anyone else who only knows the id, which is printed on labels, lists and lab files,
     * the statuses and the total.
     */
    readerView(order: OrderRecord, reader: { staff: boolean; customerId: number | null; placedHere: boolean }): 'staff' | 'family' | 'summary' {
      if (reader.staff) return 'staff';
      if (reader.placedHere || (reader.customerId !== null && order.customerId === reader.customerId)) return 'family';
      return 'summary';
    },

    download,
    list: (filter: { status?: OrderStatus; schoolId?: number }): Promise<OrderRecord[]> => repo.list(filter),
    /** A parent's orders, without the unpaid ones that were cancelled (abandoned or replaced attempts, docs/statuses.md). */
    listForCustomer: (customerId: number): Promise<OrderRecord[]> => repo.list({ customerId, hideUnpaidCancelled: true }),

    /**
     * The order's own customer cancels it while it is unpaid (docs/statuses.md#cancelled-by-the-parent):
     * a signed-in customer whose order it is, or the browser that placed it (it holds the order's
     * confirmation token, `placedHere`, or its Idempotency-Key). The gateway is asked first, so an
     * order paid meanwhile is never cancelled.
     */
    async cancelUnpaid(id: string, who: { customerId: number | null; idempotencyKey: string | null; placedHere: boolean }): Promise<OrderRecord> {
      const order = await get(id);
      const mine =
        who.placedHere ||
        (who.customerId !== null && order.customerId === who.customerId) ||
        (who.idempotencyKey !== null && (await repo.createdWithKey(id, who.idempotencyKey)));
      if (!mine) throw forbidden(ORDER_MSG.notYourOrder, 'NOT_YOUR_ORDER');
      if (order.orderStatus === 'cancelled' && order.paymentStatus !== 'completed') return order;
      if (order.paymentStatus !== 'completed' && hooks.reconcilePayment) await hooks.reconcilePayment(id);
      // A coupon use the order held is given back with the cancel (docs/packages-and-coupons.md, "Counting a coupon's uses").
      const cancelled = await database.transaction(async (tx) => {
        if ((await repo.cancelUnpaid(id, tx)) === 0) return false;
        await coupons.release(id, tx);
        return true;
      });
      if (!cancelled) {
        const now = await get(id);
        if (now.paymentStatus === 'completed') throw conflict(ORDER_MSG.alreadyPaid, 'ALREADY_PAID');
        if (now.orderStatus === 'cancelled') return now;
        if (now.orderStatus !== 'pending') throw conflict(ORDER_MSG.notCancellable, 'ORDER_NOT_CANCELLABLE');
        // Money on its way is never turned into a refund by a cancel (docs/statuses.md#cancelled-by-the-parent).
        if (await repo.hasSettlingPayment(id)) throw conflict(WITHDRAWN_MSG.cancelWhileSettling, 'PAYMENT_MAY_STILL_SETTLE');
        throw conflict(HARDENING_MSG.paymentInProgress, 'PAYMENT_IN_PROGRESS');
      }
      return get(id);
    },
    /** Staff set an order's status; cancelling an unpaid order gives its coupon use back (a paid one keeps it). */
    async setStatus(id: string, status: OrderStatus): Promise<OrderRecord> {
      const found = await database.transaction(async (tx) => {
        if ((await repo.setStatus(id, status, tx)) === 0) return false;
        if (status === 'cancelled') await coupons.release(id, tx);
        return true;
      });
      if (!found) throw notFound(ORDER_MSG.orderNotFound);
      return get(id);
    },

    /**
     * The one e-mail when an unpaid order's bank transfer expired unconfirmed: written to the outbox
     * by the transaction that expired it, `tx` (docs/payments.md, "Payments that settle later"). The
     * link is the order's confirmation page, where Try Again opens a new payment.
     */
    async queuePaymentExpired(orderId: string, tx: Tx, paymentId?: number): Promise<void> {
      const order = await repo.find(orderId, tx);
      if (!order) throw notFound(ORDER_MSG.orderNotFound);
      // And one SMS to the order's phone, once per expired transfer (docs/sms.md, "Transactional SMS").
      await queueOrderSms(
        order,
        {
          kind: 'transfer_expired_sms',
          dedupeKey: `sms:transfer_expired:${order.id}:${paymentId ?? 'latest'}`,
          wordings: (link) => ORDER_SMS_MSG.transferExpired(smsShop, order.id, deps.config.bankTransferExpiryDays, link),
        },
        tx,
      );
      await outbox.enqueue(
        {
          kind: 'payment_expired',
          to: order.customerEmail,
          orderId: order.id,
          schoolId: order.schoolId,
          ...paymentExpiredEmail({
            businessName: deps.config.businessName,
            customerName: order.customerName,
            orderId: order.id,
            days: deps.config.bankTransferExpiryDays,
            payAgainUrl: `${deps.config.publicUrl}/order-confirmation/${encodeURIComponent(order.id)}`,
          }),
        },
        tx,
      );
    },

    /**
     * A bank transfer the gateway received and the bank has yet to confirm (docs/sms.md,
     * "Transactional SMS"): one SMS to the order's phone with the amount, the reference and the
     * deadline, written by the transaction that recorded it, once per payment.
     */
    async queueTransferAwaiting(orderId: string, paymentId: number, tx: Tx): Promise<void> {
      const order = await repo.find(orderId, tx);
      if (!order) throw notFound(ORDER_MSG.orderNotFound);
      const expiresAt = order.latestPayment?.expiresAt ?? null;
      const deadline = expiresAt === null ? null : new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: SCHOOL_TIMEZONE }).format(new Date(expiresAt));
      await queueOrderSms(
        order,
        {
          kind: 'transfer_awaiting_sms',
          dedupeKey: `sms:transfer_awaiting:${order.id}:${paymentId}`,
          wordings: (link) => ORDER_SMS_MSG.transferAwaiting(smsShop, order.id, formatPula(order.totalThebe, 'thebe'), deadline, link),
        },
        tx,
      );
    },

    /**
     * Exactly one confirmation per paid order: written to the outbox by the transaction that moved
     * the order to paid, `tx`, composed from what that transaction reads (docs/email.md, "The outbox").
     */
    async queueConfirmation(orderId: string, tx: Tx): Promise<void> {
      const record = await repo.find(orderId, tx);
      if (!record) throw notFound(ORDER_MSG.orderNotFound);
      const order: Order = presentOrder(record, downloads.url, 'family');
      // The order's one SMS, with the e-mail (docs/sms.md, "Transactional SMS").
      const hasDownloads = order.items.some((item) => item.downloadUrl);
      await queueOrderSms(
        record,
        { kind: 'order_paid_sms', dedupeKey: `sms:order_paid:${record.id}`, wordings: (link) => ORDER_SMS_MSG.paid(smsShop, record.id, hasDownloads, link) },
        tx,
      );
      await outbox.enqueue(
        {
          kind: 'order_confirmation',
          to: order.customerEmail,
          orderId: order.id,
          schoolId: record.schoolId,
          ...orderConfirmationEmail({
            businessName: deps.config.businessName,
            order: {
              id: order.id,
              customerName: order.customerName,
              studentName: order.studentName,
              schoolName: order.school.name,
              albumName: order.albumName ?? '',
              totalAmount: order.totalAmount,
              ...confirmationLines(order),
            },
            downloads: order.items.flatMap((item) =>
              item.downloadUrl ? [{ photoName: itemFamilyPhotoLabel(item), url: item.downloadUrl }] : [],
            ),
            // Lines withdrawn when the payment came: not delivered, refunded (docs/payments.md, "Withdrawn photos are never charged").
            notDelivered: order.items.flatMap((item) => (item.withdrawn ? [{ productName: item.productName, photoName: itemFamilyPhotoLabel(item), quantity: item.quantity }] : [])),
            ordersUrl: `${deps.config.publicUrl}/customer/orders`,
          }),
        },
        tx,
      );
    },
  };
}
export type OrdersService = ReturnType<typeof createOrdersService>;

/** "Demo Primary School - Photo 423.jpg": the name the family knows the photo by, with the stored file's extension. */
function downloadName(school: string, photoName: string, stored: string): string {
  const dot = stored.lastIndexOf('.');
  const ext = dot > 0 ? stored.slice(dot).toLowerCase() : '';
  return `${school} - ${photoName}`.replace(/[/\\:*?<>|]/g, '-').slice(0, 180) + ext;
}

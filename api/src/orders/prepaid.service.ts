import { isOrderingClosed } from '../../contract/constants';
import { ORDER_MSG, PACKAGE_MSG } from '../../contract/messages';
import { packageSlots } from '../../contract/package-filling';
import { PREPAID_MSG, type PosesChosenBy } from '../../contract/prepaid';
import { fitSms, smsShopName } from '../../contract/order-sms';
import { parsePhone } from '../../contract/phone';
import type { Deps } from '../deps';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { createDatabase, type Tx } from '../db/database';
import type { Outbox } from '../outbox/outbox.service';
import { createShortLinks } from '../sms/short-links';
import { button, escapeHtml, layout, safeHref } from '../mail/html';
import { createOrderLinks, ORDER_LINK_TTL_SECONDS } from './order-links';
import { createOrdersRepository, type OrderPackageRecord, type OrderRecord } from './orders.repository';
import { packageContents, type PhotoInfo } from './pricing';
import { isPaid } from './orders.presenter';
import { createPhotoRepository, type PhotoRecord } from '../photos/photos.repository';
import { createImagesRepository } from '../images/images.repository';
import type { FileResponse } from '../media/media.types';
import type { PrepaidImageKind } from '../../contract/prepaid-photos';
import { MSG } from '../../contract/messages';

/** Lines the default fill and the "photos are online" pass take per run, so one run holds its lock briefly. */
export const PREPAID_BATCH = 200;

/** Who asks to choose a line's photos: as `GET /api/orders/{id}` tells its readers apart (docs/access.md, "Reading an order"). */
export interface PrepaidReader {
  staff: boolean;
  customerId: number | null;
  /** This browser holds the order's confirmation token (it placed the order, or opened the order link of a message). */
  placedHere: boolean;
}

/** A Botswana-facing date of a closing day (YYYY-MM-DD): "11 December 2026". */
const longDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
export const closingDay = (date: string): string => longDay.format(new Date(`${date}T12:00:00Z`));

/** YYYY-MM-DD of `at` in UTC, the day `isOrderingClosed` compares the closing date with. */
const dayOf = (at: number): string => new Date(at).toISOString().slice(0, 10);

/**
 * Ordering before picture day (docs/prepaid.md): the family chooses a prepaid package's photos once
 * its child's are released, is told when they are, and the studio fills what nobody chose at the
 * closing date (or flags the line when the child has no photo).
 */
export function createPrepaidService(deps: Pick<Deps, 'knex' | 'config' | 'logger' | 'media'>, outbox: Pick<Outbox, 'enqueue' | 'kick'>) {
  const repo = createOrdersRepository(deps.knex);
  const photoRepo = createPhotoRepository(deps.knex);
  const images = createImagesRepository(deps.knex);
  const database = createDatabase(deps.knex);
  const shortLinks = createShortLinks(deps);
  const orderLinks = createOrderLinks(deps.config.jwtSecret);
  const shop = smsShopName(deps.config.businessName);
  const { publicUrl, businessName } = deps.config;

  /** The package as the price list holds it now: what its photos fill (docs/prepaid.md, "What the line holds"). */
  async function packageOf(order: OrderRecord, line: OrderPackageRecord) {
    const school = await repo.school(order.schoolId);
    const pkg = line.packageId === null ? undefined : school?.packages.find((candidate) => candidate.id === line.packageId);
    return pkg;
  }

  /** The contents of a line filled with `photos` in the order of the package's contents. */
  function contentsOf(pkg: NonNullable<Awaited<ReturnType<typeof packageOf>>>, photos: PhotoInfo[], quantity: number) {
    const slots = packageSlots(pkg.items, photos.length);
    if (!slots) throw badRequest(PACKAGE_MSG.photosCount, { photos: PACKAGE_MSG.photosCount }, 'PACKAGE_PHOTOS');
    const poses = new Set(photos.map((photo) => photo.id)).size;
    if (pkg.maxPoses !== null && poses > pkg.maxPoses) throw badRequest(PACKAGE_MSG.tooManyPoses(pkg.maxPoses), { photos: PACKAGE_MSG.tooManyPoses(pkg.maxPoses) }, 'PACKAGE_POSES');
    return packageContents(pkg, slots, photos, quantity, () => true);
  }

  /** A photo families of the child see now: the child's own, not withheld, not do not publish, its class published. */
  const released = (photo: PhotoInfo | undefined, studentId: number | null): photo is PhotoInfo =>
    photo !== undefined && studentId !== null && photo.studentId === studentId && !photo.withheld && !photo.doNotPublish && photo.albumPublished;

  /** A prepaid line of a paid order not cancelled, with its child (the photo list and its images). */
  async function paidPrepaidLine(order: OrderRecord, lineId: number): Promise<{ line: OrderPackageRecord; studentId: number }> {
    const line = order.packages.find((candidate) => candidate.id === lineId);
    if (!line) throw notFound(PREPAID_MSG.lineNotFound);
    if (!line.prepaid || line.studentId === null) throw conflict(PREPAID_MSG.notPrepaidLine, 'NOT_PREPAID_LINE');
    if (order.orderStatus === 'cancelled') throw conflict(PREPAID_MSG.orderCancelled, 'ORDER_CANCELLED');
    if (!isPaid(order)) throw conflict(PREPAID_MSG.notPaid, 'ORDER_NOT_PAID');
    return { line, studentId: line.studentId };
  }

  /** The signed order link (docs/access.md, "Reading an order"): it opens the order as the browser that placed it. */
  const orderUrl = (orderId: string) => `${publicUrl}${orderLinks.path(orderId)}`;

  /** One message to the order's address, and one SMS to its phone when it has a mobile number, written in `tx`. */
  async function tell(
    order: OrderRecord,
    message: { kind: 'prepaid_photos_online' | 'package_filled'; smsKind: 'prepaid_photos_online_sms' | 'package_filled_sms'; dedupeKey: string; subject: string; body: string; action: string; sms: (link: string) => readonly string[] },
    tx: Tx,
  ): Promise<void> {
    const url = orderUrl(order.id);
    const text = [`Hello ${order.customerName},`, '', message.body, '', `${message.action}: ${url}`, '', businessName].join('\n');
    const html = layout(
      businessName,
      message.subject,
      `<p>Hello ${escapeHtml(order.customerName)},</p>
<p>${escapeHtml(message.body)}</p>
${button(url, message.action)}
<p>Or copy this link into your browser:<br><a href="${safeHref(url)}">${escapeHtml(url)}</a></p>`,
    );
    await outbox.enqueue({ kind: message.kind, to: order.customerEmail, subject: message.subject, text, html, orderId: order.id, schoolId: order.schoolId, dedupeKey: message.dedupeKey }, tx);
    const phone = order.customerPhone ? parsePhone(order.customerPhone) : null;
    if (!phone?.ok) return;
    const link = await shortLinks.create(orderLinks.path(order.id), { expiresAt: Date.now() + ORDER_LINK_TTL_SECONDS * 1000 }, tx);
    await outbox.enqueue(
      { channel: 'sms', kind: message.smsKind, to: phone.e164, subject: '', text: fitSms(message.sms(link)), html: '', orderId: order.id, schoolId: order.schoolId, dedupeKey: `sms:${message.dedupeKey}` },
      tx,
    );
  }

  return {
    /**
     * `PUT /api/orders/{id}/packages/{packageLineId}/photos` (docs/prepaid.md, "Choosing the
     * photos"): the order's family (or staff) chooses a prepaid line's photos from its child's
     * released photos, by the rules of filling a package; the order must be paid, not cancelled,
     * not gone to the lab, and the closing date not passed. The family may change its choice
     * until then; a line the studio filled is no longer the family's to change.
     */
    async choose(orderId: string, lineId: number, photoIds: number[], reader: PrepaidReader, at: number = Date.now()): Promise<OrderRecord> {
      const order = await repo.find(orderId);
      if (!order) throw notFound(ORDER_MSG.orderNotFound);
      const mine = reader.staff || reader.placedHere || (reader.customerId !== null && order.customerId === reader.customerId);
      if (!mine) throw forbidden(ORDER_MSG.notYourOrder, 'NOT_YOUR_ORDER');
      const line = order.packages.find((candidate) => candidate.id === lineId);
      if (!line) throw notFound(PREPAID_MSG.lineNotFound);
      if (!line.prepaid) throw conflict(PREPAID_MSG.notPrepaidLine, 'NOT_PREPAID_LINE');
      if (order.orderStatus === 'cancelled') throw conflict(PREPAID_MSG.orderCancelled, 'ORDER_CANCELLED');
      if (!isPaid(order)) throw conflict(PREPAID_MSG.notPaid, 'ORDER_NOT_PAID');
      if (order.printBatchId !== null) throw conflict(PREPAID_MSG.inBatch, 'PACKAGE_AT_LAB');
      // Staff may still fill a line after the closing date (a retake for a child flagged without photos).
      if (!reader.staff && isOrderingClosed(order.schoolClosingDate, new Date(at))) throw conflict(PREPAID_MSG.choosingClosed(closingDay(order.schoolClosingDate ?? '')), 'CHOOSING_CLOSED');
      if (line.posesChosenBy === 'studio' && !reader.staff) throw conflict(PREPAID_MSG.choosingClosed(closingDay(order.schoolClosingDate ?? '')), 'CHOOSING_CLOSED');
      const photos = await repo.photos(photoIds);
      const chosen = photoIds.map((id) => photos.get(id));
      if (!chosen.every((photo) => released(photo, line.studentId))) {
        const any = line.studentId === null ? [] : (await repo.releasedPhotoIdsOf(line.studentId)).ids;
        if (any.length === 0) throw conflict(PREPAID_MSG.photosNotReleased, 'PHOTOS_NOT_RELEASED');
        throw badRequest(PREPAID_MSG.photoNotOfChild, { photos: PREPAID_MSG.photoNotOfChild }, 'PHOTO_NOT_OF_CHILD');
      }
      const pkg = await packageOf(order, line);
      if (!pkg) throw conflict(PACKAGE_MSG.packageUnavailable(line.name), 'PACKAGE_UNAVAILABLE');
      const contents = contentsOf(pkg, chosen as PhotoInfo[], line.quantity);
      // The family chooses while nobody or the family has; staff may also replace the studio's choice.
      const by: PosesChosenBy = reader.staff ? 'studio' : 'family';
      const from: (PosesChosenBy | null)[] = reader.staff ? [null, 'family', 'studio'] : [null, 'family'];
      const written = await database.transaction((tx) => repo.fillPackageLine({ orderId, lineId }, contents, by, from, tx));
      if (written === 0) throw conflict(PREPAID_MSG.choosingClosed(closingDay(order.schoolClosingDate ?? '')), 'CHOOSING_CLOSED');
      const updated = await repo.find(orderId);
      if (!updated) throw notFound(ORDER_MSG.orderNotFound);
      return updated;
    },

    /**
     * The photos a prepaid line is chosen from (docs/prepaid.md, "Choosing from any device"): the
     * line's child's released photos in capture order, to whoever may choose them (the order's
     * owner, or staff), on any device and whatever its gallery access. Anyone else 403; an unknown
     * order or line 404; a line ordered with photos, an unpaid or cancelled order 409.
     */
    async photosToChoose(orderId: string, lineId: number, reader: PrepaidReader): Promise<PhotoRecord[]> {
      const order = await repo.find(orderId);
      if (!order) throw notFound(ORDER_MSG.orderNotFound);
      const mine = reader.staff || reader.placedHere || (reader.customerId !== null && order.customerId === reader.customerId);
      if (!mine) throw forbidden(ORDER_MSG.notYourOrder, 'NOT_YOUR_ORDER');
      const { studentId } = await paidPrepaidLine(order, lineId);
      const photos: PhotoRecord[] = [];
      for (const id of (await repo.releasedPhotoIdsOf(studentId)).ids) {
        const found = await photoRepo.findWithAlbum(id);
        if (found) photos.push(found.photo);
      }
      return photos;
    },

    /**
     * One watermarked image of a prepaid line's photo list (docs/prepaid.md, "Choosing from any
     * device"), for an address the list signed for that order's line (the caller checked it): only a
     * released photo of the line's child, in a paid order not cancelled; any other photo answers 404
     * as if it did not exist. Originals are never served here.
     */
    async photoImage(orderId: string, lineId: number, photoId: number, kind: PrepaidImageKind, small: boolean): Promise<FileResponse> {
      const order = await repo.find(orderId);
      if (!order) throw notFound(MSG.photoNotFound);
      const { studentId } = await paidPrepaidLine(order, lineId).catch(() => {
        throw notFound(MSG.photoNotFound);
      });
      if (!(await repo.releasedPhotoIdsOf(studentId)).ids.includes(photoId)) throw notFound(MSG.photoNotFound);
      const image = await images.find(photoId);
      if (!image) throw notFound(MSG.photoNotFound);
      const files = { storageKey: image.storageKey, mimeType: image.mimeType };
      if (kind === 'watermarked') return deps.media.rendition({ ...files, etag: image.previewEtag }, 'preview');
      if (small && image.smallThumbEtag) return deps.media.rendition({ ...files, etag: image.smallThumbEtag }, 'small-thumbnail');
      return deps.media.rendition({ ...files, etag: image.thumbEtag }, 'thumbnail');
    },

    /**
     * Tells each family with a prepaid line nobody chose that its child's photos are online, once
     * per line (one message per order and child), with the link that opens the order to choose
     * (docs/prepaid.md, "Choosing the photos"). Answers how many families were told.
     */
    async tellPhotosOnline(at: number = Date.now()): Promise<number> {
      const lines = await repo.prepaidLinesToTell(dayOf(at), at, PREPAID_BATCH);
      const groups = new Map<string, { orderId: string; studentId: number; lineIds: number[] }>();
      for (const line of lines) {
        const key = `${line.orderId}:${line.studentId}`;
        const group = groups.get(key) ?? { orderId: line.orderId, studentId: line.studentId, lineIds: [] };
        group.lineIds.push(line.lineId);
        groups.set(key, group);
      }
      let told = 0;
      for (const group of groups.values()) {
        const order = await repo.find(group.orderId);
        if (!order) continue;
        const line = order.packages.find((candidate) => candidate.id === group.lineIds[0]);
        const child = line?.studentName ?? order.studentName;
        const due = order.schoolClosingDate === null ? null : closingDay(order.schoolClosingDate);
        const done = await database.transaction(async (tx) => {
          if ((await repo.markOnlineTold(group.lineIds, tx)) === 0) return false;
          await tell(
            order,
            {
              kind: 'prepaid_photos_online',
              smsKind: 'prepaid_photos_online_sms',
              dedupeKey: `prepaid_online:${order.id}:${group.studentId}`,
              subject: PREPAID_MSG.onlineSubject(child),
              body: PREPAID_MSG.onlineChoose(child, due),
              action: PREPAID_MSG.onlineChooseLink,
              sms: (link) => PREPAID_MSG.onlineSms(shop, child, due, link),
            },
            tx,
          );
          return true;
        });
        if (done) told++;
      }
      if (told > 0) outbox.kick();
      return told;
    },

    /**
     * The default fill at the closing date (docs/prepaid.md, "The studio fills what nobody chose"):
     * each paid prepaid line still without photos once its school's closing date has passed is
     * filled with its child's default pose (marked on the review sheet), else the child's first
     * released photo in capture order, recorded as chosen by the studio, and its family told; a
     * child with no released photo is flagged for a retake or a refund, never filled with another
     * child's photo. Each line by one conditional update: a second process fills nothing twice.
     */
    async fillDue(at: number = Date.now()): Promise<{ filled: number; flagged: number }> {
      let filled = 0;
      let flagged = 0;
      for (const due of await repo.unfilledPrepaidLines(dayOf(at), PREPAID_BATCH)) {
        const order = await repo.find(due.orderId);
        const line = order?.packages.find((candidate) => candidate.id === due.lineId);
        if (!order || !line) continue;
        const released = due.studentId === null ? { ids: [], defaultPhotoId: null } : await repo.releasedPhotoIdsOf(due.studentId);
        const photoId = released.defaultPhotoId ?? released.ids[0];
        const pkg = await packageOf(order, line);
        const photo = photoId === undefined ? undefined : (await repo.photos([photoId])).get(photoId);
        if (!photo || !pkg) {
          // No photo of the child (absent on picture day), or the package left the price list: staff decide.
          if (!pkg && photo) deps.logger.warn({ orderId: order.id, lineId: line.id }, 'prepaid package no longer in the price list: flagged for staff');
          if ((await database.transaction((tx) => repo.flagNoPhoto(line.id, tx))) > 0) flagged++;
          continue;
        }
        const contents = contentsOf(pkg, [photo], line.quantity);
        const child = line.studentName ?? order.studentName;
        const done = await database.transaction(async (tx) => {
          if ((await repo.fillPackageLine({ orderId: order.id, lineId: line.id }, contents, 'studio', [null], tx)) === 0) return false;
          await tell(
            order,
            {
              kind: 'package_filled',
              smsKind: 'package_filled_sms',
              dedupeKey: `package_filled:${line.id}`,
              subject: PREPAID_MSG.studioFilledSubject(businessName),
              body: PREPAID_MSG.studioFilled(child, line.name),
              action: PREPAID_MSG.studioFilledLink,
              sms: (link) => PREPAID_MSG.studioFilledSms(shop, child, link),
            },
            tx,
          );
          return true;
        });
        if (done) filled++;
      }
      if (filled > 0) outbox.kick();
      return { filled, flagged };
    },
  };
}
export type PrepaidService = ReturnType<typeof createPrepaidService>;

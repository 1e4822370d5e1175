/**
 * The cart a confirmed guardian's browser mirrors to the server, and the link that brings it back
 * on any device (docs/outreach.md, "Abandoned carts and unpaid orders").
 */
import { isOrderingClosed } from '../../contract/constants';
import { CART_REMINDER_MSG } from '../../contract/messages';
import { thebeToDecimal } from '../../contract/money';
import type { CartRestoreResponse, MirroredCartItem, RestoredCartLine } from '../../contract/outreach';
import { familyPhotoLabel } from '../../contract/photo-names';
import { thumbnailPath } from '../../contract/gallery-page';
import type { Deps } from '../deps';
import type { Viewer } from '../http/access';
import { AppError, badRequest } from '../http/errors';
import { createOrdersRepository } from '../orders/orders.repository';
import { fallbackProducts, type PhotoInfo, type Product } from '../orders/pricing';
import { classAccess, createVisibility, photoVisible, visibleStudentId, type ClassAccess } from '../students/visibility';
import type { GrantedStudent } from '../students/students.repository';
import { createStudentRepository } from '../students/students.repository';
import { createCartRepository, type GuardianRecord } from './carts.repository';
import { credentialTag, verifyCartLink } from './cart-token';

/** What a family may see of a photo, by the one visibility rule (docs/access.md, "The visibility rule"), as ordering checks it. */
function familyAccess(viewer: Viewer, photo: PhotoInfo, granted: readonly GrantedStudent[]): ClassAccess | null {
  if (photo.doNotPublish || !photo.albumPublished) return null;
  const access = classAccess(
    viewer,
    { id: photo.albumId, schoolId: photo.schoolId, hasPassword: photo.albumHasPassword, accessMode: photo.accessMode, published: photo.albumPublished },
    granted,
  );
  return photoVisible(access, photo) ? access : null;
}

/** One line per photo and product: a second line of the same pair adds to the first (up to the line maximum). */
function merged(items: readonly MirroredCartItem[]): MirroredCartItem[] {
  const lines = new Map<string, MirroredCartItem>();
  for (const item of items) {
    const key = `${item.photoId}:${item.productType}`;
    const earlier = lines.get(key);
    lines.set(key, earlier ? { ...earlier, quantity: Math.min(99, earlier.quantity + item.quantity) } : { ...item });
  }
  return [...lines.values()];
}

const sameItems = (a: readonly MirroredCartItem[], b: readonly MirroredCartItem[]) =>
  a.length === b.length && a.every((item, i) => item.photoId === b[i]?.photoId && item.productType === b[i]?.productType && item.quantity === b[i]?.quantity);

/** The grants a restore link renews, for the route to write into the gallery cookie. */
export interface RestoreGrants {
  schools: { id: number; epoch: number }[];
  students: { id: number; code: string }[];
}

/**
 * `isConfirmedBrowser` says whether a guardian cookie's holder may mirror: the guardian is confirmed
 * and subscribed (guardians.service `isActive`). Only a link sent to the address gives a browser that
 * cookie, so a stranger who subscribes the address never gets it (docs/outreach.md, "The guardian cookie").
 */
/** Confirmed (the address, or the phone by its code) and not unsubscribed (docs/sms.md, "The season by SMS"). */
const isActiveGuardian = (guardian: GuardianRecord): boolean => (guardian.confirmedAt !== null || guardian.phoneConfirmedAt !== null) && guardian.unsubscribedAt === null;

export function createCartService(deps: Pick<Deps, 'knex' | 'config'>, isConfirmedBrowser: (guardianId: number) => Promise<boolean>) {
  const repo = createCartRepository(deps.knex);
  const orders = createOrdersRepository(deps.knex);
  const visibility = createVisibility(createStudentRepository(deps.knex));
  const secret = deps.config.jwtSecret;

  return {
    /**
     * Mirrors the browser's cart for its guardian (the `guardian` cookie's id, or null): only a
     * confirmed guardian who has not unsubscribed, and only the lines whose photo this browser may
     * see (others are dropped). An empty list clears the cart. Answers whether it was mirrored.
     */
    async mirror(guardianId: number | null, items: readonly MirroredCartItem[], viewer: Viewer, at: number = Date.now()): Promise<boolean> {
      if (guardianId === null) return false;
      const guardian = await repo.guardian(guardianId);
      if (!guardian || !isActiveGuardian(guardian)) return false;
      if (!(await isConfirmedBrowser(guardianId))) return false;
      // What the family behind this browser may see (a staff token in the same browser adds nothing).
      const family: Viewer = { staff: false, grant: viewer.grant };
      const photos = items.length === 0 ? new Map<number, PhotoInfo>() : await orders.photos(items.map((item) => item.photoId));
      const granted = items.length === 0 ? [] : await visibility.grantedStudents(family);
      const kept = merged(
        items.filter((item) => {
          const photo = photos.get(item.photoId);
          return photo !== undefined && familyAccess(family, photo, granted) !== null;
        }),
      );
      const first = kept[0];
      if (!first) {
        await repo.clearCart(guardianId);
        return true;
      }
      const schoolId = (photos.get(first.photoId) as PhotoInfo).schoolId;
      const current = await repo.cart(guardianId);
      // A browser sends its cart again on every visit: only a change moves the time the reminder counts from.
      if (current && current.schoolId === schoolId && sameItems(current.items, kept)) return true;
      await repo.saveCart(guardianId, schoolId, kept, at);
      return true;
    },

    /**
     * The cart a restore link names, priced from today's price lists, with the lines whose photo the
     * family may no longer see or whose product is no longer sold dropped and counted, and the grants
     * to renew on this device: each school or child the guardian still follows whose password or code
     * is the one it was when the link was made. `viewer` is what this browser already holds.
     */
    async restore(token: string, viewer: Viewer, now: number = Date.now()): Promise<{ cart: CartRestoreResponse; grants: RestoreGrants; guardianId: number }> {
      const link = verifyCartLink(secret, token, now);
      if (link === 'invalid') throw badRequest(CART_REMINDER_MSG.linkInvalid, { token: CART_REMINDER_MSG.linkInvalid }, 'CART_LINK_INVALID');
      if (link === 'expired') throw new AppError(410, CART_REMINDER_MSG.linkExpired, 'CART_LINK_EXPIRED');
      // An erased guardian's cart is gone with them: the link has nothing left to open.
      const guardian = await repo.guardian(link.guardianId);
      if (!guardian) throw new AppError(410, CART_REMINDER_MSG.linkExpired, 'CART_LINK_EXPIRED');

      const credentials = await repo.credentials(
        link.grants.filter((g) => g.kind === 'school').map((g) => g.id),
        link.grants.filter((g) => g.kind === 'student').map((g) => g.id),
      );
      const grants: RestoreGrants = { schools: [], students: [] };
      // Only a guardian still confirmed and subscribed has a link renew grants (docs/outreach.md, "The restore link").
      const active = isActiveGuardian(guardian);
      for (const grant of active ? link.grants : []) {
        if (grant.kind === 'school') {
          const epoch = credentials.schools.get(grant.id);
          if (epoch === undefined || credentialTag(secret, 'school', grant.id, epoch) !== grant.tag) continue;
          if (await repo.stillFollows(guardian.id, grant.id, null)) grants.schools.push({ id: grant.id, epoch });
        } else {
          const code = credentials.students.get(grant.id);
          if (code === undefined || credentialTag(secret, 'student', grant.id, code) !== grant.tag) continue;
          if (await repo.stillFollows(guardian.id, null, grant.id)) grants.students.push({ id: grant.id, code });
        }
      }

      const cart = await repo.cart(guardian.id);
      if (!cart || cart.items.length === 0) return { cart: { items: [], dropped: 0, schoolSlug: null }, grants, guardianId: guardian.id };

      const family: Viewer = {
        staff: false,
        grant: {
          schools: [...new Set([...viewer.grant.schools, ...grants.schools.map((s) => s.id)])],
          albums: [...viewer.grant.albums],
          students: [...new Set([...viewer.grant.students, ...grants.students.map((s) => s.id)])],
        },
      };
      const photos = await orders.photos(cart.items.map((item) => item.photoId));
      const granted = await visibility.grantedStudents(family);
      const catalogues = new Map<number, { products: Product[]; closed: boolean } | null>();
      const catalogue = async (schoolId: number) => {
        if (!catalogues.has(schoolId)) {
          const school = await orders.school(schoolId);
          catalogues.set(
            schoolId,
            school ? { products: school.products.length > 0 ? school.products : fallbackProducts(), closed: isOrderingClosed(school.closingDate, new Date(now)) } : null,
          );
        }
        return catalogues.get(schoolId) ?? null;
      };

      const kept: { item: MirroredCartItem; photo: PhotoInfo; product: Product; access: ClassAccess }[] = [];
      let dropped = 0;
      for (const item of cart.items) {
        const photo = photos.get(item.photoId);
        const access = photo ? familyAccess(family, photo, granted) : null;
        const sold = photo ? await catalogue(photo.schoolId) : null;
        const product = sold?.products.find((candidate) => candidate.id === item.productType);
        // After the closing date only digital copies are sold (docs/money-and-pricing.md).
        if (!photo || !access || !sold || !product || (sold.closed && product.kind !== 'digital')) {
          dropped++;
          continue;
        }
        kept.push({ item, photo, product, access });
      }
      const schools = await repo.schools([...(cart.schoolId === null ? [] : [cart.schoolId]), ...kept.map((line) => line.photo.schoolId)]);
      const studentIds = kept.map((line) => visibleStudentId(line.access, line.photo)).filter((id): id is number => id !== null);
      const names = await repo.studentNames(studentIds);
      const items: RestoredCartLine[] = kept.map(({ item, photo, product, access }) => {
        const studentId = visibleStudentId(access, photo);
        return {
          photoId: photo.id,
          albumId: photo.albumId,
          photoName: familyPhotoLabel({ id: photo.id, originalName: photo.originalName, originalNumber: photo.originalNumber }),
          photoPreview: thumbnailPath(photo.id),
          productType: product.id,
          productName: product.name,
          productDescription: product.description,
          unitPrice: Number(thebeToDecimal(product.priceThebe)),
          quantity: item.quantity,
          schoolId: photo.schoolId,
          schoolName: schools.get(photo.schoolId)?.name ?? '',
          studentId,
          studentName: studentId === null ? null : (names.get(studentId) ?? null),
        };
      });
      const slugSchool = cart.schoolId ?? kept[0]?.photo.schoolId ?? null;
      return { cart: { items, dropped, schoolSlug: slugSchool === null ? null : (schools.get(slugSchool)?.slug ?? null) }, grants, guardianId: guardian.id };
    },
  };
}
export type CartService = ReturnType<typeof createCartService>;

import { couponCreateSchema, type Coupon, type CouponCreateInput, type CouponPatchInput } from '../../contract/coupons';
import { formatDate } from '../../contract/format';
import { COUPON_MSG } from '../../contract/messages';
import { thebeToDecimal } from '../../contract/money';
import type { Deps } from '../deps';
import { createDatabase, type Tx } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import { AppError, badRequest, notFound } from '../http/errors';
import { parse } from '../http/validate';
import { localDate } from '../outreach/send-window';
import { inboxKey } from '../lib/inbox-key';
import { COUPON_HOLD_MSG } from '../../contract/order-limits';
import { createCouponRepository, type CouponRecord, type CouponWrite } from './coupons.repository';
import { presentCoupon } from './coupons.presenter';
import type { CouponRule, CouponsForOrders } from './coupons.types';

/** The refusals a parent meets (docs/packages-and-coupons.md, "Coupons"); the field is the cart's code. */
const refuse = {
  invalid: () => new AppError(400, COUPON_MSG.notValid, 'COUPON_INVALID', { couponCode: COUPON_MSG.notValid }),
  notStarted: (startsOn: string) => {
    const message = COUPON_MSG.notStarted(formatDate(`${startsOn}T12:00:00Z`));
    return new AppError(409, message, 'COUPON_NOT_STARTED', { couponCode: message });
  },
  expired: () => new AppError(409, COUPON_MSG.expired, 'COUPON_EXPIRED', { couponCode: COUPON_MSG.expired }),
  usedUp: () => new AppError(409, COUPON_MSG.usedUp, 'COUPON_USED_UP', { couponCode: COUPON_MSG.usedUp }),
  alreadyUsed: () => new AppError(409, COUPON_MSG.alreadyUsed, 'COUPON_ALREADY_USED', { couponCode: COUPON_MSG.alreadyUsed }),
  /** Paying an order whose use lapsed, when the coupon can no longer give it one (docs/packages-and-coupons.md, "Paying after a hold lapsed"). */
  lapsedUsedUp: () => new AppError(409, COUPON_HOLD_MSG.lapsedUsedUp, 'COUPON_USED_UP'),
  lapsedAlreadyUsed: () => new AppError(409, COUPON_HOLD_MSG.lapsedAlreadyUsed, 'COUPON_ALREADY_USED'),
};

/** Lapsed holds given back per look: a coupon's own when it is applied, everyone's by the sweep. */
const LAPSED_PER_COUPON = 100;
const LAPSED_PER_SWEEP = 500;

const toRule = (coupon: CouponRecord): CouponRule => ({
  id: coupon.id,
  code: coupon.code,
  kind: coupon.kind,
  value: coupon.value,
  minOrderThebe: coupon.minOrderThebe,
  excludesPackages: coupon.excludesPackages,
  oncePer: coupon.oncePer,
});

/**
 * The key a once-per-e-mail use is recorded under, the inbox the address reaches (`inboxKey()`:
 * case, a `+tag` and Gmail's dots do not make another family); a per-child coupon without an
 * identified child falls back to it.
 */
function onceKey(coupon: Pick<CouponRule, 'oncePer'>, email: string, studentIds: number[]): string | null {
  if (coupon.oncePer === 'email' || (coupon.oncePer === 'child' && studentIds.length === 0)) return inboxKey(email);
  return null;
}

const distinct = (ids: number[]): number[] => [...new Set(ids)].sort((a, b) => a - b);

/**
 * Coupons: the staff API (create, list, edit, delete) and what orders need of them, CouponsForOrders
 * (docs/packages-and-coupons.md, "Coupons" and "Counting a coupon's uses").
 */
export function createCouponService(deps: Pick<Deps, 'knex' | 'config'>) {
  const repo = createCouponRepository(deps.knex);
  const database = createDatabase(deps.knex);
  /** Holds of unpaid orders placed (or last given a payment page) before this have lapsed. */
  const lapseCutoff = (): number => Date.now() - deps.config.couponHoldMinutes * 60_000;

  /** Gives back each of these orders' lapsed uses, each in its own short transaction; how many came back. */
  async function releaseLapsed(orderIds: string[]): Promise<number> {
    let released = 0;
    for (const orderId of orderIds) {
      if ((await database.transaction((tx) => repo.releaseLapsed(orderId, lapseCutoff(), tx))) !== null) released += 1;
    }
    return released;
  }

  async function get(id: number): Promise<CouponRecord> {
    const coupon = await repo.find(id);
    if (!coupon) throw notFound(COUPON_MSG.couponNotFound);
    return coupon;
  }

  /** Writes a checked coupon: its school must exist, its code be free. */
  async function write(id: number | null, input: CouponCreateInput): Promise<Coupon> {
    if (input.schoolId !== null && !(await repo.schoolExists(input.schoolId))) {
      throw badRequest(COUPON_MSG.schoolNotFound, { schoolId: COUPON_MSG.schoolNotFound });
    }
    const fields: CouponWrite = {
      code: input.code,
      schoolId: input.schoolId,
      kind: input.kind,
      value: input.value,
      minOrderThebe: input.minOrder,
      startsOn: input.startsOn,
      endsOn: input.endsOn,
      maxUses: input.maxUses,
      oncePer: input.oncePer,
      excludesPackages: input.excludesPackages,
    };
    let savedId: number;
    try {
      if (id === null) {
        savedId = await repo.insert(fields);
      } else {
        if ((await repo.update(id, fields)) === 0) throw notFound(COUPON_MSG.couponNotFound);
        savedId = id;
      }
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError(409, COUPON_MSG.codeTaken, 'COUPON_CODE_TAKEN', { code: COUPON_MSG.codeTaken });
      throw err;
    }
    return presentCoupon(await get(savedId));
  }

  async function release(orderId: string, tx: Tx): Promise<void> {
    const couponId = await repo.deleteHeld(orderId, tx);
    if (couponId !== null) await repo.giveBack(couponId, tx);
  }

  const forOrders: CouponsForOrders = {
    async resolve(code: string, schoolId: number, at: number = Date.now()): Promise<CouponRule> {
      let coupon = await repo.findByCode(code.trim().toUpperCase());
      if (!coupon || (coupon.schoolId !== null && coupon.schoolId !== schoolId)) throw refuse.invalid();
      // Uses held by orders nobody paid in time go back first, so they neither use the coupon up
      // nor keep its once-per keys from the family (docs/packages-and-coupons.md, "Holds that lapse").
      if (coupon.usesHeld > 0 && (await releaseLapsed(await repo.lapsedHolds(lapseCutoff(), { couponId: coupon.id, limit: LAPSED_PER_COUPON }))) > 0) {
        coupon = (await repo.find(coupon.id)) ?? coupon;
      }
      const day = localDate(at);
      if (coupon.startsOn && day < coupon.startsOn) throw refuse.notStarted(coupon.startsOn);
      if (coupon.endsOn && day > coupon.endsOn) throw refuse.expired();
      if (coupon.maxUses !== null && coupon.usesHeld + coupon.usesPaid >= coupon.maxUses) throw refuse.usedUp();
      return toRule(coupon);
    },

    async checkAvailable(coupon: CouponRule, family: { email: string | null; studentIds: number[] }): Promise<void> {
      if (coupon.oncePer === 'order') return;
      const children = distinct(family.studentIds);
      if (coupon.oncePer === 'child' && children.length > 0) {
        if (await repo.usedByChildren(coupon.id, children)) throw refuse.alreadyUsed();
        return;
      }
      if (family.email !== null && family.email.trim() !== '') {
        const key = onceKey(coupon, family.email, children);
        if (key !== null && (await repo.usedByEmail(coupon.id, key))) throw refuse.alreadyUsed();
      }
    },

    async take(tx: Tx, coupon: CouponRule): Promise<void> {
      if ((await repo.takeUse(coupon.id, tx)) === 0) {
        // Deleted since it was resolved, or its last use went to another checkout.
        if (!(await repo.find(coupon.id, tx))) throw refuse.invalid();
        throw refuse.usedUp();
      }
    },

    async hold(tx: Tx, use: { coupon: CouponRule; orderId: string; email: string; studentIds: number[] }): Promise<void> {
      const { coupon, orderId } = use;
      const children = coupon.oncePer === 'child' ? distinct(use.studentIds) : [];
      try {
        await repo.insertRedemption({ couponId: coupon.id, orderId, onceKey: onceKey(coupon, use.email, children) }, tx);
        await repo.insertChildren(coupon.id, orderId, children, tx);
      } catch (err) {
        if (isUniqueViolation(err)) throw refuse.alreadyUsed();
        throw err;
      }
    },

    async markPaid(orderId: string, tx: Tx): Promise<void> {
      const redemption = await repo.redemption(orderId, tx);
      if (redemption) {
        if (redemption.paidAt === null && (await repo.markRedemptionPaid(orderId, tx)) === 1) await repo.heldToPaid(redemption.couponId, tx);
        return;
      }
      // Paid after its held use was given back (staff reopened a cancelled order): the use still counts.
      const couponId = await repo.orderCoupon(orderId, tx);
      if (couponId === null) return;
      await repo.insertRedemption({ couponId, orderId, onceKey: null, paidAt: Date.now() }, tx);
      await repo.countPaid(couponId, tx);
    },

    async release(orderId: string, tx?: Tx): Promise<void> {
      if (tx) return release(orderId, tx);
      return database.transaction((own) => release(orderId, own));
    },

    async paymentEnded(orderId: string, tx: Tx): Promise<void> {
      await repo.releaseLapsed(orderId, lapseCutoff(), tx);
    },

    async reclaim(orderId: string, placedWithCoupon?: boolean): Promise<void> {
      // Most orders have no coupon: told by the payment's own read of the order (or one read), without
      // the round trips of a transaction (docs/performance.md, "Checkout tails on a warm server").
      if (!(placedWithCoupon ?? (await repo.placedWithCoupon(orderId)))) return;
      await database.transaction(async (tx) => {
        const use = await repo.orderUse(orderId, tx);
        // No coupon, a deleted one (the order keeps its discount), or a use still held or paid.
        if (!use || use.couponId === null || use.held) return;
        const coupon = await repo.find(use.couponId, tx);
        if (!coupon) return;
        if ((await repo.takeUse(coupon.id, tx)) === 0) throw refuse.lapsedUsedUp();
        const children = coupon.oncePer === 'child' ? use.studentIds : [];
        try {
          await repo.insertRedemption({ couponId: coupon.id, orderId, onceKey: onceKey(coupon, use.email, children) }, tx);
          await repo.insertChildren(coupon.id, orderId, children, tx);
        } catch (err) {
          if (isUniqueViolation(err)) throw refuse.lapsedAlreadyUsed();
          throw err;
        }
      });
    },
  };

  return {
    ...forOrders,

    /** The sweep: every lapsed hold goes back, so staff read true counts (docs/packages-and-coupons.md, "Holds that lapse"). */
    releaseLapsedHolds: async (): Promise<number> => releaseLapsed(await repo.lapsedHolds(lapseCutoff(), { limit: LAPSED_PER_SWEEP })),

    async list(filter: { schoolId?: number } = {}): Promise<Coupon[]> {
      const at = Date.now();
      return (await repo.list(filter)).map((coupon) => presentCoupon(coupon, at));
    },

    get: async (id: number): Promise<Coupon> => presentCoupon(await get(id)),

    create: (input: CouponCreateInput): Promise<Coupon> => write(null, input),

    /** The fields given change; the coupon as it will be is checked as a whole, like a new one. */
    async update(id: number, patch: CouponPatchInput): Promise<Coupon> {
      const current = await get(id);
      const merged = {
        code: patch.code ?? current.code,
        schoolId: patch.schoolId !== undefined ? patch.schoolId : current.schoolId,
        kind: patch.kind ?? current.kind,
        // A kind changed without a value keeps the value as staff typed it, checked for the new kind.
        value: patch.value ?? (current.kind === 'percent' ? String(current.value) : thebeToDecimal(current.value)),
        minOrder: patch.minOrder !== undefined ? patch.minOrder : current.minOrderThebe,
        startsOn: patch.startsOn !== undefined ? patch.startsOn : current.startsOn,
        endsOn: patch.endsOn !== undefined ? patch.endsOn : current.endsOn,
        maxUses: patch.maxUses !== undefined ? patch.maxUses : current.maxUses,
        oncePer: patch.oncePer ?? current.oncePer,
        excludesPackages: patch.excludesPackages ?? current.excludesPackages,
      };
      const checked = parse(couponCreateSchema, { ...merged, minOrder: merged.minOrder === null ? null : thebeToDecimal(merged.minOrder) });
      return write(id, checked);
    },

    /** Orders placed with it keep their code and discount (orders.coupon_id becomes null). */
    async delete(id: number): Promise<void> {
      if ((await repo.delete(id)) === 0) throw notFound(COUPON_MSG.couponNotFound);
    },
  };
}
export type CouponService = ReturnType<typeof createCouponService>;

import type { CouponKind, CouponOncePer } from '../../contract/coupons';
import type { Tx } from '../db/database';

/** A coupon as pricing applies it (docs/packages-and-coupons.md, "Coupons"). */
export interface CouponRule {
  id: number;
  code: string;
  kind: CouponKind;
  /** Whole percent (1-100) for a percent coupon, thebe for an amount coupon. */
  value: number;
  minOrderThebe: number | null;
  excludesPackages: boolean;
  oncePer: CouponOncePer;
}

/**
 * What orders need of coupons (api/src/coupons/coupons.service.ts implements it). Refusals are
 * AppErrors with COUPON_MSG texts: unknown code or another school's 400 `COUPON_INVALID`; before
 * its first day 409 `COUPON_NOT_STARTED`; after its last 409 `COUPON_EXPIRED`; no use left 409
 * `COUPON_USED_UP`; this e-mail or child used it already 409 `COUPON_ALREADY_USED`. The minimum
 * order (409 `COUPON_MINIMUM`) and a coupon with nothing to apply to (409 `COUPON_NOT_APPLICABLE`)
 * are pricing's, which knows the lines.
 */
export interface CouponsForOrders {
  /** The coupon `code` (upper-case) for an order at `schoolId` at time `at` (ms, default now), checked for dates and uses left. */
  resolve(code: string, schoolId: number, at?: number): Promise<CouponRule>;
  /**
   * Whether this family may still use it, without taking a use (the cart's quote): per e-mail when
   * `email` is given, per child for `studentIds`.
   */
  checkAvailable(coupon: CouponRule, family: { email: string | null; studentIds: number[] }): Promise<void>;
  /**
   * First in the order's transaction, before the order row is written: takes one use by a
   * conditional update (held + paid < max), so concurrent checkouts never take more uses than
   * there are. It must come first: the order row names the coupon, and on MySQL/MariaDB writing it
   * share-locks the coupon's row, so checkouts that wrote their order first would deadlock on this update.
   */
  take(tx: Tx, coupon: CouponRule): Promise<void>;
  /**
   * In the same transaction, after the order row is written: records the order's redemption
   * (unique per e-mail or child as the coupon says); refused as already used for this family.
   */
  hold(tx: Tx, use: { coupon: CouponRule; orderId: string; email: string; studentIds: number[] }): Promise<void>;
  /** In the transaction that marks the order paid: its held use becomes a paid one (once). */
  markPaid(orderId: string, tx: Tx): Promise<void>;
  /** An order cancelled unpaid gives its use back (nothing when it holds none or was paid). */
  release(orderId: string, tx?: Tx): Promise<void>;
  /**
   * In the transaction that failed, cancelled or expired one of the order's payments: its use goes
   * back at once unless another payment of the order is still open (docs/packages-and-coupons.md,
   * "Holds that lapse").
   */
  paymentEnded(orderId: string, tx: Tx): Promise<void>;
  /**
   * Before a payment is opened for the order: an order whose use lapsed (or was given back) takes
   * one again, or is refused with 409 `COUPON_USED_UP` / `COUPON_ALREADY_USED` and nothing changes
   * (docs/packages-and-coupons.md, "Paying after a hold lapsed"). `placedWithCoupon`, when the
   * caller has just read it with the order, spares the read (an order never gains a coupon later).
   */
  reclaim(orderId: string, placedWithCoupon?: boolean): Promise<void>;
}

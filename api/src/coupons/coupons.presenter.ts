import type { Coupon } from '../../contract/coupons';
import { thebeToDecimal } from '../../contract/money';
import { localDate } from '../outreach/send-window';
import type { CouponRecord } from './coupons.repository';

/** Whether `coupon` may be used on Botswana day `day` ("YYYY-MM-DD"): in its dates and not used up. */
export function couponActive(coupon: CouponRecord, day: string): boolean {
  if (coupon.startsOn && day < coupon.startsOn) return false;
  if (coupon.endsOn && day > coupon.endsOn) return false;
  return coupon.maxUses === null || coupon.usesHeld + coupon.usesPaid < coupon.maxUses;
}

/** A coupon for staff: value as typed (percent "10" or Pula "25.00"), uses paid and held. */
export function presentCoupon(coupon: CouponRecord, at: number = Date.now()): Coupon {
  return {
    id: coupon.id,
    code: coupon.code,
    schoolId: coupon.schoolId,
    schoolName: coupon.schoolName,
    kind: coupon.kind,
    value: coupon.kind === 'percent' ? String(coupon.value) : thebeToDecimal(coupon.value),
    minOrder: coupon.minOrderThebe === null ? null : thebeToDecimal(coupon.minOrderThebe),
    startsOn: coupon.startsOn,
    endsOn: coupon.endsOn,
    maxUses: coupon.maxUses,
    oncePer: coupon.oncePer,
    excludesPackages: coupon.excludesPackages,
    usesPaid: coupon.usesPaid,
    usesHeld: coupon.usesHeld,
    active: couponActive(coupon, localDate(at)),
    createdAt: new Date(coupon.createdAt).toISOString(),
  };
}

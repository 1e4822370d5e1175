/** The checkoutCart snapshot the header's cart button builds. */
import { LOCAL_KEYS, readJson, writeJson, type CartLine, type CheckoutCart, type NamedRef } from './storage';
import { cartTotal, readCart } from './cart';

export function buildCheckoutCart(): CheckoutCart {
  const cart = readCart();
  const school = readJson<NamedRef>(LOCAL_KEYS.currentSchool);
  const album = readJson<NamedRef>(LOCAL_KEYS.currentAlbum);
  const snapshot: CheckoutCart = {
    cart,
    schoolId: school?.id ?? 0,
    schoolName: school?.name ?? '',
    albumName: album?.name ?? '',
    totalAmount: cartTotal(cart),
  };
  writeJson(LOCAL_KEYS.checkoutCart, snapshot);
  return snapshot;
}

export function readCheckoutCart(): CheckoutCart | null {
  return readJson<CheckoutCart>(LOCAL_KEYS.checkoutCart);
}

export interface SchoolGroup {
  schoolId: number;
  schoolName: string;
  lines: CartLine[];
}

/**
 * A cart can hold photos of children at different schools; each school is its own order, because
 * each school's prints are delivered there. Groups come in the order their first line was added.
 * Lines saved before they carried a school belong to the fallback (the current school).
 */
export function groupBySchool(lines: readonly CartLine[], fallback: { id: number; name: string }): SchoolGroup[] {
  const groups = new Map<number, SchoolGroup>();
  for (const line of lines) {
    const schoolId = line.schoolId ?? fallback.id;
    const group = groups.get(schoolId) ?? { schoolId, schoolName: line.schoolName ?? (schoolId === fallback.id ? fallback.name : ''), lines: [] };
    group.lines.push(line);
    groups.set(schoolId, group);
  }
  return [...groups.values()];
}

/** The order's student name defaults to the children the photos are of. */
export function studentNamesOf(lines: readonly CartLine[]): string {
  return [...new Set(lines.map((line) => line.studentName?.trim() ?? '').filter(Boolean))].join(', ');
}

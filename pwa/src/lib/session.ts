/** The staff and customer sessions as the header and guards read them. */
import { useMemo, useSyncExternalStore } from 'react';
import type { CustomerUser, StaffUser } from '@contract/auth';
import { CART_KEYS, LOCAL_KEYS, readRaw, removeKeys, subscribeStorage } from './storage';
import { clearCartKeys } from './cart';
import { purgeGalleryCaches } from './offline-caches';

export interface Session {
  staffToken: string | null;
  staffUser: StaffUser | null;
  customerToken: string | null;
  customerUser: CustomerUser | null;
  /** A signed-in photographer or admin (they have no cart). */
  isStaff: boolean;
}

const KEYS = [LOCAL_KEYS.token, LOCAL_KEYS.user, LOCAL_KEYS.customerToken, LOCAL_KEYS.customerUser] as const;
const snapshot = () => KEYS.map((key) => readRaw(key) ?? '').join('\u0000');
/**
 * What the prerender was built with: no session. It is the snapshot of an empty storage too, so a
 * visitor without a session hydrates without the extra synchronous render React makes when the
 * two differ.
 */
const NO_SESSION = KEYS.map(() => '').join('\u0000');

function parse<T>(raw: string | undefined): T | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function useSession(): Session {
  const raw = useSyncExternalStore(subscribeStorage, snapshot, () => NO_SESSION);
  return useMemo(() => {
    const [staffToken, user, customerToken, customerUser] = raw.split('\u0000');
    const staffUser = parse<StaffUser>(user);
    return {
      staffToken: staffToken || null,
      staffUser,
      customerToken: customerToken || null,
      customerUser: parse<CustomerUser>(customerUser),
      isStaff: Boolean(staffToken) && (staffUser?.role === 'photographer' || staffUser?.role === 'admin'),
    };
  }, [raw]);
}

/** Staff logout: every session and cart key goes, then a full reload to /. */
export function logoutStaff(): void {
  removeKeys([LOCAL_KEYS.token, LOCAL_KEYS.user, LOCAL_KEYS.customerToken, LOCAL_KEYS.customerUser, ...CART_KEYS]);
  clearCartKeys();
  // Whatever the device kept of galleries goes with the session; the reload waits for it.
  void purgeGalleryCaches()
    .catch(() => undefined)
    .finally(() => window.location.assign('/'));
}

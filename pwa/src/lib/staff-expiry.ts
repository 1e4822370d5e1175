/**
 * An expired or revoked staff session, noticed by whichever request got the 401: the stale token
 * and user are cleared here, and the app shell (app/layout) takes the photographer back to the
 * staff login, which says why. One place, so no screen shows "could not be loaded" for it.
 */
import { LOCAL_KEYS, removeKeys } from './storage';

export const STAFF_SESSION_EXPIRED_EVENT = 'staffSessionExpired';

// Kept in memory until the page reloads (signing in reloads it), so the login shows the notice
// however many redirects happen on the way there.
let expiredNotice = false;

export function expireStaffSession(): void {
  expiredNotice = true;
  removeKeys([LOCAL_KEYS.token, LOCAL_KEYS.user]);
  window.dispatchEvent(new Event(STAFF_SESSION_EXPIRED_EVENT));
}

/** True once a staff session expired in this page's lifetime (the staff login then says so). */
export const staffSessionExpired = (): boolean => expiredNotice;

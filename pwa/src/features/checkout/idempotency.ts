/**
 * One Idempotency-Key per checkout attempt of one cart, kept in IndexedDB until the order exists:
 * a retry after a dropped connection replays the same order instead of creating a second one. The
 * cart store drops the key whenever the cart changes.
 */
import { CHECKOUT_KEY_META } from '../../lib/cart';
import { randomId } from '../../lib/random-id';
import { getMeta, setMeta } from '../../lib/db';

export async function checkoutKey(): Promise<string> {
  const existing = await getMeta(CHECKOUT_KEY_META).catch(() => null);
  if (existing) return existing;
  const key = randomId();
  await setMeta(CHECKOUT_KEY_META, key).catch((err: unknown) => console.warn('Could not keep the checkout key', err));
  return key;
}

export const forgetCheckoutKey = () => setMeta(CHECKOUT_KEY_META, null).catch(() => undefined);

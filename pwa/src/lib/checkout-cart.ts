/** The checkoutCart snapshot the header's cart button builds (spec sections 3 and 4). */
import { LOCAL_KEYS, readJson, writeJson, type CheckoutCart, type NamedRef } from './storage';
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

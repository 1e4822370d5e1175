/**
 * Start-up reconciliation between the storage keys and IndexedDB: the keys win when present (they
 * are what the screens wrote last); when a key is gone (closed tab for session storage, cleared
 * site data for local storage) the durable copy restores it. Staff never get a cart back.
 */
import { LOCAL_KEYS, SESSION_KEYS, isStaffSession, readRaw, writeJson } from './storage';
import { readCart } from './cart';
import { readUnlockedClasses } from './unlocked-classes';
import { loadCartLines, loadUnlockedClasses, saveCartLines, saveUnlockedClasses } from './db';
import { hydrateUnlockedChildren } from './unlocked-children';

export async function hydrateLocalState(): Promise<void> {
  if (isStaffSession()) {
    await saveCartLines([]);
  } else if (readRaw(LOCAL_KEYS.cart) === null) {
    const lines = await loadCartLines();
    if (lines.length > 0) writeJson(LOCAL_KEYS.cart, lines);
  } else {
    await saveCartLines(readCart());
  }

  if (readRaw(SESSION_KEYS.authenticatedClasses, 'session') === null) {
    const ids = await loadUnlockedClasses();
    if (ids.length > 0) writeJson(SESSION_KEYS.authenticatedClasses, ids, 'session');
  } else {
    await saveUnlockedClasses(readUnlockedClasses());
  }

  await hydrateUnlockedChildren();
}

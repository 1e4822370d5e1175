/**
 * Whether the start-up reconciliation between the storage keys and IndexedDB (hydrate.ts) has
 * anything to do, decided without loading Dexie: there is a cart or an unlocked class to mirror,
 * or the mirror database exists and may hold what a lost key had. A first visit has neither.
 */
import { LOCAL_KEYS, SESSION_KEYS, readRaw } from './storage';

export const LOCAL_DB_NAME = 'lesedi-photos';

export async function localStateNeedsSync(): Promise<boolean> {
  if (readRaw(LOCAL_KEYS.cart) !== null || readRaw(SESSION_KEYS.authenticatedClasses, 'session') !== null) return true;
  // Without a way to list databases, reconcile as before rather than risk losing a cart.
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return true;
  try {
    const databases = await indexedDB.databases();
    return databases.some((database) => database.name === LOCAL_DB_NAME);
  } catch {
    return true;
  }
}

/**
 * IndexedDB (Dexie) keeps the cart and the unlocked classes so they survive a reload, a closed tab
 * (session storage does not) and an offline start. The storage keys stay the
 * synchronous read path; this database is their durable mirror, loaded lazily so it never sits
 * on the first paint's critical path.
 */
import Dexie, { type Table } from 'dexie';
import type { CartLine } from './storage';
import { LOCAL_DB_NAME } from './local-state-check';

export interface CartRow extends CartLine {
  position: number;
}
export interface UnlockedClassRow {
  albumId: number;
}
export interface MetaRow {
  key: string;
  value: string;
}

export class AppDatabase extends Dexie {
  cartLines!: Table<CartRow, string>;
  unlockedClasses!: Table<UnlockedClassRow, number>;
  meta!: Table<MetaRow, string>;

  constructor(name = LOCAL_DB_NAME) {
    super(name);
    this.version(1).stores({ cartLines: 'id, position', unlockedClasses: 'albumId', meta: 'key' });
  }
}

export const db = new AppDatabase();

export async function saveCartLines(lines: readonly CartLine[]): Promise<void> {
  await db.transaction('rw', db.cartLines, async () => {
    await db.cartLines.clear();
    await db.cartLines.bulkPut(lines.map((line, position) => ({ ...line, position })));
  });
}

export async function loadCartLines(): Promise<CartLine[]> {
  const rows = await db.cartLines.orderBy('position').toArray();
  return rows.map(({ position: _position, ...line }) => line);
}

export async function saveUnlockedClasses(ids: readonly number[]): Promise<void> {
  await db.transaction('rw', db.unlockedClasses, async () => {
    await db.unlockedClasses.clear();
    await db.unlockedClasses.bulkPut(ids.map((albumId) => ({ albumId })));
  });
}

export async function loadUnlockedClasses(): Promise<number[]> {
  return (await db.unlockedClasses.toArray()).map((row) => row.albumId);
}

export async function getMeta(key: string): Promise<string | null> {
  return (await db.meta.get(key))?.value ?? null;
}

export async function setMeta(key: string, value: string | null): Promise<void> {
  if (value === null) await db.meta.delete(key);
  else await db.meta.put({ key, value });
}

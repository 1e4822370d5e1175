/**
 * Classes unlocked with their password this session (session storage authenticatedClasses),
 * mirrored to IndexedDB so a closed tab or an offline start keeps them.
 */
import { useSyncExternalStore } from 'react';
import { SESSION_KEYS, readJson, readRaw, subscribeStorage, writeJson } from './storage';

export function readUnlockedClasses(): number[] {
  const stored = readJson<unknown>(SESSION_KEYS.authenticatedClasses, 'session');
  return Array.isArray(stored) ? stored.filter((id): id is number => typeof id === 'number') : [];
}

export function addUnlockedClass(albumId: number): void {
  const ids = readUnlockedClasses();
  if (ids.includes(albumId)) return;
  const next = [...ids, albumId];
  writeJson(SESSION_KEYS.authenticatedClasses, next, 'session');
  void import('./db')
    .then(({ saveUnlockedClasses }) => saveUnlockedClasses(next))
    .catch((err: unknown) => console.warn('Could not mirror unlocked classes', err));
}

let cachedRaw: string | null = null;
let cached: number[] = [];
function snapshot(): number[] {
  const raw = readRaw(SESSION_KEYS.authenticatedClasses, 'session');
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = readUnlockedClasses();
  }
  return cached;
}

const NONE: number[] = [];

export function useUnlockedClasses(): number[] {
  return useSyncExternalStore(subscribeStorage, snapshot, () => NONE);
}

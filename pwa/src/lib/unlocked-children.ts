/**
 * The children this device holds codes for (a family may have several, in any class or school).
 * Kept in local storage so the family gallery opens at once, and mirrored to IndexedDB so a
 * cleared storage or an offline start keeps them; the server's signed cookie is what grants access.
 */
import { useSyncExternalStore } from 'react';
import type { UnlockedStudent } from '@contract/students';
import { readJson, readRaw, subscribeStorage, writeJson } from './storage';

export const UNLOCKED_CHILDREN_KEY = 'unlockedChildren';
const META_KEY = 'unlockedChildren';

function isChild(value: unknown): value is UnlockedStudent {
  const child = value as UnlockedStudent;
  return (
    typeof child === 'object' &&
    child !== null &&
    typeof child.student?.id === 'number' &&
    typeof child.student.name === 'string' &&
    typeof child.school?.id === 'number' &&
    typeof child.school.slug === 'string' &&
    typeof child.album?.id === 'number'
  );
}

export function readUnlockedChildren(): UnlockedStudent[] {
  const stored = readJson<unknown>(UNLOCKED_CHILDREN_KEY);
  return Array.isArray(stored) ? stored.filter(isChild) : [];
}

function save(children: UnlockedStudent[]): void {
  writeJson(UNLOCKED_CHILDREN_KEY, children);
  void import('./db')
    .then(({ setMeta }) => setMeta(META_KEY, JSON.stringify(children)))
    .catch((err: unknown) => console.warn('Could not mirror unlocked children', err));
}

/** Adds or refreshes a child (a code entered again replaces the stored names). */
export function addUnlockedChild(child: UnlockedStudent): void {
  const others = readUnlockedChildren().filter((existing) => existing.student.id !== child.student.id);
  save([...others, { student: child.student, school: child.school, album: child.album }]);
}

/**
 * Children the server said were erased at the school's request: kept marked on this device, so the
 * family is still told so once the grant that named them has lapsed (docs/access.md, "What the
 * family of an erased child sees").
 */
export function markChildrenRemoved(studentIds: readonly number[]): void {
  const children = readUnlockedChildren();
  if (!children.some((child) => studentIds.includes(child.student.id) && !isRemoved(child))) return;
  save(children.map((child) => (studentIds.includes(child.student.id) ? { ...child, removed: true } : child)));
}

/** Whether the server said this child was erased at the school's request. */
export const isRemoved = (child: UnlockedStudent): boolean => (child as UnlockedStudent & { removed?: unknown }).removed === true;

export function removeUnlockedChild(studentId: number): void {
  save(readUnlockedChildren().filter((child) => child.student.id !== studentId));
}

/** Start-up: local storage wins when present; otherwise the IndexedDB copy restores it. */
export async function hydrateUnlockedChildren(): Promise<void> {
  const { getMeta, setMeta } = await import('./db');
  if (readRaw(UNLOCKED_CHILDREN_KEY) === null) {
    const stored = await getMeta(META_KEY);
    if (!stored) return;
    try {
      const parsed = (JSON.parse(stored) as unknown[]).filter(isChild);
      if (parsed.length > 0) writeJson(UNLOCKED_CHILDREN_KEY, parsed);
    } catch {
      await setMeta(META_KEY, null);
    }
  } else {
    await setMeta(META_KEY, JSON.stringify(readUnlockedChildren()));
  }
}

let cachedRaw: string | null = null;
let cached: UnlockedStudent[] = [];
function snapshot(): UnlockedStudent[] {
  const raw = readRaw(UNLOCKED_CHILDREN_KEY);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = readUnlockedChildren();
  }
  return cached;
}

export function useUnlockedChildren(): UnlockedStudent[] {
  return useSyncExternalStore(subscribeStorage, snapshot, () => cached);
}

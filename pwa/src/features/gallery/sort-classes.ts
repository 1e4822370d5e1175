import { byName } from '@contract/format';

/** Class names sorted numeric-aware and case-insensitively: Class 2B before Class 10C. */
export function sortClasses<T extends { name: string }>(classes: readonly T[]): T[] {
  return [...classes].sort(byName);
}

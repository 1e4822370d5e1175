/** Class names sorted numeric-aware and case-insensitively: Class 2B before Class 10C. */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function sortClasses<T extends { name: string }>(classes: readonly T[]): T[] {
  return [...classes].sort((a, b) => collator.compare(a.name, b.name));
}

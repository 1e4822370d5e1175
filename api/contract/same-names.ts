/**
 * Two children with the same name (docs/access.md, "Two children with the same name"): the roster
 * takes them only when their student numbers tell them apart, and every staff screen that names a
 * child shows the number (or, across classes, the class) next to a name another child shares.
 */

/** Whether two names are the same name: case and spacing aside, accents counted (Zoë is not Zoe). */
export const sameChildName = (a: string, b: string): boolean =>
  a.normalize('NFC').trim().replace(/\s+/g, ' ').localeCompare(b.normalize('NFC').trim().replace(/\s+/g, ' '), undefined, { sensitivity: 'accent' }) === 0;

const nameKey = (name: string) => name.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase();

export interface NamedChild {
  name: string;
  number?: string | null;
  /** The child's class, shown when there is no number to tell them apart (a list over several classes). */
  className?: string | null;
}

/**
 * A child's name as a list of children should show it: the name alone when no other child of the
 * list has it, otherwise followed by the student number, or by the class when it has none, so
 * "Neo Kgosi (12)" and "Neo Kgosi (31)" are never mistaken for each other.
 */
export function childNamer(children: readonly NamedChild[]): (child: NamedChild) => string {
  const counts = new Map<string, number>();
  for (const child of children) counts.set(nameKey(child.name), (counts.get(nameKey(child.name)) ?? 0) + 1);
  return (child) => ((counts.get(nameKey(child.name)) ?? 0) > 1 ? telling(child) : child.name);
}

/** The name with what tells the child apart: the number, else the class, else the name alone. */
export function telling(child: NamedChild): string {
  if (child.number) return SAME_NAME_MSG.withNumber(child.name, child.number);
  if (child.className) return SAME_NAME_MSG.withClass(child.name, child.className);
  return child.name;
}

export const SAME_NAME_MSG = {
  withNumber: (name: string, number: string) => `${name} (${number})`,
  withClass: (name: string, className: string) => `${name} (${className})`,
  sameNameInFile: (row: number) => `Row ${row} has a child with the same name. Add a student number or a second name to tell them apart.`,
  sameNameInClass: 'A child with this name is already in the class. Add a student number or a second name to tell them apart.',
} as const;

/** The review sheet's "Move to another child" and the card photo shown large (staff screens). */
export const REVIEW_ACTIONS_MSG = {
  moveToChild: 'Move to another child',
  moveToChildLabel: (photo: string) => `Move ${photo} to another child`,
  moveToChildTitle: (photo: string) => `Move ${photo} to another child`,
  moveToChildHint: 'Tap the child this photo shows. Families see it under that child.',
  findChild: 'Find a child by name or number',
  noChildFound: 'No child of this class has that name or number.',
  showCardLarge: (card: string) => `Show card photo ${card} large`,
  cardLargeTitle: (card: string) => `Card photo ${card}`,
  cardLargeHint: 'Check the name and code on the card against the child these photos are under.',
} as const;

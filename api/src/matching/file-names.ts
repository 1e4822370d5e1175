/**
 * Matching a photo to a child by its file name, as camera software that knows the roster writes
 * it: "Neo Kgosi_0423.jpg", "0423 Neo Kgosi.jpg", "20231457.jpg" or "20231457_0423.jpg". Names
 * are compared exactly after normalising what file systems and keyboards change: Unicode form,
 * case, and the separators between words.
 */

export interface RosterEntry {
  id: number;
  name: string;
  number: string | null;
}

/** The student whose name or number the file carries, "ambiguous" when more than one could be meant, or null. */
export type NameMatch = number | 'ambiguous' | null;

/** NFC (macOS stores names decomposed), lower case, one space between words, typographic apostrophes made plain. */
export function nameKey(text: string): string {
  return text
    .normalize('NFC')
    .toLocaleLowerCase('en')
    .replace(/[’ʼ‘`]/g, "'")
    .replace(/[\s_\-‐-―.,]+/g, ' ')
    .trim();
}

/** The parts of a file name that could be a name or a number: the stem, and the stem without a frame number before or after it. */
export function fileNameCandidates(originalName: string): string[] {
  const stem = originalName.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const candidates = new Set<string>([nameKey(stem)]);
  const trailing = /^(.*?)[\s_\-.]*\(?\d+\)?$/.exec(stem);
  if (trailing?.[1]) candidates.add(nameKey(trailing[1]));
  const leading = /^\d+[\s_\-.]+(.+)$/.exec(stem);
  if (leading?.[1]) candidates.add(nameKey(leading[1]));
  candidates.delete('');
  return [...candidates];
}

/** Builds the lookup once per roster; each file is then a few map reads. */
export function createNameMatcher(roster: readonly RosterEntry[]): (originalName: string) => NameMatch {
  const byKey = new Map<string, Set<number>>();
  const add = (key: string, id: number) => {
    if (!key) return;
    const ids = byKey.get(key) ?? new Set<number>();
    ids.add(id);
    byKey.set(key, ids);
  };
  for (const student of roster) {
    add(nameKey(student.name), student.id);
    if (student.number) add(nameKey(student.number), student.id);
  }
  return (originalName) => {
    const found = new Set<number>();
    for (const candidate of fileNameCandidates(originalName)) for (const id of byKey.get(candidate) ?? []) found.add(id);
    if (found.size === 0) return null;
    if (found.size > 1) return 'ambiguous';
    return [...found][0] ?? null;
  };
}

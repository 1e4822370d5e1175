/**
 * The repository stands on its own: comments explain a rule in their own words or point at a page
 * of docs/, never at a document the repository does not hold, and every docs/ page cited exists.
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const SOURCE_DIRS = ['api', 'pwa', 'db', 'scripts', 'e2e', '.ci'];
const SKIP = new Set(['node_modules', 'dist', 'data', 'coverage', 'bench-results']);
const SOURCE = /\.(ts|tsx|js|css|html|sh)$|^run$/;
/** Names of documents that live outside the repository, as comments used to cite them. */
const OUTSIDE = /\b(D(?:[1-9]|1[0-9])\b(?![-.\w])|checklist [A-Z]\d|pitfall P\d|reference §|decisions\.md|product-spec|design-card|\.\.\/shared\/)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

const files = SOURCE_DIRS.map((dir) => path.join(root, dir))
  .filter((dir) => existsSync(dir) && statSync(dir).isDirectory())
  .flatMap(sourceFiles)
  .filter((file) => file !== import.meta.filename);

describe('comments cite the repository only', () => {
  it('no line cites a document outside the repository', () => {
    const outside = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (OUTSIDE.test(line) ? [`${path.relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(outside).toEqual([]);
  });

  it('every docs/ page a comment cites exists', () => {
    const cited = new Set(files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bdocs\/([\w-]+\.md)/g)].map((match) => match[1]!)));
    expect(cited.size).toBeGreaterThan(0);
    expect([...cited].filter((page) => !existsSync(path.join(root, 'docs', page)))).toEqual([]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A parent's first visit downloads the entry and the gallery's chunks (vite.config.ts, galleryChunks),
 * and a module lands in those files as a whole, with everything it re-exports. `api/contract/messages.ts`
 * re-exports every feature's texts, so one import of it from the first screens brought the help page,
 * the privacy notice, the staff's review texts and the rest into every first visit. Those modules
 * import the contract's text files themselves, and the few texts they say of the big shared objects
 * (`MSG`, `HARDENING_MSG`, …) from small files beside them (docs/performance.md, "Texts on the first screens").
 */
const root = path.resolve(__dirname, '..');
const FIRST_VISIT = [
  'pwa/src/main.tsx',
  'pwa/src/app/routes/school-gallery.tsx',
  'pwa/src/features/gallery/photo-dialog.tsx',
  'pwa/src/features/gallery/class-password-dialog.tsx',
  'pwa/src/app/mobile-drawer.tsx',
];
const HUB = 'api/contract/messages.ts';
/**
 * Text files whose objects hold the API's, the staff's, the checkout's or a form's texts beside the
 * few the first screens say. A module lands in one file whole, with every export any screen uses,
 * so the first screens must not import these at all: the few words they say come from
 * first-visit-messages.ts, outreach-offer-messages.ts and package-gallery-messages.ts.
 */
const NOT_FIRST_VISIT = [
  'api/contract/common-messages.ts',
  'api/contract/route-messages.ts',
  'api/contract/student-messages.ts',
  'api/contract/payment-messages.ts',
  'api/contract/outreach-messages.ts',
  'api/contract/package-messages.ts',
];

/** Static imports and re-exports of a module (not `import()`, not `import type`), resolved to files of the repo. */
function staticImports(file: string): string[] {
  const source = fs.readFileSync(path.join(root, file), 'utf8');
  const found: string[] = [];
  for (const match of source.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
    const [, typeOnly, specifier] = match;
    if (typeOnly || !specifier) continue;
    let target: string | null = null;
    if (specifier.startsWith('@contract/')) target = `api/contract/${specifier.slice('@contract/'.length)}`;
    else if (specifier === '@contract') target = 'api/contract/index';
    else if (specifier.startsWith('.')) target = path.join(path.dirname(file), specifier);
    if (!target) continue;
    const resolved = [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`, `${target}/index.tsx`].find((candidate) => fs.existsSync(path.join(root, candidate)) && fs.statSync(path.join(root, candidate)).isFile());
    if (resolved) found.push(resolved);
  }
  return found;
}

describe("the first visit's modules", () => {
  it('never import the contract texts through the messages.ts hub, nor the files of the big shared text objects', () => {
    const seen = new Map<string, string>();
    const stack: (readonly [file: string, from: string])[] = FIRST_VISIT.map((file) => [file, '(start)'] as const);
    for (const file of FIRST_VISIT) expect(fs.existsSync(path.join(root, file)), file).toBe(true);
    for (let next = stack.pop(); next; next = stack.pop()) {
      const [file, from] = next;
      if (seen.has(file)) continue;
      seen.set(file, from);
      if (!/\.css$/.test(file)) for (const imported of staticImports(file)) stack.push([imported, file]);
    }
    // The walk does reach the contract (the texts the first screens say), just not through the hub.
    expect([...seen.keys()]).toContain('api/contract/pwa-messages.ts');
    expect(seen.has(HUB) ? `${HUB} is imported by ${seen.get(HUB)}` : null).toBeNull();
    expect(NOT_FIRST_VISIT.filter((file) => seen.has(file)).map((file) => `${file} is imported by ${seen.get(file)}`)).toEqual([]);
  });
});

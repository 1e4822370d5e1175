import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A parent's first visit downloads the entry and the gallery's chunks (vite.config.ts, galleryChunks),
 * and a module lands in those files as a whole, with everything it re-exports. `api/contract/messages.ts`
 * re-exports every feature's texts, so one import of it from the first screens brought the help page,
 * the privacy notice, the staff's review texts and the rest into every first visit. Those modules
 * import the contract's text files themselves, and the few texts they say of the big shared objects
 * (`MSG`, `HARDENING_MSG`, …) from first-visit-messages.ts (docs/performance.md, "Texts on the first screens").
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
 * Text objects that hold the API's, the staff's or the checkout's texts beside the few the first
 * screens say (an object comes into the download whole): those few come from
 * first-visit-messages.ts (or a small object beside the big one) instead.
 */
const WHOLE_OBJECTS: Record<string, string[]> = {
  'api/contract/common-messages.ts': ['MSG'],
  'api/contract/route-messages.ts': ['HARDENING_MSG'],
  'api/contract/student-messages.ts': ['STUDENT_MSG'],
  'api/contract/payment-messages.ts': ['PAYMENT_METHOD_MSG'],
  // The gallery's subscription offer says OUTREACH_OFFER_MSG; the rest is the form's, loaded on a tap.
  'api/contract/outreach-messages.ts': ['CONSENT', 'OUTREACH_SCREEN_MSG'],
};

/** Static imports and re-exports of a module (not `import()`, not `import type`), resolved to files of the repo, with the names imported. */
function staticImports(file: string): { file: string; names: string[] }[] {
  const source = fs.readFileSync(path.join(root, file), 'utf8');
  const found: { file: string; names: string[] }[] = [];
  for (const match of source.matchAll(/^(?:import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?['"]([^'"]+)['"]/gm)) {
    const [, typeOnly, clause = '', specifier] = match;
    if (typeOnly || !specifier) continue;
    let target: string | null = null;
    if (specifier.startsWith('@contract/')) target = `api/contract/${specifier.slice('@contract/'.length)}`;
    else if (specifier === '@contract') target = 'api/contract/index';
    else if (specifier.startsWith('.')) target = path.join(path.dirname(file), specifier);
    if (!target) continue;
    const resolved = [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`, `${target}/index.tsx`].find((candidate) => fs.existsSync(path.join(root, candidate)) && fs.statSync(path.join(root, candidate)).isFile());
    const names = /\{([^}]*)\}/.exec(clause)?.[1]?.split(',').map((name) => name.trim().split(/\s+as\s+/)[0] ?? '') ?? [];
    if (resolved) found.push({ file: resolved, names: clause.includes('*') ? ['*'] : names });
  }
  return found;
}

describe("the first visit's modules", () => {
  it('never import the contract texts through the messages.ts hub, nor the big shared text objects', () => {
    const seen = new Map<string, string>();
    const wholeObjects: string[] = [];
    const stack: (readonly [file: string, from: string])[] = FIRST_VISIT.map((file) => [file, '(start)'] as const);
    for (const file of FIRST_VISIT) expect(fs.existsSync(path.join(root, file)), file).toBe(true);
    for (let next = stack.pop(); next; next = stack.pop()) {
      const [file, from] = next;
      if (seen.has(file)) continue;
      seen.set(file, from);
      if (/\.css$/.test(file)) continue;
      for (const imported of staticImports(file)) {
        const objects = WHOLE_OBJECTS[imported.file] ?? [];
        for (const name of imported.names) if (objects.includes(name) || (name === '*' && objects.length > 0)) wholeObjects.push(`${file} imports ${name} from ${imported.file}`);
        stack.push([imported.file, file]);
      }
    }
    // The walk does reach the contract (the texts the first screens say), just not through the hub.
    expect([...seen.keys()]).toContain('api/contract/pwa-messages.ts');
    expect(seen.has(HUB) ? `${HUB} is imported by ${seen.get(HUB)}` : null).toBeNull();
    expect(wholeObjects).toEqual([]);
  });
});

/**
 * The bundle budget (issue 4): the JavaScript and CSS a parent's first visit loads — the entry,
 * the home route and a school gallery route, with every chunk they import statically — must stay
 * at or under 150 KiB gzipped. Reads pwa/dist/.vite/manifest.json; run after `npm run build`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KIB = 150;
const dist = path.resolve('pwa/dist');
const manifestPath = path.join(dist, '.vite/manifest.json');
const ROUTES = ['src/app/routes/home.tsx', 'src/app/routes/school-gallery.tsx'];

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

if (!fs.existsSync(manifestPath)) {
  console.error(`No ${path.relative(process.cwd(), manifestPath)}: run \`npm run build\` first.`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, Chunk>;
const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entry) throw new Error('The manifest has no entry chunk');
for (const route of ROUTES) if (!manifest[route]) throw new Error(`The manifest has no chunk for ${route}`);

const files = new Set<string>();
const seen = new Set<string>();
function visit(key: string): void {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) return;
  files.add(chunk.file);
  chunk.css?.forEach((css) => files.add(css));
  chunk.imports?.forEach(visit);
}
[entry, ...ROUTES].forEach(visit);

const rows = [...files].map((file) => ({ file, bytes: gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length }));
rows.sort((a, b) => b.bytes - a.bytes);
const total = rows.reduce((sum, row) => sum + row.bytes, 0);
const kib = (bytes: number) => (bytes / 1024).toFixed(1);
for (const row of rows) console.log(`${kib(row.bytes).padStart(7)} KiB  ${row.file}`);
const js = rows.filter((row) => row.file.endsWith('.js')).reduce((sum, row) => sum + row.bytes, 0);
console.log(`First visit (home + school gallery): ${kib(total)} KiB gzipped (JS ${kib(js)} KiB, CSS ${kib(total - js)} KiB); budget ${BUDGET_KIB} KiB.`);
if (total > BUDGET_KIB * 1024) {
  console.error(`Over budget by ${kib(total - BUDGET_KIB * 1024)} KiB.`);
  process.exit(1);
}

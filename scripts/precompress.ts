/**
 * The build's last step: writes `<file>.br` (brotli, maximum quality) and `<file>.gz` (gzip level
 * 9) beside every text asset in pwa/dist, so the server sends them as they are and never spends a
 * request's CPU on compressing a script. A variant that does not save at least a tenth of the
 * file (tiny files, already dense data) is not written, and a stale one from an earlier build is
 * removed. Pages and the manifest are left out: the server fills in the business name first and
 * compresses them itself, once at start-up.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

export const PRECOMPRESSED_EXTENSIONS = ['.js', '.mjs', '.css', '.svg', '.json', '.txt'] as const;
/** A variant must be at most this fraction of the original to be worth a file. */
export const MAX_RATIO = 0.9;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export interface PrecompressedFile {
  /** Path relative to the folder, with forward slashes. */
  file: string;
  bytes: number;
  /** Size of the written variant, or null when it did not pay and none was written. */
  br: number | null;
  gzip: number | null;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    // Dot folders (Vite's .vite manifest) are build metadata, never served.
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

const isText = (file: string) => (PRECOMPRESSED_EXTENSIONS as readonly string[]).includes(path.extname(file));

async function writeOrRemove(target: string, data: Buffer, original: number): Promise<number | null> {
  if (data.length <= original * MAX_RATIO) {
    await fs.writeFile(target, data);
    return data.length;
  }
  await fs.rm(target, { force: true });
  return null;
}

/** Precompresses every text asset under `dir`; returns what was written, file by file. */
export async function precompressDir(dir: string): Promise<PrecompressedFile[]> {
  const results: PrecompressedFile[] = [];
  for await (const file of walk(dir)) {
    if (!isText(file)) continue;
    const data = await fs.readFile(file);
    const [br, gzipped] = await Promise.all([
      brotli(data, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
          [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
      gz(data, { level: 9 }),
    ]);
    results.push({
      file: path.relative(dir, file).split(path.sep).join('/'),
      bytes: data.length,
      br: await writeOrRemove(`${file}.br`, br, data.length),
      gzip: await writeOrRemove(`${file}.gz`, gzipped, data.length),
    });
  }
  return results;
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain) {
  const dir = path.resolve(process.argv[2] ?? 'pwa/dist');
  const results = await precompressDir(dir);
  const total = (pick: (r: PrecompressedFile) => number) => results.reduce((sum, r) => sum + pick(r), 0);
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `precompressed ${results.length} text assets in ${path.relative(process.cwd(), dir)}: ${kib(total((r) => r.bytes))} -> brotli ${kib(total((r) => r.br ?? r.bytes))}, gzip ${kib(total((r) => r.gzip ?? r.bytes))}` +
      ` (${results.filter((r) => r.br === null).length} left as they are: compression did not pay)`,
  );
}

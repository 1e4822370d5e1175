import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_RATIO, precompressDir } from './precompress';

describe('precompressDir', () => {
  let dir: string;
  const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, label: "photo ${i}" }`).join(',\n')}];\n`;
  const styles = `.grid { display: grid; }\n`.repeat(200);

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'precompress-'));
    await fs.mkdir(path.join(dir, 'assets'));
    await fs.mkdir(path.join(dir, '.vite'));
    await fs.writeFile(path.join(dir, 'assets', 'index-abc12345.js'), script);
    await fs.writeFile(path.join(dir, 'assets', 'index-abc12345.css'), styles);
    await fs.writeFile(path.join(dir, 'favicon.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(50)}</svg>`);
    await fs.writeFile(path.join(dir, 'tiny.js'), 'x()');
    // Random bytes do not compress: no variant may be written for them.
    await fs.writeFile(path.join(dir, 'assets', 'dense-abc12345.js'), randomBytes(4096));
    await fs.writeFile(path.join(dir, 'icon.png'), randomBytes(2048));
    await fs.writeFile(path.join(dir, 'index.html'), `<!doctype html><title>x</title>${'<p>hello</p>'.repeat(100)}`);
    await fs.writeFile(path.join(dir, '.vite', 'manifest.json'), JSON.stringify({ a: 'b'.repeat(2000) }));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  const exists = (file: string) => fs.access(path.join(dir, file)).then(() => true, () => false);

  it('writes .br and .gz beside text assets that decompress to the original bytes', async () => {
    const results = await precompressDir(dir);
    for (const file of ['assets/index-abc12345.js', 'assets/index-abc12345.css', 'favicon.svg']) {
      const original = await fs.readFile(path.join(dir, file));
      const br = await fs.readFile(path.join(dir, `${file}.br`));
      const gz = await fs.readFile(path.join(dir, `${file}.gz`));
      expect(brotliDecompressSync(br).equals(original)).toBe(true);
      expect(gunzipSync(gz).equals(original)).toBe(true);
      expect(br.length).toBeLessThan(original.length * MAX_RATIO);
      // Maximum brotli beats gzip -9 on text.
      expect(br.length).toBeLessThan(gz.length);
      expect(results.find((r) => r.file === file)).toEqual({ file, bytes: original.length, br: br.length, gzip: gz.length });
    }
  });

  it('skips files where compression does not pay, images, pages and build metadata', async () => {
    const results = await precompressDir(dir);
    for (const file of ['tiny.js', 'assets/dense-abc12345.js']) {
      expect(await exists(`${file}.br`)).toBe(false);
      expect(await exists(`${file}.gz`)).toBe(false);
      expect(results.find((r) => r.file === file)).toMatchObject({ br: null, gzip: null });
    }
    for (const file of ['icon.png', 'index.html', '.vite/manifest.json']) {
      expect(await exists(`${file}.br`)).toBe(false);
      expect(results.some((r) => r.file === file)).toBe(false);
    }
  });

  it('is repeatable and removes a variant that no longer pays', async () => {
    await precompressDir(dir);
    const first = await fs.readFile(path.join(dir, 'assets/index-abc12345.js.br'));
    // An earlier build left variants of a file that is now incompressible.
    await fs.writeFile(path.join(dir, 'assets/dense-abc12345.js.br'), 'stale');
    await fs.writeFile(path.join(dir, 'assets/dense-abc12345.js.gz'), 'stale');
    await precompressDir(dir);
    expect((await fs.readFile(path.join(dir, 'assets/index-abc12345.js.br'))).equals(first)).toBe(true);
    expect(await exists('assets/dense-abc12345.js.br')).toBe(false);
    expect(await exists('assets/dense-abc12345.js.gz')).toBe(false);
    // Variants are never compressed again as if they were assets.
    expect(await exists('assets/index-abc12345.js.br.br')).toBe(false);
  });
});

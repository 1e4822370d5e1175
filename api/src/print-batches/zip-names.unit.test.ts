import { describe, expect, it } from 'vitest';
import { createPathRegistry, productFolder, safeComponent, zipFileName } from './zip-names';

const line = (over: Partial<Parameters<typeof zipFileName>[0]> = {}) => ({
  orderId: 'K7Q2M9XD3P',
  studentName: 'Kagiso Dube',
  quantity: 1,
  originalName: 'IMG_0423.JPG',
  storedName: '3fa2c0d1e4b5a6978812345678abcdef.jpg',
  originalNumber: '0423',
  ...over,
});

describe('names inside the lab ZIP', () => {
  it('keeps Setswana and accented letters, composed as one character each', () => {
    expect(safeComponent('Zoe\u0308 T\u032dhabo', 'x')).toBe('Zoë Ṱhabo');
    expect(safeComponent('Kgalalelo Mosweu', 'x')).toBe('Kgalalelo Mosweu');
  });

  it('never lets a name climb out of its folder or hide what it is', () => {
    const hostile = ['../../etc/passwd', '..\\..\\win.ini', '/abs/path', 'a/../b', '..', '.', ' . ', 'evil\u202Egpj.exe', 'tab\there\nnew\u0000line', 'a:b*c?d"e<f>g|h'];
    for (const text of hostile) {
      const safe = safeComponent(text, 'fallback');
      expect(safe, text).not.toMatch(/[/\\:*?"<>|]/);
      expect(safe, text).not.toContain('..');
      expect(safe, text).not.toMatch(/[\p{Cc}\u202a-\u202e]/u);
      expect(safe, text).not.toMatch(/^[.\s]|[.\s]$/);
      expect(safe.length, text).toBeGreaterThan(0);
    }
    expect(safeComponent('..', 'fallback')).toBe('fallback');
    expect(safeComponent('   ', 'fallback')).toBe('fallback');
    expect(safeComponent('evil\u202Egpj.exe', 'x')).toBe('evilgpj.exe');
    expect(safeComponent('CON', 'x')).toBe('_CON');
    expect(safeComponent('nul.txt', 'x')).toBe('_nul.txt');
  });

  it('cuts long names by characters, not in the middle of one', () => {
    const long = 'Ṱ'.repeat(200);
    expect(Array.from(safeComponent(long, 'x', 80))).toHaveLength(80);
    expect(safeComponent('abc.   ', 'x', 10)).toBe('abc');
  });

  it('names a file by order, student and original, with the quantity when more than one', () => {
    expect(zipFileName(line())).toBe('K7Q2M9XD3P_Kagiso Dube_IMG_0423.JPG');
    expect(zipFileName(line({ quantity: 3 }))).toBe('K7Q2M9XD3P_Kagiso Dube_IMG_0423_qty3.JPG');
    // No usable extension on the camera name: the stored file's own.
    expect(zipFileName(line({ originalName: 'IMG_0423' }))).toBe('K7Q2M9XD3P_Kagiso Dube_IMG_0423.jpg');
    expect(zipFileName(line({ originalName: '../../etc/passwd', studentName: 'Amo/..\\Evil' }))).toBe('K7Q2M9XD3P_Amo-.-Evil_-.-etc-passwd.jpg');
    expect(zipFileName(line({ originalName: null, storedName: null, originalNumber: null }))).toBe('K7Q2M9XD3P_Kagiso Dube_photo-unknown');
  });

  it('gives each product a folder that cannot shadow the files at the root', () => {
    expect(productFolder('10x15 Print')).toBe('10x15 Print');
    expect(productFolder('Frame 20/25')).toBe('Frame 20-25');
    expect(productFolder('')).toBe('Prints');
    expect(productFolder('Order-Sheet.csv')).toBe('Order-Sheet.csv (product)');
    expect(productFolder('missing.txt')).toBe('missing.txt (product)');
  });

  it('hands out unique paths, also for file systems that ignore case', () => {
    const take = createPathRegistry();
    expect(take('Prints', 'a.jpg')).toBe('Prints/a.jpg');
    expect(take('Prints', 'A.JPG')).toBe('Prints/A (2).JPG');
    expect(take('Prints', 'a.jpg')).toBe('Prints/a (3).jpg');
    expect(take('Frames', 'a.jpg')).toBe('Frames/a.jpg');
    expect(take('Prints', 'noext')).toBe('Prints/noext');
    expect(take('Prints', 'noext')).toBe('Prints/noext (2)');
  });
});

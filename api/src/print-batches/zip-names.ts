/**
 * Names inside the lab's ZIP. They come from what parents typed and what cameras named files, so
 * they are cleaned to be safe on any file system a lab may unpack them on (Windows included) while
 * keeping letters such as "ṱ", "ë" or "š" as they are.
 */

const CONTROL = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
const RESERVED_CHARACTERS = /[/\\:*?"<>|]/g;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;
const IMAGE_EXTENSION = /\.(jpe?g|png|gif)$/i;

/**
 * One path component: no separators, no control or direction-override characters, no ".." anywhere,
 * no leading dots, no trailing dots or spaces, at most `max` characters.
 */
export function safeComponent(text: string | null | undefined, fallback: string, max = 80): string {
  const cleaned = (text ?? '')
    .normalize('NFC')
    .replace(CONTROL, '')
    .replace(RESERVED_CHARACTERS, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+/, '');
  const cut = Array.from(cleaned).slice(0, max).join('').replace(/[.\s]+$/, '');
  if (cut === '') return fallback;
  return WINDOWS_DEVICE.test(cut) ? `_${cut}` : cut;
}

export interface ZipLine {
  orderId: string;
  studentName: string;
  quantity: number;
  originalName: string | null;
  /** The generated name on the order line, e.g. "3fa2….jpg": its extension is the stored file's. */
  storedName: string | null;
  originalNumber: string | null;
}

/**
 * The name a photo of an order line goes by: the camera's file name, else the generated one kept
 * on the line; null when neither is left. Staff screens and the ZIP each add their own last resort
 * (a screen shows the photo's id, a file needs a name of its own).
 */
export function photoNameOf(line: { originalName: string | null; storedName: string | null }): string | null {
  return line.originalName ?? line.storedName ?? null;
}

/** Files the ZIP holds at its root, which a product folder must not shadow. */
export const ORDER_SHEET_NAME = 'order-sheet.csv';
export const MISSING_LIST_NAME = 'MISSING.txt';

const ROOT_FILES = [ORDER_SHEET_NAME, MISSING_LIST_NAME].map((name) => name.toLowerCase());

/** One folder per product, named as the price list (or the built-in products) names it. */
export function productFolder(productName: string): string {
  const folder = safeComponent(productName, 'Prints', 60);
  return ROOT_FILES.includes(folder.toLowerCase()) ? `${folder} (product)` : folder;
}

/**
 * "{orderId}_{student}_{original}" with "_qty{N}" before the extension when more than one print is
 * wanted, so a lab can match every file back to its order, child and camera frame.
 */
export function zipFileName(line: ZipLine): string {
  const original = photoNameOf(line) ?? `photo-${line.originalNumber ?? 'unknown'}`;
  const storedExtension = /\.[A-Za-z0-9]{2,4}$/.exec(line.storedName ?? '')?.[0] ?? '';
  const extension = IMAGE_EXTENSION.exec(original)?.[0] ?? storedExtension;
  const base = IMAGE_EXTENSION.test(original) ? original.slice(0, -extension.length) : original;
  const quantity = line.quantity > 1 ? `_qty${line.quantity}` : '';
  return `${safeComponent(line.orderId, 'order', 20)}_${safeComponent(line.studentName, 'student', 60)}_${safeComponent(base, 'photo', 80)}${quantity}${extension}`;
}

/**
 * Hands out paths that are unique even on case-insensitive file systems: a second "a.jpg" in a
 * folder becomes "a (2).jpg".
 */
export function createPathRegistry() {
  const taken = new Set<string>();
  return (folder: string, fileName: string): string => {
    const dot = fileName.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [fileName.slice(0, dot), fileName.slice(dot)] : [fileName, ''];
    for (let n = 1; ; n++) {
      const candidate = `${folder}/${n === 1 ? fileName : `${stem} (${n})${extension}`}`;
      const key = candidate.toLowerCase();
      if (!taken.has(key)) {
        taken.add(key);
        return candidate;
      }
    }
  };
}

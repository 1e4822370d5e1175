import { EXAMPLE_IMAGE_URL_PREFIX, type PriceListRow } from '../../contract/price-lists';
import type { UploadedFile } from '../http/multipart';

const ROW_FIELD = /^products\[(\d{1,4})\]\[(name|description|price|existingImagePath|kind|size)\]$/;
const ROW_FILE = /^products\[(\d{1,4})\]\[exampleImage\]$/;
const STORED_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export interface PriceListForm {
  /** Input for priceListInputSchema: {name, description, products[], packages, siblingDiscount}, rows in order. */
  body: { name?: string; description?: string; products: PriceListRow[]; packages?: unknown; siblingDiscount?: unknown };
  /** Uploaded example images by position in body.products. */
  images: Map<number, UploadedFile>;
}

/**
 * A JSON field of the form (`packages`, `siblingDiscount`): absent or blank is "not given" (no
 * packages, no family discount); text that is not JSON is handed on as text, so the schema refuses
 * it with its own message.
 */
function jsonField(value: string | undefined): unknown {
  if (value === undefined || value.trim() === '') return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * Turns the editor's flat multipart keys (products[i][name], products[i][exampleImage] …) into
 * rows. Rows keep the order of their index i; gaps left by removed rows close up. The packages and
 * the family discount come as one JSON field each (docs/packages-and-coupons.md, "Packages").
 */
export function readPriceListForm(fields: Record<string, string>, files: Record<string, UploadedFile[]>): PriceListForm {
  const rows = new Map<number, PriceListRow>();
  const row = (index: number) => {
    let found = rows.get(index);
    if (!found) rows.set(index, (found = {}));
    return found;
  };
  for (const [key, value] of Object.entries(fields)) {
    const match = ROW_FIELD.exec(key);
    if (match) row(Number(match[1]))[match[2] as keyof PriceListRow] = value;
  }
  const uploads = new Map<number, UploadedFile>();
  for (const [key, list] of Object.entries(files)) {
    const match = ROW_FILE.exec(key);
    const file = list[0];
    // Browsers send an empty part for a file input left blank.
    if (match && file && file.size > 0) {
      uploads.set(Number(match[1]), file);
      row(Number(match[1]));
    }
  }
  const order = [...rows.keys()].sort((a, b) => a - b);
  const images = new Map<number, UploadedFile>();
  order.forEach((index, position) => {
    const upload = uploads.get(index);
    if (upload) images.set(position, upload);
  });
  return {
    body: {
      name: fields.name,
      description: fields.description,
      products: order.map((index) => rows.get(index) as PriceListRow),
      packages: jsonField(fields.packages),
      siblingDiscount: jsonField(fields.siblingDiscount),
    },
    images,
  };
}

/**
 * The stored file name behind an existingImagePath ('/api/example-images/<file>', a full URL to
 * it, or the bare name), or null when it does not look like one of ours.
 */
export function exampleImageName(path: string): string | null {
  const trimmed = path.trim();
  const at = trimmed.lastIndexOf(EXAMPLE_IMAGE_URL_PREFIX);
  const name = at >= 0 ? trimmed.slice(at + EXAMPLE_IMAGE_URL_PREFIX.length) : trimmed;
  return STORED_NAME.test(name) ? name : null;
}

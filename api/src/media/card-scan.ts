import jsQR from './jsqr/jsQR.cjs';

/**
 * Looking for a child's QR card in an uploaded photo. It works on a grey copy of the pixels the
 * renditions were made from (the one decode of the upload), so finding a card costs no second
 * decode; the upload lends the scan a copy of those pixels and the grey copy is taken on the
 * scan's thread. jsQR reads a code well but scans a whole noisy frame slowly (hundreds of milliseconds at
 * preview size, far more at full size), so a cheap pass first finds the few patches that look like
 * a QR code (dense light-dark edges in both directions) and jsQR reads only those.
 */

export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * What a scan is given: a grey copy, or (with `channels` above 1) a copy of the clean decoded
 * pixels themselves, whose grey copy the scan takes first. An upload hands over the latter, so the
 * grey copy is taken on the scan's worker thread, not on the event loop (card-scan-thread.ts).
 */
export interface ScanImage extends GreyImage {
  channels?: number;
}

/**
 * The grey copy's bytes kept from one scan for the next on this thread: a new 1.2 MB buffer a
 * photo was work for the garbage collector. A scan takes it and gives it back when it ends, so two
 * scans under way at once (a scan abandoned half-way and never ended) never share it.
 */
let spareGrey: Uint8Array | null = null;

/**
 * A copy of decoded pixels in shared memory, for the scan: one copy of the bytes (a fraction of a
 * millisecond for a preview-size photo) instead of the grey copy's arithmetic on the event loop.
 * The upload's own pixels are marked with the watermark in place afterwards, so they are not lent.
 */
export function scanCopy(pixels: Uint8Array, raw: { width: number; height: number; channels: number }): ScanImage {
  const data = new Uint8Array(new SharedArrayBuffer(pixels.length));
  data.set(pixels);
  return { data, width: raw.width, height: raw.height, channels: raw.channels };
}

/**
 * The grey copy of decoded pixels: luma with BT.601 weights in fixed point, one byte a pixel, in
 * shared memory (a grey copy handed to the scanner reaches its worker thread without a copy).
 */
export function greyCopy(pixels: Uint8Array, raw: { width: number; height: number; channels: number }): GreyImage {
  return { data: greyInto(pixels, raw, new Uint8Array(new SharedArrayBuffer(raw.width * raw.height))), width: raw.width, height: raw.height };
}

/** The grey copy's arithmetic, into `data` (width x height bytes). */
function greyInto(pixels: Uint8Array, raw: { width: number; height: number; channels: number }, data: Uint8Array): Uint8Array {
  const { width, height, channels } = raw;
  // A plain Uint8Array over a Buffer's bytes: indexing it compiles tighter than indexing a Buffer.
  const src = new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.length);
  if (channels < 3) {
    for (let i = 0, at = 0; i < data.length; i++, at += channels) data[i] = src[at] as number;
  } else if (channels === 3) {
    // The usual decode (sRGB, no alpha), with a constant stride: about a fifth faster on the event
    // loop, where this copy is taken for every photo of a class with a roster.
    for (let i = 0, at = 0, count = width * height; i < count; i++, at += 3) {
      const red = src[at] as number;
      const green = src[at + 1] as number;
      const blue = src[at + 2] as number;
      data[i] = (red * 77 + green * 150 + blue * 29) >> 8;
    }
  } else {
    for (let i = 0, at = 0; i < data.length; i++, at += channels) {
      data[i] = ((src[at] as number) * 77 + (src[at + 1] as number) * 150 + (src[at + 2] as number) * 29) >> 8;
    }
  }
  return data;
}

/** Side of the cells the edge pass counts in (pixels of the grey copy). */
const CELL = 8;
/** A step between neighbours at least this large is an edge (a printed module against paper). */
const EDGE_STEP = 48;
/** Edges a cell needs in each direction to look like part of a code. */
const MIN_EDGES = 5;
/** Candidate patches read with jsQR at most, best first. */
const MAX_CANDIDATES = 6;
/** A patch is shrunk to at most this side before jsQR reads it, which bounds the time per patch. */
const MAX_PATCH_SIDE = 360;
/** The smallest code worth trying, in cells (a code must span at least this many). */
const MIN_SPAN_CELLS = 3;

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  score: number;
  cells: number;
}

/** Cells whose edges run in both directions: printed modules do, hair, text lines and fabric mostly do not. */
function edgeCells(grey: GreyImage): { scores: Uint16Array; cols: number; rows: number } {
  const { data, width, height } = grey;
  const cols = Math.floor(width / CELL);
  const rows = Math.floor(height / CELL);
  const scores = new Uint16Array(cols * rows);
  // Cell by cell, and no Math.abs: this pass reads every pixel of the preview, for every photo of
  // a class with a roster. Only about 1 cell in 40 of a photo has an edge at all, and a cell
  // without MIN_EDGES across scores nothing whatever its edges down, so those are counted only in
  // the cells that have enough across: the same scores for about half the work.
  for (let cy = 0; cy < rows; cy++) {
    const top = cy * CELL;
    // The last row of pixels has nothing below it, and the last column nothing to its right.
    const downRows = Math.min(CELL, height - 1 - top);
    for (let cx = 0; cx < cols; cx++) {
      const left = cx * CELL;
      const acrossEnd = Math.min(left + CELL, width - 1);
      let across = 0;
      for (let row = top * width, rowsEnd = (top + CELL) * width; row < rowsEnd; row += width) {
        for (let at = row + left, end = row + acrossEnd; at < end; at++) {
          const step = (data[at] as number) - (data[at + 1] as number);
          if (step >= EDGE_STEP || step <= -EDGE_STEP) across += 1;
        }
      }
      if (across < MIN_EDGES) continue;
      let down = 0;
      for (let row = top * width, rowsEnd = (top + downRows) * width; row < rowsEnd; row += width) {
        for (let at = row + left, end = at + CELL; at < end; at++) {
          const step = (data[at] as number) - (data[at + width] as number);
          if (step >= EDGE_STEP || step <= -EDGE_STEP) down += 1;
        }
      }
      if (down >= MIN_EDGES) scores[cy * cols + cx] = Math.min(across, down) * 2;
    }
  }
  return { scores, cols, rows };
}

/**
 * Groups of neighbouring edge cells (a one-cell gap is bridged, as a code's large modules can
 * leave a cell without edges), as boxes, best first.
 */
function candidateBoxes(grey: GreyImage): Box[] {
  const { scores, cols, rows } = edgeCells(grey);
  const seen = new Uint8Array(cols * rows);
  const boxes: Box[] = [];
  const stack: number[] = [];
  for (let start = 0; start < scores.length; start++) {
    if (scores[start] === 0 || seen[start]) continue;
    const box: Box = { x0: cols, y0: rows, x1: -1, y1: -1, score: 0, cells: 0 };
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const cell = stack.pop() as number;
      const cx = cell % cols;
      const cy = (cell / cols) | 0;
      box.x0 = Math.min(box.x0, cx);
      box.y0 = Math.min(box.y0, cy);
      box.x1 = Math.max(box.x1, cx);
      box.y1 = Math.max(box.y1, cy);
      box.score += scores[cell] as number;
      box.cells += 1;
      for (let dy = -2; dy <= 2; dy++) {
        const ny = cy + dy;
        if (ny < 0 || ny >= rows) continue;
        for (let dx = -2; dx <= 2; dx++) {
          const nx = cx + dx;
          if (nx < 0 || nx >= cols) continue;
          const next = ny * cols + nx;
          if (scores[next] !== 0 && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    const spanX = box.x1 - box.x0 + 1;
    const spanY = box.y1 - box.y0 + 1;
    // A code seen at an angle is still roughly as tall as wide; long thin runs are text or edges.
    if (spanX < MIN_SPAN_CELLS || spanY < MIN_SPAN_CELLS || spanX > spanY * 4 || spanY > spanX * 4) continue;
    // Codes fill their box densely; scattered texture does not.
    if (box.cells < spanX * spanY * 0.3) continue;
    boxes.push(box);
  }
  return boxes.sort((a, b) => b.score - a.score).slice(0, MAX_CANDIDATES);
}

/**
 * How a box is cut out for jsQR, tried in turn until one reads. jsQR's binariser works in blocks
 * of at least 8 pixels laid from the patch's corner, so a small code (modules of 2 to 3 pixels: a
 * card at 3 m) it misses is usually read at twice the size, and one it misses in one cut is
 * often read in a cut a few pixels larger or shifted. The later cuts cost a few milliseconds, and
 * only where a candidate did not read. Enlarging applies only to patches not shrunk.
 */
const CUTS = [
  { margin: 0.25, shift: 0, scale: 1 },
  { margin: 0.25, shift: 0, scale: 2 },
  { margin: 0.5, shift: 0, scale: 1 },
  { margin: 0.35, shift: CELL / 2, scale: 1 },
] as const;

/**
 * What jsQR reads: grey, one byte a pixel. jsQR itself takes RGBA and turns it to grey first; the
 * copy of it beside this file (jsqr/README.md) reads grey as it is, with the same result, so no
 * RGBA is written. Clamped bytes, as the RGBA was: a fractional value is rounded as it was then.
 */
interface Patch {
  grey: Uint8ClampedArray;
  width: number;
  height: number;
}

/** A region of the grey copy enlarged `scale` times with bilinear interpolation, for jsQR. */
function enlarged(grey: GreyImage, left: number, top: number, regionWidth: number, regionHeight: number, scale: number): Patch {
  const width = regionWidth * scale;
  const height = regionHeight * scale;
  const out = new Uint8ClampedArray(width * height);
  const at = (x: number, y: number) => grey.data[(top + y) * grey.width + left + x] as number;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(regionHeight - 1, Math.max(0, (y + 0.5) / scale - 0.5));
    const y0 = Math.min(regionHeight - 2, Math.floor(fy));
    const ay = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(regionWidth - 1, Math.max(0, (x + 0.5) / scale - 0.5));
      const x0 = Math.min(regionWidth - 2, Math.floor(fx));
      const ax = fx - x0;
      out[y * width + x] = (1 - ay) * ((1 - ax) * at(x0, y0) + ax * at(x0 + 1, y0)) + ay * ((1 - ax) * at(x0, y0 + 1) + ax * at(x0 + 1, y0 + 1));
    }
  }
  return { grey: out, width, height };
}

/** The patch of a box with a margin for the quiet zone, shrunk by whole steps to MAX_PATCH_SIDE (or enlarged as the cut says), for jsQR. */
function patchOf(grey: GreyImage, box: Box, cut: (typeof CUTS)[number]): Patch | null {
  const marginX = Math.max(2, Math.round((box.x1 - box.x0 + 1) * cut.margin)) * CELL;
  const marginY = Math.max(2, Math.round((box.y1 - box.y0 + 1) * cut.margin)) * CELL;
  const left = Math.max(0, box.x0 * CELL - marginX + cut.shift);
  const top = Math.max(0, box.y0 * CELL - marginY + cut.shift);
  const right = Math.min(grey.width, (box.x1 + 1) * CELL + marginX + cut.shift);
  const bottom = Math.min(grey.height, (box.y1 + 1) * CELL + marginY + cut.shift);
  const step = Math.max(1, Math.ceil(Math.max(right - left, bottom - top) / MAX_PATCH_SIDE));
  if (step > 1 && cut.scale > 1) return null;
  if (cut.scale > 1) return enlarged(grey, left, top, right - left, bottom - top, cut.scale);
  const width = Math.floor((right - left) / step);
  const height = Math.floor((bottom - top) / step);
  const out = new Uint8ClampedArray(width * height);
  const area = step * step;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let sy = 0; sy < step; sy++) {
        const row = (top + y * step + sy) * grey.width + left + x * step;
        for (let sx = 0; sx < step; sx++) sum += grey.data[row + sx] as number;
      }
      out[y * width + x] = Math.round(sum / area);
    }
  }
  return { grey: out, width, height };
}

/**
 * The grey copy at a third of its size (each pixel the mean of a 3x3 block), for jsQR: the
 * whole-frame read's input, 427x320 for a 1280x960 copy.
 */
function thirdFrame(grey: GreyImage): Patch {
  const width = Math.floor(grey.width / 3);
  const height = Math.floor(grey.height / 3);
  const out = new Uint8ClampedArray(width * height);
  const { data } = grey;
  for (let y = 0; y < height; y++) {
    const top = 3 * y * grey.width;
    const middle = top + grey.width;
    const below = middle + grey.width;
    for (let x = 0; x < width; x++) {
      const at = 3 * x;
      const sum =
        (data[top + at] as number) + (data[top + at + 1] as number) + (data[top + at + 2] as number) +
        (data[middle + at] as number) + (data[middle + at + 1] as number) + (data[middle + at + 2] as number) +
        (data[below + at] as number) + (data[below + at + 1] as number) + (data[below + at + 2] as number);
      out[y * width + x] = ((sum + 4) / 9) | 0;
    }
  }
  return { grey: out, width, height };
}

/**
 * The text of the first QR code found that `accept` takes (a student code), or null. Other QR codes
 * in the frame (a poster, a T-shirt) are read and passed over.
 */
export function findCardText(image: ScanImage, accept: (text: string) => boolean): string | null {
  for (const text of codesRead(image)) if (accept(text)) return text;
  return null;
}

/**
 * The texts of the QR codes read in the frame, in the order they are read, each as soon as it is
 * read: the caller stops at the first it takes, and no further patch is read. The worker thread
 * runs the same steps and asks the event loop about each text (card-scan-thread.ts), so both find
 * the same card with the same work.
 *
 * When no candidate patch reads, the whole frame is read once at a third of the grey copy's size
 * before giving up: a large, clear card with a thin quiet zone beside a shirt or a face can be cut
 * badly by the patches yet read at once on the whole frame, and a child who goes unmatched gets no
 * photos (docs/images.md, "Cards at the shoot"). The codes the patches miss are the large ones,
 * whose modules are still 3 pixels or more at a third; a third costs half what a half did.
 */
export function* codesRead(image: ScanImage): Generator<string, void, undefined> {
  const { width, height, channels = 1 } = image;
  if (channels === 1) {
    yield* codesReadGrey(image);
    return;
  }
  const size = width * height;
  const buffer = spareGrey !== null && spareGrey.length >= size ? spareGrey : new Uint8Array(size);
  spareGrey = null;
  try {
    yield* codesReadGrey({ data: greyInto(image.data, { width, height, channels }, buffer.subarray(0, size)), width, height });
  } finally {
    spareGrey = buffer;
  }
}

function* codesReadGrey(grey: GreyImage): Generator<string, void, undefined> {
  for (const box of candidateBoxes(grey)) {
    for (const cut of CUTS) {
      const patch = patchOf(grey, box, cut);
      if (!patch) continue;
      // Cards are printed dark on light, so the inverted reading jsQR can also try is not needed.
      const found = jsQR.jsQRGrey(patch.grey, patch.width, patch.height);
      if (!found) continue;
      yield found.data;
      // A code that is read but is not a card (a poster, a T-shirt) needs no second cut.
      break;
    }
  }
  const whole = wholeFrameText(grey);
  if (whole !== null) yield whole;
}

/** The fallback: the whole frame at a third of its size (about 10 ms on a 1280 px copy). */
function wholeFrameText(grey: GreyImage): string | null {
  if (grey.width < 3 || grey.height < 3) return null;
  const frame = thirdFrame(grey);
  const found = jsQR.jsQRGrey(frame.grey, frame.width, frame.height);
  return found ? found.data : null;
}

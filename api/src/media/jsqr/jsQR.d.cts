import type { QRCode } from 'jsqr';

/** jsQR 1.4.0 with two functions patched for speed and one added (README.md beside this file). */
declare function jsQR(data: Uint8ClampedArray, width: number, height: number, providedOptions?: { inversionAttempts?: 'dontInvert' | 'onlyInvert' | 'attemptBoth' | 'invertFirst' }): QRCode | null;
declare namespace jsQR {
  /** jsQR() on a grey image (one byte a pixel) read dark on light only: the result jsQR() gives on it as RGBA. */
  function jsQRGrey(grey: Uint8Array | Uint8ClampedArray, width: number, height: number): QRCode | null;
  /** The binarised image: one byte a pixel, 1 for dark. */
  interface BitMatrix {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  /** jsQR's own binariser, unchanged, on RGBA. */
  function binarize(data: Uint8ClampedArray, width: number, height: number, returnInverted: boolean): { binarized: BitMatrix };
  /** The patched binariser on grey: the same bits as binarize() on that grey as RGBA. */
  function binarizeGrey(grey: Uint8Array | Uint8ClampedArray, width: number, height: number): BitMatrix;
}
export = jsQR;

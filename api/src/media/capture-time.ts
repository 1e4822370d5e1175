import exifReader from 'exif-reader';

/**
 * When the photo was taken, from its EXIF DateTimeOriginal (with the sub-seconds when the camera
 * writes them, so a burst keeps its order), as milliseconds on the camera's own clock read as UTC.
 * Only the order within a shoot matters, so the camera's time zone does not. Null without EXIF or
 * with a date the camera never set.
 */
export function captureTimeOf(exif: Buffer | undefined): number | null {
  if (!exif || exif.length === 0) return null;
  let taken: unknown;
  let subSeconds: unknown;
  try {
    const tags = exifReader(exif);
    taken = tags.Photo?.DateTimeOriginal;
    subSeconds = tags.Photo?.SubSecTimeOriginal;
  } catch {
    // A damaged EXIF block says nothing about the order; the file name decides instead.
    return null;
  }
  if (!(taken instanceof Date) || Number.isNaN(taken.getTime()) || taken.getUTCFullYear() < 1990) return null;
  const fraction = typeof subSeconds === 'string' && /^\d+$/.test(subSeconds.trim()) ? Number(`0.${subSeconds.trim()}`) : 0;
  return taken.getTime() + Math.round(fraction * 1000);
}

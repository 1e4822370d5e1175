/**
 * The camera frame number the lab asks for: the last run of digits in the base name
 * (IMG_0423.JPG gives '0423'), or null when there is none.
 */
export function originalNumberOf(originalName: string): string | null {
  const base = originalName.replace(/\.[^.]*$/, '');
  const runs = base.match(/\d+/g);
  const last = runs?.[runs.length - 1];
  return last ? last.slice(-32) : null;
}

/**
 * The upload selection rules: images only, 10 MB per file (files over
 * it are listed and left out, the rest kept), at most 500 photos in one selection.
 */
import { ACCEPTED_IMAGE_TYPES, UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_FILES } from '@contract/constants';
import { MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';

export interface Notice {
  title: string;
  description: string;
}

export interface SelectionResult<T> {
  /** The selection after adding what passed the rules. */
  selection: T[];
  /** Each rule that left files out, as the toast that says so. */
  notices: Notice[];
}

const ACCEPTED = new Set<string>(ACCEPTED_IMAGE_TYPES);
const IMAGE_NAME = /\.(jpe?g|png|gif)$/i;

/** The browser's type when it knows one, else the extension (some Android pickers send none). */
export const isAcceptedImage = (file: Pick<File, 'type' | 'name'>): boolean =>
  file.type ? ACCEPTED.has(file.type) : IMAGE_NAME.test(file.name);

export const uploadLimitMessage = (current: number, adding: number): string =>
  `${MSG.tooManyFiles}. Currently have ${current} photos, trying to add ${adding} more.`;

export const sizeLimitMessage = (oversized: readonly Pick<File, 'name'>[]): string =>
  `${oversized.length} file(s) exceed the 10MB limit and cannot be uploaded: ${oversized.map((file) => file.name).join(', ')}`;

/**
 * Adds `incoming` to `current`. Non-images are filtered (a drop of mixed files keeps the images);
 * an all-non-image selection is the Invalid Files error; over-size files are listed and dropped;
 * a selection that would pass 500 is refused whole, as its message describes.
 */
export function addToSelection<T extends Pick<File, 'name' | 'size' | 'type'>>(current: readonly T[], incoming: readonly T[]): SelectionResult<T> {
  const notices: Notice[] = [];
  const images = incoming.filter(isAcceptedImage);
  if (images.length === 0) {
    if (incoming.length > 0) notices.push({ title: STAFF_MSG.invalidFilesTitle, description: MSG.invalidFiles });
    return { selection: [...current], notices };
  }
  const oversized = images.filter((file) => file.size > UPLOAD_MAX_FILE_BYTES);
  const fitting = images.filter((file) => file.size <= UPLOAD_MAX_FILE_BYTES);
  if (oversized.length > 0) notices.push({ title: STAFF_MSG.fileSizeLimitTitle, description: sizeLimitMessage(oversized) });
  if (current.length + fitting.length > UPLOAD_MAX_FILES) {
    notices.push({ title: STAFF_MSG.uploadLimitTitle, description: uploadLimitMessage(current.length, fitting.length) });
    return { selection: [...current], notices };
  }
  return { selection: [...current, ...fitting], notices };
}

/** Upload progress: 5 at the start, up to 95 as files are done, 100 once complete. */
export function uploadProgress(done: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round(5 + (90 * Math.min(done, total)) / total);
}

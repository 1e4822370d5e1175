/** The names a photo goes by, for gallery photos and order lines alike: staff see the camera's file name, families "Photo 423" (on screen, in e-mails and in a download's file name). */
import { photoById } from './first-visit-messages';
import type { OrderItem } from './orders';

export interface PhotoNames {
  id: number | null;
  /** The camera's file name. */
  originalName?: string | null;
  /** The camera's file name as an order line kept it when it was placed (it outlives the photo). */
  name?: string | null;
  /** The stored (generated) file name. */
  filename?: string | null;
  /** The frame number a family's order answer carries instead of the camera's file name (`photoNumber` of an order line). */
  number?: string | null;
  /** The camera's frame number as stored ("0423"): all a family's photo answer carries of the camera's name. */
  originalNumber?: string | null;
}

/** The camera's file name, else the one an order line kept, else the stored file name, else the photo's id. */
export function photoLabel(photo: PhotoNames): string {
  return photo.originalName || photo.name || photo.filename || photoById(photo.id);
}

/** An order line's photo, named by `photoLabel`. */
export const itemPhotoLabel = (item: Pick<OrderItem, 'photoId' | 'photoOriginalName' | 'photoName' | 'photoFilename'>): string =>
  photoLabel({ id: item.photoId, originalName: item.photoOriginalName, name: item.photoName, filename: item.photoFilename });

/**
 * The name a family sees: "Photo 423", the number of the camera's frame (the last digits of the
 * camera's file name, as the studio's lab finds it), never the file name itself; "Photo {id}" when
 * the name has no digits. Staff keep `photoLabel`.
 */
export function familyPhotoLabel(photo: PhotoNames): string {
  const digits = photo.number || photo.originalNumber || familyPhotoNumber(photo);
  return `Photo ${digits ? String(Number(digits)) : (photo.id ?? '')}`.trim();
}

/** The digits `familyPhotoLabel` shows (the camera file name's last run of digits), or null: what a family's order answer carries instead of the name. */
export function familyPhotoNumber(photo: Pick<PhotoNames, 'originalName' | 'name'>): string | null {
  return /(\d+)\D*$/.exec(photo.originalName || photo.name || '')?.[1] ?? null;
}

/** An order line's photo as a family sees it. */
export const itemFamilyPhotoLabel = (item: Pick<OrderItem, 'photoId' | 'photoOriginalName' | 'photoName' | 'photoFilename' | 'photoNumber'>): string =>
  item.photoId === null && !item.photoOriginalName && !item.photoNumber && item.photoName
    ? item.photoName
    : familyPhotoLabel({ id: item.photoId, originalName: item.photoOriginalName, name: item.photoName, number: item.photoNumber });

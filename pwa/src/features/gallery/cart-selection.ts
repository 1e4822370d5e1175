/** The cart lines a parent adds from the photo dialog, in the school gallery and the family gallery alike. */
import type { GalleryPhoto as Photo } from '@contract/photos';
import { lineTotal } from '../../lib/cart';
import { randomId } from '../../lib/random-id';
import type { CartLine } from '../../lib/storage';
import { thumbnailUrl } from './api';
import { familyPhotoLabel } from '@contract/photo-names';
import type { Product } from './products';

export interface ProductSelection {
  product: Product;
  quantity: number;
}

export function cartLinesFor(
  photo: Photo,
  selections: readonly ProductSelection[],
  school: { id: number; name: string },
  child?: { name: string },
): CartLine[] {
  return selections.map(({ product, quantity }) => ({
    id: randomId(),
    photoId: photo.id,
    albumId: photo.albumId,
    photoName: familyPhotoLabel(photo),
    photoPreview: thumbnailUrl(photo.id),
    productType: product.id,
    productName: product.name,
    productDescription: product.description,
    unitPrice: product.price,
    quantity,
    totalPrice: lineTotal(product.price, quantity),
    schoolId: school.id,
    schoolName: school.name,
    ...(child ? { studentId: photo.studentId, studentName: child.name } : {}),
  }));
}

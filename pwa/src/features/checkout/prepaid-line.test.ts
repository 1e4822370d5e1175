/**
 * A package paid before picture day (docs/packages-and-coupons.md, "Ordering before picture day")
 * goes to the server as `{ packageId, studentId, photos: [], quantity, unitPrice, totalPrice }`,
 * in the order and in its quote alike; a filled package keeps its photos.
 */
import { describe, expect, it } from 'vitest';
import type { CartLine } from '../../lib/storage';
import { orderBody, quoteBody } from './api';

const prepaid: CartLine = {
  id: 'line-1',
  photoId: 0,
  albumId: 9,
  photoName: 'Kagiso Dube: photos to choose after picture day',
  photoPreview: '',
  productType: 'package:7',
  productName: 'Family Pack',
  productDescription: '1 x 15x20 Print, 1 x Digital Copy',
  unitPrice: 45,
  quantity: 1,
  totalPrice: 45,
  schoolId: 2,
  schoolName: 'Acacia Primary',
  studentId: 41,
  studentName: 'Kagiso Dube',
  package: { packageId: 7, contents: [{ productId: 10, name: '15x20 Print', quantity: 1 }, { productId: 12, name: 'Digital Copy', quantity: 1 }], photos: [] },
};
const details = { customerName: 'Mpho Dube', customerEmail: 'mpho@example.com', customerPhone: null, studentName: 'Kagiso Dube', notes: null };

describe('a prepaid package line', () => {
  it('is sent with its child and no photos, in the order and in the quote', () => {
    const line = { packageId: 7, packageName: 'Family Pack', studentId: 41, photos: [], quantity: 1, unitPrice: '45.00', totalPrice: '45.00' };
    expect(orderBody(2, [prepaid], details).items).toEqual([line]);
    expect(quoteBody(2, [prepaid], null).items).toEqual([line]);
  });

  it('leaves a filled package as it was', () => {
    const filled: CartLine = { ...prepaid, photoId: 501, package: { ...prepaid.package!, photos: [{ photoId: 501, albumId: 9, photoName: 'Photo 501' }] } };
    expect(orderBody(2, [filled], details).items).toEqual([{ packageId: 7, packageName: 'Family Pack', photos: [{ photoId: 501, albumId: 9 }], quantity: 1, unitPrice: '45.00', totalPrice: '45.00' }]);
  });
});

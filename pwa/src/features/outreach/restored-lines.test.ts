import { describe, expect, it } from 'vitest';
import type { RestoredCartLine } from '@contract/outreach';
import { restoredCartLines } from './restored-lines';
import type { CartLine } from '../../lib/storage';

const restored = (photoId: number, productType: string, quantity: number, student: string | null = null): RestoredCartLine => ({
  photoId,
  albumId: 3,
  photoName: `Photo ${photoId}`,
  photoPreview: `/api/images/${photoId}/thumbnail`,
  productType,
  productName: productType,
  productDescription: 'A print',
  unitPrice: 12.5,
  quantity,
  schoolId: 1,
  schoolName: 'Demo Primary School',
  studentId: student ? 9 : null,
  studentName: student,
});

describe('a restored cart', () => {
  it('becomes cart lines with fresh ids, totals and the child kept for the order', () => {
    const lines = restoredCartLines([restored(5, 'print_10x15', 3, 'Kagiso'), restored(6, 'digital', 1)], []);
    expect(lines).toHaveLength(2);
    expect(new Set(lines.map((line) => line.id)).size).toBe(2);
    expect(lines[0]).toMatchObject({ photoId: 5, productType: 'print_10x15', quantity: 3, unitPrice: 12.5, totalPrice: 37.5, schoolId: 1, studentId: 9, studentName: 'Kagiso' });
    expect(lines[1]).not.toHaveProperty('studentName');
  });

  it('adds nothing the cart on this device already holds', () => {
    const [held] = restoredCartLines([restored(5, 'print_10x15', 1)], []);
    const again = restoredCartLines([restored(5, 'print_10x15', 2), restored(5, 'digital', 1)], [held as CartLine]);
    expect(again.map((line) => `${line.photoId}:${line.productType}`)).toEqual(['5:digital']);
  });
});

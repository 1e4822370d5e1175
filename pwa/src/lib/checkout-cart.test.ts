import { describe, expect, it } from 'vitest';
import type { CartLine } from './storage';
import { groupBySchool, studentNamesOf } from './checkout-cart';

const line = (id: string, extra: Partial<CartLine> = {}): CartLine => ({
  id,
  photoId: 1,
  albumId: 1,
  photoName: 'IMG_0001.JPG',
  photoPreview: '/api/images/1/thumbnail',
  productType: 'digital',
  productName: 'Digital Copy',
  productDescription: '',
  unitPrice: 15,
  quantity: 1,
  totalPrice: 15,
  ...extra,
});

describe('one order per school', () => {
  it('groups lines by school in the order they were added; older lines join the current school', () => {
    const groups = groupBySchool(
      [
        line('a', { schoolId: 2, schoolName: 'Sunrise Academy' }),
        line('b'),
        line('c', { schoolId: 1, schoolName: 'Demo Primary' }),
        line('d', { schoolId: 2, schoolName: 'Sunrise Academy' }),
      ],
      { id: 1, name: 'Demo Primary' },
    );
    expect(groups.map((g) => [g.schoolId, g.schoolName, g.lines.map((l) => l.id)])).toEqual([
      [2, 'Sunrise Academy', ['a', 'd']],
      [1, 'Demo Primary', ['b', 'c']],
    ]);
    expect(groupBySchool([], { id: 1, name: 'X' })).toEqual([]);
  });

  it("prefills the order's student name with the children the lines are for", () => {
    expect(studentNamesOf([line('a', { studentName: 'Kagiso Dube' }), line('b', { studentName: 'Neo Dube' }), line('c', { studentName: 'Kagiso Dube' }), line('d')])).toBe(
      'Kagiso Dube, Neo Dube',
    );
    expect(studentNamesOf([line('a')])).toBe('');
  });
});

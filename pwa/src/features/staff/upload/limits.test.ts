import { describe, expect, it } from 'vitest';
import { addToSelection, isAcceptedImage, sizeLimitMessage, uploadLimitMessage, uploadProgress } from './limits';

const MB = 1024 * 1024;
const file = (name: string, size = MB, type = 'image/jpeg') => ({ name, size, type });
const many = (n: number, prefix = 'IMG') => Array.from({ length: n }, (_, i) => file(`${prefix}_${i}.JPG`));

describe('upload selection limits', () => {
  it('keeps files up to 10 MB and lists the ones over it', () => {
    const result = addToSelection([], [file('a.jpg', 10 * MB), file('big.jpg', 10 * MB + 1), file('huge.png', 30 * MB, 'image/png'), file('b.gif', 5, 'image/gif')]);
    expect(result.selection.map((f) => f.name)).toEqual(['a.jpg', 'b.gif']);
    expect(result.notices).toEqual([
      { title: 'File Size Limit Exceeded', description: '2 file(s) exceed the 10MB limit and cannot be uploaded: big.jpg, huge.png' },
    ]);
  });

  it('refuses a selection that would pass 500 photos with the spec message', () => {
    const result = addToSelection(many(495), many(6, 'NEW'));
    expect(result.selection).toHaveLength(495);
    expect(result.notices).toEqual([
      { title: 'Upload Limit Exceeded', description: 'Cannot add more than 500 photos at once. Currently have 495 photos, trying to add 6 more.' },
    ]);
    expect(addToSelection(many(495), many(5, 'NEW')).selection).toHaveLength(500);
  });

  it('filters dropped files to images and rejects a selection with none', () => {
    expect(addToSelection([], [file('a.jpg'), file('notes.pdf', 5, 'application/pdf')]).selection.map((f) => f.name)).toEqual(['a.jpg']);
    expect(addToSelection([], [file('notes.pdf', 5, 'application/pdf')]).notices).toEqual([
      { title: 'Invalid Files', description: 'Please select image files only (JPG, PNG, GIF)' },
    ]);
    expect(isAcceptedImage({ name: 'IMG_1.JPG', type: '' })).toBe(true);
    expect(isAcceptedImage({ name: 'clip.mov', type: '' })).toBe(false);
  });

  it('formats the messages', () => {
    expect(uploadLimitMessage(0, 501)).toBe('Cannot add more than 500 photos at once. Currently have 0 photos, trying to add 501 more.');
    expect(sizeLimitMessage([{ name: 'x.jpg' }])).toBe('1 file(s) exceed the 10MB limit and cannot be uploaded: x.jpg');
  });

  it('moves progress from 5 to 95 by files done', () => {
    expect([uploadProgress(0, 25), uploadProgress(10, 25), uploadProgress(25, 25), uploadProgress(0, 0)]).toEqual([5, 41, 95, 0]);
  });
});

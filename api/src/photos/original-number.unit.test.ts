import { describe, expect, it } from 'vitest';
import { originalNumberOf } from './original-number';

describe('originalNumberOf', () => {
  it('takes the last run of digits of the base name', () => {
    expect(originalNumberOf('IMG_0423.JPG')).toBe('0423');
    expect(originalNumberOf('DSC2024_0017.jpeg')).toBe('0017');
    expect(originalNumberOf('class-3b-12.png')).toBe('12');
  });
  it('ignores digits in the extension and gives null without digits', () => {
    expect(originalNumberOf('portrait.mp4')).toBeNull();
    expect(originalNumberOf('portrait')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { familyPhotoNumber, itemFamilyPhotoLabel } from './photo-names';
import {
  MSG,
  albumUpdateSchema,
  customerRegisterSchema,
  decimalToThebe,
  formatPula,
  FALLBACK_PRODUCTS,
  isOrderingClosed,
  priceListInputSchema,
  resetPasswordFormSchema,
  schoolCreateSchema,
  thebeToDecimal,
} from './index';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('money', () => {
  it('converts between thebe and decimal strings', () => {
    expect(thebeToDecimal(2500)).toBe('25.00');
    expect(thebeToDecimal(5)).toBe('0.05');
    expect(thebeToDecimal(12550)).toBe('125.50');
    expect(decimalToThebe('25')).toBe(2500);
    expect(decimalToThebe('25.5')).toBe(2550);
    expect(decimalToThebe('0.05')).toBe(5);
    expect(decimalToThebe(40)).toBe(4000);
    expect(decimalToThebe('1.005')).toBeNull();
    expect(decimalToThebe('-1')).toBeNull();
    expect(decimalToThebe('abc')).toBeNull();
    expect(formatPula('25.5')).toBe('P25.50');
    expect(formatPula(1500, 'thebe')).toBe('P15.00');
    expect(() => thebeToDecimal(1.5)).toThrow();
  });
});

describe('business rules', () => {
  it('gives every built-in product its kind: only the digital copy is a download', () => {
    expect(FALLBACK_PRODUCTS.filter((product) => product.kind === 'digital').map((product) => product.id)).toEqual(['digital']);
    expect(FALLBACK_PRODUCTS.find((product) => product.id === 'print_10x15')).toMatchObject({ kind: 'print', size: '10x15 cm' });
  });
  it('closes ordering after the closing day', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    expect(isOrderingClosed('2026-03-09', now)).toBe(true);
    expect(isOrderingClosed('2026-03-10', now)).toBe(false);
    expect(isOrderingClosed(null, now)).toBe(false);
  });
});

describe('validation texts are the spec words', () => {
  it('school form', () => {
    expect(firstMessage(schoolCreateSchema.safeParse({}))).toBe(MSG.schoolNameRequired);
    const base = { name: 'A', slug: 'a', password: 'secret1', contactEmail: 'a@b.co' };
    expect(firstMessage(schoolCreateSchema.safeParse({ ...base, slug: ' ' }))).toBe(MSG.schoolSlugRequired);
    expect(firstMessage(schoolCreateSchema.safeParse({ ...base, password: '12345' }))).toBe(MSG.passwordMin);
    expect(firstMessage(schoolCreateSchema.safeParse({ ...base, contactEmail: 'nope' }))).toBe(MSG.validEmail);
    const ok = schoolCreateSchema.parse({ ...base, closingDate: '', priceListId: '', contactPhone: '' });
    expect(ok).toMatchObject({ closingDate: null, priceListId: null, contactPhone: null });
    expect(schoolCreateSchema.parse({ ...base, priceListId: '3', closingDate: '2026-12-01' })).toMatchObject({ priceListId: 3, closingDate: '2026-12-01' });
  });
  it('customer register and reset forms', () => {
    const good = { firstName: 'A', lastName: 'B', email: 'a@b.co', password: 'secret1', confirmPassword: 'secret1' };
    expect(customerRegisterSchema.safeParse(good).success).toBe(true);
    const mismatch = customerRegisterSchema.safeParse({ ...good, confirmPassword: 'other1' });
    expect(firstMessage(mismatch)).toBe(MSG.passwordsDontMatch);
    expect(mismatch.error?.issues[0]?.path).toEqual(['confirmPassword']);
    expect(firstMessage(resetPasswordFormSchema.safeParse({ newPassword: 'secret1', confirmPassword: '' }))).toBe(MSG.confirmPasswordRequired);
  });
  it('price list rows without name or price are dropped', () => {
    expect(firstMessage(priceListInputSchema.safeParse({ name: '' }))).toBe(MSG.priceListNameRequired);
    expect(firstMessage(priceListInputSchema.safeParse({ name: 'Basic', products: [{ name: 'Print', price: '' }] }))).toBe(
      MSG.priceListProductsRequired,
    );
    const parsed = priceListInputSchema.parse({
      name: 'Basic',
      products: [{ name: 'Print', price: '25' }, { name: '', price: '3' }, { name: 'Digital', price: '15.5', description: 'HD' }],
    });
    expect(parsed.products.map((p) => [p.name, p.priceThebe])).toEqual([
      ['Print', 2500],
      ['Digital', 1550],
    ]);
  });
  it('clearing a class password removes protection; omitting it keeps it', () => {
    expect(albumUpdateSchema.parse({ name: 'Grade 1', password: '' })).toEqual({ name: 'Grade 1', password: null });
    expect(albumUpdateSchema.parse({ name: 'Grade 1' })).toEqual({ name: 'Grade 1', password: undefined });
    expect(albumUpdateSchema.parse({ password: 'abc' })).toEqual({ password: 'abc' });
  });
});

describe('the photo name a family sees on an order line', () => {
  const line = { photoId: 7, photoOriginalName: null, photoName: null, photoFilename: 'abc.jpg' };
  it('is "Photo 423" from the frame number alone, without the camera file name', () => {
    expect(itemFamilyPhotoLabel({ ...line, photoNumber: '0423' })).toBe('Photo 423');
    expect(familyPhotoNumber({ originalName: 'IMG_0423.JPG' })).toBe('0423');
    expect(familyPhotoNumber({ originalName: 'Portrait.jpg' })).toBeNull();
  });
  it('keeps the removal text of an erased line, and the id when there is no number', () => {
    expect(itemFamilyPhotoLabel({ ...line, photoId: null, photoName: "photo removed at the family's request", photoNumber: null })).toBe("photo removed at the family's request");
    expect(itemFamilyPhotoLabel({ ...line, photoNumber: null })).toBe('Photo 7');
  });
});

/**
 * Packages in the gallery (docs/packages-and-coupons.md, "Packages", "Filling a package"): the card
 * says what a package holds and what it saves, the dialog fills it from thumbnails with one photo for
 * all or one per print and download, and the server's rules (poses limit, one child) stop a package
 * the server would refuse.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PACKAGE_MSG } from '@contract/messages';
import { PACKAGE_PICKER_MSG } from '@contract/package-picker';
import type { PriceList } from '@contract/price-lists';
import type { GalleryPhoto } from '@contract/photos';
import { PackageCards } from './package-cards';
import { PackageDialog } from './package-dialog';
import { orderablePackages, packageCartLine, packageProducts, packagesFor, stalePackageLines } from './packages';

const priceList: PriceList = {
  id: 1,
  name: 'Season 2026',
  description: '',
  createdAt: '2026-11-01T08:00:00.000Z',
  siblingDiscount: { percent: 20, maxChildren: 3 },
  items: [
    { id: 10, productType: '15x20 Print', description: '', price: '60.00', exampleImage: null, kind: 'print', size: '15x20 cm' },
    { id: 11, productType: '10x15 Print', description: '', price: '40.00', exampleImage: null, kind: 'print', size: '10x15 cm' },
    { id: 12, productType: 'Digital Copy', description: '', price: '65.00', exampleImage: null, kind: 'digital', size: null },
  ],
  packages: [
    {
      id: 7,
      name: 'Family Pack',
      description: 'Prints for the grandparents',
      price: '160.00',
      items: [
        { productId: 10, quantity: 1 },
        { productId: 11, quantity: 2 },
        { productId: 12, quantity: 1 },
      ],
      maxPoses: 2,
      itemsValue: '205.00',
      savings: '45.00',
    },
    { id: 8, name: 'Download Duo', description: '', price: '100.00', items: [{ productId: 12, quantity: 2 }], maxPoses: null, itemsValue: '130.00', savings: '30.00' },
  ],
};

const photo = (id: number, studentId: number | null, studentName: string | null = null): GalleryPhoto => ({
  id,
  filename: `${id}.jpg`,
  originalName: `IMG_0${id}.JPG`,
  originalNumber: `0${id}`,
  fileSize: 1,
  albumId: 3,
  studentName,
  studentId,
  thumbnailWidth: 400,
  thumbnailHeight: 300,
  createdAt: '',
});
const neo = [photo(421, 5, 'Neo'), photo(422, 5, 'Neo'), photo(423, 5, 'Neo')];
const lesego = photo(430, 6, 'Lesego');

describe('package cards', () => {
  it('list what each package holds, its price and what it saves, and open the one chosen', async () => {
    const onChoose = vi.fn();
    render(<PackageCards packages={packagesFor([priceList])} onChoose={onChoose} />);
    const card = screen.getByRole('listitem', { name: 'Family Pack' });
    expect(card.textContent).toContain('Includes: 1 x 15x20 Print, 2 x 10x15 Print, 1 x Digital Copy');
    expect(card.textContent).toContain('P160.00');
    expect(card.textContent).toContain(PACKAGE_MSG.save('P45.00'));
    expect(card.textContent).toContain(PACKAGE_MSG.posesLimit(2));
    await userEvent.click(within(card).getByRole('button', { name: `${PACKAGE_MSG.choosePhotos}: Family Pack` }));
    expect(onChoose).toHaveBeenCalledWith(expect.objectContaining({ id: 7, price: 160, savingsThebe: 4500 }));
  });

  it('after the closing date offer only packages without prints', () => {
    expect(orderablePackages(packagesFor([priceList]), true).map((pkg) => pkg.name)).toEqual(['Download Duo']);
    expect(packageProducts([priceList]).map((product) => [product.id, product.kind])).toEqual([
      ['package:7', 'print'],
      ['package:8', 'digital'],
    ]);
  });
});

describe('filling a package', () => {
  const [familyPack] = packagesFor([priceList]);
  if (!familyPack) throw new Error('fixture');

  /** Taps a slot ("10x15 Print (2 of 2)"), then the thumbnail of the photo for it. */
  const pick = async (slot: string | null, photoLabel: string) => {
    if (slot) await userEvent.click(screen.getByRole('button', { name: new RegExp(`^${slot.replace(/[()]/g, '\\$&')}:`) }));
    await userEvent.click(within(screen.getByRole('radiogroup')).getByRole('radio', { name: photoLabel }));
  };

  it('shows thumbnails, not a drop-down, and takes a photo for each print and download', async () => {
    const onAdd = vi.fn();
    render(<PackageDialog pkg={familyPack} photos={[...neo, lesego]} onClose={() => undefined} onAdd={onAdd} />);
    expect(screen.queryByRole('combobox')).toBeNull();
    const thumbnails = within(screen.getByRole('radiogroup', { name: PACKAGE_PICKER_MSG.pickFor('15x20 Print') })).getAllByRole('radio');
    expect(thumbnails.map((radio) => [radio.getAttribute('aria-label'), radio.querySelector('img')?.getAttribute('src')])).toEqual([
      ['Photo 421 · Neo', '/api/images/421/thumbnail?size=small'],
      ['Photo 422 · Neo', '/api/images/422/thumbnail?size=small'],
      ['Photo 423 · Neo', '/api/images/423/thumbnail?size=small'],
      ['Photo 430 · Lesego', '/api/images/430/thumbnail?size=small'],
    ]);
    // One slot per piece: 1 x 15x20, 2 x 10x15 (two photos), 1 x Digital Copy.
    const slots = within(screen.getByRole('list', { name: PACKAGE_PICKER_MSG.slotsLabel })).getAllByRole('button');
    expect(slots.map((slot) => slot.getAttribute('aria-label'))).toEqual([
      PACKAGE_PICKER_MSG.slot('15x20 Print', null),
      PACKAGE_PICKER_MSG.slot('10x15 Print (1 of 2)', null),
      PACKAGE_PICKER_MSG.slot('10x15 Print (2 of 2)', null),
      PACKAGE_PICKER_MSG.slot('Digital Copy', null),
    ]);
    const add = screen.getByRole('button', { name: PACKAGE_MSG.addPackage });
    expect((add as HTMLButtonElement).disabled).toBe(true);

    // Each tap fills the slot and moves on to the next empty one.
    await pick(null, 'Photo 421 · Neo');
    await pick(null, 'Photo 422 · Neo');
    await pick(null, 'Photo 423 · Neo');
    expect(screen.getByRole('radiogroup').getAttribute('aria-label')).toBe(PACKAGE_PICKER_MSG.pickFor('Digital Copy'));
    await pick(null, 'Photo 421 · Neo');
    // Three different photos in a package of at most two poses.
    expect(screen.getByRole('alert').textContent).toBe(PACKAGE_MSG.tooManyPoses(2));
    expect((add as HTMLButtonElement).disabled).toBe(true);

    await pick('10x15 Print (2 of 2)', 'Photo 430 · Lesego');
    expect(screen.getByRole('alert').textContent).toBe(PACKAGE_MSG.tooManyPoses(2));
    await pick('10x15 Print (2 of 2)', 'Photo 421 · Neo');
    await pick('10x15 Print (1 of 2)', 'Photo 430 · Lesego');
    await pick('15x20 Print', 'Photo 430 · Lesego');
    await pick('Digital Copy', 'Photo 430 · Lesego');
    // Two poses now, but of two children.
    expect(screen.getByRole('alert').textContent).toBe(PACKAGE_MSG.oneChild);
    expect(screen.getByText(PACKAGE_PICKER_MSG.ruleChild)).toBeTruthy();

    await pick('10x15 Print (1 of 2)', 'Photo 422 · Neo');
    await pick('15x20 Print', 'Photo 421 · Neo');
    await pick('Digital Copy', 'Photo 422 · Neo');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: PACKAGE_PICKER_MSG.slot('10x15 Print (2 of 2)', 'Photo 421 · Neo') })).toBeTruthy();
    await userEvent.click(add);
    // The two 10x15 prints hold two different photos.
    expect(onAdd).toHaveBeenCalledWith(familyPack, [neo[0], neo[1], neo[0], neo[1]]);

    const line = packageCartLine(familyPack, [neo[0], neo[1], neo[0], neo[1]] as GalleryPhoto[], { id: 1, name: 'Acacia Primary' });
    expect(line.package?.photos.map((chosen) => chosen.photoId)).toEqual([421, 422, 421, 422]);
    expect(line.photoName).toBe('Photo 421, Photo 422');
  });

  it('"Use one photo for all" asks for one photo, and the cart line carries it', async () => {
    const onAdd = vi.fn();
    render(<PackageDialog pkg={familyPack} photos={neo} onClose={() => undefined} onAdd={onAdd} />);
    await userEvent.click(screen.getByRole('checkbox', { name: PACKAGE_MSG.onePhotoForAll }));
    expect(within(screen.getByRole('list', { name: PACKAGE_PICKER_MSG.slotsLabel })).getAllByRole('button')).toHaveLength(1);
    await pick(null, 'Photo 423 · Neo');
    expect(within(screen.getByRole('radiogroup', { name: PACKAGE_PICKER_MSG.pickFor(PACKAGE_MSG.photoForAll) })).getByRole('radio', { checked: true }).getAttribute('aria-label')).toBe('Photo 423 · Neo');
    await userEvent.click(screen.getByRole('button', { name: PACKAGE_MSG.addPackage }));
    expect(onAdd).toHaveBeenCalledWith(familyPack, [neo[2]]);

    const line = packageCartLine(familyPack, [neo[2] as GalleryPhoto], { id: 1, name: 'Acacia Primary' }, { name: 'Neo' });
    expect(line).toMatchObject({ productType: 'package:7', productName: 'Family Pack', unitPrice: 160, quantity: 1, totalPrice: 160, studentId: 5, photoName: 'Photo 423' });
    expect(line.package).toEqual({ packageId: 7, contents: familyPack.contents, photos: [{ photoId: 423, albumId: 3, photoName: 'Photo 423' }] });
  });

  it('keeps a cart line filled per piece, or per content row, and drops one that fits the contents no more', () => {
    const cartLine = (count: number) => packageCartLine(familyPack, neo.slice(0, 1).concat(Array.from({ length: count - 1 }, () => neo[1] as GalleryPhoto)), { id: 1, name: 'Acacia Primary' });
    const lines = [cartLine(1), cartLine(3), cartLine(4)];
    expect(() => cartLine(2)).toThrow(PACKAGE_MSG.photosCount);
    // The list now sells the Family Pack as 1 x 15x20 and 3 x 10x15: four pieces, two rows.
    const changed: PriceList = { ...priceList, packages: [{ ...priceList.packages[0]!, items: [{ productId: 10, quantity: 1 }, { productId: 11, quantity: 3 }] }] };
    expect(stalePackageLines(lines, [changed])).toEqual([lines[1]!.id]);
  });

  it('says so when there are no photos to fill it with', () => {
    render(<PackageDialog pkg={familyPack} photos={[]} onClose={() => undefined} onAdd={vi.fn()} />);
    expect(screen.getByRole('status').textContent).toBe(PACKAGE_MSG.noPhotos);
    expect((screen.getByRole('button', { name: PACKAGE_MSG.addPackage }) as HTMLButtonElement).disabled).toBe(true);
  });
});

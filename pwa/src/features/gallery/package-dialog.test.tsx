/**
 * Packages in the gallery (docs/packages-and-coupons.md, "Packages", "Filling a package"): the card
 * says what a package holds and what it saves, the dialog fills it with one photo for all or one per
 * item, and the server's rules (poses limit, one child) stop a package the server would refuse.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PACKAGE_MSG } from '@contract/messages';
import type { PriceList } from '@contract/price-lists';
import type { GalleryPhoto } from '@contract/photos';
import { PackageCards } from './package-cards';
import { PackageDialog } from './package-dialog';
import { orderablePackages, packageCartLine, packageProducts, packagesFor } from './packages';

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

  it('takes one photo per item, refuses more poses than allowed and photos of two children, then adds it', async () => {
    const onAdd = vi.fn();
    render(<PackageDialog pkg={familyPack} photos={[...neo, lesego]} onClose={() => undefined} onAdd={onAdd} />);
    const add = screen.getByRole('button', { name: PACKAGE_MSG.addPackage });
    expect((add as HTMLButtonElement).disabled).toBe(true);

    await userEvent.selectOptions(screen.getByLabelText(PACKAGE_MSG.photoFor('1 x 15x20 Print')), '421');
    await userEvent.selectOptions(screen.getByLabelText(PACKAGE_MSG.photoFor('2 x 10x15 Print')), '422');
    await userEvent.selectOptions(screen.getByLabelText(PACKAGE_MSG.photoFor('1 x Digital Copy')), '423');
    // Three different photos in a package of at most two poses.
    expect(screen.getByRole('alert').textContent).toBe(PACKAGE_MSG.tooManyPoses(2));
    expect((add as HTMLButtonElement).disabled).toBe(true);

    await userEvent.selectOptions(screen.getByLabelText(PACKAGE_MSG.photoFor('1 x Digital Copy')), '430');
    expect(screen.getByRole('alert').textContent).toBe(PACKAGE_MSG.tooManyPoses(2));
    await userEvent.selectOptions(screen.getByLabelText(PACKAGE_MSG.photoFor('2 x 10x15 Print')), '421');
    // Two poses now, but of two children.
    expect(screen.getByRole('alert').textContent).toBe(PACKAGE_MSG.oneChild);

    await userEvent.selectOptions(screen.getByLabelText(PACKAGE_MSG.photoFor('1 x Digital Copy')), '422');
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(add);
    expect(onAdd).toHaveBeenCalledWith(familyPack, [neo[0], neo[0], neo[1]]);
  });

  it('"Use one photo for all" asks for one photo, and the cart line carries it', async () => {
    const onAdd = vi.fn();
    render(<PackageDialog pkg={familyPack} photos={neo} onClose={() => undefined} onAdd={onAdd} />);
    await userEvent.click(screen.getByRole('checkbox', { name: PACKAGE_MSG.onePhotoForAll }));
    expect(screen.queryByLabelText(PACKAGE_MSG.photoFor('1 x 15x20 Print'))).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText(PACKAGE_MSG.photoForAll), '423');
    await userEvent.click(screen.getByRole('button', { name: PACKAGE_MSG.addPackage }));
    expect(onAdd).toHaveBeenCalledWith(familyPack, [neo[2]]);

    const line = packageCartLine(familyPack, [neo[2] as GalleryPhoto], { id: 1, name: 'Acacia Primary' }, { name: 'Neo' });
    expect(line).toMatchObject({ productType: 'package:7', productName: 'Family Pack', unitPrice: 160, quantity: 1, totalPrice: 160, studentId: 5, photoName: 'Photo 423' });
    expect(line.package).toEqual({ packageId: 7, contents: familyPack.contents, photos: [{ photoId: 423, albumId: 3, photoName: 'Photo 423' }] });
  });

  it('says so when there are no photos to fill it with', () => {
    render(<PackageDialog pkg={familyPack} photos={[]} onClose={() => undefined} onAdd={vi.fn()} />);
    expect(screen.getByRole('status').textContent).toBe(PACKAGE_MSG.noPhotos);
    expect((screen.getByRole('button', { name: PACKAGE_MSG.addPackage }) as HTMLButtonElement).disabled).toBe(true);
  });
});

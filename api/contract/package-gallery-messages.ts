/**
 * Packages: what the gallery's first download says about them (docs/architecture.md, "One contract,
 * shared"): the package cards, the cart's package lines, "added" and the checks of a filled package
 * (features/gallery/packages.ts). A parent's first visit carries this file, and not
 * package-messages.ts, whose `PACKAGE_MSG` (the price list's rules, the fill dialog) takes these
 * words from here (docs/performance.md, "Texts on the first screens").
 */
const save = (amount: string) => `Save ${amount}`;
const includes = 'Includes';
const choosePhotos = 'Choose photos';
const posesLimit = (count: number) => (count === 1 ? 'Choose 1 photo for this package' : `Choose up to ${count} different photos`);
const photosCount = 'Choose one photo for the whole package, or one for each print and download in it';
const packagesTitle = 'Packages';
const packagesIntro = 'Several prints and downloads together, for less than single products.';
const contentsItem = (quantity: number, name: string) => `${quantity} x ${name}`;
const added = (name: string) => `${name} was added to your cart`;
const packagePhotos = (photos: string) => `Photos: ${photos}`;
const tooManyPoses = (count: number) => `This package can be filled with at most ${count} different ${count === 1 ? 'photo' : 'photos'}`;
const oneChild = "A package's photos must all be of one child";

export const PACKAGE_GALLERY_MSG = { save, includes, choosePhotos, posesLimit, photosCount, tooManyPoses, oneChild, packagesTitle, packagesIntro, contentsItem, added, packagePhotos } as const;
export { save, includes, choosePhotos, posesLimit, photosCount, tooManyPoses, oneChild, packagesTitle, packagesIntro, contentsItem, added, packagePhotos };

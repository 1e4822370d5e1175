import { z } from 'zod';
import { id } from './fields';
import { PACKAGE_PHOTOS_MAX } from './package-filling';
import { PACKAGE_MSG } from './package-messages';

const PHOTO_ID = 'Each package photo needs a photo id';

/**
 * Ordering before picture day (docs/prepaid.md): a family holding a child by code pays for a
 * package before the child has photos (a package line with `studentId` and `photos: []`), chooses
 * the photos once they are released, and the studio fills what nobody chose at the closing date.
 * The texts families and staff read, and the shapes the order answers add to each package line.
 */

/** Who chose a package line's photos: the family (at checkout or later), or the studio at the closing date. */
export const POSES_CHOSEN_BY = ['family', 'studio'] as const;
export type PosesChosenBy = (typeof POSES_CHOSEN_BY)[number];

/**
 * What every package line of an order answer carries besides its price (`orderPackageSchema`):
 * - `photosChosen`: false until the line has photos (a prepaid line before anyone chose);
 * - `posesChosenBy`: 'family' (chosen at checkout or with the choose call), 'studio' (the default
 *   fill at the closing date), null while nobody chose;
 * - `posesDue`: the school's closing date (YYYY-MM-DD, Botswana day, inclusive) for a line still to
 *   be chosen or chosen by the family (it may change its choice until then), else null;
 * - `prepaid`: the line was ordered without photos (before picture day);
 * - `noPhotoAtClosing`: the closing date came and the child had no released photo: the line is
 *   flagged to staff for a retake or a refund, never filled with someone else's photo.
 */
export const prepaidPackageFields = {
  photosChosen: z.boolean(),
  posesChosenBy: z.enum(POSES_CHOSEN_BY).nullable(),
  posesDue: z.string().nullable(),
  prepaid: z.boolean(),
  noPhotoAtClosing: z.boolean(),
};

/**
 * `PUT /api/orders/{id}/packages/{packageLineId}/photos`: the photos of a prepaid package line
 * (`packageLineId` is the line's `packages[].id`), in the order of the package's contents, by the
 * rules of filling a package at checkout (docs/packages-and-coupons.md, "Filling a package"): one
 * for all, one per content row, or one per piece; no more different photos than its poses. Each
 * entry is a photo id (or `{ photoId }`). Answer: the updated order (`orderSchema`).
 */
export const packagePhotosChoiceSchema = z.object({
  photos: z
    .array(
      z.union([id(PHOTO_ID), z.object({ photoId: id(PHOTO_ID) }).transform((photo) => photo.photoId)]),
      { error: PACKAGE_MSG.photosCount },
    )
    .min(1, PACKAGE_MSG.photosCount)
    .max(PACKAGE_PHOTOS_MAX, PACKAGE_MSG.photosCount),
});
export type PackagePhotosChoice = z.output<typeof packagePhotosChoiceSchema>;

/** The texts of ordering before picture day: the gallery, the cart, My Orders, the server's answers, staff screens and the CSV. */
export const PREPAID_MSG = {
  /** The gallery of a child without released photos. */
  title: 'Order before picture day',
  intro: (childName: string) =>
    `${childName}'s photos are not online yet. Order a package now and choose the photos once they are: what nobody chooses by the closing date, the studio chooses for you.`,
  orderPackage: 'Order this package',
  added: (name: string) => `${name} was added to your cart. You choose its photos after picture day.`,
  /** A line of the cart, the confirmation, My Orders and the e-mails, before the photos are chosen. */
  photosLater: 'Photos to choose after picture day',
  chooseBy: (date: string) => `Choose the photos by ${date}`,
  choosePhotos: 'Choose photos',
  changePhotos: 'Change photos',
  chosenByFamily: 'Photos chosen by you',
  chosenByStudio: 'Photos chosen by the studio',
  /** Staff screens and the CSV. */
  staffWaiting: 'Prepaid: photos to choose after picture day',
  staffChosenByFamily: 'Prepaid: photos chosen by family',
  staffChosenByStudio: 'Prepaid: photos chosen by studio',
  noPhotoAtClosing: 'No photo of this child at the closing date: arrange a retake or refund',
  saved: 'Your photos are chosen. You can change them until the closing date.',
  /** Server answers. */
  needsChild: 'A package ordered before picture day needs the child it is for',
  childNotHeld: 'Enter this child\'s code to order for them',
  schoolWithoutCodes: 'Ordering before picture day needs the child\'s code from the school\'s flyer; this school does not use codes',
  photosWithChild: "A package's photos must all be of the child it is for",
  notPrepaidLine: 'This package line was not ordered before picture day',
  lineNotFound: 'Package line not found',
  notPaid: 'Photos can be chosen once the order is paid',
  orderCancelled: 'This order was cancelled',
  photosNotReleased: 'The photos of this child are not online yet. You will get a message when they are.',
  photoNotOfChild: 'Choose photos of this child that are online',
  choosingClosed: (date: string) => `The closing date (${date}) has passed: the photos of this package can no longer be changed`,
  inBatch: 'This package has gone to the lab: its photos can no longer be changed',
  defaultPhotoNotOfChild: 'The default photo must be one of this child\'s photos',
  /** The "photos are online" message, to a family with a prepaid package for the child (its one "photos are online" message). */
  onlineSubject: (childName: string) => `${childName}'s photos are online: choose the photos of your package`,
  onlineChoose: (childName: string, date: string | null) =>
    date
      ? `${childName}'s photos are online. You ordered a package before picture day: choose its photos by ${date}. If you do not, the studio chooses for you.`
      : `${childName}'s photos are online. You ordered a package before picture day: choose its photos.`,
  onlineChooseLink: 'Choose the photos',
  onlineSms: (shop: string, childName: string, date: string | null, link: string) => [
    `${shop}: ${childName}'s photos are online. Choose the photos of your package${date ? ` by ${date}` : ''}: ${link}`,
    `${shop}: photos online. Choose your package's photos${date ? ` by ${date}` : ''}: ${link}`,
    `Choose your package's photos: ${link}`,
  ],
  /** The message after the studio filled a package (e-mail subject and body, SMS). */
  studioFilledSubject: (shop: string) => `${shop}: we chose the photos of your package`,
  studioFilled: (childName: string, packageName: string) =>
    `The closing date has passed and no photos were chosen for ${packageName} (${childName}), so the studio chose them for you. Your package goes to the lab with them.`,
  studioFilledLink: 'See your order',
  studioFilledSms: (shop: string, childName: string, link: string) => [
    `${shop}: the closing date passed, so we chose the photos of ${childName}'s package. Your order: ${link}`,
    `${shop}: we chose the photos of your package. Your order: ${link}`,
    `We chose your package's photos: ${link}`,
  ],
  /** Reports. */
  waitingTitle: 'Packages waiting for photos',
  waitingIntro: 'Prepaid packages whose photos nobody has chosen yet, per class.',
  prepaidRevenue: 'Prepaid (ordered before photos)',
} as const;

/**
 * How staff screens and the order CSV name a package line ordered before picture day (null for a
 * line ordered with its photos): waiting for photos, chosen by the family or by the studio, or
 * flagged at the closing date for a retake or a refund.
 */
export function prepaidStaffLabel(pkg: { prepaid: boolean; photosChosen: boolean; posesChosenBy: PosesChosenBy | null; noPhotoAtClosing: boolean }): string | null {
  if (!pkg.prepaid) return null;
  if (pkg.noPhotoAtClosing) return PREPAID_MSG.noPhotoAtClosing;
  if (!pkg.photosChosen) return PREPAID_MSG.staffWaiting;
  return pkg.posesChosenBy === 'studio' ? PREPAID_MSG.staffChosenByStudio : PREPAID_MSG.staffChosenByFamily;
}

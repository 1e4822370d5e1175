/**
 * The parents' screens for ordering before picture day (docs/packages-and-coupons.md, "Ordering
 * before picture day"): the offer on a child's tab while the child has no photos online, the cart
 * line of a package whose photos are chosen later, and choosing them on My Orders and the order's
 * confirmation. A file of its own: only the lazily loaded prepaid screens and the cart use it.
 */
export const PREPAID_SCREENS_MSG = {
  /** The child's tab before photos exist. */
  offerTitle: 'Order before picture day',
  offerIntro: (child: string) =>
    `Pay for a package now: once ${child}'s photos are online you choose which ones go in it. If you do not choose by the closing date, the studio chooses for you.`,
  offerButton: 'Order this package',
  offerAdded: (name: string, child: string) => `${name} for ${child} was added to your cart. Choose the photos after picture day.`,
  /** Already in the cart for this child. */
  inCart: 'In your cart',
  /** The cart line and the order's package line while it has no photos. */
  photosLater: 'Photos to choose after picture day',
  cartLine: (child: string) => `${child}: photos to choose after picture day`,
  /** A package line of a placed order. */
  chooseAction: 'Choose your photos',
  changeAction: 'Change your photos',
  chooseUntil: (date: string) => `You can choose or change the photos until ${date}.`,
  chosenByFamily: 'Photos chosen by you',
  chosenByStudio: 'The studio chose the photos, as nobody chose them by the closing date.',
  waitingForPhotos: 'You can choose the photos once they are online.',
  /** The closing date came with no photo of the child (absent on picture day): staff arrange a retake or a refund. */
  noPhotoAtClosing: (child: string) => `There is no photo of ${child} from picture day. The studio will contact you about a retake or a refund.`,
  /** The fill dialog opened from an order. */
  saveChoice: 'Save photos',
  saving: 'Saving...',
  saved: 'Your photos were saved',
  savedText: (name: string) => `The photos for ${name} are saved. You can change them until the closing date.`,
  saveFailed: 'The photos could not be saved',
  photosFailed: 'We could not load the photos. Check your connection and try again.',
  packageGone: 'This package is no longer in the school\'s price list: please contact the studio to choose its photos.',
} as const;

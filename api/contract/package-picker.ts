/**
 * The gallery's package picker texts (docs/packages-and-coupons.md, "Filling a package"), apart
 * from package-filling.ts: only the lazily loaded dialog needs them.
 */
export const PACKAGE_PICKER_MSG = {
  /** A piece to fill: "10x15 Print (1 of 2)", or just its name when the row holds one. */
  piece: (name: string, index: number, of: number) => (of === 1 ? name : `${name} (${index} of ${of})`),
  slotsLabel: 'Photos chosen',
  /** A slot's button: what it is and the photo it holds. */
  slot: (slot: string, photo: string | null) => `${slot}: ${photo ?? 'no photo yet'}`,
  noPhotoYet: 'No photo yet',
  /** The thumbnails, named by the slot they fill. */
  pickFor: (slot: string) => `Photo for ${slot}`,
  howTo: 'Tap a print or download above, then tap the photo for it.',
  howToAll: 'Tap the photo for the whole package.',
  /** The package's rule beside its poses limit (PACKAGE_MSG.posesLimit), in the picker's words. */
  ruleChild: 'All the photos in one package must be of the same child (group photos count as one more child).',
} as const;

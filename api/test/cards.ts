import { generateCardPhoto, type CardPhotoOptions } from '../src/media/generate-card';
import { FLYER_LAYOUT } from '../src/students/flyers';

/** PDF points to millimetres: the flyer is laid out in points. */
const mm = (points: number) => (points * 25.4) / 72;

/** The printed flyer card: its QR code's size and place on the card, in millimetres. */
export const FLYER_CARD = {
  qrMm: mm(FLYER_LAYOUT.qrSize),
  cardMm: { width: mm(FLYER_LAYOUT.cardWidth), height: mm(FLYER_LAYOUT.cardHeight) },
  qrOffsetMm: { x: mm(FLYER_LAYOUT.padding), y: mm(FLYER_LAYOUT.padding) },
} as const;

/**
 * A child's flyer card as a photographer photographs it at the shoot (a 1600 x 1200 frame at
 * 1.6 m, turned and tilted a little unless told otherwise), for tests and journeys.
 */
export function flyerCardPhoto(text: string, seed: number, options: Partial<Omit<CardPhotoOptions, 'text' | 'seed' | keyof typeof FLYER_CARD>> = {}): Promise<Buffer> {
  return generateCardPhoto({ text, seed, width: 1600, height: 1200, distanceMm: 1600, frameMm: 1200, yaw: 20, pitch: 5, roll: -10, ...FLYER_CARD, ...options });
}

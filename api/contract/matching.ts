import { z } from 'zod';
import { CAPTURE_SEQ_MAX, UPLOAD_BATCH_SIZE } from './constants';
import { MATCHING_MSG } from './messages';

/**
 * Matching photos to children at the shoot. A photographer's upload is one session: the client
 * names it and numbers every file in the order it was shot (capture order), so the server can
 * order and match the whole session the same way however its batches were split, resent or
 * delayed.
 */


export const uploadSessionIdSchema = z
  .string({ error: MATCHING_MSG.badSession })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, MATCHING_MSG.badSession);

/** One file of a batch: the client's name and size find it among the uploaded parts. */
export const captureEntrySchema = z.object({
  name: z.string({ error: MATCHING_MSG.badCapture }).max(255, MATCHING_MSG.badCapture),
  size: z.number({ error: MATCHING_MSG.badCapture }).int(MATCHING_MSG.badCapture).min(0, MATCHING_MSG.badCapture),
  seq: z.number({ error: MATCHING_MSG.badCapture }).int(MATCHING_MSG.badCapture).min(0, MATCHING_MSG.badCapture).max(CAPTURE_SEQ_MAX, MATCHING_MSG.badCapture),
});

/** The `capture` form field of `POST /api/photos/upload-batch`, as JSON text. */
export const uploadCaptureSchema = z.object({
  sessionId: uploadSessionIdSchema,
  files: z.array(captureEntrySchema, { error: MATCHING_MSG.badCapture }).max(UPLOAD_BATCH_SIZE, MATCHING_MSG.badCapture),
});
export type UploadCapture = z.infer<typeof uploadCaptureSchema>;

export const CARD_STATUSES = ['known', 'unknown', 'other_class'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

export const MATCHED_BY = ['card', 'name', 'staff'] as const;
export type MatchedBy = (typeof MATCHED_BY)[number];

/** A card photo whose code could not be trusted for this class, told to the photographer. */
export const reportedCardSchema = z.object({
  photoId: z.number(),
  originalName: z.string(),
  status: z.enum(['unknown', 'other_class']),
  /** What the photographer is told, e.g. "card of Neo Kgosi (Class 2B, Demo Primary)". */
  message: z.string(),
});
export type ReportedCard = z.infer<typeof reportedCardSchema>;

/** Where a session's photos stand after the latest batch (the whole session, not only this batch). */
export const matchingSummarySchema = z.object({
  sessionId: z.string(),
  /** Photos of children in the session (card photos not counted). */
  photos: z.number(),
  cards: z.number(),
  byCard: z.number(),
  byName: z.number(),
  byStaff: z.number(),
  inTray: z.number(),
  reported: z.array(reportedCardSchema),
});
export type MatchingSummary = z.infer<typeof matchingSummarySchema>;

/** A card photo as the tray shows it, between the photos it explains. */
export const trayCardSchema = z.object({
  status: z.enum(CARD_STATUSES),
  studentId: z.number().nullable(),
  studentName: z.string().nullable(),
  /** For a card of another class: which class and school it belongs to. */
  elsewhere: z.string().nullable(),
});
export type TrayCard = z.infer<typeof trayCardSchema>;

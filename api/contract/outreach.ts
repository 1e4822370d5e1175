/**
 * Reaching families after picture day (docs/outreach.md): guardians and their consent, the
 * season timeline a school sends, abandoned carts, and the outbox every e-mail goes through
 * (docs/email.md, "The outbox").
 */
import { z } from 'zod';
import { email, id } from './fields';
import { CONSENT, OUTREACH_MSG } from './messages';
import { GUARDIAN_PHONE_MSG } from './guardian-phone';
import { phoneField } from './phone';

/** Every kind of e-mail the outbox holds. */
export const OUTBOX_KINDS = [
  'set_password',
  'password_reset',
  'staff_password_reset',
  'order_confirmation',
  'payment_expired',
  'guardian_confirm',
  /** The one SMS a phone gets before it is confirmed: its 6-digit code (docs/outreach.md, "Double opt-in: by phone"). */
  'guardian_phone_code',
  'photos_online',
  'closing_reminder',
  'abandoned_cart',
  'unpaid_order',
  // Transactional SMS (docs/sms.md, "Transactional SMS" and "Codes recovered by phone").
  'order_paid_sms',
  'transfer_awaiting_sms',
  'transfer_expired_sms',
  'code_recovery',
  // Ordering before picture day (docs/prepaid.md): "photos are online, choose them" and "the studio chose", by e-mail and SMS.
  'prepaid_photos_online',
  'prepaid_photos_online_sms',
  'package_filled',
  'package_filled_sms',
] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

/**
 * The messages a guardian did not ask for by an action of their own at that moment: each carries a
 * one-click unsubscribe link and the List-Unsubscribe headers (RFC 8058), and none reaches an
 * address that unsubscribed.
 */
export const NON_TRANSACTIONAL_KINDS = ['photos_online', 'closing_reminder', 'abandoned_cart', 'unpaid_order'] as const satisfies readonly OutboxKind[];
export type NonTransactionalKind = (typeof NON_TRANSACTIONAL_KINDS)[number];
export const isNonTransactional = (kind: OutboxKind): kind is NonTransactionalKind =>
  (NON_TRANSACTIONAL_KINDS as readonly string[]).includes(kind);

/** The season messages a school's timeline sends, in the order of the season. */
export const SEASON_KINDS = ['photos_online', 'closing_reminder'] as const satisfies readonly OutboxKind[];
export type SeasonKind = (typeof SEASON_KINDS)[number];

/** Staff may send themselves a test of each message a family can receive. */
export const TESTABLE_KINDS = ['guardian_confirm', 'photos_online', 'closing_reminder', 'abandoned_cart', 'unpaid_order'] as const satisfies readonly OutboxKind[];
export type TestableKind = (typeof TESTABLE_KINDS)[number];

/** The season timeline's defaults (docs/outreach.md, "The season timeline"). */
export const DEFAULT_REMINDER_DAYS = [7, 3, 1] as const;
export const DEFAULT_SEND_FROM = '08:00';
export const DEFAULT_SEND_UNTIL = '19:00';
/** Every time a family sees is Botswana time (UTC+2 all year). */
export const SCHOOL_TIMEZONE = 'Africa/Gaborone';
/** At most this many non-transactional messages reach one address per day. */
export const MAX_MESSAGES_PER_GUARDIAN_PER_DAY = 1;
/** A cart unchanged this long with no order gets one "still in your cart" message. */
export const ABANDONED_CART_AFTER_MS = 24 * 60 * 60 * 1000;
/** An order still waiting for payment this long gets one reminder with a link to pay. */
export const UNPAID_ORDER_REMINDER_AFTER_MS = 24 * 60 * 60 * 1000;
/** Orders placed within this many days after a message count towards it in the statistics. */
export const ATTRIBUTION_DAYS = 7;
/** How long a double opt-in link stays valid. */
export const GUARDIAN_CONFIRM_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The most reminder days a schedule may hold, and the furthest before closing one may be. */
export const MAX_REMINDER_DAYS = 5;
export const MAX_REMINDER_DAYS_BEFORE = 60;

// ---- Guardians (parents) -------------------------------------------------------------------

/** POST /api/guardians/subscribe: follows what this browser has unlocked (its grant). */
export const guardianSubscribeSchema = z
  .object({
    /** An address gets a link (docs/outreach.md, "Double opt-in"); a mobile number a code by SMS ("Double opt-in: by phone"); or both. */
    email: email.optional(),
    phone: phoneField.optional(),
    consent: z.literal(true, { error: OUTREACH_MSG.consentRequired }),
    marketing: z.boolean({ error: OUTREACH_MSG.marketingBoolean }).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.email !== undefined || value.phone !== undefined) return;
    ctx.addIssue({ code: 'custom', path: ['phone'], message: GUARDIAN_PHONE_MSG.contactRequired });
    ctx.addIssue({ code: 'custom', path: ['email'], message: GUARDIAN_PHONE_MSG.contactRequired });
  });
export type GuardianSubscribeInput = z.input<typeof guardianSubscribeSchema>;

/** 202: the same answer whether or not the address was known (no address is revealed). */
export const guardianSubscribeResponseSchema = z.object({
  message: z.string(),
  consentVersion: z.string(),
});
export type GuardianSubscribeResponse = z.infer<typeof guardianSubscribeResponseSchema>;

/** GET /api/guardians/confirm?token=…: JSON, or a redirect to the PWA's /subscribed page for a browser. */
export const guardianConfirmResponseSchema = z.object({
  confirmed: z.literal(true),
  /** The address a link confirmed. */
  email: z.string().optional(),
  /** The number (E.164) a code confirmed. */
  phone: z.string().optional(),
  message: z.string(),
});
export type GuardianConfirmResponse = z.infer<typeof guardianConfirmResponseSchema>;

/** GET (no change) and POST (RFC 8058 one-click) /api/guardians/unsubscribe?token=…. */
export const guardianUnsubscribeResponseSchema = z.object({
  /** The address the token names, or for an SMS's token the number (E.164) in `phone`. */
  email: z.string().optional(),
  phone: z.string().optional(),
  unsubscribed: z.boolean(),
  message: z.string(),
});
export type GuardianUnsubscribeResponse = z.infer<typeof guardianUnsubscribeResponseSchema>;

/** GET /api/guardians/me: what this browser's guardian cookie says (nothing is revealed without it). */
export const guardianMeSchema = z.object({
  subscribed: z.boolean(),
  confirmed: z.boolean(),
  /** The address, partly hidden (m…@example.com), when subscribed. */
  email: z.string().nullable(),
  /** The number, partly hidden (+267 7••• ••67), for a guardian reached by phone; absent otherwise. */
  phone: z.string().optional(),
  unsubscribed: z.boolean(),
});
export type GuardianMe = z.infer<typeof guardianMeSchema>;

/** A mirrored cart line: ids and quantities only. */
export const mirroredCartItemSchema = z.object({
  photoId: id(),
  productType: z.string().trim().min(1).max(60),
  quantity: z.number().int().min(1).max(99),
});
export type MirroredCartItem = z.infer<typeof mirroredCartItemSchema>;

/** PUT /api/guardians/cart: mirrored only for a confirmed, subscribed guardian's browser (its cookie); an empty list clears it. */
export const guardianCartSchema = z.object({
  items: z.array(mirroredCartItemSchema).max(200),
});
/** 200 { mirrored }: false when this browser has no confirmed guardian (nothing is stored). */
export const guardianCartResponseSchema = z.object({ mirrored: z.boolean() });
export type GuardianCartInput = z.input<typeof guardianCartSchema>;

/** POST /api/guardians/cart/restore { token }: the cart, priced now, and the grant to see its photos. */
export const cartRestoreRequestSchema = z.object({ token: z.string().trim().min(1).max(500) });
export const restoredCartLineSchema = z.object({
  photoId: z.number(),
  albumId: z.number(),
  photoName: z.string(),
  /** The photo's thumbnail URL (the restore answer also set the grant that lets it load). */
  photoPreview: z.string(),
  productType: z.string(),
  productName: z.string(),
  productDescription: z.string(),
  /** Pula, like the PWA's cart lines. */
  unitPrice: z.number(),
  quantity: z.number(),
  schoolId: z.number(),
  schoolName: z.string(),
  studentId: z.number().nullable(),
  studentName: z.string().nullable(),
});
export type RestoredCartLine = z.infer<typeof restoredCartLineSchema>;
export const cartRestoreResponseSchema = z.object({
  items: z.array(restoredCartLineSchema),
  /** Lines that could not come back (photo withdrawn, product no longer sold), counted. */
  dropped: z.number(),
  schoolSlug: z.string().nullable(),
});
export type CartRestoreResponse = z.infer<typeof cartRestoreResponseSchema>;

/** GET /api/schools/{id}/guardians (staff). */
export const staffGuardianSchema = z.object({
  id: z.number(),
  /** Null for a guardian reached by phone alone. */
  email: z.string().nullable(),
  /** E.164, null for a guardian reached by e-mail alone. */
  phone: z.string().nullable(),
  /** `confirmed`: the address or the number was confirmed (and not unsubscribed); `phoneConfirmed`: the number. */
  confirmed: z.boolean(),
  phoneConfirmed: z.boolean(),
  marketing: z.boolean(),
  unsubscribed: z.boolean(),
  /** Null for a guardian who never confirmed: asking is not consent (docs/outreach.md, "Double opt-in"). */
  consentVersion: z.string().nullable(),
  consentAt: z.string().nullable(),
  follows: z.array(z.object({ studentId: z.number().nullable(), studentName: z.string().nullable(), albumName: z.string().nullable() })),
});
export type StaffGuardian = z.infer<typeof staffGuardianSchema>;
export const staffGuardiansResponseSchema = z.object({ guardians: z.array(staffGuardianSchema) });

// ---- The season timeline (staff) -----------------------------------------------------------

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, OUTREACH_MSG.timeFormat);

/** GET/PUT /api/schools/{id}/messages/schedule. */
export const messageScheduleSchema = z.object({
  photosOnline: z.boolean(),
  reminderDays: z.array(z.number().int().min(1).max(MAX_REMINDER_DAYS_BEFORE)),
  sendFrom: z.string(),
  sendUntil: z.string(),
  /** True while the school has not changed the default. */
  isDefault: z.boolean(),
});
export type MessageSchedule = z.infer<typeof messageScheduleSchema>;

export const messageScheduleUpdateSchema = z
  .object({
    photosOnline: z.boolean({ error: OUTREACH_MSG.photosOnlineBoolean }),
    reminderDays: z
      .array(z.number({ error: OUTREACH_MSG.reminderDays }).int(OUTREACH_MSG.reminderDays).min(1, OUTREACH_MSG.reminderDays).max(MAX_REMINDER_DAYS_BEFORE, OUTREACH_MSG.reminderDays), {
        error: OUTREACH_MSG.reminderDays,
      })
      .max(MAX_REMINDER_DAYS, OUTREACH_MSG.tooManyReminders)
      .transform((days) => [...new Set(days)].sort((a, b) => b - a)),
    sendFrom: clock,
    sendUntil: clock,
  })
  .refine((s) => s.sendFrom < s.sendUntil, { message: OUTREACH_MSG.windowOrder, path: ['sendUntil'] });
export type MessageScheduleUpdate = z.input<typeof messageScheduleUpdateSchema>;

/** One recipient of a planned message. */
export const previewRecipientSchema = z.object({
  email: z.string(),
  /** `subscribed`: a confirmed guardian; `roster`: the class list's guardian e-mail ("photos are online" only). */
  source: z.enum(['subscribed', 'roster']),
  studentName: z.string().nullable(),
});

/**
 * A planned message by SMS, next to its e-mail (docs/sms.md, "The season by SMS"): its text (as
 * the first phone would get it, links as long as real ones), how it is encoded and how many SMS
 * segments it takes (the most any recipient's text takes), the confirmed phones it goes to, and
 * the estimated cost: segments × recipients × SMS_COST_THEBE, in thebe.
 */
export const previewSmsSchema = z.object({
  text: z.string(),
  encoding: z.enum(['GSM-7', 'UCS-2']),
  units: z.number(),
  segments: z.number(),
  recipients: z.array(z.object({ phone: z.string(), studentName: z.string().nullable() })),
  skipped: z.array(z.object({ phone: z.string(), reason: z.string() })),
  costThebe: z.number(),
});
export type PreviewSms = z.infer<typeof previewSmsSchema>;

/** GET /api/schools/{id}/messages/preview: who gets what and when. */
export const messagesPreviewSchema = z.object({
  timezone: z.literal(SCHOOL_TIMEZONE),
  /** SMS_COST_THEBE: what one SMS segment costs, in thebe. */
  smsCostThebe: z.number(),
  schedule: messageScheduleSchema,
  pictureDay: z.string().nullable(),
  closingDate: z.string().nullable(),
  messages: z.array(
    z.object({
      kind: z.enum(SEASON_KINDS),
      label: z.string(),
      albumId: z.number().nullable(),
      albumName: z.string().nullable(),
      /** When it goes out (ISO 8601), inside the sending window; null when it cannot be planned yet (e.g. no closing date, class not published). */
      sendAt: z.string().nullable(),
      /** `planned`: in the future; `sent`: already went out; `unplanned`: see `reason`. */
      status: z.enum(['planned', 'sent', 'unplanned']),
      reason: z.string().nullable(),
      recipients: z.array(previewRecipientSchema),
      /** Left out, each with why (already paid, unsubscribed, not confirmed). */
      skipped: z.array(z.object({ email: z.string(), reason: z.string() })),
      sms: previewSmsSchema,
    }),
  ),
});
export type MessagesPreview = z.infer<typeof messagesPreviewSchema>;

/** POST /api/schools/{id}/messages/test { kind }: sends that message, as a family would get it, to the signed-in staff member. */
export const messageTestSchema = z.object({
  kind: z.enum(TESTABLE_KINDS, { error: OUTREACH_MSG.testKind }),
});
export const messageTestResponseSchema = z.object({ sentTo: z.string(), message: z.string() });

/**
 * GET /api/schools/{id}/messages/stats. Revenue in thebe. The totals and `byKind` count e-mails;
 * `sms` counts the school's SMS (docs/sms.md, "Delivery receipts"): sent (taken by the SMS centre),
 * delivered (its receipt said so), failed (refused for good, or a receipt said undelivered or
 * expired), and scheduled (waiting to go).
 */
export const messageStatsSchema = z.object({
  scheduled: z.number(),
  sent: z.number(),
  failed: z.number(),
  ordersWithin7Days: z.number(),
  revenueWithin7Days: z.number(),
  byKind: z.array(
    z.object({
      kind: z.enum(OUTBOX_KINDS),
      label: z.string(),
      scheduled: z.number(),
      sent: z.number(),
      failed: z.number(),
      orders: z.number(),
      revenue: z.number(),
    }),
  ),
  sms: z.object({ scheduled: z.number(), sent: z.number(), delivered: z.number(), failed: z.number() }),
});
export type MessageStats = z.infer<typeof messageStatsSchema>;

export { CONSENT };

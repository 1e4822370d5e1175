import type { Deps } from '../deps';
import type { JobLock } from './job-lock';
import type { Services } from '../services';
import { loggableError } from '../mail/log-safe';
import { optimizeDatabase } from '../db/optimize';

/** A payment still open this long after it was created is asked about at the gateway (a lost notify). */
export const PAYMENT_SWEEP_AGE_MS = 2 * 60_000;
const PAYMENT_SWEEP_EVERY_MS = 60_000;
const LIMIT_SWEEP_EVERY_MS = 5 * 60_000;
/** How often failed removals of photo files are tried again (each waits its own backoff too). */
export const FILE_DELETION_RETRY_EVERY_MS = 60_000;
/** How often abandoned carts and unpaid orders are looked at (docs/outreach.md, "Abandoned carts and unpaid orders"). */
export const REMINDERS_EVERY_MS = 5 * 60_000;
/** How often the season timeline looks for messages that fell due (docs/outreach.md, "The season timeline"). */
export const SEASON_SEND_EVERY_MS = 60_000;
/** How often unconfirmed guardians and old links are looked for (docs/outreach.md, "Unconfirmed addresses go"). */
export const GUARDIAN_PURGE_EVERY_MS = 60 * 60_000;
/** How often prepaid packages are looked at: families told their child's photos are online, the closing date's fill (docs/prepaid.md). */
export const PREPAID_EVERY_MS = 60_000;
/** How often paid sale lines are added to the season totals (docs/reports.md#how-the-figures-stay-fast). */
export const SEASON_TOTALS_EVERY_MS = 60_000;

/** How often the planner's statistics are refreshed, after the run at start (docs/operations.md, "The planner's statistics"). */
export const OPTIMIZE_EVERY_MS = 24 * 60 * 60_000;

/**
 * The season messages and the cart and payment reminders share one lock: both plan messages to the
 * same addresses under the one-per-day rule (docs/outreach.md, "The sending window").
 */
const OUTREACH_LOCK = 'outreach-messages';

/** Each job says whether this process ran it (false: another process was running it). */
export interface Maintenance {
  /** Asks the gateway about open payments, expires received bank transfers past their deadline, and gives back lapsed coupon holds. */
  sweepPayments(): Promise<boolean>;
  sweepLimits(): Promise<boolean>;
  backfillSmallThumbnails(): Promise<boolean>;
  /** Publishes the scheduled classes whose time has come. */
  publishScheduled(): Promise<boolean>;
  /** Removes the photo files whose removal failed before and is due again (docs/images.md, "Deleting photos"). */
  retryFileDeletions(): Promise<boolean>;
  /** Writes the abandoned-cart and unpaid-order reminders that are due, and withdraws queued ones no longer wanted. */
  sendReminders(): Promise<boolean>;
  /** Enqueues the season messages ("photos are online", reminders before closing) that fell due. */
  sendSeasonMessages(): Promise<boolean>;
  /** Adds the paid sale lines not yet counted to the season totals the reports read. */
  rollUpSeasonTotals(): Promise<boolean>;
  /**
   * Prepaid packages (docs/prepaid.md): tells each family whose child's photos are now online to
   * choose, and at the closing date fills what nobody chose (or flags a child without photos).
   */
  runPrepaid(now?: number): Promise<boolean>;
  /** Deletes guardians who never confirmed, 14 days after their last link ended, and links and pending follows as old. */
  purgeUnconfirmedGuardians(): Promise<boolean>;
  /** Deletes the SMS short links that expired more than a day ago (docs/sms.md, "Short links"). */
  purgeShortLinks(): Promise<boolean>;
  /**
   * Refreshes the query planner's statistics: `PRAGMA optimize` on SQLite, `ANALYZE TABLE` of the
   * busiest tables on MySQL/MariaDB (docs/operations.md, "The planner's statistics").
   */
  optimizeDatabase(options?: { atStart?: boolean }): Promise<boolean>;
  /**
   * Starts the timers (and the backfill once); returns what stops them, which resolves when the
   * job runs under way have ended (docs/operations.md, "Stopping cleanly").
   */
  start(): () => Promise<void>;
}

/**
 * The background work of a server process. Every process runs the timers; the job lock lets one
 * process at a time do each job, so two processes never query the gateway about the same payment
 * or render the same thumbnail twice.
 */
export function createMaintenance(deps: Deps & { jobLock: JobLock; services: Services }, timers: { optimizeEveryMs?: number } = {}): Maintenance {
  const { logger, jobLock } = deps;
  const { commerce: { payments }, photos, albums, fileDeletions, students, reminders, season, reports, guardians } = deps.services;

  const maintenance: Maintenance = {
    sweepPayments: () =>
      jobLock.runExclusive('payment-sweep', async () => {
        const swept = await payments.sweep(PAYMENT_SWEEP_AGE_MS);
        if (swept > 0) logger.info({ swept }, 'open payments asked about at the gateway');
        // Under the same lock: received bank transfers past their deadline expire (docs/payments.md, "Payments that settle later").
        const expired = await payments.expireDue();
        if (expired > 0) logger.info({ expired }, 'unconfirmed bank transfers expired');
        // An order an erasure left pending for its open payment is cancelled once that payment ended unpaid (docs/access.md, "Erasure").
        const cancelled = await students.cancelOrdersLeftByErasure();
        if (cancelled > 0) logger.info({ cancelled }, 'orders left unpaid by an erasure cancelled');
        // Coupon uses held by orders nobody paid in time go back (docs/packages-and-coupons.md, "Holds that lapse").
        const lapsed = await deps.services.coupons.releaseLapsedHolds();
        if (lapsed > 0) logger.info({ lapsed }, 'lapsed coupon holds given back');
      }),
    sweepLimits: () => jobLock.runExclusive('rate-limit-sweep', () => deps.limits.sweep()),
    backfillSmallThumbnails: () =>
      jobLock.runExclusive('thumbnail-backfill', async () => {
        const result = await photos.backfillSmallThumbnails();
        if (result.made > 0 || result.skipped > 0) logger.info(result, 'small thumbnails backfilled');
      }),
    publishScheduled: () =>
      jobLock.runExclusive('publish-scheduled', async () => {
        // Each class is published by one conditional update, so it happens once even without the lock.
        for (const albumId of await albums.publishDue()) logger.info({ albumId }, 'scheduled class published');
      }),
    retryFileDeletions: () =>
      jobLock.runExclusive('file-deletions', async () => {
        const result = await fileDeletions.retryDue();
        if (result.removed > 0 || result.failed > 0) logger.info(result, 'photo file removals retried');
      }),
    sendReminders: () =>
      jobLock.runExclusive(OUTREACH_LOCK, async () => {
        await reminders.sendDue(Date.now());
      }),
    sendSeasonMessages: () =>
      jobLock.runExclusive(OUTREACH_LOCK, async () => {
        // Each message has a dedupe key, so a second process (or a second run) never enqueues it twice.
        const enqueued = await season.sendDue();
        if (enqueued > 0) logger.info({ enqueued }, 'season messages enqueued');
      }),
    rollUpSeasonTotals: () =>
      jobLock.runExclusive('season-totals', async () => {
        // One process at a time: the roll-up reads the totals it adds to.
        const rolled = await reports.rollUpSeasonTotals();
        if (rolled > 0) logger.debug({ rolled }, 'paid sale lines added to the season totals');
      }),
    runPrepaid: (now = Date.now()) =>
      jobLock.runExclusive('prepaid-packages', async () => {
        // Under the lock, and each line by a conditional update: filled, flagged and told once with several processes.
        const told = await deps.services.prepaid.tellPhotosOnline(now);
        const result = await deps.services.prepaid.fillDue(now);
        if (told > 0 || result.filled > 0 || result.flagged > 0) logger.info({ told, ...result }, 'prepaid packages: families told, filled, flagged');
      }),
    purgeUnconfirmedGuardians: () =>
      jobLock.runExclusive('guardian-purge', async () => {
        const purged = await guardians.purgeUnconfirmed(Date.now());
        if (purged.guardians > 0 || purged.links > 0 || purged.follows > 0) logger.info(purged, 'unconfirmed guardians and old confirmation links deleted');
      }),
    purgeShortLinks: () =>
      jobLock.runExclusive('short-link-purge', async () => {
        const deleted = await deps.services.shortLinks.deleteExpired();
        if (deleted > 0) logger.info({ deleted }, 'expired short links deleted');
      }),
    optimizeDatabase: (options = {}) =>
      jobLock.runExclusive('db-optimize', async () => {
        const result = await optimizeDatabase(deps.knex, deps.dialect, options);
        logger.info({ ...result, ms: Math.round(result.ms) }, "the query planner's statistics refreshed");
      }),
    start() {
      const running = new Set<Promise<unknown>>();
      const track = (run: Promise<unknown>): void => {
        const settled = run.catch(() => undefined).finally(() => running.delete(settled));
        running.add(settled);
      };
      // Photos stored before the small thumbnail existed get it in the background, one at a time.
      track(maintenance.backfillSmallThumbnails().catch((err: unknown) => logger.warn({ err }, 'small thumbnail backfill stopped')));
      // The planner's statistics once at start (the migrations have run) and then daily.
      const optimize = (atStart: boolean) =>
        track(maintenance.optimizeDatabase({ atStart }).catch((err: unknown) => logger.warn({ err }, "refreshing the query planner's statistics failed")));
      optimize(true);
      const optimizeTimer = setInterval(() => optimize(false), timers.optimizeEveryMs ?? OPTIMIZE_EVERY_MS);
      optimizeTimer.unref();
      const reconcile = setInterval(() => {
        track(maintenance.sweepPayments().catch((err: unknown) => logger.warn({ err }, 'payment sweep failed')));
      }, PAYMENT_SWEEP_EVERY_MS);
      const limits = setInterval(() => {
        track(maintenance.sweepLimits().catch((err: unknown) => logger.warn({ err }, 'rate limit sweep failed')));
      }, LIMIT_SWEEP_EVERY_MS);
      const publish = setInterval(() => {
        track(maintenance.publishScheduled().catch((err: unknown) => logger.warn({ err }, 'scheduled publication failed')));
      }, deps.config.publishCheckIntervalMs);
      const removals = setInterval(() => {
        track(maintenance.retryFileDeletions().catch((err: unknown) => logger.warn({ err }, 'retrying photo file removals failed')));
      }, FILE_DELETION_RETRY_EVERY_MS);
      const reminderTimer = setInterval(() => {
        track(maintenance.sendReminders().catch((err: unknown) => logger.warn({ err }, 'cart and payment reminders failed')));
      }, REMINDERS_EVERY_MS);
      reminderTimer.unref();
      const seasonMessages = setInterval(() => {
        track(maintenance.sendSeasonMessages().catch((err: unknown) => logger.warn({ err: loggableError(err) }, 'season messages failed')));
      }, SEASON_SEND_EVERY_MS);
      seasonMessages.unref();
      const seasonTotals = setInterval(() => {
        track(maintenance.rollUpSeasonTotals().catch((err: unknown) => logger.warn({ err }, 'season totals roll-up failed')));
      }, SEASON_TOTALS_EVERY_MS);
      seasonTotals.unref();
      const guardianPurge = setInterval(() => {
        track(maintenance.purgeUnconfirmedGuardians().catch((err: unknown) => logger.warn({ err }, 'deleting unconfirmed guardians failed')));
        track(maintenance.purgeShortLinks().catch((err: unknown) => logger.warn({ err }, 'deleting expired short links failed')));
      }, GUARDIAN_PURGE_EVERY_MS);
      guardianPurge.unref();
      const prepaidTimer = setInterval(() => {
        track(maintenance.runPrepaid().catch((err: unknown) => logger.warn({ err: loggableError(err) }, 'prepaid packages job failed')));
      }, PREPAID_EVERY_MS);
      prepaidTimer.unref();
      removals.unref();
      reconcile.unref();
      limits.unref();
      publish.unref();
      return async () => {
        clearInterval(reconcile);
        clearInterval(limits);
        clearInterval(publish);
        clearInterval(removals);
        clearInterval(reminderTimer);
        clearInterval(seasonMessages);
        clearInterval(seasonTotals);
        clearInterval(guardianPurge);
        clearInterval(prepaidTimer);
        clearInterval(optimizeTimer);
        await Promise.all(running);
      };
    },
  };
  return maintenance;
}

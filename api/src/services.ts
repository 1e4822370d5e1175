/**
 * Every service of the API, built once per process from its dependencies and handed to the
 * routes and the background jobs (docs/architecture.md, "Wiring"). A service that needs another
 * gets that same instance here, so there is one of each.
 */
import type { Deps } from './deps';
import { createAlbumService } from './albums/albums.service';
import { createReviewService } from './albums/review.service';
import { createCustomerService } from './customers/customers.service';
import { createDashboardService } from './dashboard/dashboard.service';
import { createImageService } from './images/images.service';
import { createMatchingService } from './matching/matching.service';
import { createCommerce } from './orders/commerce';
import { createPrepaidService } from './orders/prepaid.service';
import { createPhotoService } from './photos/photos.service';
import { createPriceListService } from './price-lists/price-lists.service';
import { createPrintBatchService } from './print-batches/print-batches.service';
import { createGalleryPageService } from './schools/gallery-page.service';
import { createSchoolService } from './schools/schools.service';
import { createStaffService } from './staff/staff.service';
import { createStudentService } from './students/students.service';
import { createCodeRecovery } from './students/code-recovery';
import { createFileDeletions } from './storage/file-deletions';
import { createOutbox } from './outbox/outbox.service';
import { createGuardianService } from './guardians/guardians.service';
import { createCartService } from './carts/carts.service';
import { createReminderService } from './carts/reminders.service';
import { createSeasonService } from './season/season.service';
import { createCouponService } from './coupons/coupons.service';
import { createReportsService } from './reports/reports.service';
import { createVisitRecording } from './reports/reports-recording';
import { createAuditService } from './audit/audit.service';
import { createShortLinks } from './sms/short-links';

export function createServices(deps: Deps) {
  const outbox = createOutbox(deps);
  const season = createSeasonService(deps, outbox);
  const customers = createCustomerService(deps, outbox);
  const photos = createPhotoService(deps);
  const schools = createSchoolService(deps);
  const priceLists = createPriceListService(deps);
  const guardians = createGuardianService(deps, outbox);
  const coupons = createCouponService(deps);
  const shortLinks = createShortLinks(deps);
  return {
    outbox,
    staff: createStaffService(deps, outbox),
    customers,
    // The paid path also counts the order's coupon use (commerce.ts composes coupons.markPaid into it).
    commerce: createCommerce(deps, customers, outbox, { onPaidInTx: (orderId, tx) => season.withdrawForPaidOrder(orderId, tx) }, coupons),
    /** Coupons: the staff API and the uses orders hold and pay (docs/packages-and-coupons.md, "Counting a coupon's uses"). */
    coupons,
    /** The season timeline: schedule, the job that sends what is due, preview, test, statistics (docs/outreach.md). */
    season,
    schools,
    albums: createAlbumService(deps),
    review: createReviewService(deps),
    priceLists,
    photos,
    matching: createMatchingService(deps),
    images: createImageService(deps),
    dashboard: createDashboardService(deps),
    /** Season reports per school and class, and sales over time (docs/reports.md). */
    reports: createReportsService(deps),
    students: createStudentService(deps, photos, guardians, coupons),
    /** A guardian's phone on a class list gets their children's code links by SMS (docs/sms.md, "Codes recovered by phone"). */
    codeRecovery: createCodeRecovery(deps, outbox, shortLinks),
    /** Guardians: consent, double opt-in, one-click unsubscribe, erasure (docs/outreach.md). */
    guardians,
    printBatches: createPrintBatchService({ ...deps, businessName: deps.config.businessName }),
    galleryPages: createGalleryPageService(deps, { schools, photos, priceLists }),
    /** Photo files waiting to be removed from storage, retried until done (docs/images.md, "Deleting photos"). */
    fileDeletions: createFileDeletions(deps),
    /** The cart a confirmed guardian's browser mirrors, and its restore link (docs/outreach.md, "Abandoned carts and unpaid orders"). */
    carts: createCartService(deps, (guardianId) => guardians.isActive(guardianId)),
    /** The abandoned-cart and unpaid-order reminders the maintenance job writes. */
    reminders: createReminderService(deps, outbox),
    /** Who opened a gallery, for the season reports (docs/reports.md, "Families who opened the gallery"). */
    galleryVisits: createVisitRecording(deps),
    /** The audit log admins read (docs/accounts.md, "The audit log"). */
    audit: createAuditService(deps),
    /** `PUBLIC_URL/s/{token}` links for SMS (docs/sms.md, "Short links"). */
    shortLinks,
    /** Ordering before picture day: choosing a prepaid package's photos, telling families, the closing date's fill (docs/prepaid.md). */
    prepaid: createPrepaidService(deps, outbox),
  };
}

export type Services = ReturnType<typeof createServices>;

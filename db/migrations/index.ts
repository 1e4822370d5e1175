import type { Knex } from 'knex';
import * as m0 from './20261122120000_create_staff';
import * as m1 from './20261122120100_create_price_lists';
import * as m2 from './20261122120200_create_schools';
import * as m3 from './20261122120300_create_albums';
import * as m4 from './20261122120400_create_photos';
import * as m5 from './20261122120500_create_customers';
import * as m6 from './20261122120600_create_orders';
import * as m7 from './20261122120700_create_payments';
import * as m8 from './20261122120800_create_rate_limits';
import * as printBatches from './20261123080000_create_print_batches';
import * as m9 from './20261123090000_bound_payment_callbacks';
import * as m10 from './20261123090100_order_payment_guards';
import * as m11 from './20261123090200_order_idempotency_hash';
import * as m100 from './20261123100000_add_small_thumbnails';
import * as m110000 from './20261123110000_create_students';
import * as m110100 from './20261123110100_add_photo_student';
import * as m110200 from './20261123110200_add_school_access_mode';
import * as m110300 from './20261123110300_add_order_item_student';
import * as m110400 from './20261123110400_create_student_erasures';
import * as photoMatching from './20261124120000_add_photo_matching';
import * as publishing from './20261127090000_add_publishing';
import * as schoolPasswordOptional from './20261127120000_school_password_optional';
import * as grantEpochs from './20261128110000_add_grant_epochs';
import * as productKind from './20261127130000_add_product_kind';
import * as paidAfterCancel from './20261128100000_add_paid_after_cancel';
import * as staffResetTokens from './20261128120000_create_staff_reset_tokens';
import * as classArchive from './20261128130000_add_class_archive';
import * as fileDeletions from './20261128130100_create_file_deletions';
import * as pastCodes from './20261128130200_create_student_past_codes';
import * as paymentMethods from './20261129100000_add_payment_methods';
import * as outreach from './20261130100000_create_outreach';
import * as guardianConfirmations from './20261130120000_create_guardian_confirmations';
import * as packagesCoupons from './20261201100000_create_packages_coupons';
import * as reportTables from './20261202100000_create_report_tables';
import * as backfillSalesLines from './20261202100100_backfill_sales_lines';
import * as reportIndexes from './20261202110000_report_indexes';
import * as visitReportIndexes from './20261203100000_visit_report_indexes';
import * as salesSeasonTotals from './20261203110000_sales_season_totals';
import * as orderChildHeld from './20261207100000_order_child_held';
import * as guardianLinkFollows from './20261207110000_guardian_link_follows';
import * as couponInboxKeys from './20261207120000_coupon_inbox_keys';
import * as withdrawnPaidLines from './20261207130000_withdrawn_paid_lines';
import * as auditLog from './20261207140000_create_audit_log';
import * as salesLinesDigitalPart from './20261207170000_sales_lines_digital_part';
import * as smsChannel from './20261208100000_sms_channel';
import * as guardianPhones from './20261208110000_guardian_phones';
import * as studentGuardianPhone from './20261208130000_student_guardian_phone';
import * as prepaidPackages from './20261208140000_prepaid_packages';
import * as prepaidOnlineTold from './20261208140100_prepaid_online_told';
import * as accessVersion from './20261209100000_access_version';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
  /** `transaction: false` runs it outside a transaction (a SQLite table rebuild needs that). */
  config?: { transaction?: boolean };
}

/**
 * Append-only history. Listed statically so the same list works under tsx, in tests and in a
 * bundle, on SQLite and MySQL alike.
 */
const migrations: [string, Migration][] = [
  ['20261122120000_create_staff', m0],
  ['20261122120100_create_price_lists', m1],
  ['20261122120200_create_schools', m2],
  ['20261122120300_create_albums', m3],
  ['20261122120400_create_photos', m4],
  ['20261122120500_create_customers', m5],
  ['20261122120600_create_orders', m6],
  ['20261122120700_create_payments', m7],
  ['20261122120800_create_rate_limits', m8],
  ['20261123080000_create_print_batches', printBatches],
  ['20261123090000_bound_payment_callbacks', m9],
  ['20261123090100_order_payment_guards', m10],
  ['20261123090200_order_idempotency_hash', m11],
  ['20261123100000_add_small_thumbnails', m100],
  ['20261123110000_create_students', m110000],
  ['20261123110100_add_photo_student', m110100],
  ['20261123110200_add_school_access_mode', m110200],
  ['20261123110300_add_order_item_student', m110300],
  ['20261123110400_create_student_erasures', m110400],
  ['20261124120000_add_photo_matching', photoMatching],
  ['20261127090000_add_publishing', publishing],
  ['20261127120000_school_password_optional', schoolPasswordOptional],
  ['20261127130000_add_product_kind', productKind],
  ['20261128100000_add_paid_after_cancel', paidAfterCancel],
  ['20261128110000_add_grant_epochs', grantEpochs],
  ['20261128120000_create_staff_reset_tokens', staffResetTokens],
  ['20261128130000_add_class_archive', classArchive],
  ['20261128130100_create_file_deletions', fileDeletions],
  ['20261128130200_create_student_past_codes', pastCodes],
  ['20261129100000_add_payment_methods', paymentMethods],
  ['20261130100000_create_outreach', outreach],
  ['20261130120000_create_guardian_confirmations', guardianConfirmations],
  ['20261201100000_create_packages_coupons', packagesCoupons],
  ['20261202100000_create_report_tables', reportTables],
  ['20261202100100_backfill_sales_lines', backfillSalesLines],
  ['20261202110000_report_indexes', reportIndexes],
  ['20261203100000_visit_report_indexes', visitReportIndexes],
  ['20261203110000_sales_season_totals', salesSeasonTotals],
  ['20261207100000_order_child_held', orderChildHeld],
  ['20261207110000_guardian_link_follows', guardianLinkFollows],
  ['20261207120000_coupon_inbox_keys', couponInboxKeys],
  ['20261207130000_withdrawn_paid_lines', withdrawnPaidLines],
  ['20261207140000_create_audit_log', auditLog],
  ['20261207170000_sales_lines_digital_part', salesLinesDigitalPart],
  ['20261208100000_sms_channel', smsChannel],
  ['20261208110000_guardian_phones', guardianPhones],
  ['20261208130000_student_guardian_phone', studentGuardianPhone],
  ['20261208140000_prepaid_packages', prepaidPackages],
  ['20261208140100_prepaid_online_told', prepaidOnlineTold],
  ['20261209100000_access_version', accessVersion],
];

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => migrations.map(([name]) => name),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const found = migrations.find(([candidate]) => candidate === name);
    if (!found) throw new Error(`Unknown migration ${name}`);
    return found[1];
  },
};

import type { Knex } from 'knex';

/**
 * students.guardian_phone: a guardian's mobile number from the roster (docs/sms.md, "Codes
 * recovered by phone"), E.164 (+26771234567) as the contract's phone parser stores it, or null.
 * Indexed: `POST /api/students/recover` finds a guardian's children by it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('students', (t) => {
    t.string('guardian_phone', 20).nullable();
    t.index(['guardian_phone']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('students', (t) => {
    t.dropIndex(['guardian_phone']);
    t.dropColumn('guardian_phone');
  });
}

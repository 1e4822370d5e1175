import type { Knex } from 'knex';

/**
 * A confirmation link confirms exactly the follows its own e-mail named (docs/outreach.md, "Double
 * opt-in"): one `guardian_confirmation_follows` row per follow a subscribe request asked for. The
 * old rule (every pending follow up to `follows_up_to`) let a link confirm follows another request,
 * perhaps a stranger's, had added earlier. Links still open keep what the old rule gave them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('guardian_confirmation_follows', (t) => {
    t.integer('confirmation_id').unsigned().notNullable().references('id').inTable('guardian_confirmations').onDelete('CASCADE');
    t.integer('follow_id').unsigned().notNullable().references('id').inTable('guardian_follows').onDelete('CASCADE');
    t.primary(['confirmation_id', 'follow_id']);
    t.index(['follow_id']);
  });
  const open = (await knex('guardian_confirmations').whereNull('used_at').select('id', 'guardian_id', 'follows_up_to')) as {
    id: number;
    guardian_id: number;
    follows_up_to: number | string;
  }[];
  for (const link of open) {
    const follows = (await knex('guardian_follows')
      .where({ guardian_id: link.guardian_id })
      .whereNull('confirmed_at')
      .andWhere('id', '<=', Number(link.follows_up_to))
      .select('id')) as { id: number }[];
    if (follows.length > 0) await knex('guardian_confirmation_follows').insert(follows.map((follow) => ({ confirmation_id: link.id, follow_id: follow.id })));
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('guardian_confirmation_follows');
}

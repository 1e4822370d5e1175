import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('students', (t) => {
    t.increments('id').primary();
    /** A student belongs to one class; the roster goes with the class. */
    t.integer('album_id').unsigned().notNullable().references('id').inTable('albums').onDelete('CASCADE');
    t.string('name', 150).notNullable();
    /** The school's own student number, unique within the class when given. */
    t.string('number', 40).nullable();
    t.string('guardian_email', 254).nullable();
    /**
     * The private access code, normalised (8 symbols, no dash). Kept readable because staff reprint
     * flyers; it only opens watermarked previews of one child and is rate-limited like a password.
     */
    t.string('code', 16).notNullable().unique();
    /** Never shown to a parent nor sold, whatever the school's access mode. */
    t.boolean('do_not_publish').notNullable().defaultTo(false);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['album_id']);
    t.unique(['album_id', 'number']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('students');
}

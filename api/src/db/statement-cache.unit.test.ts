import { afterEach, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createKnex, databaseTarget } from './knex';

describe('SQLite connections keep their compiled statements', () => {
  let knex: Knex | undefined;
  afterEach(async () => knex?.destroy());

  it('answer the same statement again and again, inside and outside transactions', async () => {
    knex = createKnex(databaseTarget('sqlite::memory:'));
    await knex.schema.createTable('things', (t) => {
      t.increments('id');
      t.string('name');
    });
    for (let i = 0; i < 5; i++) {
      await knex.transaction(async (trx) => {
        await trx('things').insert({ name: `thing ${i}` });
      });
      expect(await knex('things').where('name', `thing ${i}`).select('id', 'name')).toEqual([{ id: i + 1, name: `thing ${i}` }]);
    }
    expect(await knex('things').count({ n: '*' }).first()).toEqual({ n: 5 });
  });

  it('see a schema change: a statement run before a new column sees the column after it', async () => {
    knex = createKnex(databaseTarget('sqlite::memory:'));
    await knex.schema.createTable('things', (t) => {
      t.increments('id');
      t.string('name');
    });
    await knex('things').insert({ name: 'a' });
    expect(await knex('things').select('*')).toEqual([{ id: 1, name: 'a' }]);
    await knex.schema.alterTable('things', (t) => {
      t.integer('size').notNullable().defaultTo(7);
    });
    expect(await knex('things').select('*')).toEqual([{ id: 1, name: 'a', size: 7 }]);
    await knex.schema.dropTable('things');
    await expect(knex('things').select('*')).rejects.toThrow(/no such table/);
  });
});

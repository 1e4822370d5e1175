import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, startTestServer, type TestServer } from '../../test/harness';
import { migrationSource } from '../../../db/migrations/index';

describeApi('migrations', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('run up, down and up again', async () => {
    const { knex } = server.runtime;
    const tables = ['staff', 'schools', 'albums', 'photos', 'price_lists', 'price_list_items', 'customers', 'orders', 'order_items', 'payments', 'payment_callbacks', 'password_reset_tokens', 'rate_limits', 'students', 'student_erasures', 'rejected_callbacks'];
    for (const table of tables) expect(await knex.schema.hasTable(table)).toBe(true);
    await knex.migrate.rollback({ migrationSource }, true);
    for (const table of tables) expect(await knex.schema.hasTable(table)).toBe(false);
    await knex.migrate.latest({ migrationSource });
    for (const table of tables) expect(await knex.schema.hasTable(table)).toBe(true);
    const [, pending] = await knex.migrate.list({ migrationSource });
    expect(pending).toHaveLength(0);
  });

  it('keeps money as integers and enforces foreign keys on both dialects', async () => {
    const { knex } = server.runtime;
    await expect(knex('albums').insert({ school_id: 999_999, name: 'orphan', created_at: Date.now() })).rejects.toThrow();
    const at = Date.now();
    const [id] = await knex('price_lists').insert({ name: 'P', description: '', created_at: at, updated_at: at });
    await knex('price_list_items').insert({ price_list_id: id, product_type: 'Print', price_thebe: 2550, position: 0 });
    const row = await knex('price_list_items').where({ price_list_id: id }).first();
    expect(row.price_thebe).toBe(2550);
    expect(typeof row.price_thebe).toBe('number');
    const list = await knex('price_lists').where({ id }).first();
    expect(Number(list.created_at)).toBe(at);
  });

  it('making the school password optional rebuilds schools without losing a school\'s classes, photos or orders', async () => {
    const { knex } = server.runtime;
    const at = Date.now();
    const [schoolId] = await knex('schools').insert({ name: 'Rebuilt', slug: `rebuilt-${at}`, password_hash: 'x', contact_email: 'office@rebuilt.example', created_at: at });
    const [albumId] = await knex('albums').insert({ school_id: schoolId, name: 'Grade 1', created_at: at });
    await knex.migrate.down({ migrationSource });
    expect((await knex('albums').where({ id: albumId }).first())?.school_id).toBe(schoolId);
    await expect(knex('schools').insert({ name: 'No hash', slug: `no-hash-${at}`, contact_email: 'a@b.example', created_at: at })).rejects.toThrow();
    await knex.migrate.latest({ migrationSource });
    expect((await knex('albums').where({ id: albumId }).first())?.school_id).toBe(schoolId);
    await knex('schools').insert({ name: 'Codes only', slug: `codes-only-${at}`, password_hash: null, contact_email: 'a@b.example', created_at: at });
    // The unique slug survives the rebuild.
    await expect(knex('schools').insert({ name: 'Twin', slug: `codes-only-${at}`, password_hash: null, contact_email: 'a@b.example', created_at: at })).rejects.toThrow();
    // Foreign keys still hold after the rebuild.
    await expect(knex('schools').where({ id: schoolId }).delete()).resolves.toBe(1);
    expect(await knex('albums').where({ id: albumId }).first()).toBeUndefined();
  });
});

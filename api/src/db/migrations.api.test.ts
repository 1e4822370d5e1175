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
});

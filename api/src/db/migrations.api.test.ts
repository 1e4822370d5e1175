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
    await knex.migrate.down({ migrationSource, name: '20261127120000_school_password_optional' });
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

  it('gives existing products and order lines their kind by the old rule ("digital" or "download" in the name)', async () => {
    const { knex } = server.runtime;
    const at = Date.now();
    // Back to before the kind existed, with rows as they were then.
    await knex.migrate.down({ migrationSource, name: '20261127130000_add_product_kind' });
    expect(await knex.schema.hasColumn('price_list_items', 'kind')).toBe(false);
    const [listId] = await knex('price_lists').insert({ name: `Kinds ${at}`, description: '', created_at: at, updated_at: at });
    for (const [position, name] of ['10x15 Print', 'HD Download', 'Digital Copy', 'Soft copy (JPEG by e-mail)'].entries()) {
      await knex('price_list_items').insert({ price_list_id: listId, product_type: name, price_thebe: 1000, position });
    }
    const [schoolId] = await knex('schools').insert({ name: 'Kinds', slug: `kinds-${at}`, password_hash: 'x', contact_email: 'a@b.example', created_at: at });
    const orderId = `KIND${String(at).slice(-6)}`;
    await knex('orders').insert({ id: orderId, school_id: schoolId, customer_name: 'P', customer_email: 'p@example.test', student_name: 'S', total_thebe: 3000, order_status: 'paid', payment_status: 'completed', created_at: at, updated_at: at });
    const line = { order_id: orderId, product_description: '', quantity: 1, unit_thebe: 1000, total_thebe: 1000 };
    await knex('order_items').insert([
      { ...line, product_type: 'print_10x15', product_name: '10x15 Print' },
      { ...line, product_type: 'digital', product_name: 'Digital Copy' },
      { ...line, product_type: '17', product_name: 'HD Download' },
    ]);
    await knex.migrate.latest({ migrationSource });
    const items = await knex('price_list_items').where({ price_list_id: listId }).orderBy('position').select('product_type', 'kind', 'print_size');
    expect(items.map((item: { product_type: string; kind: string; print_size: string | null }) => [item.product_type, item.kind, item.print_size])).toEqual([
      ['10x15 Print', 'print', null],
      ['HD Download', 'digital', null],
      ['Digital Copy', 'digital', null],
      // The old rule printed it; staff now set it to digital in the editor.
      ['Soft copy (JPEG by e-mail)', 'print', null],
    ]);
    const lines = await knex('order_items').where({ order_id: orderId }).orderBy('id').select('product_name', 'kind');
    expect(lines.map((row: { product_name: string; kind: string }) => [row.product_name, row.kind])).toEqual([
      ['10x15 Print', 'print'],
      ['Digital Copy', 'digital'],
      ['HD Download', 'digital'],
    ]);
  });

  it('marks the lines of existing orders held in a student-codes school, and not in a school-password school', async () => {
    const { knex } = server.runtime;
    const at = Date.now();
    await knex.migrate.down({ migrationSource, name: '20261207100000_order_child_held' });
    expect(await knex.schema.hasColumn('order_items', 'child_held')).toBe(false);
    const lines: Record<string, number> = {};
    for (const mode of ['student_codes', 'school_password'] as const) {
      const [schoolId] = await knex('schools').insert({ name: mode, slug: `held-${mode}-${at}`, password_hash: 'x', contact_email: 'a@b.example', access_mode: mode, created_at: at });
      const [albumId] = await knex('albums').insert({ school_id: schoolId, name: 'Grade 1', created_at: at });
      const [studentId] = await knex('students').insert({ album_id: albumId, name: 'Neo', code: `${mode === 'student_codes' ? 'A' : 'B'}${String(at).slice(-7)}`, created_at: at, updated_at: at });
      const orderId = `HELD${mode === 'student_codes' ? 'C' : 'P'}${String(at).slice(-6)}`;
      await knex('orders').insert({ id: orderId, school_id: schoolId, customer_name: 'P', customer_email: 'p@example.test', student_name: 'S', total_thebe: 2000, order_status: 'pending', payment_status: 'pending', created_at: at, updated_at: at });
      const line = { order_id: orderId, product_type: '1', product_name: 'Print', product_description: '', kind: 'print', quantity: 1, unit_thebe: 1000, total_thebe: 1000 };
      await knex('order_items').insert([{ ...line, student_id: studentId }, { ...line, student_id: null }]);
      await knex('order_packages').insert({ order_id: orderId, name: 'Pack', quantity: 1, unit_thebe: 0, total_thebe: 0, items_value_thebe: 0, student_id: studentId });
      lines[mode] = Number(studentId);
    }
    await knex.migrate.latest({ migrationSource });
    const held = async (table: 'order_items' | 'order_packages', orderPrefix: string) =>
      (await knex(table).where('order_id', 'like', `${orderPrefix}%`).where('order_id', 'like', `%${String(at).slice(-6)}`).orderBy('id').select('student_id', 'child_held')).map(
        (row: { student_id: number | null; child_held: number | boolean }) => [row.student_id === null ? null : Number(row.student_id), Boolean(Number(row.child_held))],
      );
    expect(await held('order_items', 'HELDC')).toEqual([
      [lines.student_codes, true],
      [null, false],
    ]);
    expect(await held('order_packages', 'HELDC')).toEqual([[lines.student_codes, true]]);
    expect(await held('order_items', 'HELDP')).toEqual([
      [lines.school_password, false],
      [null, false],
    ]);
    expect(await held('order_packages', 'HELDP')).toEqual([[lines.school_password, false]]);
  });
});

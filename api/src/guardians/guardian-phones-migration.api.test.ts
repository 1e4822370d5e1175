import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, startTestServer, type TestServer } from '../../test/harness';
import { migrationSource } from '../../../db/migrations/index';

const NAME = '20261208110000_guardian_phones';

/** guardians.email nullable and guardians.phone (docs/outreach.md, "Double opt-in: by phone"): a SQLite rebuild keeps every row and key. */
describeApi('guardian phones migration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('keeps existing guardians with their follows, carts and links, and lets a guardian be reached by phone alone', async () => {
    const { knex } = server.runtime;
    const at = Date.now();
    await knex.migrate.down({ migrationSource, name: NAME });
    expect(await knex.schema.hasColumn('guardians', 'phone')).toBe(false);

    const [schoolId] = await knex('schools').insert({ name: 'Phones', slug: `phones-${at}`, password_hash: 'x', contact_email: 'office@phones.example', created_at: at });
    const [guardianId] = await knex('guardians').insert({ email: 'kept@example.test', consent_version: '2026-11-27', consent_at: at, confirmed_at: at, marketing: 1, marketing_at: at, created_at: at, updated_at: at });
    const [followId] = await knex('guardian_follows').insert({ guardian_id: guardianId, school_id: schoolId, student_id: null, created_at: at, confirmed_at: at });
    await knex('guardian_carts').insert({ guardian_id: guardianId, school_id: schoolId, items: '[]', updated_at: at });
    const [linkId] = await knex('guardian_confirmations').insert({ guardian_id: guardianId, token_hash: 'a'.repeat(64), consent_version: '2026-11-27', marketing: 1, follows_up_to: followId, created_at: at, expires_at: at + 1000, used_at: at });
    await knex('guardian_confirmation_follows').insert({ confirmation_id: linkId, follow_id: followId });

    await knex.migrate.latest({ migrationSource });
    const kept = await knex('guardians').where({ id: guardianId }).first();
    expect(kept).toMatchObject({ email: 'kept@example.test', phone: null, phone_confirmed_at: null });
    expect(Number(kept.confirmed_at)).toBe(at);
    expect(await knex('guardian_follows').where({ guardian_id: guardianId }).count({ n: '*' }).first()).toMatchObject({ n: 1 });
    expect(await knex('guardian_carts').where({ guardian_id: guardianId }).first()).toBeTruthy();
    expect(await knex('guardian_confirmations').where({ id: linkId }).first()).toMatchObject({ channel: 'email', code_hash: null, code_tries: 0 });
    expect(await knex('guardian_confirmation_follows').where({ confirmation_id: linkId }).first()).toBeTruthy();

    // A guardian reached by phone alone; the number is unique, the address still is.
    const [phoneOnly] = await knex('guardians').insert({ email: null, phone: '+26771234567', consent_version: '', consent_at: at, created_at: at, updated_at: at });
    await knex('guardians').insert({ email: null, phone: '+26772345678', consent_version: '', consent_at: at, created_at: at, updated_at: at });
    await expect(knex('guardians').insert({ email: null, phone: '+26771234567', consent_version: '', consent_at: at, created_at: at, updated_at: at })).rejects.toThrow();
    await expect(knex('guardians').insert({ email: 'kept@example.test', consent_version: '', consent_at: at, created_at: at, updated_at: at })).rejects.toThrow();

    // Foreign keys still hold after the rebuild: a follow needs its guardian, and goes with it.
    await expect(knex('guardian_follows').insert({ guardian_id: 999_999, school_id: schoolId, created_at: at })).rejects.toThrow();
    await knex('guardian_follows').insert({ guardian_id: phoneOnly, school_id: schoolId, created_at: at });
    await knex('guardians').where({ id: phoneOnly }).delete();
    expect(await knex('guardian_follows').where({ guardian_id: phoneOnly }).first()).toBeUndefined();

    // Down again: guardians reached by phone alone go, the others stay, and the address is required again.
    await knex.migrate.down({ migrationSource, name: NAME });
    expect(await knex('guardians').whereNull('email').first()).toBeUndefined();
    expect(await knex('guardians').where({ id: guardianId }).first()).toMatchObject({ email: 'kept@example.test' });
    await expect(knex('guardians').insert({ email: null, consent_version: '', consent_at: at, created_at: at, updated_at: at })).rejects.toThrow();
    await knex.migrate.latest({ migrationSource });
    expect(await knex.schema.hasColumn('guardians', 'phone')).toBe(true);
  });
});

import type { Knex } from 'knex';
import type { AccessMode } from '../../contract/student-codes';
import { runner, type Tx } from '../db/database';
import { bumpAccessVersion } from '../http/access-version.repository';
import { count, insertedId, now, toIso } from '../db/knex';

export interface SchoolRecord {
  id: number;
  name: string;
  slug: string;
  contactEmail: string;
  contactPhone: string | null;
  address: string | null;
  closingDate: string | null;
  /** The day the photos are taken (YYYY-MM-DD). */
  pictureDay: string | null;
  priceListId: number | null;
  priceListName: string | null;
  accessMode: AccessMode;
  /** Whether a school password is on record (a `student_codes` school may have none). */
  hasPassword: boolean;
  createdAt: string;
}

export interface SchoolWrite {
  name?: string;
  slug?: string;
  passwordHash?: string;
  contactEmail?: string;
  contactPhone?: string | null;
  address?: string | null;
  closingDate?: string | null;
  pictureDay?: string | null;
  priceListId?: number | null;
  accessMode?: AccessMode;
}

interface SchoolRow {
  id: number;
  name: string;
  slug: string;
  contact_email: string;
  contact_phone: string | null;
  address: string | null;
  closing_date: string | null;
  picture_day: string | null;
  price_list_id: number | null;
  price_list_name: string | null;
  access_mode: AccessMode;
  has_password: number | string | boolean;
  created_at: number | string;
}

function toRecord(row: SchoolRow): SchoolRecord {
  return {
    id: Number(row.id),
    name: row.name,
    slug: row.slug,
    contactEmail: row.contact_email,
    contactPhone: row.contact_phone,
    address: row.address,
    closingDate: row.closing_date,
    pictureDay: row.picture_day,
    priceListId: row.price_list_id === null ? null : Number(row.price_list_id),
    priceListName: row.price_list_name,
    accessMode: row.access_mode,
    hasPassword: Number(row.has_password) === 1,
    createdAt: toIso(row.created_at),
  };
}

const COLUMNS: Record<keyof Omit<SchoolWrite, 'passwordHash'>, string> = {
  name: 'name',
  slug: 'slug',
  contactEmail: 'contact_email',
  contactPhone: 'contact_phone',
  address: 'address',
  closingDate: 'closing_date',
  pictureDay: 'picture_day',
  priceListId: 'price_list_id',
  accessMode: 'access_mode',
};

function toRow(input: SchoolWrite): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(COLUMNS)) {
    const value = input[key as keyof typeof COLUMNS];
    if (value !== undefined) row[column] = value;
  }
  if (input.passwordHash !== undefined) row.password_hash = input.passwordHash;
  return row;
}

/** Every column but the password hash (only whether there is one), with the price list's name. */
function detailQuery(db: Knex) {
  return db('schools as s')
    .leftJoin('price_lists as pl', 'pl.id', 's.price_list_id')
    .select(
      's.id',
      's.name',
      's.slug',
      's.contact_email',
      's.contact_phone',
      's.address',
      's.closing_date',
      's.picture_day',
      's.price_list_id',
      'pl.name as price_list_name',
      's.access_mode',
      db.raw('case when s.password_hash is null then 0 else 1 end as has_password'),
      's.created_at',
    );
}

export function createSchoolRepository(knex: Knex) {
  return {
    async list(): Promise<SchoolRecord[]> {
      return ((await detailQuery(knex)) as SchoolRow[]).map(toRecord);
    },

    async findById(id: number, tx?: Tx): Promise<SchoolRecord | undefined> {
      const row = (await detailQuery(runner(knex, tx)).where('s.id', id).first()) as SchoolRow | undefined;
      return row ? toRecord(row) : undefined;
    },

    async findBySlug(slug: string): Promise<SchoolRecord | undefined> {
      const row = (await detailQuery(knex).where('s.slug', slug).first()) as SchoolRow | undefined;
      return row ? toRecord(row) : undefined;
    },

    /** The id of the school that uses this slug, if any. */
    async idBySlug(slug: string, tx?: Tx): Promise<number | undefined> {
      const row = (await runner(knex, tx)('schools').where({ slug }).first('id')) as { id: number } | undefined;
      return row ? Number(row.id) : undefined;
    },

    /** The password and the grant epoch it belongs to, read together (docs/access.md, "Grants end"). */
    async passwordHashBySlug(slug: string): Promise<{ id: number; passwordHash: string | null; accessMode: AccessMode; grantEpoch: number } | undefined> {
      const row = (await knex('schools').where({ slug }).first('id', 'password_hash', 'access_mode', 'grant_epoch')) as
        | { id: number; password_hash: string | null; access_mode: AccessMode; grant_epoch: number }
        | undefined;
      return row ? { id: Number(row.id), passwordHash: row.password_hash, accessMode: row.access_mode, grantEpoch: Number(row.grant_epoch) } : undefined;
    },

    /** Cuts off every device unlocked with the school's password until now (docs/access.md, "Grants end"). */
    async revokeGrants(id: number, tx?: Tx): Promise<void> {
      await runner(knex, tx)('schools').where({ id }).increment('grant_epoch', 1);
      await bumpAccessVersion(knex, tx);
    },

    /** A school without a password (`passwordHash` null) is one whose families use their child's code. */
    async insert(input: Omit<SchoolWrite, 'passwordHash'> & { passwordHash: string | null }, tx?: Tx): Promise<number> {
      return insertedId(await runner(knex, tx)('schools').insert({ ...toRow({ ...input, passwordHash: undefined }), password_hash: input.passwordHash, created_at: now() }));
    },

    async update(id: number, input: SchoolWrite, tx?: Tx): Promise<void> {
      const row = toRow(input);
      if (Object.keys(row).length > 0) await runner(knex, tx)('schools').where({ id }).update(row);
    },

    async delete(id: number, tx?: Tx): Promise<void> {
      await runner(knex, tx)('schools').where({ id }).delete();
      await bumpAccessVersion(knex, tx);
    },

    async orderCount(id: number, tx?: Tx): Promise<number> {
      return count(await runner(knex, tx)('orders').where({ school_id: id }).count({ count: '*' }).first());
    },

    async priceListExists(id: number, tx?: Tx): Promise<boolean> {
      return Boolean(await runner(knex, tx)('price_lists').where({ id }).first('id'));
    },
  };
}
export type SchoolRepository = ReturnType<typeof createSchoolRepository>;

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

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
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

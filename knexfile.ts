/**
 * knex CLI configuration (e.g. `npx knex --knexfile knexfile.ts migrate:status` under tsx).
 * The server migrates by itself on start; this file exists for operators. DATABASE_URL selects
 * SQLite (default data/app.sqlite) or MySQL/MariaDB.
 */
import { databaseTarget } from './api/src/db/knex';
import { migrationSource } from './db/migrations/index';

const target = databaseTarget(process.env.DATABASE_URL ?? 'sqlite:data/app.sqlite');

export default {
  ...target.config,
  migrations: { migrationSource },
};

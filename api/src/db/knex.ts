import path from 'node:path';
import fs from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import { WAL_LIMIT_PAGES } from './sqlite-checkpoint';

export type Dialect = 'sqlite' | 'mysql';

/** The database handle as code outside db/ and repositories holds it: passed on, never queried. */
export type Connection = Knex;

export interface DatabaseTarget {
  dialect: Dialect;
  /** sqlite: file path; mysql: database name */
  database: string;
  config: Knex.Config;
}

/** The part of a better-sqlite3 connection this module touches. */
interface SqliteConnection {
  pragma(sql: string): unknown;
  prepare(sql: string): unknown;
}

/** The WAL's size on disk once it starts over: the checkpoint worker's limit, in 4 KB pages. */
const WAL_SIZE_LIMIT_BYTES = WAL_LIMIT_PAGES * 4096;

/** Distinct SQL texts kept prepared per connection; `whereIn` lists of many lengths make many. */
const STATEMENT_CACHE_SIZE = 500;
/** Statements that change the schema (or may): each empties the cache first and is not kept. */
const SCHEMA_CHANGE = /^\s*(create|alter|drop|pragma|vacuum|reindex|analyze|attach|detach)\b/i;

/**
 * knex asks better-sqlite3 to compile every query's SQL anew; on a small indexed read that
 * compiling costs as much as running it. The connection keeps its compiled statements by SQL
 * text instead (knex only ever runs them to completion with all() or run(), so one is never
 * busy when reused), oldest dropped first. A schema change empties the cache, so a statement
 * never outlives the tables it was compiled against.
 */
function cacheStatements(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, unknown>();
  conn.prepare = (sql: string) => {
    if (SCHEMA_CHANGE.test(sql)) {
      cache.clear();
      return prepare(sql);
    }
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(sql, statement);
    }
    return statement;
  };
}

/**
 * Turns DATABASE_URL into a knex config. This is the one place that knows about dialect quirks
 * (docs/architecture.md, "One place for database dialects"): foreign keys and WAL on SQLite;
 * utf8mb4, UTC and plain numbers on MySQL.
 */
export function databaseTarget(url: string, root = process.cwd()): DatabaseTarget {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    const filename = file === ':memory:' ? ':memory:' : path.resolve(root, file);
    return {
      dialect: 'sqlite',
      database: filename,
      config: {
        client: 'better-sqlite3',
        connection: { filename },
        useNullAsDefault: true,
        pool: {
          min: 1,
          max: 1,
          afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
            cacheStatements(conn);
            conn.pragma('foreign_keys = ON');
            conn.pragma('journal_mode = WAL');
            conn.pragma('synchronous = NORMAL');
            conn.pragma('busy_timeout = 5000');
            // A WAL that grew in a burst goes back to this size when it starts over (docs/operations.md, "SQLite's checkpoints").
            conn.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
            done(null, conn);
          },
        },
      },
    };
  }
  if (url.startsWith('mysql:') || url.startsWith('mariadb:')) {
    const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    if (!database) throw new Error('DATABASE_URL must name a database, e.g. mysql://user:pass@host:3306/photos');
    return {
      dialect: 'mysql',
      database,
      config: {
        client: 'mysql2',
        connection: {
          host: parsed.hostname,
          port: parsed.port ? Number(parsed.port) : 3306,
          user: decodeURIComponent(parsed.username),
          password: decodeURIComponent(parsed.password),
          database,
          charset: 'utf8mb4',
          timezone: 'Z',
          supportBigNumbers: true,
          bigNumberStrings: false,
          decimalNumbers: true,
          dateStrings: true,
          enableKeepAlive: true,
        },
        // Opened all at start and kept at least two when idle (docs/operations.md, "What the
        // server does before it answers").
        pool: { min: 2, max: 10 },
        acquireConnectionTimeout: 10_000,
      },
    };
  }
  throw new Error(`DATABASE_URL must start with sqlite: or mysql:, got ${url.split(':')[0]}:`);
}

export function createKnex(target: DatabaseTarget): Knex {
  if (target.dialect === 'sqlite' && target.database !== ':memory:') {
    fs.mkdirSync(path.dirname(target.database), { recursive: true });
  }
  return knexFactory(target.config);
}

/** Database names that knex can create for tests; refuses anything exotic. */
export async function createMysqlDatabase(serverUrl: string, name: string): Promise<void> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Refusing database name ${name}`);
  const target = databaseTarget(serverUrl);
  const admin = knexFactory({ ...target.config, connection: { ...(target.config.connection as object), database: undefined } });
  try {
    await admin.raw(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await admin.destroy();
  }
}

export async function dropMysqlDatabase(serverUrl: string, name: string): Promise<void> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Refusing database name ${name}`);
  const target = databaseTarget(serverUrl);
  const admin = knexFactory({ ...target.config, connection: { ...(target.config.connection as object), database: undefined } });
  try {
    await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await admin.destroy();
  }
}

/** Timestamps are stored as epoch milliseconds (BIGINT) on both dialects. */
export const now = (): number => Date.now();
export const toIso = (ms: number | string | null | undefined): string =>
  ms === null || ms === undefined ? '' : new Date(Number(ms)).toISOString();

/** Rows from SQLite and MySQL differ in how counts come back; normalise to numbers. */
export function count(row: Record<string, unknown> | undefined, key = 'count'): number {
  const value = row?.[key];
  return value === null || value === undefined ? 0 : Number(value);
}

/** MySQL's insert returns [id]; SQLite's too with better-sqlite3. Keep it in one place. */
export function insertedId(result: unknown): number {
  const first = Array.isArray(result) ? result[0] : result;
  const value = typeof first === 'object' && first !== null ? (first as { id?: unknown }).id : first;
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error('Insert did not return an id');
  return id;
}

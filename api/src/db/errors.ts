/**
 * Database failures that say "the database cannot answer right now" rather than "this request is
 * wrong": the server is down or restarting, the connection dropped, the pool is exhausted, or the
 * SQLite file is locked by another process or cannot be opened. The error handler answers them
 * with 503 and Retry-After; everything else stays a 500.
 */

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

const MYSQL_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ER_CON_COUNT_ERROR',
  'ER_TOO_MANY_USER_CONNECTIONS',
  'ER_SERVER_SHUTDOWN',
  'ER_NORMAL_SHUTDOWN',
  'ER_SHUTDOWN_COMPLETE',
  'ER_QUERY_INTERRUPTED',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  'ER_CLIENT_INTERACTION_TIMEOUT',
]);

/** SQLite result codes (better-sqlite3 puts them in `code`; extended codes start with these). */
const SQLITE_PREFIXES = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_CANTOPEN', 'SQLITE_IOERR', 'SQLITE_FULL', 'SQLITE_PROTOCOL'];

interface DriverError {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  fatal?: unknown;
  cause?: unknown;
  errors?: unknown;
}

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  const e = err as DriverError;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  // knex: the pool could not hand out a connection in time ("Timeout acquiring a connection").
  if (e.name === 'KnexTimeoutError' || /Timeout acquiring a connection|Unable to acquire a connection/.test(message)) return true;
  if (NETWORK_CODES.has(code) || MYSQL_CODES.has(code)) return true;
  if (SQLITE_PREFIXES.some((prefix) => code.startsWith(prefix))) return true;
  // mysql2 marks errors that killed the connection as fatal, whatever their code.
  if (e.fatal === true && code !== '') return true;
  // A refused connection to a host with several addresses arrives as an AggregateError.
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/**
 * MySQL/MariaDB took this transaction back to break a deadlock with another one (both waited on
 * locks the other held, often gaps in an index): nothing of it was kept, and it may simply run again.
 */
export function isDeadlock(err: unknown): boolean {
  const e = err as { code?: unknown; errno?: unknown } | null;
  return e?.code === 'ER_LOCK_DEADLOCK' || e?.errno === 1213;
}

/** SQLite and MySQL name a unique-key violation differently. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errno?: number; message?: string };
  return e.code === 'ER_DUP_ENTRY' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || /UNIQUE constraint failed/.test(e.message ?? '');
}

/**
 * A migration run that failed because another process was migrating the same database at the
 * same moment: knex's lock was held, the other process created knex's own tables (or its lock
 * row) a moment before this one tried, or this one waited too long for the other's write
 * (SQLite has one writer at a time). Waiting and trying again finds nothing left to do.
 */
export function isConcurrentMigration(err: unknown): boolean {
  const e = (err ?? {}) as { name?: string; code?: string; message?: string };
  return (
    e.name === 'MigrationLocked' ||
    ['ER_TABLE_EXISTS_ERROR', 'ER_DUP_ENTRY', 'ER_LOCK_WAIT_TIMEOUT', 'ER_LOCK_DEADLOCK'].includes(e.code ?? '') ||
    (e.code ?? '').startsWith('SQLITE_BUSY') ||
    /table `?knex_migrations(_lock)?`? already exists/.test(e.message ?? '')
  );
}

/**
 * A row is still referenced by another table's foreign key (SQLite and MySQL name it differently):
 * for example an order created between a check and a delete still stops the delete.
 */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    e.code === 'ER_ROW_IS_REFERENCED_2' ||
    e.code === 'ER_ROW_IS_REFERENCED' ||
    /FOREIGN KEY constraint failed/.test(e.message ?? '')
  );
}

/** MySQL/MariaDB gave up waiting for a row lock another transaction holds (innodb_lock_wait_timeout). */
export function isLockTimeout(err: unknown): boolean {
  const e = err as { code?: unknown; errno?: unknown } | null;
  return e?.code === 'ER_LOCK_WAIT_TIMEOUT' || e?.errno === 1205;
}

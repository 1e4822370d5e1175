import type { Knex } from 'knex';
import { RateLimiterMySQL, RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Dialect } from '../db/knex';

/** The rate-limit counters kept in the database (the `rate_limits` table), when Redis is not set. */
export interface RateLimitsRepository {
  /** A counter of `points` failures per `duration` seconds, keyed under `keyPrefix`. */
  counter(keyPrefix: string, points: number, duration: number): RateLimiterAbstract;
  /** Deletes the counters that expired before `before` (epoch ms). */
  deleteExpired(before: number): Promise<void>;
}

/** The part of a mysql2 connection (callback API, as knex hands it out) a counter uses. */
interface CallbackConnection {
  query(sql: string, values: unknown[], done: (err: Error | null, rows?: unknown) => void): void;
}

/**
 * rate-limiter-flexible's MySQL counter, whose every count (a failure, a sign-in, an order placed)
 * is two round trips instead of four: its upsert is one atomic statement, so it runs on its own
 * and the row is read after it, without the library's BEGIN and COMMIT around the two
 * (docs/performance.md, "Checkout tails on a warm server"). The read then sees the count as it is
 * once this one is in: with a concurrent count from another process, that one too, as if it had
 * come first. The statements and their arguments are the library's own.
 */
class RateLimiterMySQLUnwrapped extends RateLimiterMySQL {
  _upsertTransaction(conn: CallbackConnection, key: string, points: number, msDuration: number, forceExpire: boolean): Promise<unknown> {
    const run = (sql: string, values: unknown[]) =>
      new Promise<unknown>((resolve, reject) => conn.query(sql, values, (err, rows) => (err ? reject(err) : resolve(rows))));
    const { dbName, tableName } = this as unknown as { dbName: string; tableName: string };
    const dateNow = Date.now();
    const newExpire = msDuration > 0 ? dateNow + msDuration : null;
    const upsert = forceExpire
      ? run('INSERT INTO ??.?? VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE points = ?, expire = ?', [dbName, tableName, key, points, newExpire, points, newExpire])
      : run('INSERT INTO ??.?? VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE points = IF(expire <= ?, ?, points + (?)), expire = IF(expire <= ?, ?, expire)', [
          dbName,
          tableName,
          key,
          points,
          newExpire,
          dateNow,
          points,
          points,
          dateNow,
          newExpire,
        ]);
    return upsert.then(() => run('SELECT points, expire FROM ??.?? WHERE `key` = ?', [dbName, tableName, key]));
  }
}

export function createRateLimitsRepository(knex: Knex, dialect: Dialect, database: string): RateLimitsRepository {
  return {
    counter(keyPrefix, points, duration) {
      const common = { keyPrefix, points, duration, blockDuration: 0 };
      if (dialect === 'mysql') {
        return new RateLimiterMySQLUnwrapped({
          ...common,
          storeClient: knex,
          storeType: 'knex',
          dbName: database,
          tableName: 'rate_limits',
          tableCreated: true,
          clearExpiredByTimeout: false,
        });
      }
      return new RateLimiterSQLite({
        ...common,
        storeClient: knex,
        storeType: 'knex',
        tableName: 'rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: false,
      } as ConstructorParameters<typeof RateLimiterSQLite>[0]);
    },
    async deleteExpired(before) {
      await knex('rate_limits').where('expire', '<', before).delete();
    },
  };
}

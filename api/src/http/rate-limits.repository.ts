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

export function createRateLimitsRepository(knex: Knex, dialect: Dialect, database: string): RateLimitsRepository {
  return {
    counter(keyPrefix, points, duration) {
      const common = { keyPrefix, points, duration, blockDuration: 0 };
      if (dialect === 'mysql') {
        return new RateLimiterMySQL({
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

import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import {
  RateLimiterMySQL,
  RateLimiterRedis,
  RateLimiterRes,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { MSG } from '../../contract/messages';
import { tooManyRequests } from './errors';

/**
 * Brute-force limits for password checks (D3; checklist B1, B2). Only failures count. Each kind has
 * three counters: this client against this target, this client overall, and this target from
 * everywhere (so rotating addresses does not help). Counters live in the database, or in Redis when
 * REDIS_URL is set, so several server processes share them.
 */
export type LimitKind = 'school-unlock' | 'class-unlock' | 'staff-login' | 'customer-login' | 'password-reset';

interface Policy {
  /** failures per window for one client against one target */
  pair: [points: number, seconds: number];
  /** failures per window for one client, all targets */
  client: [points: number, seconds: number];
  /** failures per window for one target, all clients */
  target: [points: number, seconds: number];
}

const POLICIES: Record<LimitKind, Policy> = {
  'school-unlock': { pair: [10, 15 * 60], client: [50, 24 * 3600], target: [300, 3600] },
  'class-unlock': { pair: [10, 15 * 60], client: [50, 24 * 3600], target: [300, 3600] },
  'staff-login': { pair: [10, 15 * 60], client: [100, 3600], target: [100, 3600] },
  'customer-login': { pair: [10, 15 * 60], client: [100, 3600], target: [100, 3600] },
  'password-reset': { pair: [5, 3600], client: [30, 3600], target: [10, 3600] },
};

export interface RateLimits {
  /** Throws 429 with Retry-After when any counter for this attempt is exhausted. */
  guard(kind: LimitKind, client: string, target: string): Promise<void>;
  /** Records a failed attempt; throws 429 once it crosses a limit. */
  fail(kind: LimitKind, client: string, target: string): Promise<void>;
  /** A success forgets this client's failures against this target. */
  succeed(kind: LimitKind, client: string, target: string): Promise<void>;
  /** Removes expired counters (called by the maintenance timer). */
  sweep(): Promise<void>;
}

export interface RateLimitStore {
  knex: Knex;
  dialect: 'sqlite' | 'mysql';
  database: string;
  redis?: Redis | null;
}

export function createRateLimits(store: RateLimitStore): RateLimits {
  const make = (keyPrefix: string, [points, duration]: [number, number]): RateLimiterAbstract => {
    const common = { keyPrefix, points, duration, blockDuration: 0 };
    if (store.redis) return new RateLimiterRedis({ ...common, storeClient: store.redis, useRedisPackage: false });
    if (store.dialect === 'mysql') {
      return new RateLimiterMySQL({
        ...common,
        storeClient: store.knex,
        storeType: 'knex',
        dbName: store.database,
        tableName: 'rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: false,
      });
    }
    return new RateLimiterSQLite({
      ...common,
      storeClient: store.knex,
      storeType: 'knex',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: false,
    } as ConstructorParameters<typeof RateLimiterSQLite>[0]);
  };

  const limiters = Object.fromEntries(
    (Object.keys(POLICIES) as LimitKind[]).map((kind) => {
      const policy = POLICIES[kind];
      return [kind, { pair: make(`${kind}:p`, policy.pair), client: make(`${kind}:c`, policy.client), target: make(`${kind}:t`, policy.target) }];
    }),
  ) as Record<LimitKind, { pair: RateLimiterAbstract; client: RateLimiterAbstract; target: RateLimiterAbstract }>;

  const keysFor = (kind: LimitKind, client: string, target: string) => {
    const l = limiters[kind];
    const t = target.toLowerCase();
    return [
      [l.pair, `${client}|${t}`],
      [l.client, client],
      [l.target, t],
    ] as const;
  };

  return {
    async guard(kind, client, target) {
      let wait = 0;
      for (const [limiter, key] of keysFor(kind, client, target)) {
        const res = await limiter.get(key);
        if (res && res.consumedPoints >= limiter.points) wait = Math.max(wait, res.msBeforeNext);
      }
      if (wait > 0) throw tooManyRequests(MSG.tooManyAttempts, wait / 1000);
    },
    async fail(kind, client, target) {
      let wait = 0;
      for (const [limiter, key] of keysFor(kind, client, target)) {
        try {
          await limiter.consume(key);
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          wait = Math.max(wait, rejection.msBeforeNext);
        }
      }
      if (wait > 0) throw tooManyRequests(MSG.tooManyAttempts, wait / 1000);
    },
    async succeed(kind, client, target) {
      const [[limiter, key]] = keysFor(kind, client, target);
      await limiter.delete(key);
    },
    async sweep() {
      if (!store.redis) await store.knex('rate_limits').where('expire', '<', Date.now() - 3600_000).delete();
    },
  };
}

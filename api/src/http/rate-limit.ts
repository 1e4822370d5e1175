import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { MSG } from '../../contract/messages';
import { tooManyRequests } from './errors';
import { deploymentNamespace } from '../redis';
import type { RateLimitsRepository } from './rate-limits.repository';

/**
 * Brute-force limits for password checks. Only failures count. Each kind has
 * up to three hard counters: this client against this target, this client overall, and this
 * target from everywhere (so rotating addresses does not help). A hard counter on an account
 * would let anyone lock its owner out, so sign-ins instead slow down: past a number of failures
 * for one account from everywhere, each further failure is answered later and later. Counters
 * live in the database, or in Redis when REDIS_URL is set, so several server processes share them.
 */
export type LimitKind =
  | 'school-unlock'
  | 'class-unlock'
  | 'staff-login'
  | 'customer-login'
  | 'password-reset'
  | 'reset-link'
  | 'student-code';

type Window = [points: number, seconds: number];

interface Policy {
  /** failures per window for one client against one target */
  pair: Window | null;
  /** failures per window for one client, all targets */
  client: Window | null;
  /** failures per window for one target, all clients */
  target: Window | null;
  /** Failures for one target from all clients that only slow answers down, never block them. */
  slowdown?: { seconds: number; free: number; maxDelayMs: number };
}

const SIGN_IN: Policy = {
  pair: [10, 15 * 60],
  client: [100, 3600],
  target: null,
  slowdown: { seconds: 3600, free: 10, maxDelayMs: 5000 },
};

const POLICIES: Record<LimitKind, Policy> = {
  'school-unlock': { pair: [10, 15 * 60], client: [50, 24 * 3600], target: [300, 3600] },
  'class-unlock': { pair: [10, 15 * 60], client: [50, 24 * 3600], target: [300, 3600] },
  'staff-login': SIGN_IN,
  'customer-login': SIGN_IN,
  'password-reset': { pair: [5, 3600], client: [30, 3600], target: [10, 3600] },
  /** Reset links that are invalid or expired: per client only (a wrong link names no account). */
  'reset-link': { pair: null, client: [20, 3600], target: null },
  // A code has no target before it is found: the pair is client and code, the target counter is
  // the client's network, so hopping addresses inside one network does not buy more guesses.
  'student-code': { pair: [10, 15 * 60], client: [50, 24 * 3600], target: [300, 3600] },
};

/** 250 ms after the free failures, doubling every five more, up to the policy's maximum. */
export function slowdownDelay(failures: number, slowdown: NonNullable<Policy['slowdown']>): number {
  if (failures <= slowdown.free) return 0;
  return Math.min(slowdown.maxDelayMs, 250 * 2 ** Math.floor((failures - slowdown.free - 1) / 5));
}

export interface FailureOutcome {
  /** How long the caller should wait before answering this failure (0: at once). */
  delayMs: number;
  /** Failures for this target from every client in the slowdown window (0 without one). */
  targetFailures: number;
}

export interface RateLimits {
  /**
   * Throws 429 with Retry-After when any counter for this attempt is exhausted. `pairWith`, when
   * given, replaces the target in the pair counter (see student-code).
   */
  guard(kind: LimitKind, client: string, target: string, pairWith?: string): Promise<void>;
  /** Records a failed attempt; throws 429 once it crosses a limit, else says how much to slow down. */
  fail(kind: LimitKind, client: string, target: string, pairWith?: string): Promise<FailureOutcome>;
  /** A success forgets this client's failures against this target. */
  succeed(kind: LimitKind, client: string, target: string, pairWith?: string): Promise<void>;
  /** Removes expired counters (called by the maintenance timer). */
  sweep(): Promise<void>;
}

export interface RateLimitStore {
  /** The counters in the database, used when Redis is not set. */
  counters: RateLimitsRepository;
  /** Database name or SQLite file: keeps deployments that share one Redis apart. */
  database: string;
  redis?: Redis | null;
}

export function createRateLimits(store: RateLimitStore): RateLimits {
  const make = (keyPrefix: string, [points, duration]: [number, number]): RateLimiterAbstract => {
    if (!store.redis) return store.counters.counter(keyPrefix, points, duration);
    // One Redis may serve several deployments (or test databases): their counters stay apart.
    const prefixed = `${deploymentNamespace(store.database)}:${keyPrefix}`;
    return new RateLimiterRedis({ keyPrefix: prefixed, points, duration, blockDuration: 0, storeClient: store.redis, useRedisPackage: false });
  };

  interface Limiters {
    pair: RateLimiterAbstract | null;
    client: RateLimiterAbstract | null;
    target: RateLimiterAbstract | null;
    slowdown: RateLimiterAbstract | null;
  }
  const limiters = Object.fromEntries(
    (Object.keys(POLICIES) as LimitKind[]).map((kind) => {
      const policy = POLICIES[kind];
      const limiters: Limiters = {
        pair: policy.pair && make(`${kind}:p`, policy.pair),
        client: policy.client && make(`${kind}:c`, policy.client),
        target: policy.target && make(`${kind}:t`, policy.target),
        slowdown: policy.slowdown ? make(`${kind}:s`, [Number.MAX_SAFE_INTEGER, policy.slowdown.seconds]) : null,
      };
      return [kind, limiters];
    }),
  ) as Record<LimitKind, Limiters>;

  /** The hard counters of an attempt, each with its key. */
  const keysFor = (kind: LimitKind, client: string, target: string, pairWith?: string) => {
    const l = limiters[kind];
    const t = target.toLowerCase();
    const keys: [RateLimiterAbstract, string][] = [];
    if (l.pair) keys.push([l.pair, `${client}|${(pairWith ?? target).toLowerCase()}`]);
    if (l.client) keys.push([l.client, client]);
    if (l.target) keys.push([l.target, t]);
    return keys;
  };

  return {
    async guard(kind, client, target, pairWith) {
      let wait = 0;
      for (const [limiter, key] of keysFor(kind, client, target, pairWith)) {
        const res = await limiter.get(key);
        if (res && res.consumedPoints >= limiter.points) wait = Math.max(wait, res.msBeforeNext);
      }
      if (wait > 0) throw tooManyRequests(MSG.tooManyAttempts, wait / 1000);
    },
    async fail(kind, client, target, pairWith) {
      let wait = 0;
      for (const [limiter, key] of keysFor(kind, client, target, pairWith)) {
        try {
          await limiter.consume(key);
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          wait = Math.max(wait, rejection.msBeforeNext);
        }
      }
      if (wait > 0) throw tooManyRequests(MSG.tooManyAttempts, wait / 1000);
      const slowdown = POLICIES[kind].slowdown;
      const counter = limiters[kind].slowdown;
      if (!slowdown || !counter) return { delayMs: 0, targetFailures: 0 };
      const res = await counter.consume(target.toLowerCase());
      return { delayMs: slowdownDelay(res.consumedPoints, slowdown), targetFailures: res.consumedPoints };
    },
    async succeed(kind, client, target, pairWith) {
      const [first] = keysFor(kind, client, target, pairWith);
      if (first) await first[0].delete(first[1]);
    },
    async sweep() {
      if (!store.redis) await store.counters.deleteExpired(Date.now() - 3600_000);
    },
  };
}

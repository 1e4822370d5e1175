import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { MSG } from '../../contract/messages';
import { ORDER_LIMIT_MSG, ORDER_LIMIT_PER_CLIENT, ORDER_LIMIT_WINDOW_SECONDS, SET_PASSWORD_MAILS_PER_DAY } from '../../contract/order-limits';
import { tooManyRequests } from './errors';
import { CODE_RECOVERY_LIMITS } from '../../contract/code-recovery';
import { deploymentNamespace } from '../redis';
import type { RateLimitsRepository } from './rate-limits.repository';
import { clientKey } from './context';
import type { Logger } from '../logger';

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
  | 'student-code'
  | 'guardian-subscribe'
  | 'guardian-phone'
  | 'order-place'
  | 'set-password-mail'
  | 'code-recovery'
  | 'code-recovery-day';

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
  /**
   * Unlocks (docs/access.md, "Limits that slow a guesser"): past `free` failures in `seconds`,
   * each failure makes its pair or its client wait before the next check, 1 s doubling every two
   * failures up to `maxWaitSeconds`; never longer, so a carrier's shared address is slowed, not
   * locked out.
   */
  pace?: { seconds: number; free: { pair: number; client: number }; maxWaitSeconds: number };
  /** Failures of this kind from everywhere in `seconds` that raise the alarm (logged as an error). */
  alarm?: { seconds: number; failures: number };
  /** What a 429 of this kind says, when not MSG.tooManyAttempts. */
  message?: string;
}

const SIGN_IN: Policy = {
  pair: [10, 15 * 60],
  client: [100, 3600],
  target: null,
  slowdown: { seconds: 3600, free: 10, maxDelayMs: 5000 },
};

/**
 * Unlocks by password or code: no hard block at all. The pair (address and school, class or code)
 * and the address wait a little longer after each failure past their free ones; the target (the
 * school, the class, or for a code the address's network) only slows the answers to failures, so
 * the right password or code from anyone is always checked. docs/access.md has the arithmetic.
 */
const UNLOCK: Policy = {
  pair: null,
  client: null,
  target: null,
  slowdown: { seconds: 3600, free: 10, maxDelayMs: 5000 },
  pace: { seconds: 3600, free: { pair: 10, client: 100 }, maxWaitSeconds: 60 },
  alarm: { seconds: 600, failures: 200 },
};

const DEFAULT_POLICIES: Record<LimitKind, Policy> = {
  'school-unlock': UNLOCK,
  'class-unlock': UNLOCK,
  'staff-login': SIGN_IN,
  'customer-login': SIGN_IN,
  'password-reset': { pair: [5, 3600], client: [30, 3600], target: [10, 3600] },
  /** Reset links that are invalid or expired: per client only (a wrong link names no account). */
  'reset-link': { pair: null, client: [20, 3600], target: null },
  // A code has no target before it is found: the pair is client and code, the target counter is
  // the client's network, so hopping addresses inside one network does not buy more guesses.
  'student-code': UNLOCK,
  /**
   * Subscribing sends a confirmation e-mail, so every request counts, as for password resets
   * (docs/outreach.md, "Double opt-in"): per client and address, per client, and per address.
   */
  'guardian-subscribe': { pair: [5, 3600], client: [30, 3600], target: [10, 3600] },
  /**
   * Subscribing by phone sends an SMS with a code, which the photographer pays for and which lets
   * a guesser try five codes: every request counts, per client and number, per client, and per
   * number from everywhere (5 an hour: 25 tries at a 6-digit code; docs/outreach.md, "Double opt-in: by phone").
   */
  'guardian-phone': { pair: [5, 3600], client: [30, 3600], target: [5, 3600] },
  /**
   * Placing orders (docs/access.md, "Placing orders"): every order attempt counts, per pair of the
   * client's address and its gallery grant, so one device cannot place orders nobody pays by the
   * dozen while families behind a carrier's shared address keep their own allowance.
   */
  'order-place': { pair: [ORDER_LIMIT_PER_CLIENT, ORDER_LIMIT_WINDOW_SECONDS], client: null, target: null, message: ORDER_LIMIT_MSG.tooManyOrders },
  /** "Set your password" e-mails of accounts made at checkout, per inbox per day (docs/accounts.md, "Account created at checkout"). */
  'set-password-mail': { pair: null, client: null, target: [SET_PASSWORD_MAILS_PER_DAY, 24 * 3600] },
  /**
   * A code recovered by SMS (docs/sms.md, "Codes recovered by phone"): every request counts, known
   * number or not, per client and per phone an hour, and per phone a day.
   */
  'code-recovery': { pair: null, client: [CODE_RECOVERY_LIMITS.perClientPerHour, 3600], target: [CODE_RECOVERY_LIMITS.perPhonePerHour, 3600] },
  'code-recovery-day': { pair: null, client: null, target: [CODE_RECOVERY_LIMITS.perPhonePerDay, 24 * 3600] },
};

/** Seconds a paced key waits after its nth failure: none for the free ones, then 1, 1, 2, 2, 4, 4, ... up to the cap. */
export function paceWait(failures: number, free: number, maxWaitSeconds: number): number {
  if (failures <= free) return 0;
  return Math.min(maxWaitSeconds, 2 ** Math.floor((failures - free - 1) / 2));
}

/** 250 ms after the free failures, doubling every five more, up to the policy's maximum. */
export function slowdownDelay(failures: number, slowdown: NonNullable<Policy['slowdown']>): number {
  if (failures <= slowdown.free) return 0;
  return Math.min(slowdown.maxDelayMs, 250 * 2 ** Math.floor((failures - slowdown.free - 1) / 5));
}

/** Waits as long as a failure's outcome asks before the failure is answered. */
export async function slowed(outcome: FailureOutcome): Promise<void> {
  if (outcome.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, outcome.delayMs));
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
  /** Whether `guard()` would let this attempt through now; counts nothing. */
  allows(kind: LimitKind, client: string, target: string, pairWith?: string): Promise<boolean>;
  /** Counts one event against every counter of this attempt, never refusing it (what was done is done). */
  record(kind: LimitKind, client: string, target: string, pairWith?: string): Promise<void>;
  /** Removes expired counters (called by the maintenance timer). */
  sweep(): Promise<void>;
}

export interface RateLimitStore {
  /** The counters in the database, used when Redis is not set. */
  counters: RateLimitsRepository;
  /** Database name or SQLite file: keeps deployments that share one Redis apart. */
  database: string;
  redis?: Redis | null;
  /** Hears the failure-rate alarm. */
  logger?: Pick<Logger, 'error'>;
  /** Hears every 429 these limits answer (the metrics' rate_limit_blocks_total). */
  onBlock?: (kind: LimitKind) => void;
  /** Orders one client may place per window (ORDER_LIMIT_PER_CLIENT); default ORDER_LIMIT_PER_CLIENT of the contract. */
  ordersPerClient?: number;
}

export function createRateLimits(store: RateLimitStore): RateLimits {
  const POLICIES: Record<LimitKind, Policy> = {
    ...DEFAULT_POLICIES,
    'order-place': { ...DEFAULT_POLICIES['order-place'], pair: [store.ordersPerClient ?? ORDER_LIMIT_PER_CLIENT, ORDER_LIMIT_WINDOW_SECONDS] },
  };
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
    /** Paced failures of the pair and the client, and the waits they set (a block of one point). */
    paced: { failures: RateLimiterAbstract; waits: RateLimiterAbstract } | null;
    alarm: RateLimiterAbstract | null;
  }
  const limiters = Object.fromEntries(
    (Object.keys(POLICIES) as LimitKind[]).map((kind) => {
      const policy = POLICIES[kind];
      const limiters: Limiters = {
        pair: policy.pair && make(`${kind}:p`, policy.pair),
        client: policy.client && make(`${kind}:c`, policy.client),
        target: policy.target && make(`${kind}:t`, policy.target),
        slowdown: policy.slowdown ? make(`${kind}:s`, [Number.MAX_SAFE_INTEGER, policy.slowdown.seconds]) : null,
        paced: policy.pace
          ? { failures: make(`${kind}:f`, [Number.MAX_SAFE_INTEGER, policy.pace.seconds]), waits: make(`${kind}:w`, [1, policy.pace.maxWaitSeconds]) }
          : null,
        alarm: policy.alarm ? make(`${kind}:g`, [Number.MAX_SAFE_INTEGER, policy.alarm.seconds]) : null,
      };
      return [kind, limiters];
    }),
  ) as Record<LimitKind, Limiters>;

  /** The hard counters of an attempt, each with its key. An IPv6 client counts as its /64. */
  const keysFor = (kind: LimitKind, address: string, target: string, pairWith?: string) => {
    const l = limiters[kind];
    const client = clientKey(address);
    const t = target.toLowerCase();
    const keys: [RateLimiterAbstract, string][] = [];
    if (l.pair) keys.push([l.pair, `${client}|${(pairWith ?? target).toLowerCase()}`]);
    if (l.client) keys.push([l.client, client]);
    if (l.target) keys.push([l.target, t]);
    return keys;
  };
  /** The paced keys of an attempt: the pair and the client, each with its free failures. */
  const pacedKeys = (kind: LimitKind, address: string, target: string, pairWith?: string): [string, number][] => {
    const pace = POLICIES[kind].pace;
    if (!pace) return [];
    const client = clientKey(address);
    return [
      [`p|${client}|${(pairWith ?? target).toLowerCase()}`, pace.free.pair],
      [`c|${client}`, pace.free.client],
    ];
  };
  const alarmed = new Map<LimitKind, number>();
  /** The 429 of a blocked attempt, counted. */
  const blocked = (kind: LimitKind, waitMs: number) => {
    store.onBlock?.(kind);
    return tooManyRequests(POLICIES[kind].message ?? MSG.tooManyAttempts, waitMs / 1000);
  };
  /** How long this attempt must wait under the hard counters and the paced waits (0: it may go ahead). */
  const waitFor = async (kind: LimitKind, client: string, target: string, pairWith?: string): Promise<number> => {
    let wait = 0;
    for (const [limiter, key] of keysFor(kind, client, target, pairWith)) {
      const res = await limiter.get(key);
      if (res && res.consumedPoints >= limiter.points) wait = Math.max(wait, res.msBeforeNext);
    }
    const paced = limiters[kind].paced;
    if (paced) {
      for (const [key] of pacedKeys(kind, client, target, pairWith)) {
        const res = await paced.waits.get(key);
        if (res && res.consumedPoints > paced.waits.points) wait = Math.max(wait, res.msBeforeNext);
      }
    }
    return wait;
  };

  return {
    async guard(kind, client, target, pairWith) {
      const wait = await waitFor(kind, client, target, pairWith);
      if (wait > 0) throw blocked(kind, wait);
    },
    allows: async (kind, client, target, pairWith) => (await waitFor(kind, client, target, pairWith)) === 0,
    async record(kind, client, target, pairWith) {
      for (const [limiter, key] of keysFor(kind, client, target, pairWith)) {
        try {
          await limiter.consume(key);
        } catch (rejection) {
          // Over the allowance already (events racing): the event happened and is counted all the same.
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
        }
      }
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
      if (wait > 0) throw blocked(kind, wait);
      const policy = POLICIES[kind];
      const l = limiters[kind];
      if (policy.pace && l.paced) {
        for (const [key, free] of pacedKeys(kind, client, target, pairWith)) {
          const seconds = paceWait((await l.paced.failures.consume(key)).consumedPoints, free, policy.pace.maxWaitSeconds);
          if (seconds > 0) await l.paced.waits.block(key, seconds);
        }
      }
      if (policy.alarm && l.alarm) {
        const res = await l.alarm.consume('all');
        // Once per window and process, when failures from everywhere reach the alarm's number.
        const windowEnds = Date.now() + res.msBeforeNext;
        if (res.consumedPoints >= policy.alarm.failures && (alarmed.get(kind) ?? 0) < Date.now()) {
          alarmed.set(kind, windowEnds);
          store.logger?.error({ kind, failures: res.consumedPoints, seconds: policy.alarm.seconds }, 'failure-rate alarm: many wrong passwords or codes from everywhere');
        }
      }
      const slowdown = policy.slowdown;
      const counter = limiters[kind].slowdown;
      if (!slowdown || !counter) return { delayMs: 0, targetFailures: 0 };
      const res = await counter.consume(target.toLowerCase());
      return { delayMs: slowdownDelay(res.consumedPoints, slowdown), targetFailures: res.consumedPoints };
    },
    async succeed(kind, client, target, pairWith) {
      const [first] = keysFor(kind, client, target, pairWith);
      if (first) await first[0].delete(first[1]);
      const paced = limiters[kind].paced;
      const [pair] = pacedKeys(kind, client, target, pairWith);
      if (paced && pair) await paced.failures.delete(pair[0]);
    },
    async sweep() {
      if (!store.redis) await store.counters.deleteExpired(Date.now() - 3600_000);
    },
  };
}

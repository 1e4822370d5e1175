import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger';
import { deploymentNamespace } from '../redis';
import type { Connection, Dialect } from '../db/knex';
import { runWithMysqlLock } from '../db/mysql-lock';

/**
 * Background jobs (the payment reconciliation sweep, the rate-limit sweep, the thumbnail
 * backfill) run in every process on a timer, but only one process runs a given job at a time.
 * One rule picks the lock: Redis when REDIS_URL is set (the production setting for several
 * processes), else MySQL/MariaDB's GET_LOCK when the database is MySQL, else a lock inside this
 * process (SQLite is one machine, and its writes are serialised by the file anyway).
 */
export interface JobLock {
  readonly kind: 'redis' | 'mysql' | 'process';
  /**
   * Runs `job` if no process is running a job of this name, without waiting: true when it ran,
   * false when another holder had the lock. The job's own failure propagates after the release.
   * `leaseMs` (Redis only) overrides how long the lock outlives a holder that died: the outbox's
   * sender takes it short, so a restarted process resumes sending at once (docs/email.md, "The outbox").
   */
  runExclusive(name: string, job: () => Promise<void>, options?: { leaseMs?: number }): Promise<boolean>;
}

export interface JobLockOptions {
  knex: Connection;
  dialect: Dialect;
  /** Database name or SQLite file: processes of one deployment share it, others never collide. */
  database: string;
  redis: Redis | null;
  logger: Logger;
  /** Redis only: how long a lock outlives a process that died holding it. */
  leaseMs?: number;
}

export function createJobLock(options: JobLockOptions): JobLock {
  // Lock names are global to the MySQL server or Redis; the database they guard makes them distinct.
  const namespace = deploymentNamespace(options.database);
  const lockName = (name: string) => {
    if (!/^[a-z0-9-]{1,32}$/.test(name)) throw new Error(`Invalid job name ${name}`);
    return `${namespace}:${name}`;
  };
  if (options.redis) return redisLock(options.redis, lockName, options.leaseMs ?? 10 * 60_000, options.logger);
  if (options.dialect === 'mysql') return mysqlLock(options.knex, lockName);
  return processLock();
}

function processLock(): JobLock {
  const running = new Set<string>();
  return {
    kind: 'process',
    async runExclusive(name, job) {
      if (running.has(name)) return false;
      running.add(name);
      try {
        await job();
      } finally {
        running.delete(name);
      }
      return true;
    },
  };
}

/** MySQL/MariaDB's GET_LOCK, held on a connection of its own for the whole job (api/src/db/mysql-lock.ts). */
function mysqlLock(knex: Connection, lockName: (name: string) => string): JobLock {
  return {
    kind: 'mysql',
    async runExclusive(name, job) {
      return runWithMysqlLock(knex, lockName(name), job);
    },
  };
}

/** Deletes the lock only if it still holds this holder's token (never another's after a lapse). */
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const EXTEND = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

/**
 * SET NX PX with a random token: the lease is renewed while the job runs, so a long sweep keeps
 * it and a process that dies gives it up after `leaseMs`.
 */
function redisLock(redis: Redis, lockName: (name: string) => string, defaultLeaseMs: number, logger: Logger): JobLock {
  return {
    kind: 'redis',
    async runExclusive(name, job, options) {
      const key = lockName(name);
      const token = randomBytes(16).toString('hex');
      const leaseMs = options?.leaseMs ?? defaultLeaseMs;
      const got = await redis.set(key, token, 'PX', leaseMs, 'NX');
      if (got !== 'OK') return false;
      const renew = setInterval(() => {
        redis.eval(EXTEND, 1, key, token, String(leaseMs)).catch((err: unknown) => logger.warn({ err, job: name }, 'renewing a job lock failed'));
      }, Math.max(1000, Math.floor(leaseMs / 3)));
      renew.unref();
      try {
        await job();
      } finally {
        clearInterval(renew);
        await redis.eval(RELEASE, 1, key, token).catch((err: unknown) => logger.warn({ err, job: name }, 'releasing a job lock failed; it lapses by itself'));
      }
      return true;
    },
  };
}

import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from './logger';

/**
 * The Redis connection of REDIS_URL, shared by the rate limits and the job lock. Commands fail at
 * once while it is down (no offline queue): a sign-in is not held for minutes. Not connected yet:
 * see connectRedis.
 */
export function createRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', (err) => logger.warn({ err }, 'redis error'));
  return redis;
}

/**
 * Connects before the server takes requests, so the first sign-in finds Redis ready; a Redis that
 * does not answer at start stops the server with a clear message (a wrong REDIS_URL is loud).
 * Later outages are reconnected by ioredis on its own.
 */
export async function connectRedis(redis: Redis, url: string, timeoutMs = 10_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]);
  } catch (err) {
    redis.disconnect();
    const where = url.replace(/\/\/[^@]*@/, '//***@');
    throw new Error(`Redis at ${where} (REDIS_URL) is not reachable: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Key prefix for everything this deployment keeps in Redis (or in MySQL's server-wide lock names):
 * derived from its database, so deployments or test databases sharing one Redis never mix counters.
 */
export function deploymentNamespace(database: string): string {
  return `photos:${createHash('sha256').update(database).digest('hex').slice(0, 16)}`;
}

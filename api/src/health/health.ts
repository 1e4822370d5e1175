import type { Redis } from 'ioredis';
import type { ObjectStorage } from '../storage';

export type ProbeState = 'ok' | 'down' | 'not configured';

/** What GET /api/health reports: each dependency, and `status` ok only when all answer. */
export interface HealthReport {
  status: 'ok' | 'unavailable';
  database: ProbeState;
  storage: ProbeState;
  redis: ProbeState;
}

export type HealthCheck = () => Promise<HealthReport>;

/** A dependency that takes longer than this to answer counts as down: a probe must not hang. */
const HEALTH_PROBE_TIMEOUT_MS = 3_000;

export interface HealthDeps {
  /** Resolves when the database answers a real read (pingDatabase in api/src/db/ping.ts). */
  pingDatabase: () => Promise<void>;
  storage: ObjectStorage;
  redis: Redis | null;
  timeoutMs?: number;
}

export function createHealthCheck(deps: HealthDeps): HealthCheck {
  const timeoutMs = deps.timeoutMs ?? HEALTH_PROBE_TIMEOUT_MS;
  const probe = async (check: (signal: AbortSignal) => Promise<unknown>): Promise<ProbeState> => {
    const signal = AbortSignal.timeout(timeoutMs);
    const timedOut = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('probe timed out')), { once: true }));
    try {
      await Promise.race([check(signal), timedOut]);
      return 'ok';
    } catch {
      return 'down';
    }
  };
  const { redis: client } = deps;
  return async () => {
    const [database, storage, redis] = await Promise.all([
      probe(() => deps.pingDatabase()),
      probe((signal) => deps.storage.check(signal)),
      client ? probe(() => client.ping()) : Promise.resolve<ProbeState>('not configured'),
    ]);
    const status = [database, storage, redis].includes('down') ? 'unavailable' : 'ok';
    return { status, database, storage, redis };
  };
}

import type { JobLock } from '../jobs/job-lock';
import type { Metrics } from './metrics';

/**
 * The job lock, counting every run it is asked for: each background job (and the outbox's sender)
 * runs through it, so one wrapper counts them all by name (docs/operations.md, "Metrics").
 */
export function countedJobLock(lock: JobLock, metrics: Pick<Metrics, 'job'>): JobLock {
  return {
    kind: lock.kind,
    async runExclusive(name, job, options) {
      const started = performance.now();
      try {
        const held = await lock.runExclusive(name, job, options);
        metrics.job(name, held ? 'ran' : 'skipped', (performance.now() - started) / 1000);
        return held;
      } catch (err) {
        // The job threw, or its lock could not be taken (Redis or the database down): a failed run.
        metrics.job(name, 'failed', (performance.now() - started) / 1000);
        throw err;
      }
    },
  };
}

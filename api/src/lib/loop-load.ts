import { performance } from 'node:perf_hooks';

/** How often the load is sampled: the busy share is measured over the last one to two periods. */
const SAMPLE_MS = 50;
/** The longest stretch of the past a reading covers: two sample periods. */
export const LOOP_LOAD_WINDOW_MS = 2 * SAMPLE_MS;

export interface LoopLoad {
  /** The share of the last 50–100 ms this process's event loop spent working (0 to 1). */
  utilization(): number;
  /** Stops sampling. */
  stop(): void;
}

/**
 * Samples this process's event-loop utilization (Node's `performance.eventLoopUtilization()`), so
 * background work can tell a loop that is answering a rush of requests from one that is waiting
 * for them (docs/email.md, "Sending while the server is busy"). The timer does not keep the
 * process alive.
 */
export function watchLoopLoad(): LoopLoad {
  let previous = performance.eventLoopUtilization();
  let latest = previous;
  const timer = setInterval(() => {
    previous = latest;
    latest = performance.eventLoopUtilization();
  }, SAMPLE_MS);
  timer.unref();
  return {
    utilization: () => performance.eventLoopUtilization(performance.eventLoopUtilization(), previous).utilization,
    stop: () => clearInterval(timer),
  };
}

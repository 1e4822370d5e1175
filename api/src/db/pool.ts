import type { Knex } from 'knex';

/** What the connection pool holds now, for the metrics (docs/operations.md, "Metrics"). */
export interface PoolStats {
  /** Connections lent to a query or transaction. */
  used: number;
  /** Connections open and idle. */
  free: number;
  /** Queries and transactions waiting for a connection. */
  pending: number;
  /** The most the pool opens. */
  max: number;
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

/** Reads knex's tarn pool; null once the pool is destroyed (or before knex made one). */
export function poolStats(knex: Knex): PoolStats | null {
  const pool = (knex.client as { pool?: TarnPool | null }).pool;
  if (!pool) return null;
  return { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires(), max: pool.max };
}

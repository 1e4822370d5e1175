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

interface PoolClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  pool?: { max: number } | null;
}

/**
 * Opens every connection the pool may hold, all at once, and hands them back idle: the first rush
 * after a start then finds them open instead of opening them one by one under its load
 * (docs/operations.md, "What the server does before it answers"). On SQLite the one connection is
 * already open (migrations used it); this only checks it out and back.
 */
export async function warmPool(knex: Knex): Promise<void> {
  const client = knex.client as PoolClient;
  const size = client.pool?.max ?? 1;
  const settled = await Promise.allSettled(Array.from({ length: size }, () => client.acquireConnection()));
  await Promise.all(settled.flatMap((result) => (result.status === 'fulfilled' ? [client.releaseConnection(result.value)] : [])));
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

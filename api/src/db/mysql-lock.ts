import type { Knex } from 'knex';

/**
 * Runs `job` while holding MySQL/MariaDB's named lock `lock` (GET_LOCK), without waiting: true when
 * it ran, false when another connection held the lock. The job's own failure propagates after the
 * release. GET_LOCK belongs to one connection: the connection is taken from the pool for the whole
 * job, and a process that dies drops its connection and so its lock.
 */
export async function runWithMysqlLock(knex: Knex, lock: string, job: () => Promise<void>): Promise<boolean> {
  const connection: unknown = await knex.client.acquireConnection();
  // A connection that may still hold the lock must not go back to the pool: it is closed, and
  // the pool drops it when it next validates it.
  let holdsLock = false;
  try {
    const [rows] = (await knex.raw('SELECT GET_LOCK(?, 0) AS got', [lock]).connection(connection)) as [{ got: number | null }[]];
    if (Number(rows[0]?.got) !== 1) return false;
    holdsLock = true;
    try {
      await job();
    } finally {
      const [released] = (await knex
        .raw('SELECT RELEASE_LOCK(?) AS released', [lock])
        .connection(connection)
        .catch(() => [[]])) as [{ released: number | null }[]];
      if (Number(released[0]?.released) === 1) holdsLock = false;
    }
    return true;
  } finally {
    if (holdsLock) await knex.client.destroyRawConnection(connection).catch(() => undefined);
    await knex.client.releaseConnection(connection);
  }
}

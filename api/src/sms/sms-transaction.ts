/**
 * An SMS is written with its short links in one transaction (docs/sms.md, "The season by SMS"): the
 * links first (the text carries them), then the outbox row. When the outbox writes nothing (the
 * phone unsubscribed a moment ago, the row is there already, the window would pass closing), the
 * links are rolled back with it, so no link is left that no SMS carries.
 */
import type { Database, Tx } from '../db/database';

class NothingWritten extends Error {}

/** Runs `work` in one transaction, kept only when it answers true; answers what it answered. */
export async function writeSms(database: Database, work: (tx: Tx) => Promise<boolean>): Promise<boolean> {
  try {
    return await database.transaction(async (tx) => {
      if (!(await work(tx))) throw new NothingWritten();
      return true;
    });
  } catch (err) {
    if (err instanceof NothingWritten) return false;
    throw err;
  }
}

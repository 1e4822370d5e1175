/**
 * The database as services see it: a way to run work in one transaction, and nothing to query with.
 * A service that must change several tables at once opens a transaction here and hands its `Tx` to
 * the repositories it calls; only repositories (and this module) turn a `Tx` back into knex, so no
 * SQL is ever written outside them (docs/architecture.md, "Layers").
 */
import type { Knex } from 'knex';

declare const opaque: unique symbol;

/** A transaction in progress. Opaque outside repositories: pass it on, never query with it. */
export interface Tx {
  readonly [opaque]: 'Tx';
}

export interface Database {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}

export function createDatabase(knex: Knex): Database {
  return {
    transaction: (work) => knex.transaction((trx) => work(trx as unknown as Tx)),
  };
}

/** For repositories: the transaction to run in when one was handed over, else the pool. */
export function runner(knex: Knex, tx?: Tx | null): Knex {
  return tx ? (tx as unknown as Knex.Transaction) : knex;
}

/** For repositories that are handed a transaction and must use it. */
export function inTx(tx: Tx): Knex.Transaction {
  return tx as unknown as Knex.Transaction;
}

/**
 * Runs `then` once `tx` has committed (never when it rolls back), or at once without a
 * transaction: for what must count only work that really happened, such as the metrics.
 */
export function afterCommit(tx: Tx | null | undefined, then: () => void): void {
  if (!tx) {
    then();
    return;
  }
  (tx as unknown as Knex.Transaction).executionPromise.then(then, () => undefined);
}

import type { Logger } from '../../logger';
import type { SandboxTransaction } from './sandbox-outcome';

export interface NotifierOptions {
  logger: Logger;
  retryDelayMs: number;
  maxRetries: number;
  duplicates: number;
  timeoutMs: number;
  fetch: typeof fetch;
}

export interface Notifier {
  /** Sends the notify (plus duplicates); resolves when those first attempts have finished. */
  send(tx: SandboxTransaction, body: string): Promise<void>;
  /** The same, after a delay: a notify that arrives after the browser return. */
  sendLater(tx: SandboxTransaction, body: string, delayMs: number): void;
  /** Runs a task later (a final notify that is due); cancelled by close(). */
  later(task: () => Promise<void>, delayMs: number): void;
  close(): void;
}

/**
 * Server-to-server notify as PayGate does it (docs/payments.md, "Notify"): urlencoded POST, only the exact body
 * `OK` counts as received, anything else is retried after retryDelayMs up to maxRetries times. A transaction that
 * has a newer notify (the final one after "received") stops retrying the older one: its news is out of date.
 */
export function createNotifier(options: NotifierOptions): Notifier {
  const { logger, retryDelayMs, maxRetries, duplicates, timeoutMs } = options;
  const timers = new Set<NodeJS.Timeout>();
  /** The body each transaction's notifies now carry. */
  const latest = new WeakMap<SandboxTransaction, string>();
  let closed = false;

  function schedule(task: () => Promise<void>, delayMs: number): void {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void task();
    }, delayMs);
    timers.add(timer);
  }

  async function attempt(tx: SandboxTransaction, url: string, body: string): Promise<boolean> {
    tx.notifyAttempts += 1;
    const context = { payRequestId: tx.payRequestId, attempt: tx.notifyAttempts, notifyUrl: url };
    try {
      const response = await options.fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'manual',
      });
      const text = await response.text();
      const acknowledged = response.ok && text === 'OK';
      if (acknowledged) logger.info(context, 'paygate sandbox: notify acknowledged');
      else logger.warn({ ...context, status: response.status, body: text.slice(0, 200) }, 'paygate sandbox: notify not acknowledged with OK');
      return acknowledged;
    } catch (err) {
      logger.warn({ ...context, err }, 'paygate sandbox: notify delivery failed');
      return false;
    }
  }

  async function deliver(tx: SandboxTransaction, url: string, body: string, retriesLeft: number): Promise<void> {
    if (latest.get(tx) !== body) return;
    if (await attempt(tx, url, body)) {
      if (latest.get(tx) === body) tx.notifyAcknowledged = true;
      return;
    }
    if (retriesLeft <= 0) {
      logger.warn({ payRequestId: tx.payRequestId, attempts: tx.notifyAttempts }, 'paygate sandbox: notify retries exhausted');
      return;
    }
    schedule(() => deliver(tx, url, body, retriesLeft - 1), retryDelayMs);
  }

  /** From now on the transaction's notifies carry `body`; older ones still being retried stop. */
  function supersede(tx: SandboxTransaction, body: string): void {
    if (latest.get(tx) !== body) tx.notifyAcknowledged = false;
    latest.set(tx, body);
  }

  async function send(tx: SandboxTransaction, body: string): Promise<void> {
    if (closed || tx.notifyUrl === null) return;
    const url = tx.notifyUrl;
    supersede(tx, body);
    const extra = Array.from({ length: duplicates }, () => attempt(tx, url, body));
    await Promise.all([deliver(tx, url, body, maxRetries), ...extra]);
  }

  return {
    send,
    sendLater(tx, body, delayMs) {
      supersede(tx, body);
      schedule(async () => {
        if (latest.get(tx) === body) await send(tx, body);
      }, delayMs);
    },
    later: schedule,
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { AppContext, AppState } from '../../http/context';
import type { Logger } from '../../logger';
import {
  checksumEquals,
  encodeFormPairs,
  pairValue,
  requestChecksum,
  returnChecksum,
  signPairs,
  type FormPairs,
} from './checksum';
import { readFormPairs } from './form-body';
import { validateInitiate } from './sandbox-initiate';
import { createNotifier } from './sandbox-notifier';
import {
  cancelOutcome,
  cardOutcome,
  isFutureExpiry,
  pendingPairs,
  resultPairs,
  type Outcome,
  type SandboxTransaction,
} from './sandbox-outcome';
import { AUTOSUBMIT_SCRIPT, errorPage, paymentPage, returnPage } from './sandbox-pages';
import { isCancelledStatus } from './codes';

export type { SandboxTransaction } from './sandbox-outcome';

export interface SandboxGatewayOptions {
  paygateId: string;
  secret: string;
  logger: Logger;
  /** PayGate retries every 30 minutes (docs/payments.md, "Notify"); tests shorten it. */
  notifyRetryDelayMs?: number;
  maxNotifyRetries?: number;
  /** Extra copies of each notify, sent concurrently with the first: exercises idempotency. */
  duplicateNotifies?: number;
  /** > 0: answer the browser first and notify later, i.e. a notify that arrives after the return. */
  notifyDelayMs?: number;
  /** A lost notify: the merchant must recover through query. */
  suppressNotify?: boolean;
  /** The docs say 3 for a customer cancel, PayGate's plugins treat 4 as user-cancel (docs/payments.md, "Transaction statuses"). */
  cancelStatus?: 3 | 4;
  /** Post AUTH_CODE as the text `null` (signed as empty) on non-approved outcomes (docs/payments.md, "The null authorisation code"). */
  nullAuthCodeOnDecline?: boolean;
  notifyTimeoutMs?: number;
  fetch?: typeof fetch;
  /** Clock for the 30-minute TXN_PRC rule and the expiry check. */
  now?: () => number;
}

export interface SandboxGateway {
  router: Router<AppState, AppContext>;
  transactions: ReadonlyMap<string, Readonly<SandboxTransaction>>;
  /** Stops pending notify retries and delayed notifies. */
  close(): void;
}

const REQUEST_LIFETIME_MS = 30 * 60 * 1000;

/**
 * A development stand-in for PayGate PayWeb3 speaking the same protocol (docs/payments.md,
 * "The built-in sandbox"). Routes carry no prefix: the app mounts the router at its root so that baseUrl = the app's
 * own origin works exactly like https://secure.paygate.co.za. State lives in memory.
 */
export function createSandboxGateway(options: SandboxGatewayOptions): SandboxGateway {
  const { paygateId, secret, logger, cancelStatus = 4, suppressNotify = false, notifyDelayMs = 0 } = options;
  const now = options.now ?? Date.now;
  const transactions = new Map<string, SandboxTransaction>();
  const notifier = createNotifier({
    logger,
    retryDelayMs: options.notifyRetryDelayMs ?? REQUEST_LIFETIME_MS,
    maxRetries: options.maxNotifyRetries ?? 3,
    duplicates: options.duplicateNotifies ?? 0,
    timeoutMs: options.notifyTimeoutMs ?? 10_000,
    fetch: options.fetch ?? fetch,
  });
  const router = new Router<AppState, AppContext>();

  function answerFields(ctx: AppContext, pairs: FormPairs): void {
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/plain';
    ctx.body = encodeFormPairs(pairs);
  }

  function answerHtml(ctx: AppContext, status: number, html: string): void {
    ctx.status = status;
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html';
    ctx.body = html;
  }

  /** process.trans and pay.trans accept the same two fields and the same state checks. */
  function openTransaction(pairs: FormPairs): { tx: SandboxTransaction } | { error: string } {
    const payRequestId = pairValue(pairs, 'PAY_REQUEST_ID');
    if (!payRequestId) return { error: 'DATA_PAY_REQ_ID' };
    const tx = transactions.get(payRequestId);
    if (!tx) return { error: 'ND_INV_PRID' };
    if (!checksumEquals(requestChecksum(tx, secret), pairValue(pairs, 'CHECKSUM') ?? '')) return { error: 'DATA_CHK' };
    if (tx.transactionStatus !== null) return { error: isCancelledStatus(tx.transactionStatus) ? 'TXN_CAN' : 'TXN_CMP' };
    if (now() - tx.createdAt > REQUEST_LIFETIME_MS) return { error: 'TXN_PRC' };
    return { tx };
  }

  router.post('/payweb3/initiate.trans', async (ctx) => {
    const checked = validateInitiate(await readFormPairs(ctx), paygateId, secret);
    if (!checked.ok) {
      logger.info({ error: checked.error }, 'paygate sandbox: initiate rejected');
      answerFields(ctx, [['ERROR', checked.error]]);
      return;
    }
    const f = checked.fields;
    const tx: SandboxTransaction = {
      payRequestId: randomUUID().toUpperCase(),
      paygateId,
      reference: f.REFERENCE ?? '',
      amount: f.AMOUNT ?? '',
      currency: f.CURRENCY ?? '',
      returnUrl: f.RETURN_URL ?? '',
      notifyUrl: f.NOTIFY_URL || null,
      email: f.EMAIL ?? '',
      userFields: (['USER1', 'USER2', 'USER3'] as const).flatMap((name): FormPairs => (f[name] ? [[name, f[name]]] : [])),
      createdAt: now(),
      result: null,
      transactionStatus: null,
      notifyAttempts: 0,
      notifyAcknowledged: false,
    };
    transactions.set(tx.payRequestId, tx);
    answerFields(
      ctx,
      signPairs(
        [
          ['PAYGATE_ID', tx.paygateId],
          ['PAY_REQUEST_ID', tx.payRequestId],
          ['REFERENCE', tx.reference],
        ],
        secret,
      ),
    );
  });

  router.post('/payweb3/process.trans', async (ctx) => {
    const opened = openTransaction(await readFormPairs(ctx));
    if ('error' in opened) {
      answerHtml(ctx, 400, errorPage(opened.error));
      return;
    }
    const { tx } = opened;
    answerHtml(ctx, 200, paymentPage({ ...tx, checksum: requestChecksum(tx, secret), now: new Date(now()) }));
  });

  router.post('/payweb3/pay.trans', async (ctx) => {
    const pairs = await readFormPairs(ctx);
    const opened = openTransaction(pairs);
    if ('error' in opened) {
      answerHtml(ctx, 400, errorPage(opened.error));
      return;
    }
    const { tx } = opened;
    let outcome: Outcome;
    if (pairValue(pairs, 'ACTION') === 'cancel') {
      outcome = cancelOutcome(cancelStatus);
    } else {
      const cardNumber = (pairValue(pairs, 'CARD_NUMBER') ?? '').replace(/[\s-]/g, '');
      const expiry = pairValue(pairs, 'EXPIRY') ?? '';
      if (!isFutureExpiry(expiry, new Date(now()))) {
        const page = paymentPage({
          ...tx,
          checksum: requestChecksum(tx, secret),
          now: new Date(now()),
          cardNumber,
          expiry,
          error: 'Enter an expiry date in the future, as MM/YY.',
        });
        answerHtml(ctx, 400, page);
        return;
      }
      outcome = cardOutcome(cardNumber);
    }
    await complete(tx, outcome);
    const transactionStatus = String(outcome.status);
    answerHtml(
      ctx,
      200,
      returnPage({
        returnUrl: tx.returnUrl,
        payRequestId: tx.payRequestId,
        transactionStatus: outcome.status,
        checksum: returnChecksum({ ...tx, transactionStatus }, secret),
      }),
    );
  });

  /** Records the outcome, then notifies: before the browser return unless a late notify is asked for. */
  async function complete(tx: SandboxTransaction, outcome: Outcome): Promise<void> {
    tx.result = resultPairs(tx, outcome);
    tx.transactionStatus = outcome.status;
    logger.info({ payRequestId: tx.payRequestId, status: outcome.status, resultCode: outcome.resultCode }, 'paygate sandbox: payment finished');
    if (tx.notifyUrl === null) return;
    if (suppressNotify) {
      logger.warn({ payRequestId: tx.payRequestId }, 'paygate sandbox: notify suppressed (simulating a lost notify)');
      return;
    }
    const signed = signPairs(tx.result, secret);
    const posted =
      options.nullAuthCodeOnDecline && !outcome.approved
        ? signed.map(([name, value]): [string, string] => [name, name === 'AUTH_CODE' && value === '' ? 'null' : value])
        : signed;
    const body = encodeFormPairs(posted);
    if (notifyDelayMs > 0) notifier.sendLater(tx, body, notifyDelayMs);
    else await notifier.send(tx, body);
  }

  router.post('/payweb3/query.trans', async (ctx) => {
    const pairs = await readFormPairs(ctx);
    const payRequestId = pairValue(pairs, 'PAY_REQUEST_ID');
    const identity = { paygateId: pairValue(pairs, 'PAYGATE_ID'), reference: pairValue(pairs, 'REFERENCE'), payRequestId };
    const checksum = pairValue(pairs, 'CHECKSUM');
    let error: string | null = null;
    if (!payRequestId) error = 'DATA_PAY_REQ_ID';
    else if (identity.paygateId === undefined || identity.reference === undefined || checksum === undefined) error = 'DATA_PW';
    else if (identity.paygateId !== paygateId) error = 'ND_INV_PGID';
    else if (!checksumEquals(requestChecksum({ paygateId, payRequestId, reference: identity.reference }, secret), checksum)) {
      error = 'DATA_CHK';
    }
    const tx = payRequestId ? transactions.get(payRequestId) : undefined;
    if (!error && (!tx || tx.reference !== identity.reference)) error = 'ND_INV_PRID';
    if (error || !tx) {
      answerFields(ctx, [['ERROR', error ?? 'ND_INV_PRID']]);
      return;
    }
    answerFields(ctx, signPairs(tx.result ?? pendingPairs(tx), secret));
  });

  router.get('/payweb3/autosubmit.js', (ctx) => {
    ctx.type = 'application/javascript';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = AUTOSUBMIT_SCRIPT;
  });

  return { router, transactions, close: () => notifier.close() };
}

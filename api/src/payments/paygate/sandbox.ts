import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { AppContext, AppState } from '../../http/context';
import type { Logger } from '../../logger';
import {
  checksumEquals,
  encodeFormPairs,
  pairValue,
  parseFormPairs,
  requestChecksum,
  returnChecksum,
  signPairs,
  type FormPairs,
} from './checksum';
import { readFormPairs } from './form-body';
import { PAYMENT_METHOD_DEFINITIONS, type PaymentMethodId } from '../../../contract/payment-methods';
import { validateInitiate } from './sandbox-initiate';
import { createNotifier } from './sandbox-notifier';
import {
  botswanaMobile,
  cancelOutcome,
  cardOutcome,
  isFutureExpiry,
  pendingPairs,
  receivedOutcome,
  resultPairs,
  settledOutcome,
  SANDBOX_WALLETS,
  type Outcome,
  type SandboxPayMethod,
  type SandboxTransaction,
} from './sandbox-outcome';
import { AUTOSUBMIT_SCRIPT, errorPage, methodChoicePage, paymentPage, returnPage, transferPage, walletPage } from './sandbox-pages';
import { isCancelledStatus, TRANSACTION_STATUS } from './codes';

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
  /** The methods the merchant account carries (PAYMENT_METHODS); default card only. */
  paymentMethods?: readonly PaymentMethodId[];
  /** Bank transfer: the final notify comes this long after "received" (SANDBOX_FINAL_NOTIFY_MS). */
  finalNotifyMs?: number;
  /** Bank transfer's final outcome: approve (default), decline, or none (stays pending until settled). */
  finalNotify?: 'approve' | 'decline' | 'none';
  /** E-wallet: > 0 answers "received" (5) first and the phone's answer this much later (SANDBOX_EWALLET_DELAY_MS). */
  ewalletDelayMs?: number;
  /** How many requests are kept in memory at most (the oldest finished ones go first). */
  maxRequests?: number;
}

/** What the back office's settle answers (docs/payments.md, "Settling by hand"). */
export type SettleResult = 'settled' | 'unknown' | 'not-pending';

export interface SandboxGateway {
  router: Router<AppState, AppContext>;
  transactions: ReadonlyMap<string, Readonly<SandboxTransaction>>;
  /** Ends a received (status 5) e-wallet or bank transfer now and sends its final notify (first attempt awaited). */
  settle(payRequestId: string, approved: boolean): Promise<SettleResult>;
  /**
   * What the sandbox answers a merchant server's POST to `path` (initiate.trans or query.trans)
   * with this urlencoded body: the same text its HTTP endpoint answers, without the round trip
   * through this process's own HTTP server (docs/payments.md, "The built-in sandbox").
   */
  answer(path: string, body: string): Promise<string>;
  /** Stops pending notify retries and delayed notifies. */
  close(): void;
}

const REQUEST_LIFETIME_MS = 30 * 60 * 1000;
/**
 * Requests are forgotten 25 hours after they were made (the server's sweep asks about payments up
 * to 24 hours old), except those received and not final yet (status 5): those stay until settled.
 * Beyond maxRequests the oldest finished go first, then the oldest pending (docs/payments.md, "The built-in sandbox").
 */
const REQUEST_RETENTION_MS = 25 * 60 * 60 * 1000;
const DEFAULT_MAX_REQUESTS = 20_000;

/**
 * A development stand-in for PayGate PayWeb3 speaking the same protocol (docs/payments.md,
 * "The built-in sandbox"). Routes carry no prefix: the app mounts the router at its root so that baseUrl = the app's
 * own origin works exactly like https://secure.paygate.co.za. State lives in memory.
 */
export function createSandboxGateway(options: SandboxGatewayOptions): SandboxGateway {
  const { paygateId, secret, logger, cancelStatus = 4, suppressNotify = false, notifyDelayMs = 0 } = options;
  const { finalNotifyMs = 5000, finalNotify = 'approve', ewalletDelayMs = 0, maxRequests = DEFAULT_MAX_REQUESTS } = options;
  const now = options.now ?? Date.now;
  /** The account's PAY_METHODs, card first (PAYMENT_METHOD_IDS order). */
  const carried: SandboxPayMethod[] = (options.paymentMethods ?? ['card']).map((methodId) => PAYMENT_METHOD_DEFINITIONS[methodId].payMethod);
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

  const isPending = (tx: SandboxTransaction) => tx.transactionStatus === TRANSACTION_STATUS.received;

  /** Keeps a new request, forgetting old finished ones and, past maxRequests, the oldest (see REQUEST_RETENTION_MS). */
  function remember(tx: SandboxTransaction): void {
    const cutoff = now() - REQUEST_RETENTION_MS;
    for (const [id, old] of transactions) {
      if (old.createdAt > cutoff) break;
      if (!isPending(old)) transactions.delete(id);
    }
    if (transactions.size >= maxRequests) {
      const oldest = [...transactions.values()].find((old) => !isPending(old)) ?? transactions.values().next().value;
      if (oldest) {
        if (isPending(oldest)) logger.warn({ payRequestId: oldest.payRequestId }, 'paygate sandbox: too many requests, forgetting a pending one');
        transactions.delete(oldest.payRequestId);
      }
    }
    transactions.set(tx.payRequestId, tx);
  }

  /**
   * The method page process.trans shows: the initiate's PAY_METHOD, else the one chosen on the
   * choice page, else the only one the account carries; null shows the choice.
   */
  function pageMethod(tx: SandboxTransaction, posted: string | undefined): SandboxPayMethod | null | 'not-carried' {
    if (tx.payMethod) return tx.payMethod;
    if (posted) return (carried as string[]).includes(posted) ? (posted as SandboxPayMethod) : 'not-carried';
    return carried.length === 1 ? (carried[0] ?? 'CC') : null;
  }

  /** The request may be paid with `method` on that method's own page. */
  const allows = (tx: SandboxTransaction, method: SandboxPayMethod) => (tx.payMethod ?? method) === method && carried.includes(method);

  /**
   * A method page's form: its open request when that request may be paid this way; otherwise the
   * error page is answered (the request's own error, or DATA_PM for another method) and null returned.
   */
  async function methodForm(ctx: AppContext, method: SandboxPayMethod): Promise<{ pairs: FormPairs; tx: SandboxTransaction } | null> {
    const pairs = await readFormPairs(ctx);
    const opened = openTransaction(pairs);
    if ('error' in opened) {
      answerHtml(ctx, 400, errorPage(opened.error));
      return null;
    }
    if (!allows(opened.tx, method)) {
      answerHtml(ctx, 400, errorPage('DATA_PM'));
      return null;
    }
    return { pairs, tx: opened.tx };
  }

  /** initiate.trans: a new request, or ERROR (docs/payments.md, "The built-in sandbox"). */
  function initiate(pairs: FormPairs): FormPairs {
    const checked = validateInitiate(pairs, paygateId, secret, carried);
    if (!checked.ok) {
      logger.info({ error: checked.error }, 'paygate sandbox: initiate rejected');
      return [['ERROR', checked.error]];
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
      payMethod: (f.PAY_METHOD || null) as SandboxPayMethod | null,
      payMethodDetail: f.PAY_METHOD ? f.PAY_METHOD_DETAIL || null : null,
      result: null,
      transactionStatus: null,
      transactionId: null,
      pending: null,
      notifyAttempts: 0,
      notifyAcknowledged: false,
    };
    remember(tx);
    return signPairs(
      [
        ['PAYGATE_ID', tx.paygateId],
        ['PAY_REQUEST_ID', tx.payRequestId],
        ['REFERENCE', tx.reference],
      ],
      secret,
    );
  }

  /** query.trans: the request's result so far (pending until paid), or ERROR. */
  function query(pairs: FormPairs): FormPairs {
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
    if (error || !tx) return [['ERROR', error ?? 'ND_INV_PRID']];
    return signPairs(tx.result ?? pendingPairs(tx), secret);
  }

  /** The merchant server's calls, by path: what initiate.trans and query.trans answer. */
  const serverCalls = new Map<string, (pairs: FormPairs) => FormPairs>([
    ['/payweb3/initiate.trans', initiate],
    ['/payweb3/query.trans', query],
  ]);

  router.post('/payweb3/initiate.trans', async (ctx) => {
    answerFields(ctx, initiate(await readFormPairs(ctx)));
  });

  router.post('/payweb3/process.trans', async (ctx) => {
    const pairs = await readFormPairs(ctx);
    const opened = openTransaction(pairs);
    if ('error' in opened) {
      answerHtml(ctx, 400, errorPage(opened.error));
      return;
    }
    const { tx } = opened;
    const form = { ...tx, checksum: requestChecksum(tx, secret) };
    const method = pageMethod(tx, pairValue(pairs, 'PAY_METHOD'));
    const canChooseOther = tx.payMethod === null && carried.length > 1;
    if (method === 'not-carried') answerHtml(ctx, 400, errorPage('DATA_PM'));
    else if (method === null) answerHtml(ctx, 200, methodChoicePage({ ...form, methods: carried }));
    else if (method === 'EW') answerHtml(ctx, 200, walletPage({ ...form, fixedWallet: tx.payMethodDetail, delayMs: ewalletDelayMs, canChooseOther }));
    else if (method === 'BT') answerHtml(ctx, 200, transferPage({ ...form, finalNotify, finalNotifyMs, canChooseOther }));
    else answerHtml(ctx, 200, paymentPage({ ...form, now: new Date(now()) }));
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
    } else if (!allows(tx, 'CC')) {
      answerHtml(ctx, 400, errorPage('DATA_PM'));
      return;
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
    answerReturn(ctx, tx, outcome.status);
  });

  /** The browser goes back to RETURN_URL with the status it has now. */
  function answerReturn(ctx: AppContext, tx: SandboxTransaction, status: number): void {
    const page = returnPage({
      returnUrl: tx.returnUrl,
      payRequestId: tx.payRequestId,
      transactionStatus: status,
      checksum: returnChecksum({ ...tx, transactionStatus: String(status) }, secret),
    });
    answerHtml(ctx, 200, page);
  }

  /**
   * The e-wallet page's form: the number must be a Botswana mobile number (else the form again, 400);
   * then the phone's answer, at once, or after "received" when SANDBOX_EWALLET_DELAY_MS is set.
   */
  router.post('/payweb3/ewallet.trans', async (ctx) => {
    const form = await methodForm(ctx, 'EW');
    if (!form) return;
    const { pairs, tx } = form;
    const action = pairValue(pairs, 'ACTION');
    const postedWallet = pairValue(pairs, 'WALLET') ?? '';
    const wallet = tx.payMethodDetail ?? (SANDBOX_WALLETS.includes(postedWallet) ? postedWallet : (SANDBOX_WALLETS[0] ?? ''));
    if (action === 'cancel') {
      const outcome = cancelOutcome(cancelStatus, { payMethod: 'EW', payMethodDetail: wallet });
      await complete(tx, outcome);
      answerReturn(ctx, tx, outcome.status);
      return;
    }
    const mobileNumber = pairValue(pairs, 'MOBILE_NUMBER') ?? '';
    const reshow = (error: string) =>
      answerHtml(
        ctx,
        400,
        walletPage({
          ...tx,
          checksum: requestChecksum(tx, secret),
          fixedWallet: tx.payMethodDetail,
          wallet,
          mobileNumber,
          error,
          delayMs: ewalletDelayMs,
          canChooseOther: tx.payMethod === null && carried.length > 1,
        }),
      );
    if (action !== 'approve' && action !== 'decline') {
      reshow('Choose whether the phone approves or declines the payment.');
      return;
    }
    if (botswanaMobile(mobileNumber) === null) {
      reshow('Enter a Botswana mobile number: 8 digits starting with 7, for example 71 234 567.');
      return;
    }
    const approved = action === 'approve';
    if (ewalletDelayMs > 0) {
      await receive(tx, { payMethod: 'EW', payMethodDetail: wallet, scheduled: approved ? 'approve' : 'decline', delayMs: ewalletDelayMs });
      answerReturn(ctx, tx, TRANSACTION_STATUS.received);
      return;
    }
    const outcome = settledOutcome('EW', wallet, approved);
    await complete(tx, outcome);
    answerReturn(ctx, tx, outcome.status);
  });

  /** The bank-transfer page's form: "I have made the transfer" answers received (5); the bank's answer comes later. */
  router.post('/payweb3/transfer.trans', async (ctx) => {
    const form = await methodForm(ctx, 'BT');
    if (!form) return;
    const { pairs, tx } = form;
    if (pairValue(pairs, 'ACTION') === 'cancel') {
      const outcome = cancelOutcome(cancelStatus, { payMethod: 'BT', payMethodDetail: 'SID' });
      await complete(tx, outcome);
      answerReturn(ctx, tx, outcome.status);
      return;
    }
    await receive(tx, { payMethod: 'BT', payMethodDetail: 'SID', scheduled: finalNotify === 'none' ? null : finalNotify, delayMs: finalNotifyMs });
    answerReturn(ctx, tx, TRANSACTION_STATUS.received);
  });

  /** Records "received" (5), notifies it like any outcome, and schedules the final answer unless there is none. */
  async function receive(
    tx: SandboxTransaction,
    plan: { payMethod: 'EW' | 'BT'; payMethodDetail: string; scheduled: 'approve' | 'decline' | null; delayMs: number },
  ): Promise<void> {
    tx.pending = { payMethod: plan.payMethod, payMethodDetail: plan.payMethodDetail, scheduled: plan.scheduled };
    await complete(tx, receivedOutcome(plan.payMethod, plan.payMethodDetail));
    const { scheduled } = plan;
    if (scheduled) {
      notifier.later(async () => {
        await settle(tx.payRequestId, scheduled === 'approve');
      }, plan.delayMs);
    }
  }

  async function settle(payRequestId: string, approved: boolean): Promise<SettleResult> {
    const tx = transactions.get(payRequestId);
    if (!tx) return 'unknown';
    const { pending } = tx;
    if (!pending || !isPending(tx)) return 'not-pending';
    tx.pending = null;
    await complete(tx, settledOutcome(pending.payMethod, pending.payMethodDetail, approved), { final: true });
    return 'settled';
  }

  /**
   * The sandbox's back office (not part of PayWeb3): settles a received e-wallet or bank transfer now,
   * approve or decline, whatever its timer says (docs/payments.md, "Settling by hand").
   */
  router.post('/payweb3/sandbox/settle', async (ctx) => {
    const pairs = await readFormPairs(ctx);
    const payRequestId = pairValue(pairs, 'PAY_REQUEST_ID') ?? '';
    const outcome = pairValue(pairs, 'OUTCOME');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/plain';
    if (!payRequestId || (outcome !== 'approve' && outcome !== 'decline')) {
      ctx.status = 400;
      ctx.body = 'Post PAY_REQUEST_ID and OUTCOME=approve or OUTCOME=decline.';
      return;
    }
    const result = await settle(payRequestId, outcome === 'approve');
    if (result === 'unknown') {
      ctx.status = 404;
      ctx.body = `No payment request ${payRequestId}.`;
    } else if (result === 'not-pending') {
      const status = transactions.get(payRequestId)?.transactionStatus;
      ctx.status = 409;
      ctx.body = `Payment request ${payRequestId} is not pending (TRANSACTION_STATUS ${status ?? 'none: not paid yet'}).`;
    } else {
      ctx.status = 200;
      ctx.body = `Settled: TRANSACTION_STATUS=${transactions.get(payRequestId)?.transactionStatus ?? ''}`;
    }
  });

  /**
   * Records the outcome, then notifies: before the browser return unless a late notify is asked for
   * (a final notify of a payment that settles later is never delayed further: its time has come).
   */
  async function complete(tx: SandboxTransaction, outcome: Outcome, { final = false }: { final?: boolean } = {}): Promise<void> {
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
    if (notifyDelayMs > 0 && !final) notifier.sendLater(tx, body, notifyDelayMs);
    else await notifier.send(tx, body);
  }

  router.post('/payweb3/query.trans', async (ctx) => {
    answerFields(ctx, query(await readFormPairs(ctx)));
  });

  router.get('/payweb3/autosubmit.js', (ctx) => {
    ctx.type = 'application/javascript';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = AUTOSUBMIT_SCRIPT;
  });

  return {
    router,
    transactions,
    settle,
    async answer(path, body) {
      const call = serverCalls.get(path);
      if (!call) throw new Error(`the sandbox has no server call ${path}`);
      return encodeFormPairs(call(parseFormPairs(body)));
    },
    close: () => notifier.close(),
  };
}

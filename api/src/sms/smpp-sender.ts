import smpp, { type PDU, type Session } from 'smpp';
import type { SmsReceipt, SmsSender } from '../deps';
import type { Logger } from '../logger';
import { SendAbortedError } from '../mail/mailer';
import { loggableError } from '../mail/log-safe';
import { smsSegments } from '../../contract/sms-text';
import { OUTBOX_ID_TLV, parseReceipt, registerSmppTlvs, statusName } from './smpp-protocol';
import { SmsCentreUnavailableError, SmsRefusedError } from './errors';

export interface SmppSenderOptions {
  /** smpp://system_id:password@host:port (ssmpp:// for TLS). */
  url: string;
  /** source_addr: alphanumeric (TON 5, NPI 0) or digits (TON 1, NPI 1). */
  senderId: string;
  /** submit_sm outstanding at once (SMS_WINDOW). */
  window: number;
  logger: Logger;
  /** How long a send waits for a bind being made before it gives up (the outbox retries). */
  bindWaitMs?: number;
  /** How long a submit_sm waits for its answer once written; then it counts as sent without an id. */
  responseMs?: number;
  /** enquire_link every this often; a link unanswered for `enquireTimeoutMs` is cut. */
  enquireLinkMs?: number;
  enquireTimeoutMs?: number;
  /** The first and the longest wait before binding again after a drop or a refused bind. */
  rebindMinMs?: number;
  rebindMaxMs?: number;
}

/** The longest short_message: 160 septets (one octet each, unpacked) or 140 octets of UCS-2. */
const SHORT_MESSAGE_MAX_OCTETS = 140;
/** A receipt whose row is not found yet (its submit_sm_resp is being stored) is tried again this often, so many times. */
const RECEIPT_RETRY_MS = 500;
const RECEIPT_TRIES = 10;

interface InFlight {
  /** Resolves the send without an id: the connection went after the submit was written. */
  orphan(): void;
}

/**
 * SMS over SMPP 3.4 (docs/sms.md, "Sending"): one transceiver bind kept alive with enquire_link
 * and made again after a drop, at most `window` submits outstanding, the outbox's commit point
 * right before each submit_sm is written, delivery receipts handed to the listener and answered.
 */
export function createSmppSender(options: SmppSenderOptions): SmsSender {
  registerSmppTlvs();
  const url = new URL(options.url);
  const systemId = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  const tls = url.protocol === 'ssmpp:';
  const host = url.hostname;
  const port = url.port ? Number(url.port) : tls ? 3550 : 2775;
  // The outbox id TLV only where asked for (`?outbox_id_tlv=1`): a strict SMS centre may refuse a
  // vendor TLV it does not know (docs/sms.md, "Sending").
  const tagOutboxId = url.searchParams.get('outbox_id_tlv') === '1';
  const { logger } = options;
  const bindWaitMs = options.bindWaitMs ?? 7_500;
  const responseMs = options.responseMs ?? 20_000;
  const enquireLinkMs = options.enquireLinkMs ?? 30_000;
  const enquireTimeoutMs = options.enquireTimeoutMs ?? 10_000;
  const rebindMinMs = options.rebindMinMs ?? 1_000;
  const rebindMaxMs = options.rebindMaxMs ?? 60_000;
  const numericSender = /^\+?[0-9]+$/.test(options.senderId);
  const source = numericSender
    ? { source_addr_ton: 1, source_addr_npi: 1, source_addr: options.senderId.replace(/^\+/, '') }
    : { source_addr_ton: 5, source_addr_npi: 0, source_addr: options.senderId };

  let session: Session | null = null;
  let bound = false;
  /** A connection and bind under way. */
  let binding = false;
  /** The last bind failed or the bind dropped: sends fail at once until one is made. */
  let unavailable: string | null = null;
  let closing = false;
  let rebindDelay = rebindMinMs;
  let rebindTimer: NodeJS.Timeout | null = null;
  let enquireTimer: NodeJS.Timeout | null = null;
  const bindWaiters = new Set<{ resolve: (session: Session) => void; reject: (err: Error) => void }>();
  const inFlight = new Map<Session, Set<InFlight>>();
  let receiptListener: ((receipt: SmsReceipt) => Promise<boolean>) | null = null;
  const availableListeners: (() => void)[] = [];

  // The window: at most `window` submits between their slot and their answer.
  let free = options.window;
  const slotWaiters: (() => void)[] = [];
  const releaseSlot = () => {
    const next = slotWaiters.shift();
    if (next) next();
    else free++;
  };
  const acquireSlot = (signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (free > 0) {
        free--;
        return resolve();
      }
      const take = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const at = slotWaiters.indexOf(take);
        if (at >= 0) slotWaiters.splice(at, 1);
        reject(new SendAbortedError(signal?.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      slotWaiters.push(take);
    });

  function scheduleRebind(reason: string) {
    if (closing || rebindTimer || binding) return;
    const delay = rebindDelay;
    rebindDelay = Math.min(rebindMaxMs, rebindDelay * 2);
    logger.warn({ reason, retryInMs: delay }, 'SMS centre: not bound, binding again');
    rebindTimer = setTimeout(() => {
      rebindTimer = null;
      connect();
    }, delay);
    rebindTimer.unref();
  }

  function failBindWaiters(reason: string) {
    for (const waiter of [...bindWaiters]) waiter.reject(new SmsCentreUnavailableError(reason));
    bindWaiters.clear();
  }

  function startEnquireLinks(current: Session) {
    if (enquireTimer) clearInterval(enquireTimer);
    enquireTimer = setInterval(() => {
      if (session !== current || !bound) return;
      const cut = setTimeout(() => {
        logger.warn('SMS centre: enquire_link unanswered, the connection is cut');
        current.destroy();
      }, enquireTimeoutMs);
      cut.unref();
      const sent = current.enquire_link((resp: PDU) => {
        clearTimeout(cut);
        if (resp.command_status !== 0) logger.warn({ status: statusName(resp.command_status) }, 'SMS centre: enquire_link refused');
      });
      if (!sent) clearTimeout(cut);
    }, enquireLinkMs);
    enquireTimer.unref();
  }

  async function handleReceipt(current: Session, pdu: PDU) {
    const receipt = parseReceipt(pdu);
    try {
      if (receipt?.status && receiptListener) {
        const listener = receiptListener;
        const record = { smscId: receipt.smscId, status: receipt.status, at: Date.now() };
        for (let tries = 1; !(await listener(record)) && tries < RECEIPT_TRIES && !closing; tries++) {
          await new Promise((resolve) => setTimeout(resolve, RECEIPT_RETRY_MS));
        }
      }
    } catch (err) {
      // Answered anyway: an SMS centre sends an unanswered receipt again and again.
      logger.warn({ err: loggableError(err) }, 'SMS delivery receipt not recorded');
    }
    if (session === current) current.send(pdu.response());
  }

  function connect() {
    if (closing || binding || bound) return;
    binding = true;
    const current = smpp.connect({ host, port, tls, ...(tls ? { servername: host } : {}) });
    session = current;
    inFlight.set(current, new Set());
    let settled = false;
    const bindTimer = setTimeout(() => {
      if (!settled) {
        logger.warn('SMS centre: no answer to the bind, the connection is cut');
        current.destroy();
      }
    }, Math.max(bindWaitMs, 5_000));
    bindTimer.unref();
    const fail = (reason: string) => {
      if (!settled) {
        settled = true;
        clearTimeout(bindTimer);
        binding = false;
      }
      if (session === current) {
        session = null;
        bound = false;
      }
      if (enquireTimer) clearInterval(enquireTimer);
      enquireTimer = null;
      unavailable = reason;
      failBindWaiters(reason);
      scheduleRebind(reason);
    };
    current.on('error', (err: unknown) => logger.debug({ err: loggableError(err) }, 'SMS centre connection error'));
    // The SMS centre closed its side: nothing more is written on this connection.
    current.socket.on('end', () => {
      if (session === current) bound = false;
      current.destroy();
    });
    current.on('close', () => {
      for (const flight of inFlight.get(current) ?? []) flight.orphan();
      inFlight.delete(current);
      fail('the connection closed');
    });
    current.on(tls ? 'secureConnect' : 'connect', () => {
      current.bind_transceiver({ system_id: systemId, password, system_type: '', interface_version: 0x34 }, (resp: PDU) => {
        settled = true;
        clearTimeout(bindTimer);
        binding = false;
        if (resp.command_status !== 0) {
          const reason = `bind refused: ${statusName(resp.command_status)}`;
          logger.warn({ status: statusName(resp.command_status) }, 'SMS centre refused the bind');
          // The close that follows binds again, after the backoff.
          unavailable = reason;
          current.destroy();
          return;
        }
        if (session !== current || closing) {
          current.destroy();
          return;
        }
        bound = true;
        const wasUnavailable = unavailable !== null;
        unavailable = null;
        rebindDelay = rebindMinMs;
        logger.info({ host, port }, 'SMS centre bound (transceiver)');
        startEnquireLinks(current);
        for (const waiter of [...bindWaiters]) waiter.resolve(current);
        bindWaiters.clear();
        if (wasUnavailable) for (const listener of availableListeners) listener();
      });
    });
    current.on('enquire_link', (pdu: PDU) => current.send(pdu.response()));
    current.on('unbind', (pdu: PDU) => {
      current.send(pdu.response());
      current.close();
    });
    current.on('deliver_sm', (pdu: PDU) => void handleReceipt(current, pdu));
  }

  /** The bound session: at once, after the bind under way (at most `bindWaitMs`), or an SmsCentreUnavailableError. */
  function boundSession(signal?: AbortSignal): Promise<Session> {
    if (closing) return Promise.reject(new SmsCentreUnavailableError('the SMS sender is closed'));
    if (bound && session) return Promise.resolve(session);
    if (unavailable !== null && !binding) return Promise.reject(new SmsCentreUnavailableError(unavailable));
    connect();
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (s: Session) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(s);
        },
        reject: (err: Error) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        bindWaiters.delete(waiter);
        waiter.reject(new SmsCentreUnavailableError('no bind within the wait'));
      }, bindWaitMs);
      const onAbort = () => {
        bindWaiters.delete(waiter);
        waiter.reject(new SendAbortedError(signal?.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      bindWaiters.add(waiter);
    });
  }

  // Bound from the start: receipts for messages sent before a restart arrive on any bind.
  connect();

  return {
    async send(message, sendOptions = {}) {
      const { signal, beforeFinal } = sendOptions;
      signal?.throwIfAborted();
      const segments = smsSegments(message.text);
      const dataCoding = segments.encoding === 'GSM-7' ? 0 : 8;
      const octets = segments.encoding === 'GSM-7' ? segments.units : segments.units * 2;
      // One segment goes in short_message; a longer text in message_payload, split by the SMS centre.
      const body = octets <= SHORT_MESSAGE_MAX_OCTETS ? { short_message: message.text } : { message_payload: message.text };
      const pdu = new smpp.PDU('submit_sm', {
        ...source,
        dest_addr_ton: 1,
        dest_addr_npi: 1,
        destination_addr: message.to.replace(/^\+/, ''),
        registered_delivery: 1,
        data_coding: dataCoding,
        ...body,
        ...(tagOutboxId ? { [OUTBOX_ID_TLV]: message.messageId } : {}),
      });
      await acquireSlot(signal);
      try {
        const current = await boundSession(signal);
        if (beforeFinal) {
          try {
            await beforeFinal();
          } catch (err) {
            throw new SendAbortedError(err);
          }
        }
        // The commit point has passed: from here to the socket write, no await (docs/sms.md, "Sending").
        if (session !== current || !bound || !current.socket.writable) {
          throw new SmsCentreUnavailableError('the bind was lost before the submit was written');
        }
        return await new Promise<{ smscId: string | null }>((resolve, reject) => {
          const flights = inFlight.get(current);
          let done = false;
          const finish = () => {
            done = true;
            clearTimeout(timer);
            flights?.delete(flight);
          };
          const flight: InFlight = {
            orphan() {
              if (done) return;
              finish();
              logger.warn({ ...sendOptions.describe, messageId: message.messageId }, 'SMS submitted, the connection closed before the answer: kept as sent');
              resolve({ smscId: null });
            },
          };
          const timer = setTimeout(() => {
            if (done) return;
            finish();
            logger.warn({ ...sendOptions.describe, messageId: message.messageId }, 'SMS submitted, no answer in time: kept as sent');
            resolve({ smscId: null });
          }, responseMs);
          timer.unref();
          flights?.add(flight);
          const written = current.send(pdu, (resp: PDU) => {
            if (done) return;
            finish();
            if (resp.command_status !== 0) return reject(new SmsRefusedError(resp.command_status));
            const smscId = typeof resp.message_id === 'string' && resp.message_id !== '' ? resp.message_id : null;
            logger.info({ ...sendOptions.describe, messageId: message.messageId, smscId }, 'SMS submitted over SMPP');
            resolve({ smscId });
          });
          if (!written) {
            finish();
            reject(new SmsCentreUnavailableError('the connection closed before the submit was written'));
          }
        });
      } finally {
        releaseSlot();
      }
    },
    onReceipt(listener) {
      receiptListener = listener;
    },
    onAvailable(listener) {
      availableListeners.push(listener);
    },
    async close() {
      closing = true;
      if (rebindTimer) clearTimeout(rebindTimer);
      rebindTimer = null;
      if (enquireTimer) clearInterval(enquireTimer);
      enquireTimer = null;
      failBindWaiters('the SMS sender is closed');
      const current = session;
      if (!current) return;
      await new Promise<void>((resolve) => {
        const cut = setTimeout(() => current.destroy(), 2_000);
        cut.unref();
        current.once('close', () => {
          clearTimeout(cut);
          resolve();
        });
        if (!bound || !current.unbind(() => current.close())) current.destroy();
      });
    },
  };
}

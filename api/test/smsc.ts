/**
 * A test SMS centre: the `smpp` package's own server, in the test's process, speaking real SMPP
 * 3.4 over TCP (docs/sms.md, "Sending"). It binds one account, answers submit_sm after
 * `latencyMs` with its own message id, keeps what it was sent, sends delivery receipts on demand,
 * and can go down and come back on the same port.
 */
import type { AddressInfo } from 'node:net';
import smpp, { type PDU, type Session } from 'smpp';
import { OUTBOX_ID_TLV, registerSmppTlvs } from '../src/sms/smpp-protocol';

export interface SmscMessage {
  /** E.164: the destination_addr with its "+". */
  to: string;
  from: string;
  text: string;
  dataCoding: number;
  smscId: string;
  /** The outbox row's message id the submit carried (docs/sms.md, "Sending"), or null. */
  outboxMessageId: string | null;
  sourceTon: number;
  sourceNpi: number;
  destTon: number;
  destNpi: number;
  registeredDelivery: number;
}

export interface TestSmsc {
  /** smpp://system_id:password@127.0.0.1:port */
  url: string;
  port: number;
  messages: SmscMessage[];
  /** Resolves once at least `n` messages were accepted. */
  waitFor(n: number, timeoutMs?: number): Promise<SmscMessage[]>;
  /** Sends the message's delivery receipt to a bound session; resolves when it was answered. */
  deliver(smscId: string, stat: 'DELIVRD' | 'UNDELIV' | 'EXPIRED'): Promise<void>;
  /** Answers the next `count` submits with this command_status (e.g. ESME_RTHROTTLED) and keeps nothing. */
  refuseNext(status: number, count?: number): void;
  /** Closes every session and stops listening: the SMS centre is down. */
  goDown(): Promise<void>;
  /** Listens again on the same port. */
  comeBack(): Promise<void>;
  /** Takes submits but answers none until `releaseAnswers()`: every place of a client's window fills with written submits. */
  holdAnswers(): void;
  releaseAnswers(): void;
  /** Drops every bound session (the connection is cut), staying up: clients must rebind. */
  dropSessions(): void;
  /** Counters: binds accepted, binds refused, enquire_links answered, submits received, and the most submits awaiting their answer at once. */
  stats: { binds: number; refusedBinds: number; enquireLinks: number; submits: number; outstanding: number; maxOutstanding: number };
  stop(): Promise<void>;
}

export interface SmscOptions {
  /** How long each submit_sm waits for its answer (an SMS centre across a network). */
  latencyMs?: number;
  systemId?: string;
  password?: string;
  /** Listen on this port (0: one the OS picks). */
  port?: number;
  /** Keep no message texts (a bench's 10,000 messages): only counts and ids. */
  light?: boolean;
  /** The latency of each answer, asked per submit (a bench changes it between runs); `latencyMs` otherwise. */
  delay?: () => number;
}

function textOf(pdu: PDU): string {
  const value = pdu.short_message as unknown;
  const payload = pdu.message_payload as unknown;
  const pick = (v: unknown): string => {
    if (typeof v === 'string') return v;
    const message = (v as { message?: unknown } | null)?.message;
    return typeof message === 'string' ? message : '';
  };
  return pick(value) || pick(payload);
}

export async function startSmsc(options: SmscOptions = {}): Promise<TestSmsc> {
  registerSmppTlvs();
  const systemId = options.systemId ?? 'photos';
  const password = options.password ?? 'secret';
  const latencyMs = options.latencyMs ?? 0;
  const messages: SmscMessage[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const sessions = new Set<Session>();
  const bound = new Set<Session>();
  const stats = { binds: 0, refusedBinds: 0, enquireLinks: 0, submits: 0, outstanding: 0, maxOutstanding: 0 };
  let refusals: { status: number; count: number } | null = null;
  let nextId = 1;
  let held: (() => void)[] | null = null;

  const notify = () => {
    for (const waiter of [...waiters]) {
      if (messages.length >= waiter.n) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  const onSession = (session: Session) => {
    sessions.add(session);
    session.on('close', () => {
      sessions.delete(session);
      bound.delete(session);
    });
    session.on('error', () => undefined);
    const bind = (pdu: PDU) => {
      if (pdu.system_id !== systemId || pdu.password !== password) {
        stats.refusedBinds++;
        session.send(pdu.response({ command_status: smpp.ESME_RBINDFAIL }));
        session.close();
        return;
      }
      stats.binds++;
      bound.add(session);
      session.send(pdu.response({ system_id: 'TESTSMSC' }));
    };
    session.on('bind_transceiver', bind);
    session.on('bind_transmitter', bind);
    session.on('enquire_link', (pdu: PDU) => {
      stats.enquireLinks++;
      session.send(pdu.response());
    });
    session.on('unbind', (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('deliver_sm_resp', () => undefined);
    session.on('submit_sm', (pdu: PDU) => {
      if (!bound.has(session)) {
        session.send(pdu.response({ command_status: 0x0004 /* ESME_RINVBNDSTS */ }));
        return;
      }
      stats.submits++;
      stats.outstanding++;
      stats.maxOutstanding = Math.max(stats.maxOutstanding, stats.outstanding);
      // Taken (or refused) when it arrives, answered after the latency: a submit that arrived is
      // the SMS centre's even if its answer never reaches the client.
      let response: Record<string, unknown>;
      if (refusals && refusals.count > 0) {
        refusals.count--;
        response = { command_status: refusals.status };
      } else {
        const smscId = `M${(nextId++).toString(16).padStart(8, '0')}`;
        const destination = String(pdu.destination_addr ?? '');
        const outboxId = pdu[OUTBOX_ID_TLV];
        messages.push({
          to: destination.startsWith('+') ? destination : `+${destination}`,
          from: String(pdu.source_addr ?? ''),
          text: options.light ? '' : textOf(pdu),
          dataCoding: Number(pdu.data_coding ?? 0),
          smscId,
          outboxMessageId: typeof outboxId === 'string' ? outboxId : null,
          sourceTon: Number(pdu.source_addr_ton ?? 0),
          sourceNpi: Number(pdu.source_addr_npi ?? 0),
          destTon: Number(pdu.dest_addr_ton ?? 0),
          destNpi: Number(pdu.dest_addr_npi ?? 0),
          registeredDelivery: Number(pdu.registered_delivery ?? 0),
        });
        response = { message_id: smscId };
        notify();
      }
      const answer = () => {
        stats.outstanding--;
        if (!session.socket.destroyed) session.send(pdu.response(response));
      };
      const wait = options.delay ? options.delay() : latencyMs;
      const later = () => (held ? held.push(answer) : answer());
      if (wait > 0) setTimeout(later, wait);
      else later();
    });
  };

  let server = smpp.createServer(onSession);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const port = await listen(options.port ?? 0);
  const closeServer = () =>
    new Promise<void>((resolve) => {
      for (const session of sessions) session.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });

  return {
    url: `smpp://${encodeURIComponent(systemId)}:${encodeURIComponent(password)}@127.0.0.1:${port}?outbox_id_tlv=1`,
    port,
    messages,
    stats,
    waitFor(n, timeoutMs = 10_000) {
      if (messages.length >= n) return Promise.resolve(messages);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the test SMS centre got ${messages.length} of ${n} messages in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(messages);
          },
        });
      });
    },
    deliver(smscId, stat) {
      const message = messages.find((m) => m.smscId === smscId);
      if (!message) return Promise.reject(new Error(`the test SMS centre has no message ${smscId}`));
      const session = [...bound][0];
      if (!session) return Promise.reject(new Error('no bound session to send the receipt to'));
      const now = new Date();
      const stamp = `${String(now.getUTCFullYear()).slice(2)}${String(now.getUTCMonth() + 1).padStart(2, '0')}${String(now.getUTCDate()).padStart(2, '0')}${String(now.getUTCHours()).padStart(2, '0')}${String(now.getUTCMinutes()).padStart(2, '0')}`;
      const state = { DELIVRD: 2, UNDELIV: 5, EXPIRED: 3 }[stat];
      return new Promise((resolve, reject) => {
        const sent = session.deliver_sm(
          {
            source_addr_ton: 1,
            source_addr_npi: 1,
            source_addr: message.to.replace(/^\+/, ''),
            destination_addr: message.from,
            esm_class: smpp.consts.ESM_CLASS.MC_DELIVERY_RECEIPT,
            data_coding: 0,
            short_message: `id:${smscId} sub:001 dlvrd:${stat === 'DELIVRD' ? '001' : '000'} submit date:${stamp} done date:${stamp} stat:${stat} err:000 text:`,
            receipted_message_id: smscId,
            message_state: state,
          },
          (resp: PDU) => (resp.command_status === 0 ? resolve() : reject(new Error(`deliver_sm_resp status ${resp.command_status}`))),
        );
        if (!sent) reject(new Error('the session closed before the receipt went out'));
      });
    },
    refuseNext(status, count = 1) {
      refusals = { status, count };
    },
    holdAnswers() {
      held ??= [];
    },
    releaseAnswers() {
      const waiting = held ?? [];
      held = null;
      for (const answer of waiting) answer();
    },
    dropSessions() {
      for (const session of sessions) session.destroy();
    },
    async goDown() {
      await closeServer();
    },
    async comeBack() {
      server = smpp.createServer(onSession);
      await listen(port);
    },
    async stop() {
      waiters.splice(0);
      await closeServer();
    },
  };
}

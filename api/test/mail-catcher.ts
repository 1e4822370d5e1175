import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseEml } from '../src/mail/eml.test-helpers';

/** A real SMTP server on a free port, keeping every message it receives, so tests read mail back. */
export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

/** Which messages a wait counts: sent to `to`, passing `match`, from index `after` on (all by default). */
export interface MailFilter {
  to?: string;
  match?: (message: CapturedMail) => boolean;
  after?: number;
}

/** How the catcher behaves, for the outbox's tests and benchmark. */
export interface MailCatcherOptions {
  /**
   * Refuses a message at its end (the answer to the final dot) with this SMTP code when it answers
   * one, e.g. 451 (try again later) or 550 (permanent); a refused message is kept in `refused`.
   */
  refuse?: (message: CapturedMail) => { code: number; text: string } | null;
  /** Waits this long before accepting each recipient and each message's end: a slow relay, so a kill lands mid-send. */
  slowMs?: number;
}

export interface MailCatcher {
  url: string;
  messages: CapturedMail[];
  /** The messages refused by `options.refuse`. */
  refused: CapturedMail[];
  /** Holds every recipient's answer from now on: senders stop before their message's data. */
  pause(): void;
  /** How many senders wait for an answer held by `pause()`. */
  parked(): number;
  /** Answers the held recipients and stops holding. */
  resume(): void;
  /** How many times each Message-ID arrived (accepted messages only). */
  countByMessageId(): Map<string, number>;
  /** Resolves with the first message (counting from `after`) sent to `to`; rejects after the timeout. */
  waitFor(to: string, after?: number, timeoutMs?: number): Promise<CapturedMail>;
  /** Resolves with the matching messages once at least `count` have arrived; rejects after `timeout` ms (10 s). */
  waitForMessages(count: number, options?: MailFilter & { timeout?: number }): Promise<CapturedMail[]>;
  /**
   * Watches for `within` ms that no more than `count` matching messages arrive (a late duplicate
   * would), polling until that deadline; rejects as soon as there are more.
   */
  noMoreThan(count: number, options: MailFilter & { within: number }): Promise<void>;
  close(): Promise<void>;
}

/** The first link into the reset (or set-password) page found in a message's text. */
export function resetLinkIn(text: string): URL {
  const match = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+(?:&first=1)?/.exec(text);
  if (!match) throw new Error(`no reset link in mail:\n${text}`);
  return new URL(match[0]);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The Message-ID header of a raw message. */
export function messageIdOf(raw: string): string | null {
  return /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? null;
}

export async function startMailCatcher(options: MailCatcherOptions = {}): Promise<MailCatcher> {
  const messages: CapturedMail[] = [];
  const refused: CapturedMail[] = [];
  const slow = (then: () => void) => (options.slowMs ? setTimeout(then, options.slowMs) : then());
  let paused = false;
  const held: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Many connections at once: the benchmark's pools and two processes' senders.
    maxClients: 1000,
    onRcptTo(_address, _session, callback) {
      if (paused) held.push(() => callback());
      else slow(() => callback());
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A message cut off before its end (the client died) is never kept, as no mail server keeps one.
      stream.on('error', () => undefined);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
        const parsed = parseEml(raw);
        const message = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to, subject: parsed.headers.subject ?? '', text: parsed.text, raw };
        const refusal = options.refuse?.(message);
        if (refusal) {
          refused.push(message);
          callback(Object.assign(new Error(refusal.text), { responseCode: refusal.code }));
          return;
        }
        // Received in full: kept now, whether or not the client is still there for the answer
        // (a real mail server has queued it by then).
        messages.push(message);
        slow(() => callback());
      });
    },
  });
  // A client that died mid-conversation resets its connection: that is the client's loss, not the server's.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;

  const find = (to: string, after: number) => messages.slice(after).find((m) => m.to.includes(to.toLowerCase()));
  const matching = ({ to, match, after = 0 }: MailFilter) =>
    messages.slice(after).filter((m) => (to === undefined || m.to.includes(to.toLowerCase())) && (match === undefined || match(m)));

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refused,
    pause: () => (paused = true),
    parked: () => held.length,
    resume() {
      paused = false;
      for (const answer of held.splice(0)) answer();
    },
    countByMessageId() {
      const counts = new Map<string, number>();
      for (const message of messages) {
        const id = messageIdOf(message.raw) ?? '(none)';
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      return counts;
    },
    async waitFor(to, after = 0, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = find(to, after);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await pause(25);
      }
    },
    async waitForMessages(count, options = {}) {
      const timeout = options.timeout ?? 10_000;
      const deadline = Date.now() + timeout;
      for (;;) {
        const found = matching(options);
        if (found.length >= count) return found;
        if (Date.now() > deadline) throw new Error(`${found.length} of ${count} mails within ${timeout} ms`);
        await pause(25);
      }
    },
    async noMoreThan(count, options) {
      const deadline = Date.now() + options.within;
      for (;;) {
        const found = matching(options).length;
        if (found > count) throw new Error(`${found} mails arrived where at most ${count} were expected`);
        if (Date.now() >= deadline) return;
        await pause(Math.min(25, Math.max(0, deadline - Date.now())));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}


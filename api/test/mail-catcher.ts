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

export interface MailCatcher {
  url: string;
  messages: CapturedMail[];
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

export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
        const parsed = parseEml(raw);
        messages.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to, subject: parsed.headers.subject ?? '', text: parsed.text, raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;

  const find = (to: string, after: number) => messages.slice(after).find((m) => m.to.includes(to.toLowerCase()));
  const matching = ({ to, match, after = 0 }: MailFilter) =>
    messages.slice(after).filter((m) => (to === undefined || m.to.includes(to.toLowerCase())) && (match === undefined || match(m)));

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
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


import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import MailComposer from 'nodemailer/lib/mail-composer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import type { MailMessage, Mailer } from '../deps';
import type { Logger } from '../logger';
import { loggableError } from './log-safe';

export type { MailMessage, Mailer, SendOptions } from '../deps';

/** How long each step of an SMTP conversation may take (docs/email.md, "How mail leaves the server"). */
export interface SmtpTimeouts {
  connectMs: number;
  greetingMs: number;
  /** Silence on an open connection (a reply that never comes). */
  socketMs: number;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL with credentials; null writes .eml files instead (docs/email.md#the-outbox-folder-in-development). */
  smtpUrl: string | null;
  outboxDir: string;
  /** The From header, e.g. `Lesedi School Photos <no-reply@example.bw>`. */
  from: string;
  logger: Logger;
  /**
   * Whether the outbox folder's log line may carry the mail's first link (development: the reset
   * link a developer needs). False under NODE_ENV=production, where no reset or set-password link
   * is ever logged (docs/accounts.md, "Production defaults").
   */
  logLinks?: boolean;
  /** SMTP connections kept open and used at once (the outbox sender's concurrency). */
  connections?: number;
  timeouts?: SmtpTimeouts;
}

/** Short timeouts: a hung relay must fail the attempt well within the outbox's lease. */
const DEFAULT_TIMEOUTS: SmtpTimeouts = { connectMs: 10_000, greetingMs: 10_000, socketMs: 15_000 };
/** A connection sends this many messages, then a fresh one takes over (as nodemailer's own pool does). */
const MESSAGES_PER_CONNECTION = 100;
/** An idle connection is closed after this long; relays drop idle clients anyway. */
const IDLE_CLOSE_MS = 20_000;

/** Thrown when `beforeFinal` refused: the message was not handed over. */
export class SendAbortedError extends Error {
  constructor(cause: unknown) {
    super(`sending aborted before the message's end: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SendAbortedError';
  }
}

/**
 * Delivers composed messages (api/src/mail/templates.ts). Over SMTP, with a pool of nodemailer
 * SMTP connections kept open; without SMTP, into the development outbox folder as .eml files.
 * Either way the message is handed over in two steps so the outbox can commit "sent" between
 * them (docs/email.md, "The outbox"): all of it but its end, then `beforeFinal()`, then the end
 * (SMTP's terminating dot; the .eml's rename into place). The outbox is the only caller.
 */
export function createMailer(options: MailerOptions): Mailer {
  const { smtpUrl, outboxDir, from, logger, logLinks = true } = options;
  const envelopeFrom = /<([^>]+)>\s*$/.exec(from)?.[1] ?? from;

  const compose = (message: MailMessage): Promise<Buffer> =>
    new MailComposer({
      from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      headers: message.headers,
      messageId: message.messageId,
    })
      .compile()
      .build();

  if (!smtpUrl) return folderMailer(outboxDir, logger, logLinks, compose);
  return smtpMailer(smtpUrl, options.connections ?? 4, options.timeouts ?? DEFAULT_TIMEOUTS, envelopeFrom, logger, compose);
}

/**
 * Without SMTP the message is composed exactly as it would be sent and kept as an .eml file, so a
 * developer can open it in a mail client; the log line carries its first link because that is the
 * reset or set-password link a developer needs (development only: with SMTP or under
 * NODE_ENV=production no link is ever logged, since a logged link would let whoever reads the logs
 * take over the account). The file is written under a hidden name and renamed into place after
 * `beforeFinal`: the rename is its "end".
 */
function folderMailer(outboxDir: string, logger: Logger, logLinks: boolean, compose: (message: MailMessage) => Promise<Buffer>): Mailer {
  const folder = outboxFolder(outboxDir);
  return {
    async send(message, sendOptions = {}) {
      const raw = await compose(message);
      const file = await folder.write(raw, 'eml', sendOptions.beforeFinal);
      // Kind and ids, never the recipient or the subject (docs/email.md, "What the logs say").
      logger.info({ ...sendOptions.describe, messageId: message.messageId, ...(logLinks ? { link: firstUrl(message.text) } : {}), file }, 'mail written to outbox');
    },
    async close() {},
  };
}

/**
 * A development outbox folder (e-mail's .eml files, SMS's .txt files): the folder is made once, each
 * message is written under a hidden `.name.part` and renamed into place after `beforeFinal` (its
 * "end"/"submit"); a refusal there removes the part and throws SendAbortedError. Returns the file.
 */
export function outboxFolder(dir: string): { write(body: string | Buffer, extension: string, beforeFinal?: () => Promise<void>): Promise<string> } {
  let folderMade: Promise<unknown> | null = null;
  return {
    async write(body, extension, beforeFinal) {
      folderMade ??= fs.mkdir(dir, { recursive: true }).catch((err: unknown) => {
        folderMade = null;
        throw err;
      });
      await folderMade;
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.${extension}`;
      const partial = path.join(dir, `.${name}.part`);
      await fs.writeFile(partial, body, { flag: 'wx' });
      if (beforeFinal) {
        try {
          await beforeFinal();
        } catch (err) {
          await fs.rm(partial, { force: true });
          throw new SendAbortedError(err);
        }
      }
      const file = path.join(dir, name);
      await fs.rename(partial, file);
      return file;
    },
  };
}

interface PooledConnection {
  connection: SMTPConnection;
  sent: number;
  dead: boolean;
  idleTimer: NodeJS.Timeout | null;
}

/**
 * The message's bytes, then `beforeFinal()`, then the end of the stream, which is what makes
 * nodemailer write SMTP's terminating "." (its data stream writes it when its source ends). Its
 * second read means the bytes have gone on towards the socket; the next turn of the event loop
 * lets the pipes pass them into it.
 */
function gatedMessage(raw: Buffer, beforeFinal: (() => Promise<void>) | undefined, onGate: () => void): Readable {
  let step = 0;
  return new Readable({
    read() {
      if (step === 0) {
        step = 1;
        this.push(raw);
        return;
      }
      if (step !== 1) return;
      step = 2;
      if (!beforeFinal) {
        onGate();
        this.push(null);
        return;
      }
      setImmediate(() => {
        beforeFinal().then(
          () => {
            onGate();
            this.push(null);
          },
          (err: unknown) => this.destroy(new SendAbortedError(err)),
        );
      });
    },
  });
}

function smtpMailer(
  smtpUrl: string,
  size: number,
  timeouts: SmtpTimeouts,
  envelopeFrom: string,
  logger: Logger,
  compose: (message: MailMessage) => Promise<Buffer>,
): Mailer {
  const { auth, ...target } = parseConnectionUrl(smtpUrl);
  const idle: PooledConnection[] = [];
  const waiters: (() => void)[] = [];
  let open = 0;
  let closing = false;

  const wake = () => waiters.shift()?.();

  function retire(pooled: PooledConnection, how: 'quit' | 'close') {
    if (pooled.dead) return;
    pooled.dead = true;
    if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
    const at = idle.indexOf(pooled);
    if (at >= 0) idle.splice(at, 1);
    open--;
    if (how === 'quit') pooled.connection.quit();
    else pooled.connection.close();
    wake();
  }

  async function connect(): Promise<PooledConnection> {
    const connection = new SMTPConnection({
      ...target,
      connectionTimeout: timeouts.connectMs,
      greetingTimeout: timeouts.greetingMs,
      socketTimeout: timeouts.socketMs,
      // A connection given up mid-message is cut at once: nothing more, least of all its end, goes out.
      socketCloseTimeout: 0,
    });
    const pooled: PooledConnection = { connection, sent: 0, dead: false, idleTimer: null };
    let ready = false;
    let failConnect: (err: unknown) => void = () => undefined;
    // Before it is ready a failure fails the connect; after, an idle connection the server closed
    // (or that broke) leaves the pool, and a busy one's send fails by itself.
    connection.on('error', (err: unknown) => {
      if (!ready) return failConnect(err);
      logger.debug({ err: loggableError(err) }, 'SMTP connection error');
      retire(pooled, 'close');
    });
    connection.on('end', () => (ready ? retire(pooled, 'close') : failConnect(new Error('the SMTP server closed the connection'))));
    try {
      await new Promise<void>((resolve, reject) => {
        failConnect = reject;
        connection.connect(() => resolve());
      });
      if (auth) await new Promise<void>((resolve, reject) => connection.login(auth, (err?: unknown) => (err ? reject(err as Error) : resolve())));
    } catch (err) {
      connection.close();
      throw err;
    }
    ready = true;
    return pooled;
  }

  async function acquire(): Promise<PooledConnection> {
    for (;;) {
      if (closing) throw new Error('the mailer is closed');
      const ready = idle.pop();
      if (ready) {
        if (ready.idleTimer) clearTimeout(ready.idleTimer);
        ready.idleTimer = null;
        return ready;
      }
      if (open < size) {
        open++;
        try {
          return await connect();
        } catch (err) {
          open--;
          wake();
          throw err;
        }
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }

  function release(pooled: PooledConnection) {
    if (pooled.dead) return;
    if (closing || pooled.sent >= MESSAGES_PER_CONNECTION) return retire(pooled, 'quit');
    pooled.idleTimer = setTimeout(() => retire(pooled, 'quit'), IDLE_CLOSE_MS);
    pooled.idleTimer.unref();
    idle.push(pooled);
    wake();
  }

  return {
    async send(message, sendOptions = {}) {
      const raw = await compose(message);
      const { signal } = sendOptions;
      signal?.throwIfAborted();
      const pooled = await acquire();
      let handedOver = false;
      const onAbort = () => {
        // Past the gate the end is out: only the server's answer is awaited (bounded by socketMs).
        if (!handedOver) retire(pooled, 'close');
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await new Promise<void>((resolve, reject) => {
          const stream = gatedMessage(raw, sendOptions.beforeFinal, () => (handedOver = true));
          pooled.connection.send({ from: envelopeFrom, to: [message.to] }, stream, (err) => (err ? reject(err) : resolve()));
        });
        pooled.sent++;
        release(pooled);
        logger.info({ ...sendOptions.describe, messageId: message.messageId }, 'mail sent over SMTP');
      } catch (err) {
        // Whatever went wrong, this connection's state is unknown: it is not used again.
        retire(pooled, 'close');
        // nodemailer hands a source stream's error on as it is (code ESTREAM).
        if (err instanceof SendAbortedError) throw err;
        throw signal?.aborted && !handedOver ? new SendAbortedError(signal.reason) : err;
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    async close() {
      closing = true;
      for (const pooled of [...idle]) retire(pooled, 'quit');
      for (const waiter of waiters.splice(0)) waiter();
    },
  };
}

export function firstUrl(text: string): string | null {
  return /https?:\/\/[^\s<>"')]+/.exec(text)?.[0] ?? null;
}

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import type { MailMessage, Mailer } from '../deps';
import type { Logger } from '../logger';

export type { MailMessage, Mailer } from '../deps';

export interface MailerOptions {
  /** smtp:// or smtps:// URL with credentials; null writes .eml files instead (docs/email.md#the-outbox-in-development). */
  smtpUrl: string | null;
  outboxDir: string;
  /** The From header, e.g. `Lesedi School Photos <no-reply@example.bw>`. */
  from: string;
  logger: Logger;
  /**
   * Whether the outbox's log line may carry the mail's first link (development: the reset link a
   * developer needs). False under NODE_ENV=production, where no reset or set-password link is ever
   * logged (docs/accounts.md, "Production defaults").
   */
  logLinks?: boolean;
}

/** Queued mails composed and sent at once. */
const MAIL_QUEUE_JOBS = 2;
/** How often the queue looks whether the server is quiet. */
const QUIET_CHECK_MS = 50;
/** Busier than this (the share of time the event loop was working since the last look), queued mails wait. */
const BUSY_UTILIZATION = 0.5;
/** The longest a queued mail waits for a quiet moment. */
const MAIL_MAX_WAIT_MS = 5_000;
/** How long shutdown waits for the mails still being sent. */
const CLOSE_WAIT_MS = 10_000;

/**
 * Without SMTP the message is composed exactly as it would be sent and kept as an .eml file, so a
 * developer can open it in a mail client; the log line carries its first link because that is the
 * reset or set-password link a developer needs (development only: with SMTP or under NODE_ENV=production no link is ever logged,
 * since a logged link would let whoever reads the logs take over the account).
 */
export function createMailer(options: MailerOptions): Mailer & { close(): Promise<void> } {
  const { smtpUrl, outboxDir, from, logger, logLinks = true } = options;
  let send: (message: MailMessage) => Promise<void>;
  let closeTransport: () => void;

  if (smtpUrl) {
    // Short timeouts: a hung relay must fail the send (callers log it), not hold a request for minutes.
    const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 });
    send = async (message) => {
      const info = await transport.sendMail({ from, ...message });
      logger.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent over SMTP');
    };
    closeTransport = () => transport.close();
  } else {
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    let folderMade: Promise<unknown> | null = null;
    send = async (message) => {
      const info = await transport.sendMail({ from, ...message });
      folderMade ??= fs.mkdir(outboxDir, { recursive: true }).catch((err: unknown) => {
        folderMade = null;
        throw err;
      });
      await folderMade;
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outboxDir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      await fs.writeFile(file, info.message as Buffer, { flag: 'wx' });
      logger.info({ to: message.to, subject: message.subject, ...(logLinks ? { link: firstUrl(message.text) } : {}), file }, 'mail written to outbox');
    };
    closeTransport = () => transport.close();
  }

  // Mails sent after the answer wait for a quiet moment: at a rush the server answers parents
  // first. None waits longer than MAIL_MAX_WAIT_MS; close() sends what is left.
  const queue: { message: MailMessage; onFailure: (err: unknown) => void; at: number }[] = [];
  const sending = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let since = performance.eventLoopUtilization();

  const start = (entry: (typeof queue)[number]) => {
    const sent = send(entry.message).catch(entry.onFailure);
    sending.add(sent);
    void sent.finally(() => {
      sending.delete(sent);
      schedule();
    });
  };
  function pump() {
    timer = null;
    const busy = performance.eventLoopUtilization(since).utilization > BUSY_UTILIZATION;
    while (sending.size < MAIL_QUEUE_JOBS && queue.length > 0 && (!busy || Date.now() - (queue[0]?.at ?? 0) >= MAIL_MAX_WAIT_MS)) {
      start(queue.shift() as (typeof queue)[number]);
    }
    schedule();
  }
  function schedule() {
    if (timer || queue.length === 0) return;
    // The next look judges only the time until it.
    since = performance.eventLoopUtilization();
    timer = setTimeout(pump, QUIET_CHECK_MS);
    timer.unref();
  }

  return {
    send: (message) => send(message),
    sendLater(message, onFailure) {
      queue.push({ message, onFailure, at: Date.now() });
      schedule();
    },
    async close() {
      if (timer) clearTimeout(timer);
      timer = null;
      for (const entry of queue.splice(0)) start(entry);
      let wait: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => (wait = setTimeout(resolve, CLOSE_WAIT_MS)));
      await Promise.race([Promise.all(sending), waited]);
      clearTimeout(wait);
      if (sending.size > 0) logger.warn({ unsent: sending.size }, 'mails still being sent at shutdown were given up');
      closeTransport();
    },
  };
}

export function firstUrl(text: string): string | null {
  return /https?:\/\/[^\s<>"')]+/.exec(text)?.[0] ?? null;
}

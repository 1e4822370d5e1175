import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
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
}

/**
 * Without SMTP the message is composed exactly as it would be sent and kept as an .eml file, so a
 * developer can open it in a mail client; the log line carries its first link because that is the
 * reset or set-password link a developer needs (development only: with SMTP no link is ever logged,
 * since a logged link would let whoever reads the logs take over the account).
 */
export function createMailer(options: MailerOptions): Mailer & { close(): void } {
  const { smtpUrl, outboxDir, from, logger } = options;

  if (smtpUrl) {
    // Short timeouts: a hung relay must fail the send (callers log it), not hold a request for minutes.
    const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 });
    return {
      async send(message: MailMessage) {
        const info = await transport.sendMail({ from, ...message });
        logger.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent over SMTP');
      },
      close: () => transport.close(),
    };
  }

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message: MailMessage) {
      const info = await transport.sendMail({ from, ...message });
      await fs.mkdir(outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outboxDir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      await fs.writeFile(file, info.message as Buffer, { flag: 'wx' });
      logger.info({ to: message.to, subject: message.subject, link: firstUrl(message.text), file }, 'mail written to outbox');
    },
    close: () => transport.close(),
  };
}

export function firstUrl(text: string): string | null {
  return /https?:\/\/[^\s<>"')]+/.exec(text)?.[0] ?? null;
}

import type { SmsSender } from '../deps';
import type { Logger } from '../logger';
import { firstUrl, outboxFolder } from '../mail/mailer';
import { smsSegments } from '../../contract/sms-text';

/**
 * Without SMS_URL each SMS is written as a text file to the development folder (docs/sms.md,
 * "Sending"): its recipient, sender, encoding and segments, then the text. As with e-mail's .eml
 * files it is written under a hidden name and renamed into place after `beforeFinal`: the rename is
 * its "submit". The log line carries the first link only where `logLinks` (never in production).
 */
export function createFileSmsSender(options: { dir: string; senderId: string; logger: Logger; logLinks: boolean }): SmsSender {
  const { dir, senderId, logger, logLinks } = options;
  const folder = outboxFolder(dir);
  return {
    async send(message, sendOptions = {}) {
      sendOptions.signal?.throwIfAborted();
      const segments = smsSegments(message.text);
      const body = [
        `To: ${message.to}`,
        `From: ${senderId}`,
        `Message-ID: ${message.messageId}`,
        `Encoding: ${segments.encoding}`,
        `Segments: ${segments.segments} (${segments.units} units)`,
        '',
        message.text,
        '',
      ].join('\n');
      const file = await folder.write(body, 'txt', sendOptions.beforeFinal);
      // Kind and ids, never the number (docs/email.md, "What the logs say").
      logger.info({ ...sendOptions.describe, messageId: message.messageId, ...(logLinks ? { link: firstUrl(message.text) } : {}), file }, 'SMS written to the SMS outbox folder');
      return { smscId: null };
    },
    onReceipt() {
      // A folder sends no receipts.
    },
    onAvailable() {},
    async close() {},
  };
}

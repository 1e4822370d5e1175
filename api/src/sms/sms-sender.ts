import type { SmsSender } from '../deps';
import type { Logger } from '../logger';
import { createFileSmsSender } from './file-sender';
import { createSmppSender } from './smpp-sender';

export interface SmsSenderOptions {
  /** SMS_URL, or null: files in `outboxDir`. */
  smsUrl: string | null;
  outboxDir: string;
  senderId: string;
  window: number;
  logger: Logger;
  /** Whether the folder's log line may carry the SMS's first link (never in production). */
  logLinks: boolean;
  /** How long a send waits for a bind under way (within the outbox's lease). */
  bindWaitMs?: number;
}

/** The SMS transport (docs/sms.md, "Sending"): SMPP when SMS_URL is set, else the development folder. */
export function createSmsSender(options: SmsSenderOptions): SmsSender {
  if (!options.smsUrl) return createFileSmsSender({ dir: options.outboxDir, senderId: options.senderId, logger: options.logger, logLinks: options.logLinks });
  return createSmppSender({ url: options.smsUrl, senderId: options.senderId, window: options.window, logger: options.logger, bindWaitMs: options.bindWaitMs });
}

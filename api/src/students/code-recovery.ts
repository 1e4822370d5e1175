import { CODE_RECOVERY_LINK_TTL_MS, CODE_RECOVERY_MAX_SMS, CODE_RECOVERY_MSG, CODE_RECOVERY_SMS } from '../../contract/code-recovery';
import { smsShopName } from '../../contract/order-sms';
import { SMS_MAX_UNITS, smsSegments, toGsm7 } from '../../contract/sms-text';
import { formatStudentCode } from '../../contract/student-codes';
import type { CodeRecoveryResponse } from '../../contract/students';
import type { Deps } from '../deps';
import { createDatabase } from '../db/database';
import type { Outbox } from '../outbox/outbox.service';
import type { ShortLinks } from '../sms/short-links';
import { createStudentRepository, type RecoverableStudent } from './students.repository';

/** A child's line of a recovery SMS, before it is fitted. */
export interface RecoveryLine {
  name: string;
  code: string;
  link: string;
}

/** The children one request may name at most: more than any family, fewer than a class list typed with one number. */
const MAX_CHILDREN = 12;

const fits = (text: string) => smsSegments(text).encoding === 'GSM-7' && smsSegments(text).units <= SMS_MAX_UNITS;

/**
 * The recovery SMS (docs/sms.md, "Codes recovered by phone"): a head line, then one line per child
 * (name, code, short link), as few SMS as hold them, each one GSM-7 segment, at most `max`. A name
 * too long for its SMS is cut; a child whose line fits no SMS within `max` is left out (the staff's
 * roster still shows the code).
 */
export function composeRecoverySms(shop: string, lines: readonly RecoveryLine[], max = CODE_RECOVERY_MAX_SMS): string[] {
  const head = toGsm7(CODE_RECOVERY_SMS.head(shop, lines.length > 1));
  const messages: string[] = [];
  let current: string[] = [];
  for (const line of lines) {
    let name = toGsm7(line.name).replace(/\s+/g, ' ').trim();
    const text = () => toGsm7(CODE_RECOVERY_SMS.child(name, line.code, line.link));
    if (fits([head, ...current, text()].join('\n'))) {
      current.push(text());
      continue;
    }
    if (current.length > 0) {
      messages.push([head, ...current].join('\n'));
      current = [];
      if (messages.length >= max) break;
    }
    while (name.length > 1 && !fits([head, text()].join('\n'))) name = name.slice(0, -1);
    if (fits([head, text()].join('\n'))) current.push(text());
  }
  if (current.length > 0 && messages.length < max) messages.push([head, ...current].join('\n'));
  return messages;
}

/**
 * `POST /api/students/recover` (docs/sms.md, "Codes recovered by phone"): a guardian's phone on a
 * class list gets their children's code links by SMS. Every request counts against the limits
 * (per client, and per phone an hour and a day) and answers the same for a number on a class list
 * and one that is not, after the same work: the limits and one lookup. The SMS are written after
 * the answer, in their own transaction (short links and outbox rows together), so the answer's
 * time does not tell whether there was anything to send.
 */
export function createCodeRecovery(deps: Pick<Deps, 'knex' | 'limits' | 'logger' | 'config'>, outbox: Pick<Outbox, 'enqueue' | 'kick'>, links: Pick<ShortLinks, 'create'>) {
  const repo = createStudentRepository(deps.knex);
  const database = createDatabase(deps.knex);
  const shop = smsShopName(deps.config.businessName);
  /** Writes under way after their answer: awaited by `settled()`. */
  const writing = new Set<Promise<void>>();

  async function write(phone: string, children: readonly RecoverableStudent[]): Promise<void> {
    const written = await database.transaction(async (tx) => {
      const expiresAt = Date.now() + CODE_RECOVERY_LINK_TTL_MS;
      const lines: RecoveryLine[] = [];
      for (const child of children) {
        const code = formatStudentCode(child.code);
        // The link the flyer's QR code opens (flyers.ts `codeUrl`): it unlocks the child and shows their photos.
        lines.push({ name: child.name, code, link: await links.create(`/code/${code}`, { expiresAt }, tx) });
      }
      const texts = composeRecoverySms(shop, lines);
      for (const text of texts) {
        await outbox.enqueue({ channel: 'sms', kind: 'code_recovery', to: phone, subject: '', text, html: '', schoolId: children[0]?.schoolId ?? null }, tx);
      }
      return texts.length;
    });
    if (written > 0) outbox.kick();
  }

  return {
    async recover(phone: string, client: string): Promise<CodeRecoveryResponse> {
      await deps.limits.guard('code-recovery', client, phone);
      await deps.limits.guard('code-recovery-day', client, phone);
      await deps.limits.fail('code-recovery', client, phone);
      await deps.limits.fail('code-recovery-day', client, phone);
      const children = await repo.recoverableByPhone(phone, Date.now(), MAX_CHILDREN);
      if (children.length > 0) {
        const job = write(phone, children)
          .catch((err: unknown) => deps.logger.error({ err, students: children.length }, 'code recovery SMS not written'))
          .finally(() => writing.delete(job));
        writing.add(job);
      }
      return { message: CODE_RECOVERY_MSG.answer };
    },

    /** Resolves once the SMS of the requests answered so far are written (tests, a graceful stop). */
    settled: async (): Promise<void> => {
      await Promise.all([...writing]);
    },
  };
}
export type CodeRecovery = ReturnType<typeof createCodeRecovery>;

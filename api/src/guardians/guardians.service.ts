/**
 * Guardians (docs/outreach.md): consent to be e-mailed or sent SMS about the children or schools a
 * browser has unlocked, the double opt-in (a link by e-mail, a code by SMS), unsubscribing and
 * erasure. Routes hand in plain values (the grant, the client address, a token, a code); nothing
 * here sees a request.
 */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { GUARDIAN_CONSENT_MSG, UNCONFIRMED_GUARDIAN_KEPT_MS } from '../../contract/guardian-consent';
import { CONFIRM_CODE_LENGTH, CONFIRM_CODE_MAX_TRIES, CONFIRM_CODE_TTL_MS, GUARDIAN_PHONE_MSG, guardianPhoneCodeSms } from '../../contract/guardian-phone';
import { maskPhone } from '../../contract/phone';
import { CONSENT, GUARDIAN_MSG, MSG } from '../../contract/messages';
import {
  GUARDIAN_CONFIRM_TTL_MS,
  NON_TRANSACTIONAL_KINDS,
  OUTBOX_KINDS,
  SEASON_KINDS,
  type GuardianConfirmResponse,
  type GuardianMe,
  type GuardianSubscribeResponse,
  type GuardianUnsubscribeResponse,
} from '../../contract/outreach';
import type { Deps } from '../deps';
import type { Grant } from '../http/access';
import { createDatabase, type Tx } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import { AppError, badRequest, forbidden, notFound } from '../http/errors';
import { guardianConfirmEmail } from '../mail/guardian-templates';
import type { Outbox } from '../outbox/outbox.service';
import { verifyUnsubscribeToken } from '../outreach/unsubscribe';
import { createAuditRepository, type AuditActor } from '../audit/audit.repository';
import { createGuardianRepository, type ConfirmationRecord, type FollowRecord, type GuardianRecord, type GuardianWrite, type StaffGuardianRecord } from './guardians.repository';

/**
 * The confirmation link of a subscribe request: the PWA's page, which changes nothing (mail
 * scanners and link previews open links); its button confirms (docs/outreach.md, "Double opt-in").
 */
export const confirmUrl = (publicUrl: string, token: string): string => `${publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;

/** 256 bits from the CSPRNG, only in the e-mailed link; only its SHA-256 is stored. */
const newToken = (): string => randomBytes(32).toString('base64url');
const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** The kinds a guardian's address or number gets because they are a guardian: the confirmations and every non-transactional one. */
const GUARDIAN_KINDS = ['guardian_confirm', 'guardian_phone_code', ...NON_TRANSACTIONAL_KINDS] as const;
/** What a guardian who never confirmed was sent: only the link or the code. */
const CONFIRMATION_KINDS = ['guardian_confirm', 'guardian_phone_code'] as const;

/**
 * Confirmed (the address or the number) and not unsubscribed: the guardian's browser may mirror its
 * cart, and their confirmed contact may get what their confirmed follows allow.
 */
const isActive = (guardian: GuardianRecord): boolean => (guardian.confirmedAt !== null || guardian.phoneConfirmedAt !== null) && guardian.unsubscribedAt === null;

/** A 6-digit code from the CSPRNG; only its HMAC is stored. */
const newCode = (): string => String(randomInt(0, 10 ** CONFIRM_CODE_LENGTH)).padStart(CONFIRM_CODE_LENGTH, '0');

/**
 * A code's HMAC under the server's secret, salted with its request's own random token hash: a copy
 * of the database alone does not give the code away, and the same code in two requests hashes apart.
 */
const hashCode = (secret: string, requestTokenHash: string, code: string): string =>
  createHmac('sha256', secret).update(`guardian-code:v1:${requestTokenHash}:${code}`).digest('hex');

/** An unsubscribe token names an address, or for an SMS an E.164 number. */
const isPhoneRecipient = (recipient: string): boolean => /^\+[1-9]\d{6,14}$/.test(recipient);

const sameHash = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A code's answer is a 400 naming `code`, with its own error code (docs/outreach.md, "Double opt-in: by phone"). */
const codeError = (message: string, code: string, details?: Record<string, unknown>) => new AppError(400, message, code, { code: message }, undefined, details);

/** "m…@example.com": enough for a parent to recognise their address, not enough to read it off a shared screen. */
export function maskEmail(email: string | null): string | null {
  if (email === null) return null;
  const at = email.lastIndexOf('@');
  if (at <= 0) return '…';
  return `${email.slice(0, 1)}…${email.slice(at)}`;
}

const invalidConfirmLink = () => badRequest(GUARDIAN_MSG.confirmLinkInvalid, { token: GUARDIAN_MSG.confirmLinkInvalid }, 'CONFIRM_LINK_INVALID');
const usedConfirmLink = () => badRequest(GUARDIAN_CONSENT_MSG.linkUsed, { token: GUARDIAN_CONSENT_MSG.linkUsed }, 'CONFIRM_LINK_USED');
const invalidUnsubscribeLink = () => badRequest(GUARDIAN_MSG.unsubscribeLinkInvalid, { token: GUARDIAN_MSG.unsubscribeLinkInvalid }, 'UNSUBSCRIBE_LINK_INVALID');

/** A child (code) or a whole school (password) a subscribe request asks to follow. */
interface Wanted {
  schoolId: number;
  studentId: number | null;
}

/** What the student erasure hands over (docs/outreach.md, "Erasure"). */
export interface ErasedChild {
  studentId: number;
  schoolId: number;
  guardianEmail: string | null;
}

export function createGuardianService(deps: Pick<Deps, 'knex' | 'config' | 'limits'>, outbox: Outbox) {
  const repo = createGuardianRepository(deps.knex);
  const database = createDatabase(deps.knex);
  const audit = createAuditRepository(deps.knex);

  /** A unique address inserted by two requests at once: the loser runs again and finds the row. */
  async function retryOnce<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      return work();
    }
  }

  /** Exactly what the grant proves: each child unlocked by code (with its school) and each school unlocked by password. */
  async function wantedBy(grant: Grant): Promise<{ wanted: Wanted[]; names: Map<number, string> }> {
    const schoolOf = await repo.schoolsOfStudents(grant.students);
    const names = await repo.schoolNames([...new Set([...grant.schools, ...schoolOf.values()])]);
    const wanted: Wanted[] = [
      ...grant.schools.filter((id) => names.has(id)).map((schoolId) => ({ schoolId, studentId: null })),
      ...grant.students.flatMap((studentId) => {
        const schoolId = schoolOf.get(studentId);
        return schoolId === undefined ? [] : [{ schoolId, studentId }];
      }),
    ];
    return { wanted, names };
  }

  /**
   * A confirmed request (a link pressed or a code typed): the channel's own fields, then that request's
   * consent and marketing choice for the guardian, and exactly the follows it named.
   */
  async function applyConfirmation(current: GuardianRecord, link: ConfirmationRecord, channel: GuardianWrite, now: number, tx: Tx): Promise<void> {
    const wasActive = isActive(current);
    const marketing = wasActive ? current.marketing || link.marketing : link.marketing;
    await repo.update(
      current.id,
      {
        ...channel,
        unsubscribedAt: null,
        consentVersion: link.consentVersion,
        consentAt: link.createdAt,
        marketing,
        marketingAt: !marketing ? null : wasActive && current.marketing ? current.marketingAt : link.createdAt,
      },
      now,
      tx,
    );
    await repo.confirmFollowIds(current.id, await repo.confirmationFollowIds(link.id, tx), now, tx);
  }

  const same = (a: Wanted, b: FollowRecord) => a.schoolId === b.schoolId && a.studentId === b.studentId;

  const service = {
    /**
     * Asks the address, the number or both (docs/outreach.md, "Consent", "Double opt-in" and "Double
     * opt-in: by phone"): records what the grant proves as pending follows and this request's consent
     * on its own request, and writes the confirmation e-mail (a link) and the code's SMS in the same
     * transaction. Nothing of a guardian changes until a person confirms: a stranger who types
     * someone's address or number changes neither their consent nor their confirmation. The answer
     * is the same for a known, an unknown and an unsubscribed address or number, and the route sets
     * no cookie; every request counts against the limits.
     *
     * A row is one person: an address and a number asked for together go on one new guardian only
     * when neither belongs to a guardian yet; otherwise each goes with its own guardian (a new one
     * for the one nobody has), and no row ever gains a contact from a subscribe.
     */
    async subscribe(
      input: { email?: string | undefined; phone?: string | undefined; marketing?: boolean | undefined },
      grant: Grant,
      client: string,
      now = Date.now(),
    ): Promise<GuardianSubscribeResponse> {
      const { email, phone } = input;
      if (email === undefined && phone === undefined) throw badRequest(GUARDIAN_PHONE_MSG.contactRequired, { phone: GUARDIAN_PHONE_MSG.contactRequired, email: GUARDIAN_PHONE_MSG.contactRequired });
      const { wanted, names } = await wantedBy(grant);
      if (wanted.length === 0) throw forbidden(GUARDIAN_MSG.nothingUnlocked, 'NOTHING_UNLOCKED');
      if (email !== undefined) await deps.limits.guard('guardian-subscribe', client, email);
      if (phone !== undefined) await deps.limits.guard('guardian-phone', client, phone);
      if (email !== undefined) await deps.limits.fail('guardian-subscribe', client, email);
      if (phone !== undefined) await deps.limits.fail('guardian-phone', client, phone);
      const marketing = input.marketing === true;
      const token = newToken();

      /**
       * The follows this request names on the guardian: those it adds, and those already asked for
       * and still pending; with `all`, also those already confirmed (a code request keeps everything
       * the browser held, so only a browser holding all of it can enter its code).
       */
      async function follows(guardianId: number, all: boolean, tx: Tx): Promise<number[]> {
        const existing = await repo.follows(guardianId, tx);
        const named: number[] = [];
        for (const follow of wanted) {
          const held = existing.find((candidate) => same(follow, candidate));
          if (held) {
            if (all || held.confirmedAt === null) named.push(held.id);
            continue;
          }
          named.push(await repo.insertFollow({ guardianId, schoolId: follow.schoolId, studentId: follow.studentId, at: now }, tx));
        }
        return named;
      }
      const request = async (guardianId: number, named: number[], tokenHash: string, codeHash: string | undefined, ttl: number, tx: Tx) => {
        const id = await repo.insertConfirmation(
          {
            guardianId,
            tokenHash,
            ...(codeHash === undefined ? {} : { codeHash }),
            consentVersion: CONSENT.version,
            marketing,
            followsUpTo: named.reduce((max, followId) => Math.max(max, followId), 0),
            at: now,
            expiresAt: now + ttl,
          },
          tx,
        );
        await repo.insertConfirmationFollows(id, named, tx);
      };
      // A new contact is a row with no consent yet: the consent is the request's until a person confirms it.
      const newGuardian = (contact: { email: string | null; phone: string | null }, tx: Tx) =>
        repo.insert({ ...contact, consentVersion: '', at: now, marketing: false, unsubscribedAt: null }, tx);

      await retryOnce(() =>
        database.transaction(async (tx) => {
          const byEmail = email === undefined ? undefined : await repo.findByEmail(email, tx);
          const byPhone = phone === undefined ? undefined : await repo.findByPhone(phone, tx);
          let emailGuardian = byEmail?.id;
          let phoneGuardian = byPhone?.id;
          if (email !== undefined && phone !== undefined && !byEmail && !byPhone) {
            emailGuardian = phoneGuardian = await newGuardian({ email, phone }, tx);
          } else {
            if (email !== undefined && emailGuardian === undefined) emailGuardian = await newGuardian({ email, phone: null }, tx);
            if (phone !== undefined && phoneGuardian === undefined) phoneGuardian = await newGuardian({ email: null, phone }, tx);
          }
          const schoolId = wanted[0]?.schoolId ?? null;

          if (email !== undefined && emailGuardian !== undefined) {
            await request(emailGuardian, await follows(emailGuardian, false, tx), hashToken(token), undefined, GUARDIAN_CONFIRM_TTL_MS, tx);
            const childSchools = [...new Set(wanted.filter((w) => w.studentId !== null).map((w) => names.get(w.schoolId) as string))];
            const wholeSchools = [...new Set(wanted.filter((w) => w.studentId === null).map((w) => names.get(w.schoolId) as string))];
            const content = guardianConfirmEmail({
              businessName: deps.config.businessName,
              confirmUrl: confirmUrl(deps.config.publicUrl, token),
              children: { count: wanted.filter((w) => w.studentId !== null).length, schools: childSchools },
              schools: wholeSchools,
              marketing,
            });
            await outbox.enqueue({ kind: 'guardian_confirm', to: email, ...content, guardianId: emailGuardian, schoolId }, tx);
          }

          if (phone !== undefined && phoneGuardian !== undefined) {
            // The request's token is never sent: its hash only keeps the column unique and salts the code's.
            const tokenHash = hashToken(newToken());
            const code = newCode();
            await request(phoneGuardian, await follows(phoneGuardian, true, tx), tokenHash, hashCode(deps.config.jwtSecret, tokenHash, code), CONFIRM_CODE_TTL_MS, tx);
            // Transactional: sent at once, at any hour; the code and nothing else.
            const text = guardianPhoneCodeSms(code, deps.config.businessName);
            await outbox.enqueue({ channel: 'sms', kind: 'guardian_phone_code', to: phone, subject: '', text, html: '', guardianId: phoneGuardian, schoolId }, tx);
          }
        }),
      );
      outbox.kick();
      const message = phone === undefined ? GUARDIAN_MSG.subscribeAccepted : email === undefined ? GUARDIAN_PHONE_MSG.subscribeAccepted : GUARDIAN_PHONE_MSG.subscribeAcceptedBoth;
      return { message, consentVersion: CONSENT.version };
    },

    /**
     * A code entered on the shop's page (docs/outreach.md, "Double opt-in: by phone"): it confirms
     * the number's newest request that this browser can make its own (it holds every child and
     * school that request asked for), with that request's consent and marketing choice. Each try
     * counts before the code is compared (a conditional update), so five tries end a code even when
     * sent at once; a code works for 15 minutes and once.
     */
    async confirmCode(phone: string, code: string, grant: Grant, now = Date.now()): Promise<{ guardianId: number; answer: GuardianConfirmResponse }> {
      const none = () => codeError(GUARDIAN_PHONE_MSG.codeNone, 'CONFIRM_CODE_INVALID');
      const expired = () => codeError(GUARDIAN_PHONE_MSG.codeExpired, 'CONFIRM_CODE_EXPIRED');
      const used = () => codeError(GUARDIAN_PHONE_MSG.codeUsed, 'CONFIRM_CODE_USED');
      const ended = () => codeError(GUARDIAN_PHONE_MSG.codeEnded, 'CONFIRM_CODE_ENDED', { triesLeft: 0 });
      const guardian = await repo.findByPhone(phone);
      if (!guardian) throw none();
      const holds = (follow: { schoolId: number; studentId: number | null }) =>
        follow.studentId === null ? grant.schools.includes(follow.schoolId) : grant.students.includes(follow.studentId);
      const link = (await repo.phoneRequests(guardian.id)).find((candidate) => candidate.follows.length > 0 && candidate.follows.every(holds));
      if (!link || link.codeHash === null) throw none();
      if (link.usedAt !== null) throw used();
      if (now >= link.expiresAt) throw expired();
      // In one transaction: the update holds the row until the count is read back, so each try reads its own number.
      const tries = await database.transaction((tx) => repo.countCodeTry(link.id, CONFIRM_CODE_MAX_TRIES, tx));
      if (tries === null) {
        // No try left, or spent by another request a moment ago.
        const again = (await repo.phoneRequests(guardian.id)).find((candidate) => candidate.id === link.id);
        throw again?.usedAt != null ? used() : ended();
      }
      if (!sameHash(hashCode(deps.config.jwtSecret, link.tokenHash, code), link.codeHash)) {
        const left = CONFIRM_CODE_MAX_TRIES - tries;
        throw left <= 0 ? ended() : codeError(GUARDIAN_PHONE_MSG.codeWrong(left), 'CONFIRM_CODE_WRONG', { triesLeft: left });
      }
      return database.transaction(async (tx) => {
        const current = await repo.findById(link.guardianId, tx);
        if (!current || current.phone !== phone) throw none();
        // A request made before the number unsubscribed never undoes that unsubscribe.
        if (current.unsubscribedAt !== null && current.unsubscribedAt >= link.createdAt) throw expired();
        if (!(await repo.spendConfirmation(link.id, now, tx))) throw used();
        const phoneActive = current.phoneConfirmedAt !== null && current.unsubscribedAt === null;
        await applyConfirmation(
          current,
          link,
          {
            phoneConfirmedAt: phoneActive ? current.phoneConfirmedAt : now,
            // A fresh consent by phone after an unsubscribe does not bring the e-mails back: the address confirms again for that.
            ...(current.unsubscribedAt !== null ? { confirmedAt: null } : {}),
          },
          now,
          tx,
        );
        return { guardianId: current.id, answer: { confirmed: true as const, phone, message: GUARDIAN_PHONE_MSG.confirmed } };
      });
    },

    /**
     * A person's press of the button on the link's page (docs/outreach.md, "Double opt-in"): confirms
     * the address and exactly the follows that link's e-mail named, with that request's consent and
     * marketing choice. A link works once, and one made before the address unsubscribed never
     * undoes that unsubscribe.
     */
    async confirm(token: string, now = Date.now()): Promise<{ guardianId: number; answer: GuardianConfirmResponse }> {
      const link = await repo.findConfirmation(hashToken(token));
      if (!link || now >= link.expiresAt) throw invalidConfirmLink();
      if (link.usedAt !== null) throw usedConfirmLink();
      return database.transaction(async (tx) => {
        const current = await repo.findById(link.guardianId, tx);
        if (!current) throw invalidConfirmLink();
        if (current.unsubscribedAt !== null && current.unsubscribedAt >= link.createdAt) throw invalidConfirmLink();
        // Two presses at once: the one that spends the link confirms, the other is told it was used.
        if (!(await repo.spendConfirmation(link.id, now, tx))) throw usedConfirmLink();
        const emailActive = current.confirmedAt !== null && current.unsubscribedAt === null;
        await applyConfirmation(
          current,
          link,
          {
            confirmedAt: emailActive ? current.confirmedAt : now,
            // A fresh consent by e-mail after an unsubscribe does not bring the SMS back: the number confirms again for that.
            ...(current.unsubscribedAt !== null && current.phone !== null ? { phoneConfirmedAt: null } : {}),
          },
          now,
          tx,
        );
        return { guardianId: current.id, answer: { confirmed: true as const, email: current.email ?? '', message: GUARDIAN_MSG.confirmed } };
      });
    },

    /** What an unsubscribe link names, changing nothing (a link preview or a mail scanner may open it). */
    async unsubscribeInfo(token: string): Promise<GuardianUnsubscribeResponse> {
      const recipient = verifyUnsubscribeToken(deps.config.jwtSecret, token);
      if (!recipient) throw invalidUnsubscribeLink();
      if (isPhoneRecipient(recipient)) {
        const unsubscribed = (await repo.findByPhone(recipient))?.unsubscribedAt != null;
        return { phone: recipient, unsubscribed, message: unsubscribed ? GUARDIAN_PHONE_MSG.unsubscribed : GUARDIAN_PHONE_MSG.unsubscribePrompt };
      }
      const guardian = await repo.findByEmail(recipient);
      const unsubscribed = guardian?.unsubscribedAt != null;
      return { email: recipient, unsubscribed, message: unsubscribed ? GUARDIAN_MSG.unsubscribed : GUARDIAN_MSG.unsubscribePrompt };
    },

    /**
     * One click (docs/outreach.md, "Unsubscribe in one click"): the address (or, for an SMS's link,
     * the number) gets no non-transactional message from now on, its queued ones are withdrawn, and
     * its marketing opt-in ends.
     */
    async unsubscribe(token: string, now = Date.now()): Promise<GuardianUnsubscribeResponse> {
      const recipient = verifyUnsubscribeToken(deps.config.jwtSecret, token);
      if (!recipient) throw invalidUnsubscribeLink();
      await service.unsubscribeRecipient(recipient, now);
      if (isPhoneRecipient(recipient)) return { phone: recipient, unsubscribed: true, message: GUARDIAN_PHONE_MSG.unsubscribed };
      return { email: recipient, unsubscribed: true, message: GUARDIAN_MSG.unsubscribed };
    },

    /**
     * Unsubscribes an address or an E.164 number (docs/outreach.md, "Unsubscribe in one click";
     * docs/sms.md, "Consent by phone"). A contact with no guardian row (a class list's) gets one,
     * marked unsubscribed, so the class list's "photos are online" skips it too. A guardian is one
     * person: unsubscribing either of their contacts unsubscribes them (a later consent by one
     * contact brings back only that one: see `confirm` and `confirmCode`).
     */
    async unsubscribeRecipient(recipient: string, now = Date.now()): Promise<void> {
      const phone = isPhoneRecipient(recipient) ? recipient : null;
      const email = phone === null ? recipient.trim().toLowerCase() : null;
      await retryOnce(() =>
        database.transaction(async (tx) => {
          const guardian = phone !== null ? await repo.findByPhone(phone, tx) : await repo.findByEmail(email as string, tx);
          if (!guardian) await repo.insert({ email, phone, consentVersion: '', at: now, marketing: false, unsubscribedAt: now }, tx);
          else if (guardian.unsubscribedAt === null) {
            await repo.update(guardian.id, { unsubscribedAt: now, marketing: false, marketingAt: null }, now, tx);
          }
          await outbox.cancelQueued({ kinds: NON_TRANSACTIONAL_KINDS, recipient: phone ?? (email as string) }, tx);
          // The same person's other contact: its queued messages go too.
          if (guardian && guardian.phone !== null) await outbox.cancelQueued({ kinds: NON_TRANSACTIONAL_KINDS, guardianId: guardian.id }, tx);
        }),
      );
    },

    /**
     * What a browser's guardian cookie says (docs/outreach.md, "The guardian cookie"). Only a link
     * sent to the address or a code sent to the number sets the cookie, so its holder is told the
     * guardian's own state: a stranger's later subscribe of the same contact changes nothing here.
     */
    async me(guardianId: number | null): Promise<GuardianMe> {
      const guardian = guardianId === null ? undefined : await repo.findById(guardianId);
      if (!guardian) return { subscribed: false, confirmed: false, email: null, unsubscribed: false };
      return {
        subscribed: true,
        confirmed: isActive(guardian),
        email: maskEmail(guardian.email),
        ...(guardian.phone !== null ? { phone: maskPhone(guardian.phone) } : {}),
        unsubscribed: guardian.unsubscribedAt !== null,
      };
    },

    /** Confirmed and not unsubscribed: may mirror a cart, and a restore link may renew its grants. */
    async isActive(guardianId: number): Promise<boolean> {
      const guardian = await repo.findById(guardianId);
      return guardian !== undefined && isActive(guardian);
    },

    /** Staff: the guardians who follow the school or one of its children. */
    async listForSchool(schoolId: number): Promise<StaffGuardianRecord[]> {
      if (!(await repo.schoolExists(schoolId))) throw notFound(MSG.schoolNotFound);
      return repo.listForSchool(schoolId);
    },

    /**
     * Staff erase a guardian (docs/outreach.md, "Erasure"): the guardian, their follows, cart and
     * links go; their queued messages are withdrawn; their past messages keep only kind, school,
     * status and times.
     */
    async erase(id: number, actor: AuditActor): Promise<void> {
      await database.transaction(async (tx) => {
        const guardian = await repo.findById(id, tx);
        if (!guardian) throw notFound(GUARDIAN_MSG.guardianNotFound);
        // Admins only (the route); the entry names the guardian by id alone (docs/accounts.md, "The audit log").
        await audit.record({ action: 'guardian_erased', actor, targetId: id, at: Date.now() }, tx);
        await outbox.cancelQueued({ kinds: OUTBOX_KINDS, guardianId: id }, tx);
        for (const recipient of [guardian.email, guardian.phone]) if (recipient !== null) await outbox.cancelQueued({ kinds: GUARDIAN_KINDS, recipient }, tx);
        await repo.redactMessages({ guardianId: id, email: guardian.email, phone: guardian.phone, kinds: GUARDIAN_KINDS }, tx);
        await repo.delete(id, tx);
      });
    },

    /**
     * Data minimisation (docs/outreach.md, "Unconfirmed addresses go"): a guardian who never
     * confirmed goes, with their links, follows and any trace in the outbox, 14 days after their last
     * link ended; links of any guardian go 14 days after they end, and so do pending follows no link
     * names any more. An unsubscribed address keeps its row (that row is its unsubscribe).
     */
    async purgeUnconfirmed(now = Date.now()): Promise<{ guardians: number; links: number; follows: number }> {
      const cutoff = now - UNCONFIRMED_GUARDIAN_KEPT_MS;
      let guardians = 0;
      for (const stale of await repo.unconfirmedPast(cutoff)) {
        const gone = await database.transaction(async (tx) => {
          const guardian = await repo.findById(stale.id, tx);
          // Confirmed or unsubscribed in the meantime, or asked again: it stays.
          if (!guardian || guardian.confirmedAt !== null || guardian.phoneConfirmedAt !== null || guardian.unsubscribedAt !== null) return false;
          if ((await repo.unconfirmedPast(cutoff, tx, guardian.id)).length === 0) return false;
          await outbox.cancelQueued({ kinds: OUTBOX_KINDS, guardianId: guardian.id }, tx);
          await repo.redactMessages({ guardianId: guardian.id, email: guardian.email, phone: guardian.phone, kinds: CONFIRMATION_KINDS }, tx);
          await repo.delete(guardian.id, tx);
          return true;
        });
        if (gone) guardians++;
      }
      const { links, follows } = await database.transaction((tx) => repo.deleteStaleLinks(cutoff, tx));
      return { guardians, links, follows };
    },

    /**
     * Called inside a child's erasure (api/src/students/students.service.ts): nobody follows the child
     * any more, and a guardian (or class-list address) left with nothing in that school has its queued
     * season messages for it withdrawn, so no schedule reaches them for that child.
     */
    async forgetChild(child: ErasedChild, tx: Tx): Promise<void> {
      const followers = await repo.followersOfStudent(child.studentId, tx);
      await repo.deleteFollowsOfStudent(child.studentId, tx);
      for (const { guardianId, schoolId } of followers) {
        if ((await repo.followsInSchool(guardianId, schoolId, tx)) === 0) await outbox.cancelQueued({ kinds: SEASON_KINDS, guardianId, schoolId }, tx);
      }
      const address = child.guardianEmail?.toLowerCase();
      if (!address || (await repo.rosterAddressInSchool(address, child.schoolId, child.studentId, tx))) return;
      const guardian = await repo.findByEmail(address, tx);
      if (guardian && (await repo.followsInSchool(guardian.id, child.schoolId, tx)) > 0) return;
      await outbox.cancelQueued({ kinds: SEASON_KINDS, recipient: address, schoolId: child.schoolId }, tx);
    },
  };
  return service;
}
export type GuardianService = ReturnType<typeof createGuardianService>;

/**
 * Guardians (docs/outreach.md): consent to be e-mailed about the children or schools a browser has
 * unlocked, the double opt-in, one-click unsubscribe and erasure. Routes hand in plain values (the
 * grant, the client address, a token); nothing here sees a request.
 */
import { createHash, randomBytes } from 'node:crypto';
import { GUARDIAN_CONSENT_MSG, UNCONFIRMED_GUARDIAN_KEPT_MS } from '../../contract/guardian-consent';
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
import { badRequest, forbidden, notFound } from '../http/errors';
import { guardianConfirmEmail } from '../mail/guardian-templates';
import type { Outbox } from '../outbox/outbox.service';
import { verifyUnsubscribeToken } from '../outreach/unsubscribe';
import { createAuditRepository, type AuditActor } from '../audit/audit.repository';
import { createGuardianRepository, type FollowRecord, type GuardianRecord, type StaffGuardianRecord } from './guardians.repository';

/**
 * The confirmation link of a subscribe request: the PWA's page, which changes nothing (mail
 * scanners and link previews open links); its button confirms (docs/outreach.md, "Double opt-in").
 */
export const confirmUrl = (publicUrl: string, token: string): string => `${publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;

/** 256 bits from the CSPRNG, only in the e-mailed link; only its SHA-256 is stored. */
const newToken = (): string => randomBytes(32).toString('base64url');
const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** The kinds a guardian's address gets because they are a guardian: the confirmation and every non-transactional one. */
const GUARDIAN_KINDS = ['guardian_confirm', ...NON_TRANSACTIONAL_KINDS] as const;

/** Confirmed and not unsubscribed: the address may get what its confirmed follows allow. */
const isActive = (guardian: GuardianRecord): boolean => guardian.confirmedAt !== null && guardian.unsubscribedAt === null;

/** "m…@example.com": enough for a parent to recognise their address, not enough to read it off a shared screen. */
export function maskEmail(email: string): string {
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

  const same = (a: Wanted, b: FollowRecord) => a.schoolId === b.schoolId && a.studentId === b.studentId;

  return {
    /**
     * Asks the address (docs/outreach.md, "Consent" and "Double opt-in"): records what the grant
     * proves as pending follows and this request's consent on its own link, and writes the
     * confirmation e-mail in the same transaction. Nothing of the guardian changes until that link's
     * page is confirmed: a stranger who types someone's address changes neither their consent nor
     * their confirmation. The answer is the same for a known, an unknown and an unsubscribed
     * address, and the route sets no cookie; every request counts against the limits.
     */
    async subscribe(
      input: { email: string; marketing?: boolean | undefined },
      grant: Grant,
      client: string,
      now = Date.now(),
    ): Promise<GuardianSubscribeResponse> {
      const { wanted, names } = await wantedBy(grant);
      if (wanted.length === 0) throw forbidden(GUARDIAN_MSG.nothingUnlocked, 'NOTHING_UNLOCKED');
      await deps.limits.guard('guardian-subscribe', client, input.email);
      await deps.limits.fail('guardian-subscribe', client, input.email);
      const marketing = input.marketing === true;
      const token = newToken();

      await retryOnce(() =>
        database.transaction(async (tx) => {
          const guardian = await repo.findByEmail(input.email, tx);
          // A new address is a row with no consent yet: the consent is the link's until a person confirms it.
          const id = guardian ? guardian.id : await repo.insert({ email: input.email, consentVersion: '', at: now, marketing: false, unsubscribedAt: null }, tx);
          const existing = await repo.follows(id, tx);
          // The follows this request names: those it adds, and those already asked for and still pending.
          const named: number[] = [];
          for (const follow of wanted) {
            const held = existing.find((candidate) => same(follow, candidate));
            if (held) {
              if (held.confirmedAt === null) named.push(held.id);
              continue;
            }
            named.push(await repo.insertFollow({ guardianId: id, schoolId: follow.schoolId, studentId: follow.studentId, at: now }, tx));
          }
          const confirmationId = await repo.insertConfirmation(
            {
              guardianId: id,
              tokenHash: hashToken(token),
              consentVersion: CONSENT.version,
              marketing,
              followsUpTo: named.reduce((max, followId) => Math.max(max, followId), 0),
              at: now,
              expiresAt: now + GUARDIAN_CONFIRM_TTL_MS,
            },
            tx,
          );
          await repo.insertConfirmationFollows(confirmationId, named, tx);
          const childSchools = [...new Set(wanted.filter((w) => w.studentId !== null).map((w) => names.get(w.schoolId) as string))];
          const wholeSchools = [...new Set(wanted.filter((w) => w.studentId === null).map((w) => names.get(w.schoolId) as string))];
          const content = guardianConfirmEmail({
            businessName: deps.config.businessName,
            confirmUrl: confirmUrl(deps.config.publicUrl, token),
            children: { count: wanted.filter((w) => w.studentId !== null).length, schools: childSchools },
            schools: wholeSchools,
            marketing,
          });
          await outbox.enqueue({ kind: 'guardian_confirm', to: input.email, ...content, guardianId: id, schoolId: wanted[0]?.schoolId ?? null }, tx);
        }),
      );
      outbox.kick();
      return { message: GUARDIAN_MSG.subscribeAccepted, consentVersion: CONSENT.version };
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
        const wasActive = isActive(current);
        const marketing = wasActive ? current.marketing || link.marketing : link.marketing;
        await repo.update(
          current.id,
          {
            confirmedAt: wasActive ? current.confirmedAt : now,
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
        return { guardianId: current.id, answer: { confirmed: true as const, email: current.email, message: GUARDIAN_MSG.confirmed } };
      });
    },

    /** What an unsubscribe link names, changing nothing (a link preview or a mail scanner may open it). */
    async unsubscribeInfo(token: string): Promise<GuardianUnsubscribeResponse> {
      const email = verifyUnsubscribeToken(deps.config.jwtSecret, token);
      if (!email) throw invalidUnsubscribeLink();
      const guardian = await repo.findByEmail(email);
      const unsubscribed = guardian?.unsubscribedAt != null;
      return { email, unsubscribed, message: unsubscribed ? GUARDIAN_MSG.unsubscribed : GUARDIAN_MSG.unsubscribePrompt };
    },

    /**
     * One click (docs/outreach.md, "Unsubscribe in one click"): the address gets no non-transactional
     * message from now on, its queued ones are withdrawn, and its marketing opt-in ends. An address
     * with no guardian row (a class list's) gets one, marked unsubscribed, so the class list's
     * "photos are online" skips it too.
     */
    async unsubscribe(token: string, now = Date.now()): Promise<GuardianUnsubscribeResponse> {
      const email = verifyUnsubscribeToken(deps.config.jwtSecret, token);
      if (!email) throw invalidUnsubscribeLink();
      await retryOnce(() =>
        database.transaction(async (tx) => {
          const guardian = await repo.findByEmail(email, tx);
          if (!guardian) await repo.insert({ email, consentVersion: '', at: now, marketing: false, unsubscribedAt: now }, tx);
          else if (guardian.unsubscribedAt === null) await repo.update(guardian.id, { unsubscribedAt: now, marketing: false, marketingAt: null }, now, tx);
          await outbox.cancelQueued({ kinds: NON_TRANSACTIONAL_KINDS, recipient: email }, tx);
        }),
      );
      return { email, unsubscribed: true, message: GUARDIAN_MSG.unsubscribed };
    },

    /**
     * What a browser's guardian cookie says (docs/outreach.md, "The guardian cookie"). Only a link
     * sent to the address sets the cookie, so its holder is told the address's own state: a stranger's
     * later subscribe of the same address changes nothing here.
     */
    async me(guardianId: number | null): Promise<GuardianMe> {
      const guardian = guardianId === null ? undefined : await repo.findById(guardianId);
      if (!guardian) return { subscribed: false, confirmed: false, email: null, unsubscribed: false };
      return { subscribed: true, confirmed: isActive(guardian), email: maskEmail(guardian.email), unsubscribed: guardian.unsubscribedAt !== null };
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
        await outbox.cancelQueued({ kinds: GUARDIAN_KINDS, recipient: guardian.email }, tx);
        await repo.redactMessages({ guardianId: id, email: guardian.email, kinds: GUARDIAN_KINDS }, tx);
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
          if (!guardian || guardian.confirmedAt !== null || guardian.unsubscribedAt !== null) return false;
          if ((await repo.unconfirmedPast(cutoff, tx, guardian.id)).length === 0) return false;
          await outbox.cancelQueued({ kinds: OUTBOX_KINDS, guardianId: guardian.id }, tx);
          await repo.redactMessages({ guardianId: guardian.id, email: guardian.email, kinds: ['guardian_confirm'] }, tx);
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
}
export type GuardianService = ReturnType<typeof createGuardianService>;

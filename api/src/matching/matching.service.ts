import { pastCodeDigest } from '../students/student-code';
import type { CardStatus } from '../../contract/matching';
import type { Deps } from '../deps';
import type { PhotoRecord } from '../photos/photos.repository';
import { createDatabase } from '../db/database';
import { MSG } from '../../contract/messages';
import { notFound } from '../http/errors';
import { cardCodeOf } from './card-text';
import { createNameMatcher } from './file-names';
import { captureOrder, matchSession, type Placement, type SessionPhoto } from './match-session';
import { createMatchingRepository, type CodeOwner } from './matching.repository';
import { guardSoldPhotos } from '../orders/sold-photos';
import { createSoldPhotoRepository } from '../orders/sold-photos.repository';

/** What an upload into a class with a roster needs to recognise its cards. */
export interface AlbumMatcher {
  /** Whether a QR code's text is a student code at all (the scan passes over other codes). */
  isCardText(text: string): boolean;
  /** Whose card it is, as far as this class is concerned. */
  resolveCard(text: string): Promise<{ status: CardStatus; studentId: number | null }>;
}

/** A card of this session whose code is not trusted here, with whose code it is (if anyone's). */
export interface ReportedCardRecord {
  photo: SessionPhoto;
  owner: CodeOwner | undefined;
}

/** A session after matching: every photo and card as placed, and the cards to report. */
export interface MatchingRun {
  sessionId: string;
  photos: SessionPhoto[];
  reported: ReportedCardRecord[];
}

export interface TrayCardRecord {
  status: CardStatus;
  owner: CodeOwner | undefined;
}

/** The tray: per session, the photos waiting for a child and the cards around them (card null for a photo). */
export interface TrayRecord {
  sessions: { sessionId: string; items: { photo: PhotoRecord; card: TrayCardRecord | null }[] }[];
}

export function createMatchingService(deps: Pick<Deps, 'knex'> & { config: Pick<Deps['config'], 'publicUrl'> }) {
  const repo = createMatchingRepository(deps.knex);
  const database = createDatabase(deps.knex);
  const soldPhotos = createSoldPhotoRepository(deps.knex);
  const publicUrl = deps.config.publicUrl;
  /** One matching run per class at a time in this process; the transaction's lock covers other processes. */
  const running = new Map<number, Promise<unknown>>();

  function oneAtATime<T>(albumId: number, run: () => Promise<T>): Promise<T> {
    const previous = running.get(albumId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(run);
    running.set(albumId, next);
    void next
      .finally(() => {
        if (running.get(albumId) === next) running.delete(albumId);
      })
      .catch(() => undefined);
    return next;
  }

  async function reported(photos: SessionPhoto[]): Promise<ReportedCardRecord[]> {
    const untrusted = captureOrder(photos.filter((photo) => photo.kind === 'card' && photo.cardStatus !== 'known'));
    const owners = await repo.owners(untrusted.flatMap((photo) => (photo.cardStudentId === null ? [] : [photo.cardStudentId])));
    return untrusted.map((photo) => ({ photo, owner: photo.cardStudentId === null ? undefined : owners.get(photo.cardStudentId) }));
  }

  const service = {
    /**
     * Whether an upload into the class is scanned for cards: only a class with a roster has anyone
     * to match. Anything but a class id answers true, so a doubtful form never skips the scan.
     */
    async scansCards(albumId: string): Promise<boolean> {
      const id = Number(albumId);
      if (!Number.isSafeInteger(id) || id <= 0) return true;
      return (await repo.roster(id)).length > 0;
    },

    /** Null when the class has no roster: there is nobody to match, so no photo is scanned for a card. */
    async forAlbum(albumId: number): Promise<AlbumMatcher | null> {
      const roster = await repo.roster(albumId);
      if (roster.length === 0) return null;
      const ids = new Set(roster.map((student) => student.id));
      return {
        isCardText: (text) => cardCodeOf(text, publicUrl) !== null,
        async resolveCard(text) {
          const code = cardCodeOf(text, publicUrl);
          const owner = code === null ? undefined : await repo.ownerOfCode(code);
          if (!owner) {
            // A replaced code places nothing, but the card still shows the child: it is recorded as
            // theirs, so it is erased with them (docs/access.md, "Erasure, completely").
            const past = code === null ? undefined : await repo.pastOwnerOfCode(pastCodeDigest(code));
            return { status: 'unknown', studentId: past ?? null };
          }
          // A card of another class or school is recorded (to report it and to erase it with the child), never trusted here.
          return { status: ids.has(owner.id) ? 'known' : 'other_class', studentId: owner.id };
        },
      };
    },

    /**
     * Matches the whole session again after a batch arrived, so the result depends only on which
     * photos the session holds, never on how its batches were split, ordered or resent.
     */
    rematch(albumId: number, session: string): Promise<MatchingRun> {
      return oneAtATime(albumId, async () => {
        const photos = await database.transaction(async (tx) => {
          await repo.lockAlbum(albumId, tx);
          const current = await repo.sessionPhotos(albumId, session, tx);
          const placements = matchSession(current, createNameMatcher(await repo.roster(albumId, tx)));
          const changed = new Map<number, Placement>();
          for (const photo of current) {
            const next = placements.get(photo.id);
            if (next && (next.studentId !== photo.studentId || next.inTray !== photo.inTray || next.matchedBy !== photo.matchedBy)) changed.set(photo.id, next);
          }
          await repo.place(changed, changed.size > 0 && (await repo.reviewsPlacements(albumId, tx)), tx);
          return current.map((photo) => ({ ...photo, ...(placements.get(photo.id) ?? {}) }));
        });
        return { sessionId: session, photos, reported: await reported(photos) };
      });
    },

    /**
     * "This is a card photo": staff mark photos whose card the scan missed. Each becomes a card
     * of an unknown code, so the photos after it no longer follow the card before it: its
     * session is matched again, and those photos wait in the tray for staff (docs/images.md,
     * "Cards at the shoot"). A card shows a child's private code, so it is never shown or sold.
     */
    /** A photo a family paid for becomes a card only once staff confirmed the warning (docs/access.md, "Moving a sold photo"). */
    async markCards(photoIds: number[], confirmed = false): Promise<{ updated: number }> {
      const ids = [...new Set(photoIds)];
      const found = await repo.photoSessions(ids);
      if (found.length !== ids.length) throw notFound(MSG.photoNotFound);
      const fresh = found.filter((photo) => photo.kind !== 'card');
      const updated =
        fresh.length === 0
          ? 0
          : await database.transaction(async (tx) => {
              const freshIds = fresh.map((photo) => photo.id);
              await guardSoldPhotos(soldPhotos, freshIds, { to: 'withheld' }, confirmed, tx);
              return repo.markCards(freshIds, tx);
            });
      const sessions = new Map(fresh.flatMap((photo) => (photo.session === null ? [] : [[`${photo.albumId}:${photo.session}`, photo] as const])));
      for (const photo of sessions.values()) await service.rematch(photo.albumId, photo.session as string);
      return { updated };
    },

    /** The photos waiting for a child, per session in capture order, each run with the cards just before and after it. */
    async tray(albumId: number): Promise<TrayRecord> {
      const sessions: { sessionId: string; ids: number[]; latest: number }[] = [];
      for (const session of await repo.traySessions(albumId)) {
        const ordered = captureOrder(await repo.sessionPhotos(albumId, session));
        const shown = new Set<number>();
        ordered.forEach((photo, index) => {
          if (photo.kind !== 'photo' || !photo.inTray) return;
          shown.add(photo.id);
          for (let i = index - 1; i >= 0; i--) {
            const before = ordered[i];
            if (before?.kind === 'card') {
              shown.add(before.id);
              break;
            }
          }
          for (let i = index + 1; i < ordered.length; i++) {
            const after = ordered[i];
            if (after?.kind === 'card') {
              shown.add(after.id);
              break;
            }
          }
        });
        const ids = ordered.filter((photo) => shown.has(photo.id)).map((photo) => photo.id);
        sessions.push({ sessionId: session, ids, latest: Math.max(...ids) });
      }
      const loose = await repo.trayWithoutSession(albumId);
      const photos = new Map((await repo.photosByIds(sessions.flatMap((session) => session.ids))).map((photo) => [photo.id, photo]));
      for (const photo of loose) photos.set(photo.id, photo);
      const cardOwners = await repo.owners([...photos.values()].flatMap((photo) => (photo.kind === 'card' && photo.cardStudentId !== null ? [photo.cardStudentId] : [])));
      const item = (id: number): TrayRecord['sessions'][number]['items'] => {
        const photo = photos.get(id);
        if (!photo) return [];
        if (photo.kind !== 'card') return [{ photo, card: null }];
        const owner = photo.cardStudentId === null ? undefined : cardOwners.get(photo.cardStudentId);
        return [{ photo, card: { status: (photo.cardStatus as CardStatus | null) ?? 'unknown', owner } }];
      };
      const listed = sessions.sort((a, b) => b.latest - a.latest).map((session) => ({ sessionId: session.sessionId, items: session.ids.flatMap(item) }));
      if (loose.length > 0) listed.push({ sessionId: '', items: loose.flatMap((photo) => item(photo.id)) });
      return { sessions: listed };
    },
  };
  return service;
}
export type MatchingService = ReturnType<typeof createMatchingService>;

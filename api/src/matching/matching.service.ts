import type { CardStatus, MatchingSummary, ReportedCard, TrayCard } from '../../contract/matching';
import { MATCHING_MSG } from '../../contract/messages';
import type { TrayItem, TrayResponse } from '../../contract/photos';
import { presentPhoto } from '../photos/photos.presenter';
import type { Deps } from '../deps';
import { createDatabase } from '../db/database';
import { cardCodeOf } from './card-text';
import { createNameMatcher } from './file-names';
import { captureOrder, matchSession, type Placement, type SessionPhoto } from './match-session';
import { createMatchingRepository, type CodeOwner } from './matching.repository';

/** What an upload into a class with a roster needs to recognise its cards. */
export interface AlbumMatcher {
  /** Whether a QR code's text is a student code at all (the scan passes over other codes). */
  isCardText(text: string): boolean;
  /** Whose card it is, as far as this class is concerned. */
  resolveCard(text: string): Promise<{ status: CardStatus; studentId: number | null }>;
}

const where = (owner: CodeOwner) => `${owner.albumName}, ${owner.schoolName}`;

export function createMatchingService(deps: Pick<Deps, 'knex'> & { config: Pick<Deps['config'], 'publicUrl'> }) {
  const repo = createMatchingRepository(deps.knex);
  const database = createDatabase(deps.knex);
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

  async function reported(photos: SessionPhoto[]): Promise<ReportedCard[]> {
    const untrusted = captureOrder(photos.filter((photo) => photo.kind === 'card' && photo.cardStatus !== 'known'));
    const owners = await repo.owners(untrusted.flatMap((photo) => (photo.cardStudentId === null ? [] : [photo.cardStudentId])));
    return untrusted.map((photo) => {
      const owner = photo.cardStudentId === null ? undefined : owners.get(photo.cardStudentId);
      if (photo.cardStatus === 'other_class' && owner) {
        return { photoId: photo.id, originalName: photo.originalName, status: 'other_class', message: MATCHING_MSG.otherClassCode(photo.originalName, owner.name, where(owner)) };
      }
      return { photoId: photo.id, originalName: photo.originalName, status: 'unknown', message: MATCHING_MSG.unknownCode(photo.originalName) };
    });
  }

  return {
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
          if (!owner) return { status: 'unknown', studentId: null };
          // A card of another class or school is recorded (to report it and to erase it with the child), never trusted here.
          return { status: ids.has(owner.id) ? 'known' : 'other_class', studentId: owner.id };
        },
      };
    },

    /**
     * Matches the whole session again after a batch arrived, so the result depends only on which
     * photos the session holds, never on how its batches were split, ordered or resent.
     */
    rematch(albumId: number, session: string): Promise<MatchingSummary> {
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
          await repo.place(changed, tx);
          return current.map((photo) => ({ ...photo, ...(placements.get(photo.id) ?? {}) }));
        });
        const count = (test: (photo: SessionPhoto) => boolean) => photos.filter(test).length;
        return {
          sessionId: session,
          photos: count((photo) => photo.kind === 'photo'),
          cards: count((photo) => photo.kind === 'card'),
          byCard: count((photo) => photo.kind === 'photo' && photo.matchedBy === 'card'),
          byName: count((photo) => photo.kind === 'photo' && photo.matchedBy === 'name'),
          byStaff: count((photo) => photo.kind === 'photo' && photo.matchedBy === 'staff'),
          inTray: count((photo) => photo.kind === 'photo' && photo.inTray),
          reported: await reported(photos),
        };
      });
    },

    /** The photos waiting for a child, per session in capture order, each run with the cards just before and after it. */
    async tray(albumId: number): Promise<TrayResponse> {
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
      const item = (id: number): TrayItem[] => {
        const photo = photos.get(id);
        if (!photo) return [];
        let card: TrayCard | null = null;
        if (photo.kind === 'card') {
          const owner = photo.cardStudentId === null ? undefined : cardOwners.get(photo.cardStudentId);
          const status = (photo.cardStatus as CardStatus | null) ?? 'unknown';
          card = {
            status,
            studentId: status === 'known' && owner ? owner.id : null,
            studentName: owner?.name ?? null,
            elsewhere: status === 'other_class' && owner ? where(owner) : null,
          };
        }
        return [{ photo: presentPhoto(photo), card }];
      };
      const listed = sessions.sort((a, b) => b.latest - a.latest).map((session) => ({ sessionId: session.sessionId, items: session.ids.flatMap(item) }));
      if (loose.length > 0) listed.push({ sessionId: '', items: loose.flatMap((photo) => item(photo.id)) });
      const waiting = listed.reduce((sum, session) => sum + session.items.filter((entry) => entry.card === null).length, 0);
      return { waiting, sessions: listed };
    },
  };
}
export type MatchingService = ReturnType<typeof createMatchingService>;

import type { MatchingSummary, ReportedCard, TrayCard } from '../../contract/matching';
import { MATCHING_MSG } from '../../contract/messages';
import type { TrayItem, TrayResponse } from '../../contract/photos';
import { presentPhoto } from '../photos/photos.presenter';
import type { MatchingRun, ReportedCardRecord, TrayRecord, TrayCardRecord } from './matching.service';
import type { CodeOwner } from './matching.repository';

const where = (owner: CodeOwner) => `${owner.albumName}, ${owner.schoolName}`;

/** A card whose code is not this class's: another class's child (named, with where), or nobody's. */
function presentReportedCard({ photo, owner }: ReportedCardRecord): ReportedCard {
  if (photo.cardStatus === 'other_class' && owner) {
    return { photoId: photo.id, originalName: photo.originalName, status: 'other_class', message: MATCHING_MSG.otherClassCode(photo.originalName, owner.name, where(owner)) };
  }
  return { photoId: photo.id, originalName: photo.originalName, status: 'unknown', message: MATCHING_MSG.unknownCode(photo.originalName) };
}

/** How a session's photos were placed after its latest batch. */
export function presentMatchingSummary(run: MatchingRun): MatchingSummary {
  const count = (test: (photo: MatchingRun['photos'][number]) => boolean) => run.photos.filter(test).length;
  return {
    sessionId: run.sessionId,
    photos: count((photo) => photo.kind === 'photo'),
    cards: count((photo) => photo.kind === 'card'),
    byCard: count((photo) => photo.kind === 'photo' && photo.matchedBy === 'card'),
    byName: count((photo) => photo.kind === 'photo' && photo.matchedBy === 'name'),
    byStaff: count((photo) => photo.kind === 'photo' && photo.matchedBy === 'staff'),
    inTray: count((photo) => photo.kind === 'photo' && photo.inTray),
    reported: run.reported.map(presentReportedCard),
  };
}

function presentTrayCard({ status, owner }: TrayCardRecord): TrayCard {
  return {
    status,
    studentId: status === 'known' && owner ? owner.id : null,
    studentName: owner?.name ?? null,
    elsewhere: status === 'other_class' && owner ? where(owner) : null,
  };
}

/** The tray's sessions as listed, and how many photos (not cards) wait for a child. */
export function presentTray(tray: TrayRecord): TrayResponse {
  const sessions = tray.sessions.map((session) => ({
    sessionId: session.sessionId,
    items: session.items.map((entry): TrayItem => ({ photo: presentPhoto(entry.photo), card: entry.card ? presentTrayCard(entry.card) : null })),
  }));
  const waiting = sessions.reduce((sum, session) => sum + session.items.filter((entry) => entry.card === null).length, 0);
  return { waiting, sessions };
}

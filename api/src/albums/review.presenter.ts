import type { ReviewPhoto, ReviewSheet } from '../../contract/albums';
import type { MatchedBy } from '../../contract/matching';
import { REVIEW_MSG } from '../../contract/messages';
import { childNamer } from '../../contract/same-names';
import { presentAlbum } from './albums.presenter';
import type { ReviewEntry, ReviewRecord } from './review.service';

function presentEntry(entry: ReviewEntry): ReviewPhoto {
  const { photo } = entry;
  return {
    id: photo.id,
    label: REVIEW_MSG.photoLabel(entry.number),
    originalName: photo.originalName,
    thumbnailWidth: photo.thumbWidth,
    thumbnailHeight: photo.thumbHeight,
    matchedBy: (photo.matchedBy as MatchedBy | null) ?? null,
    pendingReview: photo.pendingReview,
    placedByCard: entry.placedByCard ? { photoId: entry.placedByCard.id, originalName: entry.placedByCard.originalName } : null,
  };
}

export function presentReviewSheet(sheet: ReviewRecord): ReviewSheet {
  const hasRoster = sheet.students.length > 0;
  // A name two children share is shown with the number (docs/access.md, "Two children with the same name").
  const shownName = childNamer(sheet.students.map(({ student }) => student));
  return {
    album: { ...presentAlbum(sheet.album), hasRoster },
    students: sheet.students.map(({ student, photos, cards }) => ({
      id: student.id,
      name: student.name,
      number: student.number,
      doNotPublish: student.doNotPublish,
      defaultPhotoId: student.defaultPhotoId,
      photos: photos.map(presentEntry),
      cards: cards.map((card) => ({ photoId: card.id, originalName: card.originalName })),
      summary: REVIEW_MSG.childSummary(shownName(student), photos.length, cards.map((card) => card.originalName)),
    })),
    group: sheet.group.map(presentEntry),
    tray: sheet.tray.map(presentEntry),
    counts: sheet.counts,
  };
}

import { useMemo, useRef, useState, type ReactNode } from 'react';
import type { ReviewPhoto, ReviewSheet as Sheet } from '@contract/albums';
import { MATCHING_MSG, PWA_MSG, REVIEW_MSG } from '@contract/messages';
import { CLASS_SCREEN_MSG, REVIEW_SCREEN_MSG, TRAY_MSG } from '@contract/staff-screen-messages';
import type { AlbumSummary } from '@contract/schools';
import { AuthedImage } from '../../../components/authed-image';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { cx } from '../../../components/ui/cx';
import { Select } from '../../../components/ui/select';
import { PageSpinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAlbumReview, useMovePhoto, type MoveTarget } from '../api/review';
import { useSoldPhotoConfirm } from '../common/sold-photo-confirm';
import { useMarkCardDialog } from './photo-actions';
import { useCardLarge, useMoveToChildDialog, type ChildChoice } from './review-dialogs';
import { REVIEW_ACTIONS_MSG, childNamer } from '@contract/same-names';

/** Children per page: a class of 300 never puts 300 children's photos on the page at once. */
export const REVIEW_PAGE_SIZE = 20;

const GROUP_VALUE = 'group';
const TRAY_VALUE = 'tray';
/** Not a move: "This is a card photo" (asked first), for a card the scan could not read. */
const CARD_VALUE = 'card';

type Student = Sheet['students'][number];
/** Where a photo sits now: with a child, in the group photos or in the tray. */
type Place = { kind: 'student'; studentId: number } | { kind: 'group' } | { kind: 'tray' };

/** A child's strip: each run of photos placed by one card starts with that card photo. */
export type StripItem = { kind: 'card'; card: { photoId: number; originalName: string } } | { kind: 'photo'; photo: ReviewPhoto };

/**
 * A child's photos in capture order with the card photo that placed each run (consecutive photos
 * placed by the same card) before the run, so staff check the name or code on the card against
 * the child. Photos placed by a file name or by staff have no card before them.
 */
export function withRunCards(photos: readonly ReviewPhoto[]): StripItem[] {
  const items: StripItem[] = [];
  let previous: number | null = null;
  for (const photo of photos) {
    const card = photo.placedByCard;
    if (card && card.photoId !== previous) items.push({ kind: 'card', card });
    previous = card?.photoId ?? null;
    items.push({ kind: 'photo', photo });
  }
  return items;
}

const studentLabel = (student: Pick<Student, 'name' | 'number'>) => (student.number ? `${student.name} (${student.number})` : student.name);

/**
 * The review sheet of a class: per child (paged), their photos in the order they were taken with
 * how each was placed and whether it waits for review; then the group photos and the unmatched
 * tray. Each photo moves with one tap of its "Move to..." select, which also says "This is a card
 * photo" of a card the scan could not read.
 */
export function ReviewSheet({ album }: { album: AlbumSummary }) {
  const sheet = useAlbumReview(album.id);
  const move = useMovePhoto(album.id);
  const sold = useSoldPhotoConfirm();
  const marking = useMarkCardDialog(album.id);
  const movingToChild = useMoveToChildDialog();
  const cardLarge = useCardLarge();
  const [page, setPage] = useState(0);
  const [pendingOnly, setPendingOnly] = useState(false);
  const childrenHeading = useRef<HTMLHeadingElement>(null);
  const students = sheet.data?.students;
  // One list of children for every photo's select: built once per answer, not once per photo.
  const studentOptions = useMemo(
    () =>
      (students ?? []).map((student) => (
        <option key={student.id} value={String(student.id)}>
          {studentLabel(student)}
        </option>
      )),
    [students],
  );

  if (sheet.isPending) return <PageSpinner label={REVIEW_SCREEN_MSG.sheetLoading} />;
  if (sheet.isError) return <p className="alert alert-danger">{errorMessage(sheet.error, REVIEW_SCREEN_MSG.sheetFailed)}</p>;
  const data = sheet.data;
  const cardIds = new Set(data.students.flatMap((student) => student.cards.map((card) => card.photoId)));
  // A name two children share is shown with the number (docs/access.md, "Two children with the same name").
  const shownName = childNamer(data.students);
  const nameOf = new Map(data.students.map((student) => [student.id, shownName(student)] as const));
  const choices: ChildChoice[] = data.students.map((student) => ({ id: student.id, label: studentLabel(student), number: student.number }));

  const place = (photo: ReviewPhoto, target: MoveTarget, who: string, confirm = false) =>
    move.mutate(
      { photoId: photo.id, target, confirm },
      {
        onSuccess: () => toast({ title: REVIEW_SCREEN_MSG.movedTitle, description: REVIEW_MSG.moved(who), variant: 'success' }),
        onError: (err) => {
          // A photo a family paid for: say what will happen, then move it only if staff go on.
          if (sold.intercept(err, target.kind === 'tray' ? 'tray' : 'move', () => place(photo, target, who, true))) return;
          toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, REVIEW_MSG.moveFailed), variant: 'destructive' });
        },
      },
    );

  const onMove = (photo: ReviewPhoto, from: Place, value: string) => {
    if (value === CARD_VALUE) {
      marking.ask(photo);
      return;
    }
    if (value === GROUP_VALUE) {
      if (from.kind !== 'group') place(photo, { kind: 'group' }, REVIEW_MSG.moveToGroup);
      return;
    }
    if (value === TRAY_VALUE) {
      if (from.kind !== 'tray') place(photo, { kind: 'tray' }, REVIEW_MSG.moveToTray);
      return;
    }
    const studentId = Number(value);
    if (!Number.isInteger(studentId) || studentId <= 0 || (from.kind === 'student' && from.studentId === studentId)) return;
    place(photo, { kind: 'student', studentId }, nameOf.get(studentId) ?? '');
  };

  const shown = pendingOnly ? data.students.filter((student) => student.photos.some((photo) => photo.pendingReview)) : data.students;
  const pages = Math.max(1, Math.ceil(shown.length / REVIEW_PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const first = current * REVIEW_PAGE_SIZE;
  const onPage = shown.slice(first, first + REVIEW_PAGE_SIZE);
  const goTo = (next: number) => {
    setPage(next);
    // Focus (which scrolls it into view) goes back to the top of the list: the new page starts there.
    childrenHeading.current?.focus();
  };

  const tile = (photo: ReviewPhoto, from: Place) => (
    <ReviewTile
      key={photo.id}
      photo={photo}
      card={cardIds.has(photo.id)}
      busy={move.isPending || marking.busy}
      from={from}
      studentOptions={studentOptions}
      onMove={(value) => onMove(photo, from, value)}
      onMoveToChild={
        data.students.some((student) => !(from.kind === 'student' && student.id === from.studentId))
          ? () =>
              // The select's own path (onMove): whatever a move asks first, it asks here too.
              movingToChild.ask(
                `${photo.label}, ${photo.originalName}`,
                choices.filter((child) => !(from.kind === 'student' && child.id === from.studentId)),
                (studentId) => onMove(photo, from, String(studentId)),
              )
          : null
      }
    />
  );
  const tiles = (photos: readonly ReviewPhoto[], from: Place, label: string) => (
    <ol className="staff-photo-grid review-strip" aria-label={label}>
      {from.kind === 'student'
        ? withRunCards(photos).map((item, index) =>
            item.kind === 'card' ? <RunCardTile key={`card-${item.card.photoId}-${index}`} card={item.card} onShow={() => cardLarge.show(item.card)} /> : tile(item.photo, from),
          )
        : photos.map((photo) => tile(photo, from))}
    </ol>
  );

  const pager =
    pages > 1 ? (
      <nav className="review-pager" aria-label={REVIEW_SCREEN_MSG.pagesLabel}>
        <Button variant="outline" disabled={current === 0} onClick={() => goTo(current - 1)}>
          {REVIEW_SCREEN_MSG.previousPage}
        </Button>
        {Array.from({ length: pages }, (_, index) => (
          <Button
            key={index}
            variant={index === current ? 'primary' : 'ghost'}
            aria-current={index === current ? 'page' : undefined}
            aria-label={REVIEW_SCREEN_MSG.goToPage(index + 1)}
            onClick={() => goTo(index)}
          >
            {index + 1}
          </Button>
        ))}
        <Button variant="outline" disabled={current >= pages - 1} onClick={() => goTo(current + 1)}>
          {REVIEW_SCREEN_MSG.nextPage}
        </Button>
      </nav>
    ) : null;

  return (
    <div className="stack review-sheet">
      <p className="muted">{REVIEW_MSG.reviewIntro}</p>
      <p>
        {REVIEW_SCREEN_MSG.sheetCounts(data.counts.photos, data.counts.visibleNow, data.counts.visibleAfterPublish)}
        {data.counts.pendingReview > 0 ? (
          <>
            {' '}
            <Badge tone="yellow">{REVIEW_MSG.pendingCount(data.counts.pendingReview)}</Badge>
          </>
        ) : null}
      </p>

      <section className="stack" aria-labelledby={`review-children-${album.id}`}>
        <div className="row between">
          <h3 id={`review-children-${album.id}`} ref={childrenHeading} tabIndex={-1}>
            {REVIEW_SCREEN_MSG.childrenHeading} <span className="muted">({data.students.length})</span>
          </h3>
          {data.students.length > 0 ? (
            <label className="row review-filter">
              <Checkbox
                checked={pendingOnly}
                onCheckedChange={(on) => {
                  setPendingOnly(on === true);
                  setPage(0);
                }}
              />
              <span>{REVIEW_SCREEN_MSG.onlyPending}</span>
            </label>
          ) : null}
        </div>
        {data.students.length === 0 ? <p className="muted">{REVIEW_SCREEN_MSG.noChildren}</p> : null}
        {data.students.length > 0 && shown.length === 0 ? <p className="muted">{REVIEW_SCREEN_MSG.noPendingChildren}</p> : null}
        {shown.length > REVIEW_PAGE_SIZE ? (
          <p className="muted" aria-live="polite">
            {REVIEW_SCREEN_MSG.childrenRange(first + 1, first + onPage.length, shown.length)} · {REVIEW_SCREEN_MSG.pageOf(current + 1, pages)}
          </p>
        ) : null}
        {pager}
        <ol className="review-children">
          {onPage.map((student) => (
            <li key={student.id} className="review-child">
              <section aria-label={shownName(student)}>
                <h4>{student.summary}</h4>
                {student.doNotPublish ? <p className="alert alert-warn review-note">{REVIEW_SCREEN_MSG.doNotPublish}</p> : null}
                {student.photos.length === 0 ? (
                  <p className="muted">{REVIEW_SCREEN_MSG.noPhotosOfChild}</p>
                ) : (
                  tiles(student.photos, { kind: 'student', studentId: student.id }, REVIEW_SCREEN_MSG.photosOf(shownName(student)))
                )}
              </section>
            </li>
          ))}
        </ol>
        {pager}
      </section>

      <SheetSection id={`review-group-${album.id}`} title={REVIEW_MSG.groupTitle} count={data.group.length}>
        {data.group.length === 0 ? <p className="muted">{REVIEW_SCREEN_MSG.noGroupPhotos}</p> : tiles(data.group, { kind: 'group' }, REVIEW_MSG.groupTitle)}
      </SheetSection>

      <SheetSection id={`review-tray-${album.id}`} title={REVIEW_MSG.trayTitle} count={data.tray.length}>
        {data.tray.length === 0 ? <p className="muted">{MATCHING_MSG.trayEmpty}</p> : tiles(data.tray, { kind: 'tray' }, REVIEW_MSG.trayTitle)}
      </SheetSection>
      {marking.dialog}
      {marking.soldDialog}
      {movingToChild.dialog}
      {cardLarge.dialog}
      {sold.dialog}
    </div>
  );
}

function SheetSection({ id, title, count, children }: { id: string; title: string; count: number; children: ReactNode }) {
  return (
    <section className="stack" aria-labelledby={id}>
      <h3 id={id}>
        {title} <span className="muted">({count})</span>
      </h3>
      {children}
    </section>
  );
}

/**
 * The card photo that placed the run of photos after it: small, fetched once it scrolls into view,
 * marked as a card families never see, so staff can read the name or code printed on it.
 */
function RunCardTile({ card, onShow }: { card: { photoId: number; originalName: string }; onShow: () => void }) {
  return (
    <li className="staff-photo review-photo review-card" aria-label={CLASS_SCREEN_MSG.runCard(card.originalName)}>
      {/* A tap shows the card large, so the code printed on it can be read. */}
      <button type="button" className="card-zoom" aria-label={REVIEW_ACTIONS_MSG.showCardLarge(card.originalName)} onClick={onShow}>
        <AuthedImage src={`/api/images/${card.photoId}/thumbnail?size=small`} alt={CLASS_SCREEN_MSG.runCardAlt(card.originalName)} width={160} height={120} loading="lazy" />
      </button>
      <div className="review-photo-body">
        <p>
          <strong>{CLASS_SCREEN_MSG.runCard(card.originalName)}</strong>
        </p>
        <p className="muted">{CLASS_SCREEN_MSG.runCardNote}</p>
      </div>
    </li>
  );
}

/**
 * One photo: its small thumbnail (fetched once it scrolls into view), its number in the class, how
 * it was placed, "Waiting for review" when families do not see it yet, and its "Move to..." select.
 * The select lists the class's children only once it is touched, focused or pointed at, so a page
 * of 20 children's photos does not build 300 options for each of them.
 */
function ReviewTile({
  photo,
  card,
  busy,
  from,
  studentOptions,
  onMove,
  onMoveToChild,
}: {
  photo: ReviewPhoto;
  card: boolean;
  busy: boolean;
  from: Place;
  studentOptions: readonly ReactNode[];
  onMove: (value: string) => void;
  /** Opens "Move to another child"; null when the class has no other child. */
  onMoveToChild: (() => void) | null;
}) {
  const [armed, setArmed] = useState(false);
  const arm = () => setArmed(true);
  return (
    <li className={cx('staff-photo', 'review-photo', photo.pendingReview && 'review-pending', card && 'tray-card')}>
      <AuthedImage src={`/api/images/${photo.id}/thumbnail?size=small`} alt={`${photo.label}, ${photo.originalName}`} width={photo.thumbnailWidth} height={photo.thumbnailHeight} loading="lazy" />
      <div className="review-photo-body">
        <p>
          <strong>{photo.label}</strong> <span className="muted photo-name">{photo.originalName}</span>
        </p>
        {photo.placedByCard ? (
          <p>{REVIEW_MSG.placedByCard(photo.placedByCard.originalName)}</p>
        ) : photo.matchedBy === 'name' ? (
          <p>{REVIEW_SCREEN_MSG.matchedByName}</p>
        ) : null}
        {photo.pendingReview ? (
          <p>
            <Badge tone="yellow">{REVIEW_MSG.pendingBadge}</Badge>
          </p>
        ) : null}
        {card ? (
          <p className="muted">{REVIEW_SCREEN_MSG.cardPhoto}</p>
        ) : (
          <Select
            aria-label={REVIEW_SCREEN_MSG.moveLabel(`${photo.label}, ${photo.originalName}`)}
            value=""
            disabled={busy}
            onPointerDown={arm}
            onTouchStart={arm}
            onMouseEnter={arm}
            onFocus={arm}
            onKeyDown={arm}
            onChange={(event) => {
              if (event.target.value !== '') onMove(event.target.value);
            }}
          >
            <option value="">{REVIEW_MSG.moveTo}</option>
            {armed ? studentOptions.filter((option) => !(from.kind === 'student' && isOptionFor(option, from.studentId))) : null}
            {from.kind !== 'group' ? <option value={GROUP_VALUE}>{REVIEW_MSG.moveToGroup}</option> : null}
            {from.kind !== 'tray' ? <option value={TRAY_VALUE}>{REVIEW_MSG.moveToTray}</option> : null}
            <option value={CARD_VALUE}>{TRAY_MSG.markCard}</option>
          </Select>
        )}
        {!card && onMoveToChild ? (
          <Button variant="outline" size="sm" disabled={busy} aria-label={REVIEW_ACTIONS_MSG.moveToChildLabel(`${photo.label}, ${photo.originalName}`)} onClick={onMoveToChild}>
            {REVIEW_ACTIONS_MSG.moveToChild}
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/** Whether a shared student option is the given child's (its key is the child's id). */
function isOptionFor(option: ReactNode, studentId: number): boolean {
  return typeof option === 'object' && option !== null && 'key' in option && option.key === String(studentId);
}

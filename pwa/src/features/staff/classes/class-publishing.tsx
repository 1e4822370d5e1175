import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formatDate } from '@contract/format';
import { KEEP_PAID_MSG, PWA_MSG, REVIEW_MSG } from '@contract/messages';
import { REVIEW_SCREEN_MSG } from '@contract/staff-screen-messages';
import type { AlbumSummary } from '@contract/schools';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useClassPublishing, usePublishClass } from '../api/albums';
import { albumReviewQuery } from '../api/review';
import { useSoldPhotoConfirm } from '../common/sold-photo-confirm';

/** A class's status as the class list and the class screen show it: Archived, Draft, Published or "Publishes 1 Dec 2026, 08:00". */
export function classStatus(album: Pick<AlbumSummary, 'status' | 'publishAt' | 'archived'>): { label: string; tone: BadgeTone } {
  if (album.archived) return { label: KEEP_PAID_MSG.archived, tone: 'neutral' };
  if ((album.status ?? 'published') === 'published') return { label: REVIEW_MSG.published, tone: 'green' };
  if (album.publishAt) return { label: REVIEW_MSG.scheduled(formatDate(album.publishAt, 'dateTime')), tone: 'blue' };
  return { label: REVIEW_MSG.draft, tone: 'yellow' };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO time as a datetime-local input's value, in this device's time (what the input shows and reads). */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local value (this device's time) as ISO 8601 with its zone, null when empty or unreadable. */
export function fromLocalInput(value: string): string | null {
  if (value.trim() === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

type Asking = 'publish' | 'release' | 'unpublish' | 'archive' | null;

/**
 * Whether families see the class, and the buttons that change it: "Publish class" on a draft (after
 * a confirmation that says how many photos families will see), "Release N new photos" on a
 * published class with photos waiting for review, "Back to draft", and on a draft the time it
 * publishes itself.
 */
export function ClassPublishing({ album }: { album: AlbumSummary }) {
  const publish = usePublishClass(album.id);
  const patch = useClassPublishing(album.id);
  const sold = useSoldPhotoConfirm();
  const [asking, setAsking] = useState<Asking>(null);
  const [when, setWhen] = useState(toLocalInput(album.publishAt));
  // The time as typed, written as the class list writes it ("Publishes 1 Dec 2026, 08:00").
  const scheduledFor = fromLocalInput(when);
  // A saved (or cleared) time shows in the field once the class list has it.
  const [shownFor, setShownFor] = useState(album.publishAt ?? null);
  if ((album.publishAt ?? null) !== shownFor) {
    setShownFor(album.publishAt ?? null);
    setWhen(toLocalInput(album.publishAt));
  }
  // How many photos families will see: from the review sheet, asked for only when a confirmation opens.
  const sheet = useQuery({ ...albumReviewQuery(album.id), enabled: asking === 'publish' || asking === 'release' });
  const draft = (album.status ?? 'published') === 'draft';
  const pending = album.pendingReview ?? 0;
  const status = classStatus(album);
  const fieldId = `publish-at-${album.id}`;

  const confirmPublish = () =>
    publish.mutate(undefined, {
      onSuccess: (result) => {
        toast(
          asking === 'release'
            ? { title: REVIEW_SCREEN_MSG.releasedTitle, description: REVIEW_MSG.releasedText(result.released), variant: 'success' }
            : { title: REVIEW_MSG.publishedTitle, description: REVIEW_MSG.publishedText(result.album.name, result.visible), variant: 'success' },
        );
        setAsking(null);
      },
      onError: (err) => {
        toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, REVIEW_MSG.publishFailed), variant: 'destructive' });
        setAsking(null);
      },
    });

  const confirmUnpublish = (confirm = false) =>
    patch.mutate(
      { status: 'draft', ...(confirm ? { confirm: true as const } : {}) },
      {
        onSuccess: (saved) => {
          toast({ title: REVIEW_SCREEN_MSG.unpublishedTitle, description: REVIEW_SCREEN_MSG.unpublished(saved.name), variant: 'success' });
          setAsking(null);
        },
        onError: (err) => {
          setAsking(null);
          // Families paid for photos of this class: say what will happen, then go back to draft only if staff go on (docs/access.md, "Moving a sold photo").
          if (sold.intercept(err, 'draft', () => confirmUnpublish(true))) return;
          toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, REVIEW_SCREEN_MSG.statusFailed), variant: 'destructive' });
        },
      },
    );

  /** Archive (after a confirmation) or unarchive: hidden from families, kept for orders (docs/access.md, "Archived classes"). */
  const setArchived = (archived: boolean) =>
    patch.mutate(
      { archived },
      {
        onSuccess: (saved) => {
          toast({ title: archived ? KEEP_PAID_MSG.archivedTitle : KEEP_PAID_MSG.unarchivedTitle, description: saved.name, variant: 'success' });
          setAsking(null);
        },
        onError: (err) => {
          toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, KEEP_PAID_MSG.archiveFailed), variant: 'destructive' });
          setAsking(null);
        },
      },
    );

  const saveSchedule = (event: FormEvent) => {
    event.preventDefault();
    const publishAt = fromLocalInput(when);
    if (when.trim() !== '' && publishAt === null) {
      toast({ title: PWA_MSG.errorTitle, description: REVIEW_MSG.publishAtInvalid, variant: 'destructive' });
      return;
    }
    patch.mutate(
      { publishAt },
      {
        onSuccess: (saved) =>
          toast(
            saved.publishAt
              ? { title: REVIEW_SCREEN_MSG.scheduledTitle, description: REVIEW_SCREEN_MSG.scheduled(saved.name, formatDate(saved.publishAt, 'dateTime')), variant: 'success' }
              : { title: REVIEW_SCREEN_MSG.scheduleClearedTitle, description: REVIEW_SCREEN_MSG.scheduleCleared(saved.name), variant: 'success' },
          ),
        onError: (err) => toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, REVIEW_SCREEN_MSG.statusFailed), variant: 'destructive' }),
      },
    );
  };

  const visible = sheet.data?.counts.visibleAfterPublish;
  const confirmText = visible === undefined ? (sheet.isError ? errorMessage(sheet.error, REVIEW_SCREEN_MSG.sheetFailed) : REVIEW_SCREEN_MSG.sheetLoading) : REVIEW_MSG.publishConfirm(visible);

  return (
    <section className="class-publishing stack" aria-label={REVIEW_SCREEN_MSG.publishingLabel}>
      <div className="row between">
        <div className="stack-tight class-publishing-status">
          <p className="row" style={{ margin: 0, gap: 'var(--space-2)' }}>
            <span>{REVIEW_SCREEN_MSG.statusLabel}:</span>
            <Badge tone={status.tone}>{status.label}</Badge>
            {pending > 0 ? <Badge tone="yellow">{REVIEW_MSG.pendingCount(pending)}</Badge> : null}
          </p>
          <p className="muted" style={{ margin: 0 }}>
            {album.archived ? KEEP_PAID_MSG.archivedHint : draft ? REVIEW_MSG.draftHint : REVIEW_MSG.publishedHint}
          </p>
        </div>
        <div className="row">
          {draft ? (
            <Button onClick={() => setAsking('publish')} disabled={publish.isPending}>
              {REVIEW_MSG.publishClass}
            </Button>
          ) : null}
          {!draft && pending > 0 ? (
            <Button onClick={() => setAsking('release')} disabled={publish.isPending}>
              {REVIEW_MSG.releaseNew(pending)}
            </Button>
          ) : null}
          {!draft ? (
            <Button variant="outline" onClick={() => setAsking('unpublish')} disabled={patch.isPending}>
              {REVIEW_MSG.unpublish}
            </Button>
          ) : null}
          {album.archived ? (
            <Button variant="outline" onClick={() => setArchived(false)} disabled={patch.isPending}>
              {KEEP_PAID_MSG.unarchiveClass}
            </Button>
          ) : (
            <Button variant="outline" onClick={() => setAsking('archive')} disabled={patch.isPending}>
              {KEEP_PAID_MSG.archiveClass}
            </Button>
          )}
        </div>
      </div>
      {draft ? (
        <form className="publish-at" onSubmit={saveSchedule} noValidate>
          <div className="field">
            <Label htmlFor={fieldId}>{REVIEW_MSG.publishAtLabel}</Label>
            <div className="row publish-at-row">
              <Input id={fieldId} type="datetime-local" value={when} onChange={(event) => setWhen(event.target.value)} aria-describedby={`${fieldId}-hint`} />
              <Button type="submit" variant="outline" disabled={patch.isPending}>
                {REVIEW_SCREEN_MSG.scheduleSave}
              </Button>
            </div>
            <p id={`${fieldId}-hint`} className="muted" style={{ fontSize: '0.875rem', margin: 'var(--space-1) 0 0' }}>
              {scheduledFor ? `${REVIEW_MSG.scheduled(formatDate(scheduledFor, 'dateTime'))}. ` : ''}
              {REVIEW_MSG.publishAtHint}
            </p>
          </div>
        </form>
      ) : null}
      <ConfirmDialog
        open={asking === 'publish' || asking === 'release'}
        onOpenChange={(open) => !open && setAsking(null)}
        title={asking === 'release' ? REVIEW_MSG.releaseConfirmTitle : REVIEW_MSG.publishConfirmTitle}
        description={confirmText}
        confirmLabel={asking === 'release' ? REVIEW_MSG.releaseNew(pending) : REVIEW_MSG.publishClass}
        confirmVariant="primary"
        busy={publish.isPending || (visible === undefined && !sheet.isError)}
        onConfirm={confirmPublish}
      />
      <ConfirmDialog
        open={asking === 'unpublish'}
        onOpenChange={(open) => !open && setAsking(null)}
        title={REVIEW_SCREEN_MSG.unpublishConfirmTitle}
        description={REVIEW_SCREEN_MSG.unpublishConfirm(album.name)}
        confirmLabel={REVIEW_MSG.unpublish}
        busy={patch.isPending}
        onConfirm={() => confirmUnpublish()}
      />
      {sold.dialog}
      <ConfirmDialog
        open={asking === 'archive'}
        onOpenChange={(open) => !open && setAsking(null)}
        title={KEEP_PAID_MSG.archiveConfirmTitle}
        description={KEEP_PAID_MSG.archiveConfirm}
        confirmLabel={KEEP_PAID_MSG.archiveClass}
        busy={patch.isPending}
        onConfirm={() => setArchived(true)}
      />
    </section>
  );
}

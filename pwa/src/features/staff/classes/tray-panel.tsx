import type { TrayCard } from '@contract/matching';
import { MATCHING_MSG, PWA_MSG } from '@contract/messages';
import { STAFF_MSG, TRAY_MSG } from '@contract/staff-screen-messages';
import type { TrayItem } from '@contract/photos';
import type { AlbumSummary } from '@contract/schools';
import { AuthedImage } from '../../../components/authed-image';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/select';
import { PageSpinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAlbumStudents } from '../api/students';
import { useSoldPhotoConfirm } from '../common/sold-photo-confirm';
import { useAlbumTray, useAssignFromTray } from '../api/tray';
import { useDeletePhotoDialog, useMarkCardDialog } from './photo-actions';
import { GROUP, StudentOptions } from './student-fields';
import { childNamer } from '@contract/same-names';
import { useSession } from '../../../lib/session';


/** A card's line; `shownName` adds the number to a name two children of the class share. */
function cardLabel(card: TrayCard, shownName: (studentId: number | null, name: string) => string): string {
  if (card.status === 'known') return MATCHING_MSG.cardKnown(shownName(card.studentId, card.studentName ?? ''));
  if (card.status === 'other_class') return MATCHING_MSG.cardOtherClass(card.studentName ?? '', card.elsewhere ?? '');
  return MATCHING_MSG.cardUnknown;
}

/**
 * The one likely child of a waiting photo: the child of the nearest card before it in its upload
 * session, when that card is of this class. A card names the child of the photos after it, never
 * of those before it, so the card after a photo is never offered (one hurried tap would show one
 * child's portraits to another family). Without a session there is no capture order and no guess.
 * A guess, never an answer: the tray shows it as one.
 */
export function guessFor(items: readonly TrayItem[], index: number, sessionId: string): { id: number; name: string } | null {
  if (sessionId === '') return null;
  for (let i = index - 1; i >= 0; i--) {
    const card = items[i]?.card;
    if (!card) continue;
    return card.status === 'known' && card.studentId !== null ? { id: card.studentId, name: card.studentName ?? '' } : null;
  }
  return null;
}

/**
 * The unmatched tray: per upload session and in the order they were taken, the photos no card or
 * file name placed, between the card photos around them. Each is assigned with its select (or the
 * guess of the card before it), made a group photo, deleted, or marked as a card the scan missed.
 */
export function TrayPanel({ album }: { album: AlbumSummary }) {
  const tray = useAlbumTray(album.id);
  const students = useAlbumStudents(album.id);
  const assign = useAssignFromTray(album.id);
  const sold = useSoldPhotoConfirm();
  const marking = useMarkCardDialog(album.id);
  const deleting = useDeletePhotoDialog(album.id);
  // Deleting photos is an admin's (docs/accounts.md, "What a photographer may not do"); a photographer leaves them in the tray.
  const isAdmin = useSession().staffUser?.role === 'admin';
  const busy = assign.isPending || marking.busy || deleting.busy;

  const place = (photoId: number, studentId: number | null, who: string, confirm = false) =>
    assign.mutate(
      { photoId, studentId, confirm },
      {
        onSuccess: () => toast({ title: STAFF_MSG.photoAssignedTitle, description: MATCHING_MSG.assigned(who), variant: 'success' }),
        onError: (err) => {
          // A photo a family paid for: say what will happen first (docs/access.md, "Moving a sold photo").
          if (sold.intercept(err, 'move', () => place(photoId, studentId, who, true))) return;
          toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, PWA_MSG.assignPhotosFailed), variant: 'destructive' });
        },
      },
    );

  if (tray.isPending) return <PageSpinner label="Loading the tray..." />;
  if (tray.isError) return <p className="alert alert-danger">{errorMessage(tray.error, 'The tray could not be loaded.')}</p>;
  const roster = students.data ?? [];
  // A name two children share is shown with the number (docs/access.md, "Two children with the same name").
  const namer = childNamer(roster);
  const shownName = (studentId: number | null, name: string) => {
    const student = roster.find((entry) => entry.id === studentId);
    return student ? namer(student) : name;
  };

  return (
    <div className="stack">
      <h2>
        {MATCHING_MSG.trayTitle} <span className="muted">({tray.data.waiting} waiting)</span>
      </h2>
      {tray.data.waiting === 0 ? <p className="muted">{MATCHING_MSG.trayEmpty}</p> : <p className="muted">{TRAY_MSG.intro}</p>}
      {tray.data.sessions.map((session) => (
        <ol key={session.sessionId || 'loose'} className="staff-photo-grid tray-strip" aria-label="Photos in the order they were taken">
          {session.items.map((item, index) => {
            if (item.card)
              return (
                <li key={item.photo.id} className="staff-photo tray-card">
                  <AuthedImage src={`/api/images/${item.photo.id}/thumbnail`} alt={`Card photo ${item.photo.originalName}`} width={item.photo.thumbnailWidth} height={item.photo.thumbnailHeight} />
                  <p className="photo-name">{item.photo.originalName}</p>
                  <p className="tray-card-label">
                    <strong>{cardLabel(item.card, shownName)}</strong>
                  </p>
                </li>
              );
            const guess = guessFor(session.items, index, session.sessionId);
            return (
              <li key={item.photo.id} className="staff-photo tray-photo">
                <AuthedImage src={`/api/images/${item.photo.id}/thumbnail`} alt={item.photo.originalName} width={item.photo.thumbnailWidth} height={item.photo.thumbnailHeight} />
                <p className="photo-name">{item.photo.originalName}</p>
                <div className="tray-actions" role="group" aria-label={`Assign ${item.photo.originalName}`}>
                  {guess ? (
                    <Button size="sm" variant="outline" className="tray-guess" disabled={busy} onClick={() => place(item.photo.id, guess.id, shownName(guess.id, guess.name))}>
                      {TRAY_MSG.guess(shownName(guess.id, guess.name))}
                    </Button>
                  ) : null}
                  <Button size="sm" variant="outline" disabled={busy} onClick={() => place(item.photo.id, null, MATCHING_MSG.groupPhoto)}>
                    {MATCHING_MSG.groupPhoto}
                  </Button>
                  <Select
                    aria-label={`Assign ${item.photo.originalName} to a student`}
                    value=""
                    disabled={busy}
                    onChange={(event) => {
                      const value = event.target.value;
                      if (value === '') return;
                      if (value === GROUP) return place(item.photo.id, null, MATCHING_MSG.groupPhoto);
                      const student = roster.find((entry) => entry.id === Number(value));
                      if (student) place(item.photo.id, student.id, namer(student));
                    }}
                  >
                    <option value="">{MATCHING_MSG.assignTo}</option>
                    <StudentOptions students={roster} />
                  </Select>
                </div>
                <div className="tray-actions tray-more" role="group" aria-label={TRAY_MSG.otherActions(item.photo.originalName)}>
                  <Button size="sm" variant="ghost" disabled={busy} onClick={() => marking.ask(item.photo)}>
                    {TRAY_MSG.markCard}
                  </Button>
                  {isAdmin ? (
                    <Button size="sm" variant="ghost" className="tray-delete" disabled={busy} onClick={() => deleting.ask(item.photo)}>
                      {TRAY_MSG.deletePhoto}
                    </Button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
      ))}
      {marking.dialog}
      {marking.soldDialog}
      {deleting.dialog}
      {sold.dialog}
    </div>
  );
}

import type { TrayCard } from '@contract/matching';
import { MATCHING_MSG, PWA_MSG, STAFF_MSG } from '@contract/messages';
import type { TrayItem } from '@contract/photos';
import type { AlbumSummary } from '@contract/schools';
import { AuthedImage } from '../../../components/authed-image';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/select';
import { PageSpinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAlbumStudents } from '../api/students';
import { useAlbumTray, useAssignFromTray } from '../api/tray';
import { GROUP, StudentOptions } from './student-fields';


function cardLabel(card: TrayCard): string {
  if (card.status === 'known') return MATCHING_MSG.cardKnown(card.studentName ?? '');
  if (card.status === 'other_class') return MATCHING_MSG.cardOtherClass(card.studentName ?? '', card.elsewhere ?? '');
  return MATCHING_MSG.cardUnknown;
}

/** The children the cards just before and after a waiting photo name: the likeliest one-tap answers. */
function suggestions(items: TrayItem[], index: number): { id: number; name: string }[] {
  const found: { id: number; name: string }[] = [];
  const add = (card: TrayCard | null | undefined) => {
    if (card?.status === 'known' && card.studentId !== null && !found.some((entry) => entry.id === card.studentId)) found.push({ id: card.studentId, name: card.studentName ?? '' });
  };
  for (let i = index - 1; i >= 0; i--) {
    if (items[i]?.card) {
      add(items[i]?.card);
      break;
    }
  }
  for (let i = index + 1; i < items.length; i++) {
    if (items[i]?.card) {
      add(items[i]?.card);
      break;
    }
  }
  return found;
}

/**
 * The unmatched tray: per upload session and in the order they were taken, the photos no card or
 * file name placed, between the card photos around them, each assigned with one tap.
 */
export function TrayPanel({ album }: { album: AlbumSummary }) {
  const tray = useAlbumTray(album.id);
  const students = useAlbumStudents(album.id);
  const assign = useAssignFromTray(album.id);

  const place = (photoId: number, studentId: number | null, who: string) =>
    assign.mutate(
      { photoId, studentId },
      {
        onSuccess: () => toast({ title: STAFF_MSG.photoAssignedTitle, description: MATCHING_MSG.assigned(who), variant: 'success' }),
        onError: (err) => toast({ title: PWA_MSG.updateFailedTitle, description: errorMessage(err, PWA_MSG.assignPhotosFailed), variant: 'destructive' }),
      },
    );

  if (tray.isPending) return <PageSpinner label="Loading the tray..." />;
  if (tray.isError) return <p className="alert alert-danger">{errorMessage(tray.error, 'The tray could not be loaded.')}</p>;
  const roster = students.data ?? [];

  return (
    <div className="stack">
      <h2>
        {MATCHING_MSG.trayTitle} <span className="muted">({tray.data.waiting} waiting)</span>
      </h2>
      {tray.data.waiting === 0 ? <p className="muted">{MATCHING_MSG.trayEmpty}</p> : <p className="muted">{MATCHING_MSG.trayIntro}</p>}
      {tray.data.sessions.map((session) => (
        <ol key={session.sessionId || 'loose'} className="staff-photo-grid tray-strip" aria-label="Photos in the order they were taken">
          {session.items.map((item, index) =>
            item.card ? (
              <li key={item.photo.id} className="staff-photo tray-card">
                <AuthedImage src={`/api/images/${item.photo.id}/thumbnail`} alt={`Card photo ${item.photo.originalName}`} width={item.photo.thumbnailWidth} height={item.photo.thumbnailHeight} />
                <p className="photo-name">{item.photo.originalName}</p>
                <p className="tray-card-label">
                  <strong>{cardLabel(item.card)}</strong>
                </p>
              </li>
            ) : (
              <li key={item.photo.id} className="staff-photo tray-photo">
                <AuthedImage src={`/api/images/${item.photo.id}/thumbnail`} alt={item.photo.originalName} width={item.photo.thumbnailWidth} height={item.photo.thumbnailHeight} />
                <p className="photo-name">{item.photo.originalName}</p>
                <div className="tray-actions" role="group" aria-label={`Assign ${item.photo.originalName}`}>
                  {suggestions(session.items, index).map((student) => (
                    <Button key={student.id} size="sm" disabled={assign.isPending} onClick={() => place(item.photo.id, student.id, student.name)}>
                      {student.name}
                    </Button>
                  ))}
                  <Button size="sm" variant="outline" disabled={assign.isPending} onClick={() => place(item.photo.id, null, MATCHING_MSG.groupPhoto)}>
                    {MATCHING_MSG.groupPhoto}
                  </Button>
                  <Select
                    aria-label={`Assign ${item.photo.originalName} to a student`}
                    value=""
                    disabled={assign.isPending}
                    onChange={(event) => {
                      const value = event.target.value;
                      if (value === '') return;
                      if (value === GROUP) return place(item.photo.id, null, MATCHING_MSG.groupPhoto);
                      const student = roster.find((entry) => entry.id === Number(value));
                      if (student) place(item.photo.id, student.id, student.name);
                    }}
                  >
                    <option value="">{MATCHING_MSG.assignTo}</option>
                    <StudentOptions students={roster} />
                  </Select>
                </div>
              </li>
            ),
          )}
        </ol>
      ))}
    </div>
  );
}

/**
 * A school's season dates (docs/outreach.md, "The season timeline"): the picture day, edited here;
 * when each class was or will be published, read from the classes; and the closing date, edited on
 * the school's card.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { byName, formatDate } from '@contract/format';
import { PWA_MSG } from '@contract/messages';
import { STAFF_MESSAGES_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import { schoolUpdateSchema, type StaffSchool } from '@contract/schools';
import { Badge } from '../../../components/ui/badge';
import { Card, CardBody } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { SubmitButton } from '../../../components/ui/form-actions';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useUpdateSchool } from '../api/schools';
import { classStatus } from '../classes/class-publishing';

/** A YYYY-MM-DD day as the school list writes it (24 Nov 2026). */
const day = (value: string) => formatDate(value, 'short');

export function SeasonDates({ school }: { school: StaffSchool }) {
  const saved = school.pictureDay ?? '';
  const [pictureDay, setPictureDay] = useState(saved);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateSchool(school.id);
  const albums = [...school.albums].filter((album) => !album.archived).sort(byName);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = schoolUpdateSchema.pick({ pictureDay: true }).safeParse({ pictureDay });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? M.pictureDayFailed);
      return;
    }
    setError(null);
    update.mutate(parsed.data, {
      onSuccess: (school) => {
        setPictureDay(school.pictureDay ?? '');
        toast({ title: M.pictureDaySavedTitle, description: M.pictureDaySaved(parsed.data.pictureDay ? day(parsed.data.pictureDay) : null), variant: 'success' });
      },
      onError: (err) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, M.pictureDayFailed), variant: 'destructive' }),
    });
  };

  return (
    <Card>
      <CardBody className="stack">
        <h2>{M.datesHeading}</h2>
        <div className="season-dates">
          <form onSubmit={submit} noValidate className="stack-tight">
            <Field
              id="picture-day"
              label={M.pictureDay}
              type="date"
              value={pictureDay}
              onChange={(event) => setPictureDay(event.target.value)}
              error={error}
              hint={pictureDay ? `${M.pictureDayHint} ${day(pictureDay)}` : M.pictureDayHint}
            />
            <div className="row">
              <SubmitButton busy={update.isPending} busyLabel={PWA_MSG.working} variant="outline" size="sm" disabled={pictureDay === saved}>
                {M.savePictureDay}
              </SubmitButton>
            </div>
          </form>
          <div className="stack-tight">
            <h3 className="label">{M.publishHeading}</h3>
            <p className="muted">{M.publishHint}</p>
            {albums.length === 0 ? <p className="muted">{M.noClasses}</p> : null}
            <ul className="staff-list season-classes" aria-label={M.publishHeading}>
              {albums.map((album) => {
                const status = classStatus(album);
                return (
                  <li key={album.id} className="row between">
                    <span>{album.name}</span>
                    <Badge tone={status.tone}>{status.label}</Badge>
                  </li>
                );
              })}
            </ul>
          </div>
          <div className="stack-tight">
            <h3 className="label">{M.closingDate}</h3>
            <p>{school.closingDate ? <strong>{day(school.closingDate)}</strong> : <span className="muted">{M.noClosingDate}</span>}</p>
            <Link to={`${paths.staffDashboard}?tab=schools`}>{M.editClosingDate}</Link>
          </div>
        </div>
      </CardBody>
    </Card>
  );
}

/**
 * A school's Messages screen (docs/outreach.md, "The staff's Messages screen"): the season dates,
 * the schedule, who gets what and when, a test to oneself, the statistics and the guardians.
 */
import { Link } from 'react-router-dom';
import { STAFF_MESSAGES_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import { buttonClass } from '../../../components/ui/button';
import { PageSpinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useStaffSchool } from '../api/schools';
import { GuardiansCard } from './guardians-list';
import { StatsCard } from './message-stats';
import { PreviewCard } from './preview-list';
import { ScheduleCard } from './schedule-form';
import { SeasonDates } from './season-dates';
import { TestSendCard } from './test-send';

export function SchoolMessages({ schoolId }: { schoolId: number }) {
  const school = useStaffSchool(schoolId);
  if (school.isPending) return <PageSpinner label={M.loadingSchool} />;
  if (school.isError)
    return (
      <p className="alert alert-danger" role="alert">
        {errorMessage(school.error, M.schoolFailed)}
      </p>
    );
  return (
    <div className="stack">
      <div className="row between">
        <div>
          <h1>{M.title(school.data.name)}</h1>
          <Link to={paths.staffDashboard}>{M.backToDashboard}</Link>
          <p className="muted">{M.timezoneNote}</p>
        </div>
        <Link to={paths.staffClasses(schoolId)} className={buttonClass('outline')}>
          {M.manageClasses}
        </Link>
      </div>
      <SeasonDates school={school.data} />
      <div className="messages-layout">
        <ScheduleCard schoolId={schoolId} />
        <TestSendCard schoolId={schoolId} />
      </div>
      <PreviewCard schoolId={schoolId} />
      <StatsCard schoolId={schoolId} />
      <GuardiansCard schoolId={schoolId} />
    </div>
  );
}

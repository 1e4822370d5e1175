/**
 * A school's schedule (docs/outreach.md, "The season timeline" and "The sending window"): "photos are
 * online" on or off, the reminder days before closing, and the sending window in Botswana time.
 * Checked with the contract's schema before it is sent; the server's own field errors are shown the
 * same way.
 */
import { useState, type FormEvent } from 'react';
import { MAX_REMINDER_DAYS, MAX_REMINDER_DAYS_BEFORE, messageScheduleUpdateSchema, type MessageSchedule, type MessageScheduleUpdate } from '@contract/outreach';
import { OUTREACH_MSG, PWA_MSG } from '@contract/messages';
import { STAFF_MESSAGES_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Field } from '../../../components/ui/field';
import { SubmitButton } from '../../../components/ui/form-actions';
import { FieldError } from '../../../components/ui/label';
import { Loaded } from '../../../components/ui/loaded';
import { toast } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { fieldErrors, type FieldErrors } from '../../../lib/form';
import { DEFAULT_SCHEDULE, useMessageSchedule, useSaveSchedule } from '../api/messages';

type ScheduleField = keyof MessageScheduleUpdate;

/** The server's field errors ("reminderDays.0") by the form's field ("reminderDays"). */
function serverErrors(err: unknown): FieldErrors<ScheduleField> {
  if (!(err instanceof ApiError) || !err.fieldErrors) return {};
  const found: FieldErrors<ScheduleField> = {};
  for (const [key, message] of Object.entries(err.fieldErrors)) {
    const field = key.split('.')[0] as ScheduleField;
    found[field] ??= message;
  }
  return found;
}

/**
 * Whether a schedule sends what the default sends. The API keeps a school's saved schedule even when
 * it equals the default (it has no way to drop one), so "Back to default" saves the default's values
 * and the screen calls such a schedule the default.
 */
export const sendsDefault = (schedule: MessageScheduleUpdate & { isDefault?: boolean }): boolean =>
  schedule.isDefault === true ||
  (schedule.photosOnline === DEFAULT_SCHEDULE.photosOnline &&
    schedule.sendFrom === DEFAULT_SCHEDULE.sendFrom &&
    schedule.sendUntil === DEFAULT_SCHEDULE.sendUntil &&
    [...schedule.reminderDays].sort((a, b) => b - a).join() === [...DEFAULT_SCHEDULE.reminderDays].sort((a, b) => b - a).join());

const valuesOf = (schedule: MessageSchedule): MessageScheduleUpdate => ({
  photosOnline: schedule.photosOnline,
  reminderDays: [...schedule.reminderDays],
  sendFrom: schedule.sendFrom,
  sendUntil: schedule.sendUntil,
});

export function ScheduleCard({ schoolId }: { schoolId: number }) {
  const schedule = useMessageSchedule(schoolId);
  return (
    <Card>
      <CardBody className="stack">
        <div className="row between">
          <h2>{M.scheduleHeading}</h2>
          {schedule.data ? <Badge tone={sendsDefault(schedule.data) ? 'neutral' : 'blue'}>{sendsDefault(schedule.data) ? M.scheduleDefault : M.scheduleCustom}</Badge> : null}
        </div>
        <Loaded query={schedule} failed={M.scheduleFailed} loading={M.loadingSchedule}>
          {(data) => <ScheduleForm schoolId={schoolId} schedule={data} />}
        </Loaded>
      </CardBody>
    </Card>
  );
}

/**
 * The form keeps what was typed; the saved answer only replaces it through "Back to default". It is
 * not keyed on the answer: a remount would drop the save's own callbacks (its toast).
 */
export function ScheduleForm({ schoolId, schedule }: { schoolId: number; schedule: MessageSchedule }) {
  const [values, setValues] = useState<MessageScheduleUpdate>(() => valuesOf(schedule));
  const [errors, setErrors] = useState<FieldErrors<ScheduleField>>({});
  const [adding, setAdding] = useState('');
  const save = useSaveSchedule(schoolId);
  const days = [...values.reminderDays].sort((a, b) => b - a);

  const send = (input: MessageScheduleUpdate, done: { title: string; description: string }) =>
    save.mutate(input, {
      onSuccess: () => toast({ ...done, variant: 'success' }),
      onError: (err) => {
        setErrors(serverErrors(err));
        toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, M.scheduleSaveFailed), variant: 'destructive' });
      },
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = messageScheduleUpdateSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors<ScheduleField>(parsed.error));
      toast({ title: PWA_MSG.errorTitle, description: M.fixFields, variant: 'destructive' });
      return;
    }
    setErrors({});
    send(parsed.data, { title: M.scheduleSavedTitle, description: M.scheduleSaved });
  };

  const backToDefault = () => {
    setValues({ ...DEFAULT_SCHEDULE, reminderDays: [...DEFAULT_SCHEDULE.reminderDays] });
    setErrors({});
    send(DEFAULT_SCHEDULE, { title: M.scheduleResetTitle, description: M.scheduleReset });
  };

  /** Adds the typed day: a whole number of days from 1 to 60, not already there, at most five. */
  const addDay = () => {
    const text = adding.trim();
    const value = Number(text);
    let problem: string | null = null;
    if (text === '' || !Number.isInteger(value) || value < 1 || value > MAX_REMINDER_DAYS_BEFORE) problem = OUTREACH_MSG.reminderDays;
    else if (values.reminderDays.includes(value)) problem = M.reminderTaken(value);
    else if (values.reminderDays.length >= MAX_REMINDER_DAYS) problem = OUTREACH_MSG.tooManyReminders;
    if (problem) {
      setErrors((current) => ({ ...current, reminderDays: problem }));
      return;
    }
    setValues((current) => ({ ...current, reminderDays: [...current.reminderDays, value] }));
    setErrors((current) => ({ ...current, reminderDays: undefined }));
    setAdding('');
  };

  const removeDay = (value: number) => setValues((current) => ({ ...current, reminderDays: current.reminderDays.filter((d) => d !== value) }));
  const setTime = (field: 'sendFrom' | 'sendUntil') => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
  };

  return (
    <form onSubmit={submit} noValidate className="stack" aria-label={M.scheduleHeading}>
      <div className="field">
        <label className="row" htmlFor="schedule-photos-online">
          <Checkbox id="schedule-photos-online" checked={values.photosOnline} onCheckedChange={(checked) => setValues((current) => ({ ...current, photosOnline: checked === true }))} />
          <span>{M.photosOnline}</span>
        </label>
        <FieldError id="schedule-photos-online-error">{errors.photosOnline ?? null}</FieldError>
      </div>
      <fieldset className="field staff-fieldset" aria-describedby={errors.reminderDays ? 'schedule-reminders-error' : undefined}>
        <legend className="label">{M.reminders}</legend>
        {days.length === 0 ? <p className="muted">{M.noReminders}</p> : null}
        <ul className="reminder-days" aria-label={M.reminders}>
          {days.map((value) => (
            <li key={value} className="reminder-day">
              <span>{M.reminderDay(value)}</span>
              <Button variant="ghost" size="sm" onClick={() => removeDay(value)} aria-label={M.removeReminder(value)}>
                ×
              </Button>
            </li>
          ))}
        </ul>
        <div className="row reminder-add">
          <Field
            id="schedule-add-reminder"
            label={M.addReminderLabel}
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_REMINDER_DAYS_BEFORE}
            value={adding}
            onChange={(event) => setAdding(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                addDay();
              }
            }}
          />
          <Button variant="outline" onClick={addDay}>
            {M.addReminder}
          </Button>
        </div>
        <FieldError id="schedule-reminders-error">{errors.reminderDays ?? null}</FieldError>
      </fieldset>
      <fieldset className="field staff-fieldset">
        <legend className="label">{M.windowHeading}</legend>
        <div className="grid grid-2">
          <Field id="schedule-send-from" label={M.sendFrom} type="time" step={60} value={values.sendFrom} onChange={setTime('sendFrom')} error={errors.sendFrom} />
          <Field id="schedule-send-until" label={M.sendUntil} type="time" step={60} value={values.sendUntil} onChange={setTime('sendUntil')} error={errors.sendUntil} />
        </div>
        <p className="muted">{M.windowHint}</p>
      </fieldset>
      <div className="row">
        <SubmitButton busy={save.isPending} busyLabel={M.savingSchedule}>
          {M.saveSchedule}
        </SubmitButton>
        <Button variant="outline" onClick={backToDefault} disabled={save.isPending || sendsDefault(schedule)}>
          {M.backToDefault}
        </Button>
      </div>
    </form>
  );
}

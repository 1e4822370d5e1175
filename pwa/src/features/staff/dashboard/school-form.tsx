/**
 * Creating a school, or editing one (its card's Edit): the same fields and the same contract rules.
 * The password is needed only when families use the school password; on edit a blank one keeps the
 * current password (docs/access.md, "School password"). Each access mode is explained in a sentence.
 */
import { useState } from 'react';
import { schoolCreateSchema, schoolUpdateSchema, type StaffSchool } from '@contract/schools';
import { ACCESS_MODES, ACCESS_MODE_LABELS, DEFAULT_ACCESS_MODE } from '@contract/student-codes';
import { MSG, PWA_MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { formatDate } from '@contract/format';
import { Field } from '../../../components/ui/field';
import { FieldError, Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { usePriceLists } from '../api/price-lists';
import { useCreateSchool, useUpdateSchool } from '../api/schools';
import { FormActions } from '../../../components/ui/form-actions';
import { useSession } from '../../../lib/session';

/** The chosen closing date written as the school list writes it, whatever format this device's date picker uses. */
function closingEcho(value: string): string {
  if (value === '') return STAFF_MSG.schoolClosingNone;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : STAFF_MSG.schoolCloses(formatDate(date, 'short'));
}

const EMPTY = { name: '', slug: '', password: '', contactEmail: '', contactPhone: '', address: '', closingDate: '', pictureDay: '', priceListId: '', accessMode: DEFAULT_ACCESS_MODE as string };
type Values = typeof EMPTY;

/** 'Acacia Primary School' -> 'acacia-primary-school', until the slug is typed by hand. */
export const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);

const valuesOf = (school: StaffSchool): Values => ({
  name: school.name,
  slug: school.slug,
  password: '',
  contactEmail: school.contactEmail,
  contactPhone: school.contactPhone ?? '',
  address: school.address ?? '',
  closingDate: school.closingDate ?? '',
  pictureDay: school.pictureDay ?? '',
  priceListId: school.priceListId === null ? '' : String(school.priceListId),
  accessMode: school.accessMode,
});

/** On edit, a school that will use the school password needs one on record or typed now. */
const editSchema = (hasPassword: boolean) =>
  schoolUpdateSchema.refine((school) => school.accessMode !== 'school_password' || hasPassword || school.password !== undefined, {
    path: ['password'],
    message: MSG.schoolPasswordRequired,
    when: () => true,
  });

export function SchoolForm({ school, onDone }: { school?: StaffSchool; onDone: () => void }) {
  const editing = school !== undefined;
  // An existing school's mode is switched by admins only (docs/accounts.md, "What a photographer may not do").
  const role = useSession().staffUser?.role;
  const modeLocked = editing && role !== 'admin';
  const formId = editing ? `school-${school.id}` : 'school';
  const { values, errors, setValues, handleSubmit, reset } = useZodForm(editing ? editSchema(school.hasPassword) : schoolCreateSchema, editing ? valuesOf(school) : EMPTY);
  // A school being edited keeps its web address unless staff change it themselves.
  const [slugTouched, setSlugTouched] = useState(editing);
  const create = useCreateSchool();
  const update = useUpdateSchool(school?.id ?? 0);
  const priceLists = usePriceLists();

  const set = (key: keyof Values) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [key]: value, ...(key === 'name' && !slugTouched ? { slug: slugify(value) } : {}) }));
    if (key === 'slug') setSlugTouched(true);
  };

  const failed = (fallback: string) => (err: unknown) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, fallback), variant: 'destructive' });

  const submit = handleSubmit((data) => {
    if (editing) {
      update.mutate(data, {
        onSuccess: (saved) => {
          toast({ title: STAFF_MSG.schoolSavedTitle, description: STAFF_MSG.saved(saved.name), variant: 'success' });
          onDone();
        },
        onError: failed(STAFF_MSG.saveSchoolFailed),
      });
      return;
    }
    create.mutate(data as Parameters<typeof create.mutate>[0], {
      onSuccess: (created) => {
        toast({ title: STAFF_MSG.schoolCreatedTitle, description: STAFF_MSG.created(created.name), variant: 'success' });
        reset();
        setSlugTouched(false);
        onDone();
      },
      onError: failed(STAFF_MSG.createSchoolFailed),
    });
  });

  const passwordHint = !editing ? STAFF_MSG.schoolPasswordHintNew : school.hasPassword ? STAFF_MSG.schoolPasswordHintKeep : STAFF_MSG.schoolPasswordHintNone;
  const busy = editing ? update.isPending : create.isPending;

  return (
    <form onSubmit={submit} noValidate className="stack" aria-label={editing ? `Edit ${school.name}` : 'Create school'}>
      <div className="grid grid-2">
        <Field id={`${formId}-name`} label="School name" value={values.name} onChange={set('name')} error={errors.name} />
        <Field id={`${formId}-slug`} label="Slug (web address)" value={values.slug} onChange={set('slug')} error={errors.slug} hint={editing ? STAFF_MSG.schoolSlugHintEdit : undefined} />
        <Field id={`${formId}-email`} label="Contact email" type="email" value={values.contactEmail} onChange={set('contactEmail')} error={errors.contactEmail} />
        <Field id={`${formId}-phone`} label="Contact phone (optional)" type="tel" value={values.contactPhone} onChange={set('contactPhone')} error={errors.contactPhone} />
        <Field id={`${formId}-address`} label="Address (optional)" value={values.address} onChange={set('address')} error={errors.address} />
        <Field id={`${formId}-closing`} label="Closing date (optional)" type="date" value={values.closingDate} onChange={set('closingDate')} error={errors.closingDate} hint={closingEcho(values.closingDate)} />
        <Field id={`${formId}-picture-day`} label="Picture day (optional)" type="date" value={values.pictureDay} onChange={set('pictureDay')} error={errors.pictureDay} />
        <div className="field">
          <Label htmlFor={`${formId}-price-list`}>Price list (optional)</Label>
          <Select id={`${formId}-price-list`} value={values.priceListId} onChange={set('priceListId')}>
            <option value="">Built-in products</option>
            {priceLists.data?.map((list) => (
              <option key={list.id} value={list.id}>
                {list.name}
              </option>
            ))}
          </Select>
          <FieldError id={`${formId}-price-list-error`}>{errors.priceListId ?? null}</FieldError>
        </div>
      </div>
      <fieldset className="field staff-fieldset">
        <legend className="label">How families get in</legend>
        <div className="stack-tight" role="radiogroup" aria-label="How families get in">
          {ACCESS_MODES.map((mode) => (
            <label key={mode} className="radio" style={{ alignItems: 'flex-start' }}>
              <input type="radio" name={`${formId}-access-mode`} value={mode} checked={values.accessMode === mode} disabled={modeLocked} onChange={set('accessMode')} aria-describedby={`${formId}-access-${mode}-hint`} />
              <span>
                <strong>{ACCESS_MODE_LABELS[mode]}</strong>
                <br />
                <span id={`${formId}-access-${mode}-hint`} className="muted">
                  {STAFF_MSG.accessModeHints[mode]}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid grid-2">
        <Field
          id={`${formId}-password`}
          label={editing && school.hasPassword ? 'New school password (optional)' : 'School password'}
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          error={errors.password}
          hint={passwordHint}
        />
      </div>
      <FormActions busy={busy} busyLabel={editing ? 'Saving...' : 'Creating...'} label={editing ? 'Save School' : 'Create School'} onCancel={onDone} />
    </form>
  );
}

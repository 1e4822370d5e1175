import { useState } from 'react';
import { schoolCreateSchema } from '@contract/schools';
import { ACCESS_MODES, ACCESS_MODE_LABELS, DEFAULT_ACCESS_MODE } from '@contract/student-codes';
import { PWA_MSG, STAFF_MSG } from '@contract/messages';
import { Field } from '../../../components/ui/field';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { usePriceLists } from '../api/price-lists';
import { useCreateSchool } from '../api/schools';
import { FormActions } from '../../../components/ui/form-actions';

const EMPTY = { name: '', slug: '', password: '', contactEmail: '', contactPhone: '', address: '', closingDate: '', priceListId: '', accessMode: DEFAULT_ACCESS_MODE as string };

/** 'Acacia Primary School' -> 'acacia-primary-school', until the slug is typed by hand. */
export const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);

export function SchoolForm({ onDone }: { onDone: () => void }) {
  const { values, errors, setValues, handleSubmit, reset } = useZodForm(schoolCreateSchema, EMPTY);
  const [slugTouched, setSlugTouched] = useState(false);
  const create = useCreateSchool();
  const priceLists = usePriceLists();

  const set = (key: keyof typeof EMPTY) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [key]: value, ...(key === 'name' && !slugTouched ? { slug: slugify(value) } : {}) }));
    if (key === 'slug') setSlugTouched(true);
  };

  const submit = handleSubmit((data) =>
    create.mutate(data, {
      onSuccess: (school) => {
        toast({ title: STAFF_MSG.schoolCreatedTitle, description: STAFF_MSG.created(school.name), variant: 'success' });
        reset();
        setSlugTouched(false);
        onDone();
      },
      onError: (err) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, STAFF_MSG.createSchoolFailed), variant: 'destructive' }),
    }),
  );

  return (
    <form onSubmit={submit} noValidate className="stack" aria-label="Create school">
      <div className="grid grid-2">
        <Field id="school-name" label="School name" value={values.name} onChange={set('name')} error={errors.name} />
        <Field id="school-slug" label="Slug (web address)" value={values.slug} onChange={set('slug')} error={errors.slug} />
        <Field id="school-password" label="School password" type="password" autoComplete="new-password" value={values.password} onChange={set('password')} error={errors.password} />
        <Field id="school-email" label="Contact email" type="email" value={values.contactEmail} onChange={set('contactEmail')} error={errors.contactEmail} />
        <Field id="school-phone" label="Contact phone (optional)" type="tel" value={values.contactPhone} onChange={set('contactPhone')} error={errors.contactPhone} />
        <Field id="school-address" label="Address (optional)" value={values.address} onChange={set('address')} error={errors.address} />
        <Field id="school-closing" label="Closing date (optional)" type="date" value={values.closingDate} onChange={set('closingDate')} error={errors.closingDate} />
        <div className="field">
          <Label htmlFor="school-price-list">Price list (optional)</Label>
          <Select id="school-price-list" value={values.priceListId} onChange={set('priceListId')}>
            <option value="">Built-in products</option>
            {priceLists.data?.map((list) => (
              <option key={list.id} value={list.id}>
                {list.name}
              </option>
            ))}
          </Select>
        </div>
        <div className="field">
          <Label htmlFor="school-access-mode-new">How families get in</Label>
          <Select id="school-access-mode-new" value={values.accessMode} onChange={set('accessMode')}>
            {ACCESS_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {ACCESS_MODE_LABELS[mode]}
              </option>
            ))}
          </Select>
        </div>
      </div>
      <FormActions busy={create.isPending} busyLabel="Creating..." label="Create School" onCancel={onDone} />
    </form>
  );
}

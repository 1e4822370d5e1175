/**
 * Creating or editing a coupon (docs/packages-and-coupons.md, "Coupons"), in a dialog. The form is
 * checked with the contract's rules before anything is sent; what is sent is the
 * fields as typed (the API turns Pula into thebe itself), and the server's refusals are shown at
 * the field they are about.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { z } from 'zod';
import { checkCoupon, COUPON_KINDS, COUPON_ONCE_PER, couponInputShape, type Coupon, type CouponKind, type CouponOncePer } from '@contract/coupons';
import { COUPON_MSG, PWA_MSG } from '@contract/messages';
import { COUPON_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import { Checkbox } from '../../../components/ui/checkbox';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { FormActions } from '../../../components/ui/form-actions';
import { FieldError, Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { fieldErrors, type FieldErrors } from '../../../lib/form';
import { useStaffSchools } from '../api/schools';
import { useSaveCoupon, type CouponBody } from '../api/coupons';

interface Values {
  code: string;
  /** '' for every school. */
  schoolId: string;
  kind: CouponKind;
  value: string;
  minOrder: string;
  startsOn: string;
  endsOn: string;
  maxUses: string;
  oncePer: CouponOncePer;
  excludesPackages: boolean;
}

type CouponField = keyof Values;

const EMPTY: Values = { code: '', schoolId: '', kind: 'percent', value: '', minOrder: '', startsOn: '', endsOn: '', maxUses: '', oncePer: 'order', excludesPackages: false };

const valuesOf = (coupon: Coupon): Values => ({
  code: coupon.code,
  schoolId: coupon.schoolId === null ? '' : String(coupon.schoolId),
  kind: coupon.kind,
  value: coupon.value,
  minOrder: coupon.minOrder ?? '',
  startsOn: coupon.startsOn ?? '',
  endsOn: coupon.endsOn ?? '',
  maxUses: coupon.maxUses === null ? '' : String(coupon.maxUses),
  oncePer: coupon.oncePer,
  excludesPackages: coupon.excludesPackages,
});

/** The request body of the form's values: blanks become null, the code upper-case. */
export function couponBody(values: Values): CouponBody {
  const blank = (text: string) => (text.trim() === '' ? null : text.trim());
  const maxUses = blank(values.maxUses);
  return {
    code: values.code.trim().toUpperCase(),
    schoolId: values.schoolId === '' ? null : Number(values.schoolId),
    kind: values.kind,
    value: values.value.trim(),
    minOrder: blank(values.minOrder),
    startsOn: blank(values.startsOn),
    endsOn: blank(values.endsOn),
    maxUses: maxUses === null ? null : Number(maxUses),
    oncePer: values.oncePer,
    excludesPackages: values.excludesPackages,
  };
}

/**
 * Refusals the API gives without naming a field (a taken code is a 409, an unknown school a 404),
 * by the field they are about.
 */
const FIELD_OF_MESSAGE: Record<string, CouponField> = {
  [COUPON_MSG.codeTaken]: 'code',
  [COUPON_MSG.codeFormat]: 'code',
  [COUPON_MSG.codeRequired]: 'code',
  [COUPON_MSG.schoolNotFound]: 'schoolId',
  [COUPON_MSG.kindInvalid]: 'kind',
  [COUPON_MSG.percentInvalid]: 'value',
  [COUPON_MSG.amountInvalid]: 'value',
  [COUPON_MSG.minimumInvalid]: 'minOrder',
  [COUPON_MSG.datesInvalid]: 'endsOn',
  [COUPON_MSG.maxUsesInvalid]: 'maxUses',
  [COUPON_MSG.oncePerInvalid]: 'oncePer',
};

/**
 * couponCreateSchema's rules, with the value and dates checked even when another field is wrong,
 * so one press names every wrong field.
 */
const formSchema = z.object(couponInputShape).superRefine(
  (coupon, ctx) => {
    if (COUPON_KINDS.includes(coupon.kind)) checkCoupon(coupon, ctx);
  },
  { when: () => true },
);

const FIELDS = new Set<string>(Object.keys(EMPTY));

/** The server's refusal by field: its `errors` ("value", "endsOn") when it names them, else its message's field. */
export function serverFieldErrors(err: unknown): FieldErrors<CouponField> {
  if (!(err instanceof ApiError)) return {};
  const found: FieldErrors<CouponField> = {};
  for (const [key, message] of Object.entries(err.fieldErrors ?? {})) {
    const field = key.split('.')[0] ?? '';
    if (FIELDS.has(field)) found[field as CouponField] ??= message;
  }
  const field = err.serverMessage === null ? undefined : FIELD_OF_MESSAGE[err.serverMessage];
  if (field && err.serverMessage !== null) found[field] ??= err.serverMessage;
  return found;
}

/** A labelled select with its error, wired like Field. */
function SelectField({ id, label, error, hint, value, onChange, children }: { id: string; label: string; error?: string; hint?: string; value: string; onChange: (value: string) => void; children: ReactNode }) {
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} value={value} onChange={(event) => onChange(event.target.value)} aria-invalid={error ? true : undefined} aria-describedby={describedBy}>
        {children}
      </Select>
      {hint ? (
        <p id={`${id}-hint`} className="muted" style={{ fontSize: '0.875rem', margin: 'var(--space-1) 0 0' }}>
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`}>{error ?? null}</FieldError>
    </div>
  );
}

export function CouponFormDialog({ open, coupon, onOpenChange }: { open: boolean; coupon: Coupon | null; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={coupon ? M.editTitle(coupon.code) : M.createTitle} size="lg">
      {/* Keyed on the coupon: each opening starts from that coupon's values (or a blank form). */}
      <CouponForm key={coupon?.id ?? 'new'} coupon={coupon} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

export function CouponForm({ coupon, onDone }: { coupon: Coupon | null; onDone: () => void }) {
  const [values, setValues] = useState<Values>(() => (coupon ? valuesOf(coupon) : EMPTY));
  const [errors, setErrors] = useState<FieldErrors<CouponField>>({});
  const schools = useStaffSchools();
  const save = useSaveCoupon();
  const editing = coupon !== null;

  const set = <K extends CouponField>(field: K, value: Values[K]) => setValues((current) => ({ ...current, [field]: value }));
  const text = (field: 'code' | 'value' | 'minOrder' | 'startsOn' | 'endsOn' | 'maxUses') => (event: { target: { value: string } }) =>
    set(field, field === 'code' ? event.target.value.toUpperCase() : event.target.value);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = couponBody(values);
    const parsed = formSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldErrors<CouponField>(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(
      { id: coupon?.id ?? null, body },
      {
        onSuccess: (saved) => {
          toast(editing ? { title: M.savedTitle, description: M.saved(saved.code), variant: 'success' } : { title: M.createdTitle, description: M.created(saved.code), variant: 'success' });
          onDone();
        },
        onError: (err) => {
          setErrors(serverFieldErrors(err));
          toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, editing ? M.saveFailed : M.createFailed), variant: 'destructive' });
        },
      },
    );
  };

  const id = editing ? `coupon-${coupon.id}` : 'coupon-new';
  // A school no longer listed (or not loaded yet) stays choosable under its saved name.
  const savedSchool = coupon?.schoolId != null && !schools.data?.some((school) => school.id === coupon.schoolId) ? coupon : null;

  return (
    <form onSubmit={submit} noValidate className="stack" aria-label={editing ? M.editTitle(coupon.code) : M.createTitle}>
      <div className="grid grid-2">
        <Field id={`${id}-code`} label={M.code} value={values.code} onChange={text('code')} error={errors.code} hint={M.codeHint} autoCapitalize="characters" autoComplete="off" spellCheck={false} />
        <SelectField id={`${id}-school`} label={M.school} value={values.schoolId} onChange={(value) => set('schoolId', value)} error={errors.schoolId}>
          <option value="">{M.allSchools}</option>
          {savedSchool ? <option value={String(savedSchool.schoolId)}>{savedSchool.schoolName ?? String(savedSchool.schoolId)}</option> : null}
          {schools.data?.map((school) => (
            <option key={school.id} value={String(school.id)}>
              {school.name}
            </option>
          ))}
        </SelectField>
        <SelectField id={`${id}-kind`} label={M.kind} value={values.kind} onChange={(value) => set('kind', value as CouponKind)} error={errors.kind}>
          {COUPON_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {kind === 'percent' ? M.kindPercent : M.kindAmount}
            </option>
          ))}
        </SelectField>
        <Field
          id={`${id}-value`}
          label={values.kind === 'percent' ? M.valuePercent : M.valueAmount}
          inputMode={values.kind === 'percent' ? 'numeric' : 'decimal'}
          value={values.value}
          onChange={text('value')}
          error={errors.value}
        />
        <Field id={`${id}-min-order`} label={M.minOrder} inputMode="decimal" value={values.minOrder} onChange={text('minOrder')} error={errors.minOrder} hint={M.minOrderHint} />
        <Field id={`${id}-max-uses`} label={M.maxUses} type="number" inputMode="numeric" min={1} step={1} value={values.maxUses} onChange={text('maxUses')} error={errors.maxUses} hint={M.maxUsesHint} />
        <Field id={`${id}-starts-on`} label={M.startsOn} type="date" value={values.startsOn} onChange={text('startsOn')} error={errors.startsOn} />
        <Field id={`${id}-ends-on`} label={M.endsOn} type="date" value={values.endsOn} onChange={text('endsOn')} error={errors.endsOn} hint={M.datesHint} />
        <SelectField id={`${id}-once-per`} label={M.oncePer} value={values.oncePer} onChange={(value) => set('oncePer', value as CouponOncePer)} error={errors.oncePer} hint={M.oncePerHint}>
          {COUPON_ONCE_PER.map((once) => (
            <option key={once} value={once}>
              {M.oncePerLabels[once]}
            </option>
          ))}
        </SelectField>
        <div className="field">
          <div className="row">
            <Checkbox id={`${id}-excludes-packages`} checked={values.excludesPackages} onCheckedChange={(checked) => set('excludesPackages', checked === true)} />
            <Label htmlFor={`${id}-excludes-packages`}>{M.excludesPackages}</Label>
          </div>
        </div>
      </div>
      <FormActions busy={save.isPending} busyLabel={editing ? M.saving : M.creating} label={editing ? M.save : M.create} onCancel={onDone} />
    </form>
  );
}

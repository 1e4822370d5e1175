/** A student's fields in the add form and the edit dialog, and students as choices of a select. */
import type { Student } from '@contract/students';
import { Field } from '../../../components/ui/field';
import type { FieldErrors } from '../../../lib/form';
import { STUDENT_PHONE_MSG } from '@contract/code-recovery';

const STUDENT_PHONE_FIELD = { label: `${STUDENT_PHONE_MSG.column} (optional)`, hint: STUDENT_PHONE_MSG.fieldHint };

/** A select's value for "no child: a group photo". */
export const GROUP = 'group';

export type StudentValues = { name: string; number: string; guardianEmail: string; guardianPhone: string };

/**
 * A stored guardian phone (E.164) as people read it: "+267 74 000 111" for a Botswana mobile,
 * otherwise as stored.
 */
export function displayPhone(e164: string): string {
  const bw = /^\+267(7\d)(\d{3})(\d{3})$/.exec(e164);
  return bw ? `+267 ${bw[1]} ${bw[2]} ${bw[3]}` : e164;
}

/**
 * Name, optional number, optional guardian e-mail and mobile number (the code by SMS, docs/sms.md,
 * "Codes recovered by phone"); `idPrefix` keeps the ids of two forms apart.
 */
export function StudentFields({
  idPrefix,
  values,
  errors,
  set,
}: {
  idPrefix: string;
  values: StudentValues;
  errors: FieldErrors<keyof StudentValues>;
  set: (field: keyof StudentValues) => (event: { target: { value: string } }) => void;
}) {
  return (
    <>
      <Field id={`${idPrefix}-name`} label="Student name" value={values.name} onChange={set('name')} error={errors.name} />
      <Field id={`${idPrefix}-number`} label="Student number (optional)" value={values.number} onChange={set('number')} error={errors.number} />
      <Field id={`${idPrefix}-email`} label="Guardian e-mail (optional)" type="email" value={values.guardianEmail} onChange={set('guardianEmail')} error={errors.guardianEmail} />
      <Field
        id={`${idPrefix}-phone`}
        label={STUDENT_PHONE_FIELD.label}
        type="tel"
        inputMode="tel"
        autoComplete="off"
        value={values.guardianPhone}
        onChange={set('guardianPhone')}
        error={errors.guardianPhone}
        hint={STUDENT_PHONE_FIELD.hint}
      />
    </>
  );
}

/** One option per student: the name, and the number in brackets when there is one. */
export function StudentOptions({ students }: { students: readonly Pick<Student, 'id' | 'name' | 'number'>[] }) {
  return (
    <>
      {students.map((student) => (
        <option key={student.id} value={student.id}>
          {student.name}
          {student.number ? ` (${student.number})` : ''}
        </option>
      ))}
    </>
  );
}

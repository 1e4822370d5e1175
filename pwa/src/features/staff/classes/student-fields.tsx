/** A student's fields in the add form and the edit dialog, and students as choices of a select. */
import type { Student } from '@contract/students';
import { Field } from '../../../components/ui/field';
import type { FieldErrors } from '../../../lib/form';

/** A select's value for "no child: a group photo". */
export const GROUP = 'group';

export type StudentValues = { name: string; number: string; guardianEmail: string };

/** Name, optional number and optional guardian e-mail; `idPrefix` keeps the ids of two forms apart. */
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

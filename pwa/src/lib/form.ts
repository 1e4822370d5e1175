/** Forms validated with the contract's zod schemas: values, the first message per field, submit. */
import { useState, type FormEvent } from 'react';
import type { z, ZodError, ZodType } from 'zod';
import { PASSWORD_MAX_LENGTH } from '@contract/constants';

export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/** The first message per top-level field of a zod error. */
export function fieldErrors<K extends string>(error: ZodError): FieldErrors<K> {
  const result: FieldErrors<K> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '') as K;
    if (key && result[key] === undefined) result[key] = issue.message;
  }
  return result;
}

/**
 * A form's text values and their errors. `handleSubmit(onValid, onInvalid?)` parses the values with
 * the schema: invalid keeps each field's first message (and tells onInvalid, for a form that says it
 * in a toast) and sends nothing; valid clears the messages and hands the parsed data on. The schema
 * may change between renders (a form with two modes).
 */
export function useZodForm<Values extends Record<string, string>, Schema extends ZodType>(schema: Schema, initial: Values) {
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<FieldErrors<Extract<keyof Values, string>>>({});

  /** An onChange handler that sets one field. */
  const set = (field: keyof Values) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
  };

  const handleSubmit = (onValid: (data: z.output<Schema>) => unknown, onInvalid?: (errors: FieldErrors<Extract<keyof Values, string>>) => void) => (event: FormEvent) => {
    event.preventDefault();
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      const found = fieldErrors<Extract<keyof Values, string>>(parsed.error);
      setErrors(found);
      onInvalid?.(found);
      return;
    }
    setErrors({});
    void onValid(parsed.data);
  };

  const reset = (next: Values = initial) => {
    setValues(next);
    setErrors({});
  };

  return { values, errors, set, setValues, handleSubmit, reset, isValid: schema.safeParse(values).success };
}

/**
 * The contract's givenPassword() rule (given, at most PASSWORD_MAX_LENGTH) for the two password
 * forms a parent meets first, the school's on the home page and a class's in the gallery. They
 * check it without zod so a first visit on a slow phone does not download zod (about 15 KiB) for
 * it; the server validates with the schema itself.
 */
export const isGivenPassword = (password: string): boolean => password.length > 0 && password.length <= PASSWORD_MAX_LENGTH;

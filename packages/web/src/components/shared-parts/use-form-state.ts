import { useState } from 'react';
import { messageFor } from '../../lib/api';
import { type FieldErrors, serverFieldErrors } from '../../lib/field-errors';

/**
 * A form's values, the errors shown at its fields and the failure shown above it. `change` sets one value and clears
 * that field's error; `refused` shows why the server refused a save: its errors at the `fields` it names or, when it
 * names none of them, its message (or `fallback`) above the form.
 */
export function useFormState<V extends object, K extends string>(initial: V | (() => V), fields: readonly K[]) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<K>>({});
  const [failure, setFailure] = useState<string | null>(null);

  function change<F extends keyof V>(field: F, value: V[F]) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  }

  function refused(error: unknown, fallback: string) {
    const found = serverFieldErrors(error, fields);
    setErrors(found);
    if (Object.keys(found).length === 0) setFailure(messageFor(error, fallback));
  }

  return { values, setValues, errors, setErrors, failure, setFailure, change, refused };
}

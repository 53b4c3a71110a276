import type { ChangeEvent } from 'react';

/** The keys of V whose values are of type T. */
type KeysOf<V, T> = { [K in keyof V]: V[K] extends T ? K : never }[keyof V] & string;

interface FormState<V> {
  values: V;
  errors: { readonly [field: string]: string | undefined };
  /** Method syntax on purpose: a form's own `change(field, value)`, generic or not, fits. */
  change(field: keyof V & string, value: V[keyof V]): void;
}

/**
 * The props that tie an input to one value of a form (its value, its change and its error), so each field names its
 * key once: `<TextInput label="Name" {...field.text('name')} />`.
 */
export function fieldBinder<V extends object>({ values, errors, change }: FormState<V>) {
  const set = (field: keyof V & string, value: unknown) => change(field, value as V[keyof V]);
  return {
    /** TextInput, Textarea. */
    text: (field: KeysOf<V, string>) => ({
      value: values[field] as string,
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(field, event.currentTarget.value),
      error: errors[field],
    }),
    /** Inputs that give the string itself: Autocomplete, Radio.Group. */
    value: (field: KeysOf<V, string>) => ({
      value: values[field] as string,
      onChange: (next: string) => set(field, next),
      error: errors[field],
    }),
    /** A Select that always has a value. */
    select: (field: KeysOf<V, string>) => ({
      value: values[field] as string,
      onChange: (next: string | null) => {
        if (next) set(field, next);
      },
      allowDeselect: false,
      error: errors[field],
    }),
    /** NumberInput: a number, or a string while empty or half typed. */
    number: (field: KeysOf<V, number | string>) => ({
      value: values[field] as number | string,
      onChange: (next: number | string) => set(field, next),
      error: errors[field],
    }),
    /** Switch, Checkbox. */
    checked: (field: KeysOf<V, boolean>) => ({
      checked: values[field] as boolean,
      onChange: (event: ChangeEvent<HTMLInputElement>) => set(field, event.currentTarget.checked),
      error: errors[field],
    }),
  };
}

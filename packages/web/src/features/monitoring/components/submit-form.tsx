import { Paper } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';

interface SubmitFormProps {
  /** Called on Enter or the submit button, instead of the browser's page load. */
  onSubmit: () => void;
  children: ReactNode;
}

/** Keeps the browser from posting the form: the fields show their own messages, so its checks are off too. */
const submitWith = (onSubmit: () => void) => (event: FormEvent) => {
  event.preventDefault();
  onSubmit();
};

/** A form in a dialog. */
export function SubmitForm({ onSubmit, children }: SubmitFormProps) {
  return (
    <form noValidate onSubmit={submitWith(onSubmit)}>
      {children}
    </form>
  );
}

/** The form of an edit screen, on its bordered card. */
export function FormCard({ onSubmit, children }: SubmitFormProps) {
  return (
    <Paper withBorder p="md" component="form" noValidate onSubmit={submitWith(onSubmit)}>
      {children}
    </Paper>
  );
}

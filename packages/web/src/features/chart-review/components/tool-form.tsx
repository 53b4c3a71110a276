import { Textarea, TextInput } from '@mantine/core';
import { type CrToolInput, crToolInputSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';

const TOOL_FIELDS = ['name', 'purpose'] as const;
type ToolField = (typeof TOOL_FIELDS)[number];

/**
 * A tool's name and purpose as typed (the new-tool modal and the tool's details): checked with the contract before
 * `save`, the server's field messages on the fields and any other refusal as `failure` (`failText` where it has none).
 */
export function useToolForm(initial: { name: string; purpose: string }, failText: string) {
  const [name, setName] = useState(initial.name);
  const [purpose, setPurpose] = useState(initial.purpose);
  const [errors, setErrors] = useState<FieldErrors<ToolField>>({});
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent, save: (input: CrToolInput) => Promise<void>) {
    event.preventDefault();
    setFailure(null);
    const parsed = crToolInputSchema.safeParse({ name, purpose });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<ToolField>(parsed.error));
      return;
    }
    setErrors({});
    try {
      await save(parsed.data);
    } catch (error) {
      const fields = serverFieldErrors(error, TOOL_FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFailure(messageFor(error, failText));
    }
  }

  function reset() {
    setName('');
    setPurpose('');
    setErrors({});
    setFailure(null);
  }

  return { name, setName, purpose, setPurpose, errors, failure, setFailure, submit, reset };
}

type ToolForm = ReturnType<typeof useToolForm>;

/** The Name and Purpose inputs of a tool form, and the form's failure under them. */
export function ToolFields({
  form,
  nameHint,
  purposeHint,
  autoFocus = false,
}: {
  form: ToolForm;
  nameHint?: string;
  purposeHint?: string;
  autoFocus?: boolean;
}) {
  return (
    <>
      <TextInput
        label="Name"
        description={nameHint}
        required
        maxLength={120}
        value={form.name}
        onChange={(event) => form.setName(event.currentTarget.value)}
        error={form.errors.name}
        data-autofocus={autoFocus || undefined}
      />
      <Textarea
        label="Purpose"
        description={purposeHint}
        rows={2}
        resize="vertical"
        maxLength={1000}
        value={form.purpose}
        onChange={(event) => form.setPurpose(event.currentTarget.value)}
        error={form.errors.purpose}
      />
      <ErrorNotice message={form.failure} />
    </>
  );
}

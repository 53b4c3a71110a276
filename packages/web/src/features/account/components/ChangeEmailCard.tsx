import { Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { emailChangeSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ErrorNotice, SectionCard } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { useChangeEmail } from '../api/change-email';

type Field = 'email' | 'password';
const FIELDS = ['email', 'password'] as const;

/** A new email address, confirmed with the password. */
export function ChangeEmailCard({ email }: { email: string }) {
  const change = useChangeEmail();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (change.isPending) return;
    setFailure(null);
    const parsed = emailChangeSchema.safeParse({ email: newEmail, password });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    if (parsed.data.email === email.toLowerCase()) {
      setErrors({ email: 'This is already your email address.' });
      return;
    }
    setErrors({});
    try {
      const user = await change.mutateAsync(parsed.data);
      setNewEmail('');
      setPassword('');
      toast.success(`Your email address is now ${user.email}.`);
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(error, 'Your email address could not be changed. Please try again.'));
      }
    }
  }

  return (
    <SectionCard title="Change email" id="account-email">
      <Text size="sm">
        Current email:{' '}
        <Text span fw={600} inherit style={{ overflowWrap: 'anywhere' }}>
          {email}
        </Text>
      </Text>
      <form onSubmit={submit} noValidate aria-labelledby="account-email">
        <Stack gap="md" maw={480}>
          <ErrorNotice message={failure} />
          <TextInput
            label="New email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            value={newEmail}
            onChange={(event) => setNewEmail(event.currentTarget.value)}
            error={errors.email}
          />
          <PasswordInput
            label="Password"
            name="password"
            autoComplete="current-password"
            description="Enter your password to confirm the change."
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={errors.password}
            // PasswordInput marks an error only with data-invalid; assistive technology needs aria-invalid.
            aria-invalid={errors.password ? true : undefined}
          />
          <Button type="submit" loading={change.isPending} w="fit-content">
            Change email
          </Button>
        </Stack>
      </form>
    </SectionCard>
  );
}

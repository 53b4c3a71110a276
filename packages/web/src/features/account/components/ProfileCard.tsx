import { Button, Group, Stack, TextInput } from '@mantine/core';
import { type CurrentUser, profileUpdateSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ErrorNotice, SectionCard } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { useUpdateProfile } from '../api/update-profile';

type Field = 'first_name' | 'last_name';
const FIELDS = ['first_name', 'last_name'] as const;
const NAME_MAX = profileUpdateSchema.shape.first_name.maxLength ?? 100;

/** First and last name. */
export function ProfileCard({ user }: { user: CurrentUser }) {
  const update = useUpdateProfile();
  const [firstName, setFirstName] = useState(user.first_name);
  const [lastName, setLastName] = useState(user.last_name);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending) return;
    setFailure(null);
    const parsed = profileUpdateSchema.safeParse({ first_name: firstName, last_name: lastName });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    try {
      const saved = await update.mutateAsync(parsed.data);
      setFirstName(saved.first_name);
      setLastName(saved.last_name);
      toast.success('Your profile was saved.');
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(error, 'Your profile could not be saved. Please try again.'));
      }
    }
  }

  return (
    <SectionCard title="Profile" id="account-profile">
      <form onSubmit={submit} noValidate aria-labelledby="account-profile">
        <Stack gap="md">
          <ErrorNotice message={failure} />
          <Group grow align="flex-start" gap="md" wrap="wrap" preventGrowOverflow={false}>
            <TextInput
              label="First name"
              name="first_name"
              autoComplete="given-name"
              required
              maxLength={NAME_MAX}
              miw={200}
              value={firstName}
              onChange={(event) => setFirstName(event.currentTarget.value)}
              error={errors.first_name}
            />
            <TextInput
              label="Last name"
              name="last_name"
              autoComplete="family-name"
              required
              maxLength={NAME_MAX}
              miw={200}
              value={lastName}
              onChange={(event) => setLastName(event.currentTarget.value)}
              error={errors.last_name}
            />
          </Group>
          <Button type="submit" loading={update.isPending} w="fit-content">
            Save
          </Button>
        </Stack>
      </form>
    </SectionCard>
  );
}

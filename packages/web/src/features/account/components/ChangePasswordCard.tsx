import { Button, PasswordInput, Stack } from '@mantine/core';
import { MESSAGES } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ErrorNotice, SectionCard } from '../../../components/page-parts';
import { NewPasswordFields } from '../../../components/password/NewPasswordFields';
import { usePasswordEvaluation, weakPasswordMessage } from '../../../components/password/password-strength';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { useChangePassword } from '../api/change-password';

export const PASSWORD_CHANGED = 'Password changed. Your other sessions were signed out.';

type Field = 'current_password' | 'password' | 'password_confirmation';
const FIELDS = ['current_password', 'password', 'password_confirmation'] as const;

/** Current password, a new one meeting the shared rules (SPEC section 5), and the new one again. */
export function ChangePasswordCard({ username }: { username: string }) {
  const change = useChangePassword();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const { evaluation } = usePasswordEvaluation(password);

  function validate(): FieldErrors<Field> {
    const found: FieldErrors<Field> = {};
    if (!current) found.current_password = 'Enter your current password.';
    if (!password) found.password = 'Enter a new password.';
    else if (!evaluation.valid) found.password = weakPasswordMessage(evaluation);
    else if (password === current) found.password = MESSAGES.resetSamePassword;
    if (!confirmation) found.password_confirmation = 'Repeat the new password.';
    else if (password && confirmation !== password) found.password_confirmation = MESSAGES.resetMismatch;
    return found;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (change.isPending) return;
    setFailure(null);
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await change.mutateAsync({ current_password: current, password, password_confirmation: confirmation });
      setCurrent('');
      setPassword('');
      setConfirmation('');
      toast.success(PASSWORD_CHANGED);
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(error, 'Your password could not be changed. Please try again.'));
      }
    }
  }

  return (
    <SectionCard
      title="Change password"
      id="account-password"
      description="Changing your password signs you out on every other device."
    >
      <form onSubmit={submit} noValidate aria-labelledby="account-password">
        <Stack gap="md" maw={480}>
          <ErrorNotice message={failure} />
          {/* Lets password managers store the new password against the right account. */}
          <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
          <PasswordInput
            label="Current password"
            name="current_password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(event) => setCurrent(event.currentTarget.value)}
            error={errors.current_password}
            // PasswordInput marks an error only with data-invalid; assistive technology needs aria-invalid.
            aria-invalid={errors.current_password ? true : undefined}
          />
          <NewPasswordFields
            password={password}
            confirmation={confirmation}
            onPassword={setPassword}
            onConfirmation={setConfirmation}
            evaluation={evaluation}
            errors={{ password: errors.password, confirmation: errors.password_confirmation }}
            confirmationLabel="Confirm new password"
            markInvalid
          />
          <Button type="submit" loading={change.isPending} w="fit-content">
            Change password
          </Button>
        </Stack>
      </form>
    </SectionCard>
  );
}

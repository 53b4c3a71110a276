import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { MESSAGES } from '@portal/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useCaptchaField } from '../../../components/CaptchaField';
import { NewPasswordFields } from '../../../components/password/NewPasswordFields';
import { usePasswordEvaluation, weakPasswordMessage } from '../../../components/password/password-strength';
import { usePublicConfig } from '../../../lib/public-config';
import { resetErrorMessage, useResetPassword } from '../api/reset-password';

/** SPEC section 9: the user is sent to the login page 2000 ms after a successful reset. */
export const RESET_REDIRECT_MS = 2000;

interface FieldErrors {
  password?: string;
  confirmation?: string;
  captcha?: string;
}

export function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  const { config } = usePublicConfig();
  const reset = useResetPassword();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const captcha = config?.captcha;

  const { evaluation } = usePasswordEvaluation(password);

  useEffect(() => {
    if (!result?.ok) return;
    const timer = setTimeout(() => void navigate('/member-login', { replace: true }), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [result, navigate]);

  const captchaField = useCaptchaField(captcha, {
    id: 'reset-captcha',
    onVerified: () => setErrors((current) => ({ ...current, captcha: undefined })),
  });

  function validate(): FieldErrors {
    const found: FieldErrors = {};
    if (!password) found.password = 'Enter a new password.';
    else if (!evaluation.valid) found.password = weakPasswordMessage(evaluation);
    if (!confirmation) found.confirmation = 'Confirm your new password.';
    else if (password && confirmation !== password) found.confirmation = MESSAGES.resetMismatch;
    if (captchaField.missing) found.captcha = MESSAGES.captchaRequired;
    return found;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (reset.isPending || result?.ok) return;
    setResult(null);
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;

    try {
      await reset.mutateAsync({
        token,
        email,
        password,
        password_confirmation: confirmation,
        'g-recaptcha-response': captchaField.payload,
      });
      setResult({ ok: true, message: MESSAGES.resetSuccess });
    } catch (error) {
      setResult({ ok: false, message: resetErrorMessage(error) });
    } finally {
      // The human-verification token is cleared after each attempt (SPEC section 5).
      captchaField.reset();
    }
  }

  if (result?.ok) {
    return (
      <Alert color="green" variant="light" role="status">
        {result.message}
      </Alert>
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Reset password">
      <Stack gap="md">
        {result && (
          <Alert color="red" variant="light" role="alert">
            {result.message}
          </Alert>
        )}
        {/* Lets password managers store the new password against the right account. */}
        <TextInput label="Email" value={email} readOnly autoComplete="username" name="email" />
        <NewPasswordFields
          password={password}
          confirmation={confirmation}
          onPassword={setPassword}
          onConfirmation={setConfirmation}
          evaluation={evaluation}
          errors={errors}
          confirmationLabel="Confirm password"
        />
        {captchaField.field(errors.captcha)}
        <Button type="submit" loading={reset.isPending} fullWidth>
          Update
        </Button>
      </Stack>
    </form>
  );
}

import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { isWellFormedEmail, MESSAGES } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useCaptchaField } from '../../../components/CaptchaField';
import { messageFor } from '../../../lib/api';
import { usePublicConfig } from '../../../lib/public-config';
import { usePageTitle } from '../../../lib/use-page-title';
import { useForgotPassword } from '../api/forgot-password';
import { AuthCard } from './AuthCard';

interface FieldErrors {
  email?: string;
  captcha?: string;
}

/** /lost-password (SPEC section 2 "Lost password"): email and captcha, button 'Get New Password'. */
export function LostPasswordPage() {
  usePageTitle('Lost password');
  const { config } = usePublicConfig();
  const forgot = useForgotPassword();
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const captcha = config?.captcha;

  const captchaField = useCaptchaField(captcha, {
    id: 'lost-password-captcha',
    onVerified: () => setErrors((current) => ({ ...current, captcha: undefined })),
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (forgot.isPending) return;
    setResult(null);
    const found: FieldErrors = {};
    if (!isWellFormedEmail(email)) found.email = 'Enter a valid email address.';
    if (captchaField.missing) found.captcha = MESSAGES.captchaRequired;
    setErrors(found);
    if (Object.keys(found).length > 0) return;

    try {
      await forgot.mutateAsync({ email: email.trim(), captcha: captchaField.payload });
      // The same text whether or not the account exists (SPEC section 8).
      setResult({ ok: true, message: MESSAGES.forgotSent });
    } catch (error) {
      setResult({ ok: false, message: messageFor(error, MESSAGES.forgotFailed) });
    } finally {
      captchaField.reset();
    }
  }

  return (
    <AuthCard
      title="Lost password"
      subtitle="Enter the email address of your account and we will send you a link to choose a new password."
      footer={
        <Anchor component={Link} to="/member-login">
          Back to login
        </Anchor>
      }
    >
      {result?.ok ? (
        <Alert color="green" variant="light" role="status">
          {result.message}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Lost password">
          <Stack gap="md">
            {result && (
              <Alert color="red" variant="light" role="alert">
                {result.message}
              </Alert>
            )}
            <TextInput
              label="Email"
              type="email"
              name="email"
              autoComplete="email"
              required
              value={email}
              onChange={(event) => {
                setEmail(event.currentTarget.value);
                // The message described the value that was there.
                setErrors((current) => (current.email ? { ...current, email: undefined } : current));
              }}
              error={errors.email}
            />
            {captchaField.field(errors.captcha)}
            <Button type="submit" loading={forgot.isPending} fullWidth>
              Get New Password
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}

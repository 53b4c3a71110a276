import { Alert, Button, PasswordInput, Skeleton, Stack, TextInput } from '@mantine/core';
import { MESSAGES } from '@portal/shared';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Captcha, type CaptchaHandle } from '../../../components/Captcha';
import { usePublicConfig } from '../../../lib/public-config';
import { resetErrorMessage, useResetPassword } from '../api/reset-password';
import { usePasswordEvaluation, weakPasswordMessage } from '../password-strength';
import { PasswordMatch } from './PasswordMatch';
import { PasswordStrengthMeter } from './PasswordStrengthMeter';

/** SPEC section 9: the user is sent to the login page 2000 ms after a successful reset. */
export const RESET_REDIRECT_MS = 2000;

/** Description under the input (it holds block content, so a div rather than Mantine's default p). */
const BELOW_INPUT = {
  inputWrapperOrder: ['label', 'input', 'description', 'error'] as ('label' | 'input' | 'description' | 'error')[],
  descriptionProps: { component: 'div', mt: 6 },
};

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
  const [captchaPayload, setCaptchaPayload] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const captchaRef = useRef<CaptchaHandle>(null);
  const captcha = config?.captcha;
  const captchaOn = captcha?.provider !== 'off';

  const { evaluation } = usePasswordEvaluation(password);

  useEffect(() => {
    if (!result?.ok) return;
    const timer = setTimeout(() => void navigate('/member-login', { replace: true }), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [result, navigate]);

  const onVerified = useCallback((payload: string) => {
    setCaptchaPayload(payload);
    setErrors((current) => ({ ...current, captcha: undefined }));
  }, []);
  const onCleared = useCallback(() => setCaptchaPayload(null), []);

  function validate(): FieldErrors {
    const found: FieldErrors = {};
    if (!password) found.password = 'Enter a new password.';
    else if (!evaluation.valid) found.password = weakPasswordMessage(evaluation);
    if (!confirmation) found.confirmation = 'Confirm your new password.';
    else if (password && confirmation !== password) found.confirmation = MESSAGES.resetMismatch;
    if (captchaOn && !captchaPayload) found.captcha = MESSAGES.captchaRequired;
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
        'g-recaptcha-response': captchaOn ? (captchaPayload ?? undefined) : undefined,
      });
      setResult({ ok: true, message: MESSAGES.resetSuccess });
    } catch (error) {
      setResult({ ok: false, message: resetErrorMessage(error) });
    } finally {
      // The human-verification token is cleared after each attempt (SPEC section 5).
      captchaRef.current?.reset();
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
        <PasswordInput
          label="New password"
          name="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={errors.password}
          // The meter is the field's description: below the input, and read out with it.
          description={password ? <PasswordStrengthMeter evaluation={evaluation} /> : undefined}
          {...BELOW_INPUT}
        />
        <PasswordInput
          label="Confirm password"
          name="password_confirmation"
          autoComplete="new-password"
          required
          value={confirmation}
          onChange={(event) => setConfirmation(event.currentTarget.value)}
          error={errors.confirmation}
          description={confirmation ? <PasswordMatch matches={confirmation === password} /> : undefined}
          {...BELOW_INPUT}
        />
        {!captcha && <Skeleton h={74} aria-label="Loading the captcha" role="status" />}
        {captcha && captchaOn && (
          <Captcha
            ref={captchaRef}
            challengeUrl={captcha.challengeUrl}
            onVerified={onVerified}
            onCleared={onCleared}
            error={errors.captcha}
            id="reset-captcha"
          />
        )}
        <Button type="submit" loading={reset.isPending} fullWidth>
          Update
        </Button>
      </Stack>
    </form>
  );
}

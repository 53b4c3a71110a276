import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { type LoginResponse, MESSAGES } from '@portal/shared';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { useLogin } from '../api/login';

type CodeKind = 'totp' | 'recovery';

interface CodeStepProps {
  /** The login name of step one; none after a single sign-on (the server's pending login knows the account). */
  email?: string;
  onSignedIn: (response: Extract<LoginResponse, { user: unknown }>) => Promise<void>;
  onCancel: () => void;
}

const COPY: Record<CodeKind, { label: string; description: string; toggle: string }> = {
  totp: {
    label: 'Authentication code',
    description: 'Enter the 6-digit code from your authenticator app.',
    toggle: 'Use a recovery code instead',
  },
  recovery: {
    label: 'Recovery code',
    description: 'Enter one of the recovery codes you saved when you set up two-factor authentication.',
    toggle: 'Use an authentication code instead',
  },
};

/** Step two of the login (SPEC section 2): an authentication code or a recovery code, button 'Verify'. */
export function CodeStep({ email, onSignedIn, onCancel }: CodeStepProps) {
  const login = useLogin();
  const [kind, setKind] = useState<CodeKind>('totp');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const copy = COPY[kind];

  // The code field takes the focus when the step opens and when the kind of code changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `kind` is the trigger (the field is re-created per kind)
  useEffect(() => {
    input.current?.focus();
  }, [kind]);

  function toggle() {
    setKind(kind === 'totp' ? 'recovery' : 'totp');
    setCode('');
    setFieldError(null);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (login.isPending || finishing) return;
    setServerError(null);
    const value = kind === 'totp' ? code.replace(/\s+/g, '') : code.trim();
    if (kind === 'totp' && !/^\d{6}$/.test(value)) {
      setFieldError('Enter the 6-digit code.');
      return;
    }
    if (kind === 'recovery' && !value) {
      setFieldError('Enter a recovery code.');
      return;
    }
    setFieldError(null);
    try {
      const response = await login.mutateAsync(
        email ? { email, one_time_password: value } : { one_time_password: value },
      );
      if ('two_factor' in response) {
        // The server still wants a code: the one sent was not accepted.
        setServerError(MESSAGES.invalidCode);
        return;
      }
      setFinishing(true);
      await onSignedIn(response);
    } catch (error) {
      setFinishing(false);
      setServerError(messageFor(error, MESSAGES.loginFailed));
      setCode('');
      input.current?.focus();
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby={headingId}>
      <Stack gap="md">
        <div>
          <Text id={headingId} fw={600} size="lg" component="h2" m={0}>
            Two-factor authentication
          </Text>
          <Text size="sm" c="dimmed">
            Your account is protected with two-factor authentication.
          </Text>
        </div>
        <ErrorNotice message={serverError} />
        <TextInput
          ref={input}
          key={kind}
          label={copy.label}
          description={copy.description}
          name="one_time_password"
          autoComplete="one-time-code"
          inputMode={kind === 'totp' ? 'numeric' : 'text'}
          maxLength={kind === 'totp' ? 7 : 64}
          required
          value={code}
          onChange={(event) => {
            setCode(event.currentTarget.value);
            // The message described the code that was there.
            setFieldError(null);
          }}
          error={fieldError}
          styles={{ input: { letterSpacing: kind === 'totp' ? '0.3em' : undefined } }}
        />
        <Anchor component="button" type="button" size="sm" onClick={toggle} w="fit-content">
          {copy.toggle}
        </Anchor>
        <Group justify="space-between" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={login.isPending || finishing}>
            Back
          </Button>
          <Button type="submit" loading={login.isPending || finishing}>
            Verify
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

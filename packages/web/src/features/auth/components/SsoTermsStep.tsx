import { Button, Group, Stack, Text } from '@mantine/core';
import { MESSAGES, SSO_ERRORS } from '@portal/shared';
import { type FormEvent, useId, useState } from 'react';
import { ErrorNotice } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { type SsoTermsOutcome, useAcceptSsoTerms } from '../api/accept-sso-terms';
import { TermsField } from './TermsField';

interface SsoTermsStepProps {
  onDone: (outcome: SsoTermsOutcome) => Promise<void>;
  onCancel: () => void;
}

/** After the identity provider (`?sso=terms`): the terms to accept before the sign-in finishes. */
export function SsoTermsStep({ onDone, onCancel }: SsoTermsStepProps) {
  const accept = useAcceptSsoTerms();
  const [checked, setChecked] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);
  const headingId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (accept.isPending || finishing) return;
    setServerError(null);
    if (!checked) {
      setFieldError(MESSAGES.termsRequired);
      return;
    }
    setFieldError(null);
    try {
      const outcome = await accept.mutateAsync();
      setFinishing(true);
      await onDone(outcome);
    } catch (error) {
      setFinishing(false);
      // 401: the pending sign-on is gone (it lasts minutes): it has to start again.
      setServerError(
        error instanceof ApiError && error.status === 401 ? SSO_ERRORS.expired : messageFor(error, SSO_ERRORS.failed),
      );
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby={headingId}>
      <Stack gap="md">
        <div>
          <Text id={headingId} fw={600} size="lg" component="h2" m={0}>
            Terms and conditions
          </Text>
          <Text size="sm" c="dimmed">
            Your organisation signed you in. Accept the terms and conditions to continue.
          </Text>
        </div>
        <ErrorNotice message={serverError} />
        <TermsField
          checked={checked}
          onChange={(value) => {
            setChecked(value);
            if (value) setFieldError(null);
          }}
          error={fieldError}
        />
        <Group justify="space-between" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={accept.isPending || finishing}>
            Back
          </Button>
          <Button type="submit" loading={accept.isPending || finishing}>
            Continue
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

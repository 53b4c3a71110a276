import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { userRequestApproveSchema, userRequestRejectSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/field-errors';
import { useApproveUserRequest, useRejectUserRequest } from '../api/decide-user-request';
import type { UserRequest } from '../api/get-user-requests';
import { fullName } from './user-display';

const REASON_MAX = 1000;

/** The username the server makes from an email when none is given (a hint only; the server decides). */
export function usernameHint(email: string): string {
  return (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 50);
}

interface DecideModalProps {
  request: UserRequest | null;
  onClose: () => void;
}

export function ApproveRequestModal({ request, onClose }: DecideModalProps) {
  return (
    <Modal
      opened={request !== null}
      onClose={onClose}
      title="Approve request"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {request && <ApproveForm request={request} onClose={onClose} />}
    </Modal>
  );
}

function ApproveForm({ request, onClose }: { request: UserRequest; onClose: () => void }) {
  const approve = useApproveUserRequest();
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const hint = usernameHint(request.email);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (approve.isPending) return;
    setFailure(null);
    const trimmed = username.trim();
    const parsed = userRequestApproveSchema.safeParse(trimmed ? { username: trimmed } : {});
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    try {
      await approve.mutateAsync({ id: request.id, username: parsed.data.username });
      toast.success(`Request approved: invitation sent to ${request.email}`);
      onClose();
    } catch (caught) {
      const fields = serverFieldErrors(caught, ['username', 'email'] as const);
      if (fields.username) setError(fields.username);
      else setFailure(messageFor(caught, 'The request could not be approved. Please try again.'));
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Approve request">
      <Stack gap="md">
        <Text size="sm">
          Creates an account for {fullName(request)} ({request.email}) if there is none, adds it to{' '}
          {request.project.name} with the roles asked for, and emails the invitation.
        </Text>
        <ErrorNotice message={failure} />
        <TextInput
          label="Username (optional)"
          description={`Leave blank to make one from the email address${hint ? ` (such as "${hint}")` : ''}.`}
          placeholder={hint || undefined}
          autoComplete="off"
          maxLength={50}
          value={username}
          onChange={(event) => {
            setUsername(event.currentTarget.value);
            setError(undefined);
          }}
          error={error}
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={approve.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={approve.isPending}>
            Approve and send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function RejectRequestModal({ request, onClose }: DecideModalProps) {
  return (
    <Modal
      opened={request !== null}
      onClose={onClose}
      title="Reject request"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {request && <RejectForm request={request} onClose={onClose} />}
    </Modal>
  );
}

function RejectForm({ request, onClose }: { request: UserRequest; onClose: () => void }) {
  const reject = useRejectUserRequest();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (reject.isPending) return;
    setFailure(null);
    const parsed = userRequestRejectSchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    try {
      await reject.mutateAsync({ id: request.id, reason: parsed.data.reason });
      toast.success(`Request for ${fullName(request)} rejected.`);
      onClose();
    } catch (caught) {
      const fields = serverFieldErrors(caught, ['reason'] as const);
      if (fields.reason) setError(fields.reason);
      else setFailure(messageFor(caught, 'The request could not be rejected. Please try again.'));
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Reject request">
      <Stack gap="md">
        <Text size="sm">
          The request for {fullName(request)} ({request.email}) is closed and no account is made. The reason is emailed
          to {request.requested_by?.name ?? 'the project admin who asked'}.
        </Text>
        <ErrorNotice message={failure} />
        <Textarea
          label="Reason"
          required
          rows={4}
          resize="vertical"
          maxLength={REASON_MAX}
          value={reason}
          onChange={(event) => {
            setReason(event.currentTarget.value);
            setError(undefined);
          }}
          error={error}
          description={`${reason.length.toLocaleString('en-US')} / ${REASON_MAX.toLocaleString('en-US')} characters`}
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={reject.isPending}>
            Cancel
          </Button>
          <Button type="submit" color="red.8" loading={reject.isPending}>
            Reject request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

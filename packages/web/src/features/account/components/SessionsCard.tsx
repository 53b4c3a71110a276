import { Alert, Badge, Button, Group, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { messageFor } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { describeUserAgent } from '../../../lib/user-agent';
import { useDeleteOtherSessions } from '../api/delete-other-sessions';
import { useDeleteSession } from '../api/delete-session';
import { type UserSession, useSessions } from '../api/get-sessions';
import { AccountCard } from './AccountCard';

type Asking = { kind: 'one'; session: UserSession } | { kind: 'others' } | null;

/** The user's signed-in sessions: sign one out, or all but this one. */
export function SessionsCard() {
  const sessions = useSessions();
  const deleteOne = useDeleteSession();
  const deleteOthers = useDeleteOtherSessions();
  const [asking, setAsking] = useState<Asking>(null);
  // Kept after the modal closes, so its text does not change while it fades out.
  const [shown, setShown] = useState<UserSession | null>(null);

  const list = sessions.data ?? [];
  // This device first, then the most recently active.
  const ordered = [...list].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.last_seen_at.localeCompare(a.last_seen_at),
  );
  const others = list.filter((session) => !session.current).length;

  async function confirm() {
    const target = asking;
    setAsking(null);
    if (!target) return;
    try {
      if (target.kind === 'one') {
        await deleteOne.mutateAsync(target.session.id);
        toast.success(`Signed out ${describeUserAgent(target.session.user_agent)}.`);
      } else {
        await deleteOthers.mutateAsync();
        toast.success('Your other sessions were signed out.');
      }
    } catch (error) {
      toast.error(messageFor(error, 'The session could not be signed out. Please try again.'));
    }
  }

  let body: ReactNode;
  if (sessions.isPending) {
    body = (
      <Stack gap="sm" role="status" aria-label="Loading your sessions">
        <Skeleton height={20} />
        <Skeleton height={20} />
        <Skeleton height={20} />
      </Stack>
    );
  } else if (sessions.isError) {
    body = (
      <Stack gap="sm" align="flex-start">
        <Alert color="red" variant="light" w="100%" role="alert">
          {messageFor(sessions.error, 'Your sessions could not be loaded. Please try again.')}
        </Alert>
        <Button variant="default" loading={sessions.isFetching} onClick={() => void sessions.refetch()}>
          Try again
        </Button>
      </Stack>
    );
  } else if (ordered.length === 0) {
    body = <Text c="dimmed">No active sessions.</Text>;
  } else {
    body = (
      <Stack gap="sm">
        <Table.ScrollContainer minWidth={600}>
          <Table verticalSpacing="sm" aria-labelledby="account-sessions" data-testid="sessions-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Device</Table.Th>
                <Table.Th scope="col">Address</Table.Th>
                <Table.Th scope="col">Signed in</Table.Th>
                <Table.Th scope="col">Last active</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {ordered.map((session) => {
                const device = describeUserAgent(session.user_agent);
                return (
                  <Table.Tr key={session.id} data-session-id={session.id}>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Text size="sm" title={session.user_agent ?? undefined}>
                          {device}
                        </Text>
                        {session.current && (
                          <Badge color="teal.9" variant="filled" style={{ flexShrink: 0 }}>
                            This device
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{session.ip ?? 'Unknown'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDateTime(session.created_at)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDateTime(session.last_seen_at)}</Text>
                    </Table.Td>
                    <Table.Td ta="right">
                      {!session.current && (
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Sign out ${device}`}
                          loading={deleteOne.isPending && deleteOne.variables === session.id}
                          onClick={() => {
                            setShown(session);
                            setAsking({ kind: 'one', session });
                          }}
                        >
                          Sign out
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {others === 0 ? (
          <Text size="sm" c="dimmed">
            You are not signed in anywhere else.
          </Text>
        ) : (
          <Button
            variant="outline"
            color="red.9"
            w="fit-content"
            loading={deleteOthers.isPending}
            onClick={() => setAsking({ kind: 'others' })}
          >
            Sign out other sessions
          </Button>
        )}
      </Stack>
    );
  }

  return (
    <AccountCard
      title="Active sessions"
      id="account-sessions"
      description="Where your account is signed in. Sign out any session you do not recognise."
    >
      {body}
      <ConfirmActionModal
        opened={asking?.kind === 'one'}
        title="Sign out this session?"
        message={
          shown
            ? `${describeUserAgent(shown.user_agent)}${shown.ip ? ` (${shown.ip})` : ''} will be signed out and must sign in again.`
            : ''
        }
        confirmLabel="Sign out"
        danger
        onConfirm={() => void confirm()}
        onCancel={() => setAsking(null)}
      />
      <ConfirmActionModal
        opened={asking?.kind === 'others'}
        title="Sign out other sessions?"
        message="Every session except this one will be signed out and must sign in again."
        confirmLabel="Sign out other sessions"
        danger
        onConfirm={() => void confirm()}
        onCancel={() => setAsking(null)}
      />
    </AccountCard>
  );
}

import { Badge, Button, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { QueryFailure, SectionCard } from '../../../components/page-parts';
import { useConfirmedAction } from '../../../lib/confirmed-action';
import { formatDateTime } from '../../../lib/dates';
import { describeUserAgent } from '../../../lib/user-agent';
import { useDeleteOtherSessions } from '../api/delete-other-sessions';
import { useDeleteSession } from '../api/delete-session';
import { type UserSession, useSessions } from '../api/get-sessions';

type Asking = { kind: 'one'; session: UserSession } | { kind: 'others' };

/** The user's signed-in sessions: sign one out, or all but this one. */
export function SessionsCard() {
  const sessions = useSessions();
  const deleteOne = useDeleteSession();
  const deleteOthers = useDeleteOtherSessions();
  const signOut = useConfirmedAction<Asking>({
    run: (target) => (target.kind === 'one' ? deleteOne.mutateAsync(target.session.id) : deleteOthers.mutateAsync()),
    done: (target) =>
      target.kind === 'one'
        ? `Signed out ${describeUserAgent(target.session.user_agent)}.`
        : 'Your other sessions were signed out.',
    failed: () => 'The session could not be signed out. Please try again.',
  });
  // Kept after the modal closes, so its text does not change while it fades out.
  const [shown, setShown] = useState<UserSession | null>(null);

  const list = sessions.data ?? [];
  // This device first, then the most recently active.
  const ordered = [...list].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.last_seen_at.localeCompare(a.last_seen_at),
  );
  const others = list.filter((session) => !session.current).length;

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
    body = <QueryFailure query={sessions} fallback="Your sessions could not be loaded. Please try again." />;
  } else if (ordered.length === 0) {
    body = <Text c="dimmed">No active sessions.</Text>;
  } else {
    body = (
      <Stack gap="sm">
        <ScrollTable
          minWidth={600}
          verticalSpacing="sm"
          aria-labelledby="account-sessions"
          data-testid="sessions-table"
          columns={['Device', 'Address', 'Signed in', 'Last active']}
          actions
        >
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
                        signOut.ask({ kind: 'one', session });
                      }}
                    >
                      Sign out
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </ScrollTable>
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
            onClick={() => signOut.ask({ kind: 'others' })}
          >
            Sign out other sessions
          </Button>
        )}
      </Stack>
    );
  }

  return (
    <SectionCard
      title="Active sessions"
      id="account-sessions"
      description="Where your account is signed in. Sign out any session you do not recognise."
    >
      {body}
      <ConfirmActionModal
        opened={signOut.asking?.kind === 'one'}
        title="Sign out this session?"
        message={
          shown
            ? `${describeUserAgent(shown.user_agent)}${shown.ip ? ` (${shown.ip})` : ''} will be signed out and must sign in again.`
            : ''
        }
        confirmLabel="Sign out"
        danger
        onConfirm={signOut.confirm}
        onCancel={signOut.cancel}
      />
      <ConfirmActionModal
        opened={signOut.asking?.kind === 'others'}
        title="Sign out other sessions?"
        message="Every session except this one will be signed out and must sign in again."
        confirmLabel="Sign out other sessions"
        danger
        onConfirm={signOut.confirm}
        onCancel={signOut.cancel}
      />
    </SectionCard>
  );
}

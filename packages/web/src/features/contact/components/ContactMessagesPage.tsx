import {
  Alert,
  Badge,
  Box,
  Button,
  Grid,
  Group,
  Paper,
  Skeleton,
  Stack,
  Tabs,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { isProjectId } from '@portal/shared';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { QueryFailure } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type ContactBox, type ContactMessage, useContactMessages } from '../api/get-contact-messages';
import { type ContactStatus, useUpdateContactMessage } from '../api/update-contact-message';
import { NO_PROJECT } from './ContactUsPage';
import { ReplyModal } from './ReplyModal';

export const ADMINS_ONLY = 'Only project administrators can read contact messages.';
const EMPTY: Record<ContactBox, string> = { inbox: 'No messages.', archive: 'No archived messages.' };

function isForbidden(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 403) return false;
  // A 403 asking for two-factor is the MFA flow's (SPEC section 8), not a missing role.
  return (error.body as { mfa_required?: unknown } | null)?.mfa_required !== true;
}

/** /member/projects/{projectId}/contact-us-messages: the project administrators' inbox of Contact Us messages. */
export function ContactMessagesPage() {
  usePageTitle('Contact Messages');
  const { projectId = '' } = useParams();
  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        Contact Messages
      </Title>
      {isProjectId(projectId) ? (
        <Inbox key={projectId} projectId={projectId} />
      ) : (
        <Alert color="red" variant="light" role="alert">
          {NO_PROJECT}
        </Alert>
      )}
    </Stack>
  );
}

function Inbox({ projectId }: { projectId: string }) {
  const [params, setParams] = useSearchParams();
  const box: ContactBox = params.get('box') === 'archive' ? 'archive' : 'inbox';
  const inbox = useContactMessages(projectId, 'inbox');
  const current = useContactMessages(projectId, box);
  const update = useUpdateContactMessage(projectId);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [replyTo, setReplyTo] = useState<ContactMessage | null>(null);

  const messages = current.data?.messages ?? [];
  const selected = messages.find((message) => message.id === selectedId) ?? null;
  const unread = inbox.data?.unread ?? 0;

  function changeBox(next: string | null) {
    if (next !== 'inbox' && next !== 'archive') return;
    setSelectedId(null);
    setParams(next === 'archive' ? { box: 'archive' } : {}, { replace: true });
  }

  async function setStatus(message: ContactMessage, status: ContactStatus, done?: string) {
    try {
      await update.mutateAsync({ id: message.id, status });
      if (done) toast.success(done);
    } catch (error) {
      toast.error(messageFor(error, 'The message could not be updated. Please try again.'));
    }
  }

  function open(message: ContactMessage) {
    setSelectedId(message.id);
    // Opening an unread message marks it read.
    if (message.status === 'unread') void setStatus(message, 'read');
  }

  if (isForbidden(inbox.error) || isForbidden(current.error)) {
    return (
      <Alert color="red" variant="light" role="alert" title="Access denied">
        {ADMINS_ONLY}
      </Alert>
    );
  }

  let list: ReactNode;
  if (current.isPending) {
    list = (
      <Stack gap="xs" role="status" aria-label="Loading messages">
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} height={56} radius="sm" />
        ))}
      </Stack>
    );
  } else if (current.isError) {
    list = <QueryFailure query={current} fallback="The messages could not be loaded. Please try again." />;
  } else if (messages.length === 0) {
    list = (
      <Text c="dimmed" py="md">
        {EMPTY[box]}
      </Text>
    );
  } else {
    list = (
      <Stack
        component="ul"
        gap={0}
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
        aria-label={box === 'archive' ? 'Archived messages' : 'Messages'}
      >
        {messages.map((message) => (
          <MessageRow key={message.id} message={message} selected={message.id === selectedId} onOpen={open} />
        ))}
      </Stack>
    );
  }

  const panel = (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: selected ? 5 : 12 }}>
        <Paper withBorder radius="md" p={0} style={{ overflow: 'hidden' }}>
          <Box p={messages.length > 0 && !current.isPending ? 0 : 'md'}>{list}</Box>
        </Paper>
      </Grid.Col>
      {selected && (
        <Grid.Col span={{ base: 12, md: 7 }}>
          <MessageDetail
            key={selected.id}
            message={selected}
            busy={update.isPending}
            onClose={() => setSelectedId(null)}
            onReply={() => setReplyTo(selected)}
            onMarkUnread={() => {
              setSelectedId(null);
              void setStatus(selected, 'unread', 'Marked as unread.');
            }}
            onArchive={() => {
              setSelectedId(null);
              void setStatus(selected, 'archived', 'Message archived.');
            }}
            onRestore={() => {
              setSelectedId(null);
              void setStatus(selected, 'unread', 'Message moved back to the inbox.');
            }}
          />
        </Grid.Col>
      )}
    </Grid>
  );

  return (
    <>
      <Tabs value={box} onChange={changeBox} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab
            value="inbox"
            rightSection={
              unread > 0 ? (
                <Badge size="sm" circle={unread < 10} color="blue.8" variant="filled" aria-hidden="true">
                  {unread}
                </Badge>
              ) : undefined
            }
          >
            Inbox
            {unread > 0 && <VisuallyHidden>, {unread} unread</VisuallyHidden>}
          </Tabs.Tab>
          <Tabs.Tab value="archive">Archive</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="inbox">{box === 'inbox' && panel}</Tabs.Panel>
        <Tabs.Panel value="archive">{box === 'archive' && panel}</Tabs.Panel>
      </Tabs>
      <ReplyModal projectId={projectId} message={replyTo} onClose={() => setReplyTo(null)} />
    </>
  );
}

interface MessageRowProps {
  message: ContactMessage;
  selected: boolean;
  onOpen: (message: ContactMessage) => void;
}

function MessageRow({ message, selected, onOpen }: MessageRowProps) {
  const unread = message.status === 'unread';
  return (
    <Box
      component="li"
      data-message-id={message.id}
      data-status={message.status}
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
    >
      <UnstyledButton
        onClick={() => onOpen(message)}
        aria-current={selected ? 'true' : undefined}
        w="100%"
        px="md"
        py="sm"
        bg={selected ? 'blue.0' : undefined}
        style={{ display: 'block', borderLeft: `4px solid ${unread ? 'var(--mantine-color-blue-8)' : 'transparent'}` }}
      >
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Text size="sm" fw={unread ? 700 : 500} truncate="end" style={{ minWidth: 0 }}>
            {unread && <VisuallyHidden>Unread: </VisuallyHidden>}
            {message.sender.name}
          </Text>
          <Text size="xs" c="gray.7" style={{ flexShrink: 0 }}>
            {formatDateTime(message.created_at)}
          </Text>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" fw={unread ? 700 : 400} truncate="end" style={{ minWidth: 0 }}>
            {message.subject}
          </Text>
          {message.replied_at && (
            <Badge size="xs" variant="light" color="teal.9" style={{ flexShrink: 0 }}>
              Replied
            </Badge>
          )}
        </Group>
      </UnstyledButton>
    </Box>
  );
}

interface MessageDetailProps {
  message: ContactMessage;
  busy: boolean;
  onClose: () => void;
  onReply: () => void;
  onMarkUnread: () => void;
  onArchive: () => void;
  onRestore: () => void;
}

function MessageDetail({ message, busy, onClose, onReply, onMarkUnread, onArchive, onRestore }: MessageDetailProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Opening a message (a new key each time) moves the keyboard, and on a phone the view, to it.
  useEffect(() => {
    heading.current?.focus();
  }, []);
  const archived = message.status === 'archived';
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="article"
      aria-labelledby="contact-message-subject"
    >
      <Stack gap="md">
        <Stack gap={4}>
          <Title
            order={2}
            fz="h4"
            id="contact-message-subject"
            ref={heading}
            tabIndex={-1}
            style={{ overflowWrap: 'anywhere' }}
          >
            {message.subject}
          </Title>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            From {message.sender.name} &lt;{message.sender.email}&gt;
          </Text>
          <Text size="sm" c="gray.7">
            Sent {formatDateTime(message.created_at)}
          </Text>
          {message.replied_at && (
            <Text size="sm" c="teal.9" data-testid="replied-at">
              Replied {formatDateTime(message.replied_at)}
            </Text>
          )}
        </Stack>
        <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{message.message}</Text>
        <Group gap="sm">
          <Button onClick={onReply}>Reply</Button>
          {archived ? (
            <Button variant="default" onClick={onRestore} disabled={busy}>
              Restore
            </Button>
          ) : (
            <>
              <Button variant="default" onClick={onMarkUnread} disabled={busy}>
                Mark unread
              </Button>
              <Button variant="default" onClick={onArchive} disabled={busy}>
                Archive
              </Button>
            </>
          )}
          <Button variant="subtle" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

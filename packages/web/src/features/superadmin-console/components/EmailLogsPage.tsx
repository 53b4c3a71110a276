import {
  Badge,
  Box,
  Button,
  Code,
  Drawer,
  Group,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedCallback, useMediaQuery } from '@mantine/hooks';
import { EMAIL_STATUSES } from '@portal/shared';
import { type ReactNode, useRef, useState } from 'react';
import { toast } from 'sonner';
import { ListPanel } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { useProjects } from '../../../lib/project/get-projects';
import { usePageTitle } from '../../../lib/use-page-title';
import { type EmailLogDetail, useEmailLog } from '../api/get-email-log';
import { type EmailLogFilters, type EmailLogRow, type EmailStatus, useEmailLogs } from '../api/get-email-logs';
import { useResendEmail } from '../api/resend-email';
import { positiveInt, useUrlFilters } from '../url-params';
import { ConsolePageHeader, EmptyLog, Pager, QueryLoadError, RowsSkeleton } from './parts';

const PAGE_SIZE = 25;

export const STATUS_LABELS: Record<EmailStatus, string> = {
  sent: 'Sent',
  failed: 'Failed',
  logged: 'Logged',
  queued: 'Queued',
  sending: 'Sending',
};
const STATUS_COLORS: Record<EmailStatus, string> = {
  sent: 'teal.9',
  failed: 'red.9',
  logged: 'gray.7',
  queued: 'blue.9',
  sending: 'blue.9',
};
// Outline or filled with dark shades: Mantine's light variant with a shade fills the badge with that shade.
const STATUS_VARIANTS: Record<EmailStatus, 'filled' | 'outline'> = {
  sent: 'outline',
  failed: 'filled',
  logged: 'outline',
  queued: 'outline',
  sending: 'outline',
};
const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  ...EMAIL_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
];

function isStatus(value: string | null): value is EmailStatus {
  return (EMAIL_STATUSES as readonly string[]).includes(value ?? '');
}

/** /superadmin/email-logs: every email the portal sent or tried to send; failed ones can be sent again. */
export function EmailLogsPage() {
  usePageTitle('Email Logs');
  const { params, update } = useUrlFilters();
  const status = params.get('status');
  const filters: EmailLogFilters = {
    q: params.get('q')?.trim().slice(0, 100) || undefined,
    status: isStatus(status) ? status : undefined,
    project: positiveInt(params.get('project')),
    page: positiveInt(params.get('page')) ?? 1,
    page_size: PAGE_SIZE,
  };
  const filtered = Boolean(filters.q || filters.status || filters.project);
  const emails = useEmailLogs(filters);
  const projects = useProjects(true);
  const [openId, setOpenId] = useState<number | null>(null);
  const [search, setSearch] = useState(filters.q ?? '');
  // Back and Forward change the URL's search: the box follows, unless the change is the box's own (typing
  // reaches the URL after a pause, and the person may have typed on since).
  const [urlSearch, setUrlSearch] = useState(filters.q ?? '');
  const pushed = useRef<string | null>(null);
  if ((filters.q ?? '') !== urlSearch) {
    setUrlSearch(filters.q ?? '');
    if ((filters.q ?? '') !== pushed.current) setSearch(filters.q ?? '');
  }
  const applySearch = useDebouncedCallback((value: string) => {
    pushed.current = value.trim();
    update({ q: value.trim() }, true);
  }, 350);
  const resend = useResendEmail();
  const [resendingId, setResendingId] = useState<number | null>(null);

  async function onResend(id: number) {
    setResendingId(id);
    try {
      const email = await resend.mutateAsync(id);
      toast.success(
        email.status === 'logged'
          ? 'No mail server is set up: the email is recorded in the log again, not sent.'
          : 'The email is queued to be sent again. Its status here shows when it is sent.',
      );
    } catch (error) {
      toast.error(messageFor(error, 'The email could not be sent again. Please try again.'));
    } finally {
      setResendingId(null);
    }
  }

  function clearFilters() {
    applySearch.cancel();
    setSearch('');
    update({ q: null, status: null, project: null });
  }

  const projectOptions = (projects.data ?? [])
    .map((project) => ({ value: String(project.id), label: project.name }))
    .sort((a, b) => a.label.localeCompare(b.label));

  let content: ReactNode;
  if (emails.isPending) {
    content = <RowsSkeleton label="Loading emails" />;
  } else if (emails.isError) {
    content = <QueryLoadError inset query={emails} fallback="The email log could not be loaded. Please try again." />;
  } else if (emails.data.emails.length === 0) {
    content = (
      <EmptyLog
        page={filters.page}
        beyondLastPage={emails.data.total > 0}
        filtered={filtered}
        noMatch="No emails match these filters."
        none="No emails have been sent yet."
        noneHelp="Invitations, password resets and notifications appear here."
        onFirstPage={() => update({ page: null })}
        onClearFilters={clearFilters}
      />
    );
  } else {
    content = (
      <EmailTable
        emails={emails.data.emails}
        onOpen={setOpenId}
        onResend={(id) => void onResend(id)}
        resendingId={resendingId}
      />
    );
  }

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <ConsolePageHeader
        title="Email Logs"
        description="Every email the portal sent or tried to send. A failed email can be sent again."
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }} component="form" role="search" onSubmit={(event) => event.preventDefault()}>
        <TextInput
          label="Search"
          placeholder="Recipient or subject"
          type="search"
          value={search}
          maxLength={100}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            applySearch(event.currentTarget.value);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') applySearch.flush();
          }}
        />
        <Select
          label="Status"
          data={STATUS_OPTIONS}
          value={filters.status ?? ''}
          onChange={(value) => update({ status: value })}
          allowDeselect={false}
          checkIconPosition="right"
        />
        <Select
          label="Project"
          placeholder={projects.isError ? 'Projects could not be loaded' : 'All projects'}
          data={projectOptions}
          value={filters.project ? String(filters.project) : null}
          onChange={(value) => update({ project: value })}
          searchable
          clearable
          nothingFoundMessage="No project matches."
          checkIconPosition="right"
        />
      </SimpleGrid>
      <ListPanel>
        <Box
          aria-busy={emails.isFetching && !emails.isPending ? true : undefined}
          style={{ opacity: emails.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
        >
          {content}
        </Box>
      </ListPanel>
      {emails.data && (
        <Pager
          page={filters.page}
          pageSize={emails.data.page_size}
          total={emails.data.total}
          noun="emails"
          onChange={(page) => update({ page })}
        />
      )}
      <EmailDrawer
        id={openId}
        onClose={() => setOpenId(null)}
        onResend={(id) => void onResend(id)}
        resending={resendingId !== null && resendingId === openId}
      />
    </Stack>
  );
}

function StatusBadge({ status }: { status: EmailStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant={STATUS_VARIANTS[status]}>
      {STATUS_LABELS[status]}
    </Badge>
  );
}

interface EmailTableProps {
  emails: EmailLogRow[];
  onOpen: (id: number) => void;
  onResend: (id: number) => void;
  resendingId: number | null;
}

function EmailTable({ emails, onOpen, onResend, resendingId }: EmailTableProps) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Time</Table.Th>
            <Table.Th scope="col">To</Table.Th>
            <Table.Th scope="col">Subject</Table.Th>
            <Table.Th scope="col">Project</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col" ta="right">
              Attempts
            </Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {emails.map((email) => (
            <Table.Tr
              key={email.id}
              data-email-id={email.id}
              onClick={(event) => {
                // The row opens the email; its own buttons do their own thing.
                if (!(event.target as HTMLElement).closest('button, a')) onOpen(email.id);
              }}
              style={{ cursor: 'pointer' }}
            >
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <time dateTime={email.created_at}>{formatDateTime(email.created_at)}</time>
              </Table.Td>
              <Table.Td miw={200} style={{ overflowWrap: 'break-word', wordBreak: 'break-word' }}>
                {email.to}
              </Table.Td>
              <Table.Td miw={200} style={{ overflowWrap: 'break-word' }}>
                {email.subject}
              </Table.Td>
              <Table.Td>{email.project?.name ?? '—'}</Table.Td>
              <Table.Td>
                <StatusBadge status={email.status} />
                {email.status === 'failed' && email.error && (
                  <Text size="xs" c="red.8" mt={4} lineClamp={2} title={email.error} maw={260}>
                    {email.error}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right">{email.attempts}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap" justify="flex-end">
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => onOpen(email.id)}
                    aria-label={`View email to ${email.to}: ${email.subject}`}
                  >
                    View
                  </Button>
                  {email.status === 'failed' && (
                    <Button
                      size="xs"
                      color="red.9"
                      variant="outline"
                      loading={resendingId === email.id}
                      disabled={resendingId !== null && resendingId !== email.id}
                      onClick={() => onResend(email.id)}
                      aria-label={`Resend email to ${email.to}: ${email.subject}`}
                    >
                      Resend
                    </Button>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

interface EmailDrawerProps {
  id: number | null;
  onClose: () => void;
  onResend: (id: number) => void;
  resending: boolean;
}

function EmailDrawer({ id, onClose, onResend, resending }: EmailDrawerProps) {
  const email = useEmailLog(id);
  const phone = useMediaQuery('(max-width: 40em)');
  let body: ReactNode;
  if (email.data) {
    body = <EmailDetail email={email.data} onResend={onResend} resending={resending} />;
  } else if (email.isError) {
    body = <QueryLoadError query={email} fallback="This email could not be loaded. Please try again." />;
  } else {
    body = (
      <Stack gap="sm" role="status" aria-label="Loading the email">
        {[0, 1, 2, 3, 4].map((index) => (
          <Skeleton key={index} height={18} width={index % 2 ? '70%' : '90%'} />
        ))}
        <Skeleton height={200} />
      </Stack>
    );
  }
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'xl'}
      title={<Text fw={700}>Email</Text>}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {body}
    </Drawer>
  );
}

/** What became of the set-password link the log no longer keeps (it holds a marker in its place). */
const LINK_STATE: Record<NonNullable<EmailLogDetail['link']>['state'], (at: string | null) => string> = {
  used: (at) => `Removed from the log. It was used${at ? ` on ${formatDateTime(at)}` : ''}.`,
  unused: (at) => `Removed from the log. Not used yet${at ? `; it expires on ${formatDateTime(at)}` : ''}.`,
  expired: (at) => `Removed from the log. It expired${at ? ` on ${formatDateTime(at)}` : ''} without being used.`,
  replaced: () => 'Removed from the log. It no longer works: a newer link replaced it, or the account is gone.',
};

function EmailDetail({
  email,
  onResend,
  resending,
}: {
  email: EmailLogDetail;
  onResend: (id: number) => void;
  resending: boolean;
}) {
  const rows: [string, ReactNode][] = [
    ['To', email.to],
    ['Subject', email.subject],
    ['Template', <Code key="template">{email.template}</Code>],
    ['Project', email.project?.name ?? '—'],
    ['Status', <StatusBadge key="status" status={email.status} />],
    ['Attempts', String(email.attempts)],
    [
      'Created',
      <time key="created" dateTime={email.created_at}>
        {formatDateTime(email.created_at)}
      </time>,
    ],
    [
      'Sent',
      email.sent_at ? (
        <time key="sent" dateTime={email.sent_at}>
          {formatDateTime(email.sent_at)}
        </time>
      ) : (
        'Not sent'
      ),
    ],
    ...(email.next_attempt_at
      ? ([
          [
            'Next try',
            <time key="next" dateTime={email.next_attempt_at}>
              {formatDateTime(email.next_attempt_at)}
            </time>,
          ],
        ] as [string, ReactNode][])
      : []),
    ...(email.link
      ? ([['Set-password link', LINK_STATE[email.link.state](email.link.at)]] as [string, ReactNode][])
      : []),
  ];
  return (
    <Stack gap="md">
      <Title order={3} fz="h4" style={{ overflowWrap: 'anywhere' }}>
        {email.subject}
      </Title>
      <Box component="dl" m={0} style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '6px 16px' }}>
        {rows.map(([label, value]) => (
          <Box key={label} style={{ display: 'contents' }}>
            <Text component="dt" size="sm" fw={600}>
              {label}
            </Text>
            <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </Box>
        ))}
      </Box>
      {email.error && (
        <Box>
          <Text size="sm" fw={600} c="red.8">
            {email.status === 'failed' ? 'Error' : 'Last failed try'}
          </Text>
          <Code block c="red.9" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="email-error">
            {email.error}
          </Code>
        </Box>
      )}
      {email.status === 'failed' && (
        <Button color="red.9" w="fit-content" loading={resending} onClick={() => onResend(email.id)}>
          Resend
        </Button>
      )}
      <Box>
        <Text size="sm" fw={600} mb={4}>
          Body
        </Text>
        {/* Plain text, never HTML: React escapes it, and pre-wrap keeps its lines. */}
        <Code
          block
          data-testid="email-body"
          tabIndex={0}
          role="region"
          aria-label="Email body"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: '28rem', overflowY: 'auto' }}
        >
          {email.body}
        </Code>
      </Box>
    </Stack>
  );
}

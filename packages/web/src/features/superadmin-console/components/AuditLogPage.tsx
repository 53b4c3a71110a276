import {
  Anchor,
  Box,
  Button,
  Code,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedCallback, useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { AUDIT_EXPORT_MAX_ROWS, auditActionLabel, auditSubjectLabel } from '@portal/shared';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { ListPanel } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { serverFieldErrors } from '../../../lib/field-errors';
import { useProjects } from '../../../lib/project/get-projects';
import { usePageTitle } from '../../../lib/use-page-title';
import { type AuditEvent, type AuditFilters, auditCsvUrl, useAuditEvents } from '../api/get-audit-events';
import { type SuperUserRow, useUserSearch } from '../api/search-users';
import { type ChangeRow, changeRows } from '../audit-changes';
import { actorName } from '../console-format';
import { positiveInt, useUrlFilters } from '../url-params';
import { AuditChainStatus } from './AuditChainStatus';
import { AuditChanges } from './AuditChanges';
import { ConsolePageHeader, EmptyLog, LoadError, Pager, RowsSkeleton } from './parts';

const PAGE_SIZE = 50;
const ACTION_PATTERN = /^[a-z0-9_.]{1,100}$/;
const ACTION_ERROR = 'Actions are lower-case words joined by dots.';
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** Longer details are cut in the table; the whole object shows when the row is expanded. */
const DETAILS_PREVIEW = 80;

type FilterField = 'actor' | 'project' | 'action' | 'from' | 'to';

function validDate(value: string | null): string | undefined {
  if (!value || !DATE_PATTERN.test(value)) return undefined;
  return Number.isNaN(new Date(`${value}T00:00:00Z`).getTime()) ? undefined : value;
}

function userLabel(user: SuperUserRow): string {
  const name = `${user.first_name} ${user.last_name}`.trim();
  return name ? `${name} (${user.username})` : user.username;
}

/** /superadmin/audit-log: who changed what, and when; filtered, paged and exportable as CSV. */
export function AuditLogPage() {
  usePageTitle('Audit Log');
  const { params, update } = useUrlFilters();
  const rawAction = params.get('action')?.trim() ?? '';
  const fromDay = validDate(params.get('from'));
  const toDay = validDate(params.get('to'));
  const datesReversed = Boolean(fromDay && toDay && fromDay > toDay);

  const filters: AuditFilters = {
    actor: positiveInt(params.get('actor')),
    project: positiveInt(params.get('project')),
    action: ACTION_PATTERN.test(rawAction) ? rawAction : undefined,
    // Whole days, in UTC: from the start of the first to the end of the last.
    from: fromDay && !datesReversed ? `${fromDay}T00:00:00.000Z` : undefined,
    to: toDay && !datesReversed ? `${toDay}T23:59:59.999Z` : undefined,
  };
  const page = positiveInt(params.get('page')) ?? 1;
  const events = useAuditEvents({ ...filters, page, page_size: PAGE_SIZE });
  const filtered = Object.values(filters).some((value) => value !== undefined);
  const serverErrors = serverFieldErrors<FilterField>(events.error, ['actor', 'project', 'action', 'from', 'to']);
  const hasServerFieldErrors = Object.keys(serverErrors).length > 0;

  const [action, setAction] = useState(rawAction);
  const actionError = action.trim() && !ACTION_PATTERN.test(action.trim()) ? ACTION_ERROR : undefined;
  const applyAction = useDebouncedCallback((value: string) => {
    const trimmed = value.trim();
    if (!trimmed || ACTION_PATTERN.test(trimmed)) update({ action: trimmed }, true);
  }, 350);

  function clearFilters() {
    applyAction.cancel();
    setAction('');
    update({ actor: null, project: null, action: null, from: null, to: null });
  }

  let content: ReactNode;
  if (events.isPending) {
    content = <RowsSkeleton label="Loading the audit log" rows={8} />;
  } else if (events.isError) {
    content = (
      <LoadError
        inset
        message={
          hasServerFieldErrors
            ? 'Check the filters marked above.'
            : messageFor(events.error, 'The audit log could not be loaded. Please try again.')
        }
        retrying={events.isFetching}
        onRetry={() => void events.refetch()}
      />
    );
  } else if (events.data.events.length === 0) {
    content = (
      <EmptyLog
        page={page}
        beyondLastPage={events.data.total > 0}
        filtered={filtered}
        noMatch="No events match these filters."
        none="No events have been recorded yet."
        noneHelp="Changes made in the portal are recorded here."
        onFirstPage={() => update({ page: null })}
        onClearFilters={clearFilters}
      />
    );
  } else {
    content = <EventsTable events={events.data.events} />;
  }

  const total = events.data?.total ?? 0;

  return (
    <Stack gap="lg" w="100%" maw={1300}>
      <ConsolePageHeader
        title="Audit Log"
        description="Who changed what, and when. Times are shown in your time zone; the date filters cover whole days in UTC."
        actions={
          datesReversed ? (
            <Button variant="default" disabled>
              Export CSV
            </Button>
          ) : (
            <Button component="a" href={auditCsvUrl(filters)} download variant="default">
              Export CSV
            </Button>
          )
        }
      />
      <AuditChainStatus />
      <SimpleGrid
        cols={{ base: 1, sm: 2, lg: 5 }}
        component="form"
        role="search"
        aria-label="Filter the audit log"
        onSubmit={(event) => event.preventDefault()}
      >
        <ActorSelect value={filters.actor ?? null} onChange={(actor) => update({ actor })} error={serverErrors.actor} />
        <ProjectSelect
          value={filters.project ?? null}
          onChange={(project) => update({ project })}
          error={serverErrors.project}
        />
        <TextInput
          label="Action"
          description="An action or its start, e.g. user."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          placeholder="user."
          value={action}
          maxLength={100}
          spellCheck={false}
          autoCapitalize="off"
          onChange={(event) => {
            setAction(event.currentTarget.value);
            applyAction(event.currentTarget.value);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') applyAction.flush();
          }}
          error={actionError ?? serverErrors.action}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <TextInput
          label="From"
          type="date"
          value={fromDay ?? ''}
          max={toDay}
          onChange={(event) => update({ from: event.currentTarget.value })}
          error={serverErrors.from}
        />
        <TextInput
          label="To"
          type="date"
          value={toDay ?? ''}
          min={fromDay}
          onChange={(event) => update({ to: event.currentTarget.value })}
          error={datesReversed ? 'The end date is before the start date.' : serverErrors.to}
        />
      </SimpleGrid>
      {filtered && (
        <Group gap="sm">
          <Button variant="subtle" size="compact-sm" onClick={clearFilters}>
            Clear filters
          </Button>
        </Group>
      )}
      <ListPanel>
        <Box
          aria-busy={events.isFetching && !events.isPending ? true : undefined}
          style={{ opacity: events.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
        >
          {content}
        </Box>
      </ListPanel>
      {events.data && (
        <Pager
          page={page}
          pageSize={events.data.page_size}
          total={total}
          noun="events"
          onChange={(next) => update({ page: next })}
        />
      )}
      {total > AUDIT_EXPORT_MAX_ROWS && (
        <Text size="sm" c="gray.7">
          An export holds at most {AUDIT_EXPORT_MAX_ROWS.toLocaleString('en-US')} events: narrow the filters to export
          them all.
        </Text>
      )}
    </Stack>
  );
}

function ActorSelect({
  value,
  onChange,
  error,
}: {
  value: number | null;
  onChange: (id: string | null) => void;
  error?: string;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const users = useUserSearch(debounced);
  // The chosen actor keeps its name when a later search no longer lists them.
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);

  const options = (users.data ?? []).map((user) => ({ value: String(user.id), label: userLabel(user) }));
  const selected = value === null ? null : String(value);
  if (selected && !options.some((option) => option.value === selected)) {
    options.unshift(chosen?.value === selected ? chosen : { value: selected, label: `User #${selected}` });
  }

  return (
    <Select
      label="Actor"
      placeholder="Anyone"
      data={options}
      value={selected}
      onChange={(next, option) => {
        setChosen(next && option ? { value: next, label: option.label } : null);
        onChange(next);
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server searches (name, username, email); the list shows its answer as it is.
      filter={({ options: all }) => all}
      clearable
      nothingFoundMessage={users.isError ? 'The users could not be loaded.' : 'No user matches.'}
      error={error}
      checkIconPosition="right"
    />
  );
}

function ProjectSelect({
  value,
  onChange,
  error,
}: {
  value: number | null;
  onChange: (id: string | null) => void;
  error?: string;
}) {
  const projects = useProjects(true);
  const options = (projects.data ?? [])
    .map((project) => ({ value: String(project.id), label: project.name }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const selected = value === null ? null : String(value);
  if (selected && !options.some((option) => option.value === selected)) {
    options.unshift({ value: selected, label: `Project #${selected}` });
  }
  return (
    <Select
      label="Project"
      placeholder={projects.isError ? 'Projects could not be loaded' : 'All projects'}
      data={options}
      value={selected}
      onChange={onChange}
      searchable
      clearable
      nothingFoundMessage="No project matches."
      error={error}
      checkIconPosition="right"
    />
  );
}

/** The events: a table, or at phone width a list of cards (the same parts, one under another). */
function EventsTable({ events }: { events: AuditEvent[] }) {
  const phone = useMediaQuery('(max-width: 40em)');
  if (phone) {
    return (
      <Box component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Audit events">
        {events.map((event) => (
          <EventCard key={event.id} event={event} />
        ))}
      </Box>
    );
  }
  return (
    <ScrollTable
      minWidth={960}
      verticalSpacing="sm"
      horizontalSpacing="md"
      columns={['Time', 'Actor', 'Action', 'Project', 'Subject', 'Details']}
    >
      {events.map((event, index) => (
        <EventRow key={event.id} event={event} shaded={index % 2 === 0} />
      ))}
    </ScrollTable>
  );
}

/** What the screen shows of an event: its label, its changes and the rest of its data. */
function useEventView(event: AuditEvent) {
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [changesOpen, setChangesOpen] = useState(false);
  const changes = changeRows(event.data);
  // The changes are shown as a list; the rest of the data as it is stored.
  const rest = changes
    ? Object.fromEntries(Object.entries(event.data).filter(([key]) => key !== 'changes'))
    : event.data;
  const compact = JSON.stringify(rest);
  const label = auditActionLabel(event.action);
  return {
    label,
    known: label !== event.action,
    changes,
    rest,
    compact,
    empty: compact === '{}',
    long: compact.length > DETAILS_PREVIEW,
    detailsId: `audit-details-${event.id}`,
    changesId: `audit-changes-${event.id}`,
    detailsOpen,
    toggleDetails: () => setDetailsOpen((open) => !open),
    changesOpen,
    toggleChanges: () => setChangesOpen((open) => !open),
  };
}
type EventView = ReturnType<typeof useEventView>;

function ActionLabel({ event, view }: { event: AuditEvent; view: EventView }) {
  // An old row whose action is no longer known shows its stored name.
  return view.known ? (
    <Text size="sm" fw={500} data-action={event.action}>
      {view.label}
    </Text>
  ) : (
    <Code style={{ whiteSpace: 'nowrap' }}>{event.action}</Code>
  );
}

/** "First name, Last name and 2 more". */
function changedFields(rows: ChangeRow[]): string {
  const names = rows.slice(0, 3).map((row) => row.label);
  return rows.length > 3 ? `${names.join(', ')} and ${rows.length - 3} more` : names.join(', ');
}

function Details({ event, view }: { event: AuditEvent; view: EventView }) {
  if (view.empty && !view.changes && !event.ip) {
    return (
      <Text size="sm" c="gray.7">
        —
      </Text>
    );
  }
  return (
    <Stack gap={4} align="flex-start">
      {view.changes && (
        <>
          <Text size="sm">Changed: {changedFields(view.changes)}</Text>
          <Button
            variant="light"
            size="compact-xs"
            onClick={view.toggleChanges}
            aria-expanded={view.changesOpen}
            aria-controls={view.changesOpen ? view.changesId : undefined}
          >
            {view.changesOpen ? 'Hide changes' : 'Show changes'}
            <VisuallyHidden> of event {event.id}</VisuallyHidden>
          </Button>
        </>
      )}
      {!view.empty &&
        (view.detailsOpen ? (
          <Code block id={view.detailsId} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} w="100%">
            {JSON.stringify(view.rest, null, 2)}
          </Code>
        ) : (
          <Code style={{ overflowWrap: 'anywhere' }}>
            {view.long ? `${view.compact.slice(0, DETAILS_PREVIEW)}…` : view.compact}
          </Code>
        ))}
      {event.ip && (
        <Text size="xs" c="gray.7">
          IP address {event.ip}
        </Text>
      )}
      {view.long && (
        <Button
          variant="subtle"
          size="compact-xs"
          onClick={view.toggleDetails}
          aria-expanded={view.detailsOpen}
          aria-controls={view.detailsOpen ? view.detailsId : undefined}
        >
          {view.detailsOpen ? 'Show less' : 'Show all'}
          <VisuallyHidden> details of event {event.id}</VisuallyHidden>
        </Button>
      )}
    </Stack>
  );
}

function Subject({ event }: { event: AuditEvent }) {
  if (!event.subject_type) return <>—</>;
  return <>{`${auditSubjectLabel(event.subject_type)}${event.subject_id ? ` #${event.subject_id}` : ''}`}</>;
}

function Actor({ event }: { event: AuditEvent }) {
  return event.actor ? (
    <Anchor component={Link} to={`/superadmin/users/${event.actor.id}`} size="sm">
      {event.actor.name}
    </Anchor>
  ) : (
    actorName(null)
  );
}

function EventRow({ event, shaded }: { event: AuditEvent; shaded: boolean }) {
  const view = useEventView(event);
  const background = shaded ? 'var(--mantine-color-gray-0)' : undefined;
  return (
    <>
      <Table.Tr data-event-id={event.id} style={{ verticalAlign: 'top', background }}>
        <Table.Td style={{ whiteSpace: 'nowrap' }}>
          <time dateTime={event.created_at}>{formatDateTime(event.created_at)}</time>
        </Table.Td>
        <Table.Td>
          <Actor event={event} />
        </Table.Td>
        <Table.Td>
          <ActionLabel event={event} view={view} />
        </Table.Td>
        <Table.Td>{event.project?.name ?? '—'}</Table.Td>
        <Table.Td style={{ whiteSpace: 'nowrap' }}>
          <Subject event={event} />
        </Table.Td>
        <Table.Td miw={240} maw={420}>
          <Details event={event} view={view} />
        </Table.Td>
      </Table.Tr>
      {view.changes && view.changesOpen && (
        // The expanded changes span the row, under the event they belong to.
        <Table.Tr data-changes-of={event.id} style={{ background }}>
          <Table.Td colSpan={6} pt={0}>
            <Paper withBorder p="sm" radius="sm">
              <AuditChanges id={view.changesId} rows={view.changes} />
            </Paper>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

function EventCard({ event }: { event: AuditEvent }) {
  const view = useEventView(event);
  return (
    <Box
      component="li"
      data-event-id={event.id}
      px="md"
      py="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <ActionLabel event={event} view={view} />
          <Text size="xs" c="gray.7">
            <time dateTime={event.created_at}>{formatDateTime(event.created_at)}</time>
          </Text>
        </Group>
        <Text size="sm">
          <Actor event={event} />
          {event.project ? ` · ${event.project.name}` : ''}
          {event.subject_type ? ' · ' : ''}
          {event.subject_type ? <Subject event={event} /> : null}
        </Text>
        <Details event={event} view={view} />
        {view.changes && view.changesOpen && (
          <Paper withBorder p="sm" radius="sm">
            <AuditChanges id={view.changesId} rows={view.changes} stacked />
          </Paper>
        )}
      </Stack>
    </Box>
  );
}

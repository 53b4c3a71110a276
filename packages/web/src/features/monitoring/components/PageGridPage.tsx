import { Button, Group, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { atLeast, branchOf, PAGE_STATUSES, type PageStatus } from '@portal/shared';
import { useEffect, useMemo, useState } from 'react';
import { useBlocker } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ErrorNotice, PageHeading, QueryBody } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { type PageNode, usePageTree } from '../api/pages-list';
import { usePageOwnerCandidates } from '../api/pages-owner-candidates';
import { type PageBulkRow, useBulkUpdatePages } from '../api/structure-bulk';
import { usePageLevels } from '../api/structure-levels';
import { pageName, statusLabel } from './pages-parts';
import { useMonitoringProjectId } from './use-monitoring-project';

const TOP = '__top__';
const NO_OWNER = '__none__';
const EDITABLE = ['number', 'title', 'parent_id', 'status', 'owner_id'] as const;
type Editable = (typeof EDITABLE)[number];

interface Values {
  number: string;
  title: string;
  parent_id: number | null;
  status: PageStatus;
  owner_id: number | null;
}

const valuesOf = (page: PageNode): Values => ({
  number: page.number ?? '',
  title: page.title,
  parent_id: page.parent_id,
  status: page.status,
  owner_id: page.owner?.id ?? null,
});

export const EMPTY_GRID = 'There are no pages you may edit.';

/** /app/monitoring/{projectId}/update-page-list-tables: every page the user may edit, changed in one save. */
export function PageGridPage(_props: Record<string, never>) {
  usePageTitle('Update pages');
  const projectId = useMonitoringProjectId();
  const tree = usePageTree(projectId);
  const owners = usePageOwnerCandidates(projectId);
  const levels = usePageLevels(projectId);

  return (
    <Stack gap="lg" w="100%">
      <PageHeading title="Update pages">
        Change the numbers, titles, parents, owners and statuses of many pages, then save them all at once.
      </PageHeading>
      <QueryBody
        query={tree}
        fallback="The pages could not be loaded. Please try again."
        loadingLabel="Loading the pages"
      >
        {(data) => (
          <Grid
            projectId={projectId}
            pages={data.pages}
            manual={data.numbering_mode === 'manual'}
            maxDepth={data.max_depth}
            owners={owners.isError ? null : (owners.data ?? [])}
            levelNames={new Map((levels.data?.levels ?? []).map((level) => [level.depth, level.name]))}
          />
        )}
      </QueryBody>
    </Stack>
  );
}

interface GridProps {
  projectId: string;
  pages: PageNode[];
  manual: boolean;
  maxDepth: number;
  /** Null while the owner list loads or when it cannot be read: owners are then shown, not changed. */
  owners: { id: number; name: string }[] | null;
  levelNames: Map<number, string>;
}

function Grid({ projectId, pages, manual, maxDepth, owners, levelNames }: GridProps) {
  const save = useBulkUpdatePages(projectId);
  const [edits, setEdits] = useState<Map<number, Partial<Values>>>(new Map());
  const [rowErrors, setRowErrors] = useState<Map<number, Partial<Record<Editable | 'version' | 'id', string>>>>(
    new Map(),
  );
  const [failure, setFailure] = useState<string | null>(null);
  const [discarding, setDiscarding] = useState(false);

  const editable = useMemo(() => pages.filter((page) => atLeast(page.abilities.level, 'edit')), [pages]);
  const byId = useMemo(() => new Map(pages.map((page) => [page.id, page])), [pages]);
  const changedIds = useMemo(
    () =>
      editable
        .filter((page) => {
          const edit = edits.get(page.id);
          if (!edit) return false;
          const original = valuesOf(page);
          return (Object.keys(edit) as (keyof Values)[]).some((field) => edit[field] !== original[field]);
        })
        .map((page) => page.id),
    [edits, editable],
  );
  const dirty = changedIds.length > 0;

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const current = (page: PageNode): Values => ({ ...valuesOf(page), ...edits.get(page.id) });
  const depthOf = (page: PageNode): number => {
    let depth = 1;
    const seen = new Set<number>([page.id]);
    for (let parent = current(page).parent_id; parent !== null; ) {
      if (seen.has(parent)) return Number.POSITIVE_INFINITY;
      seen.add(parent);
      depth++;
      const next = byId.get(parent);
      parent = next ? current(next).parent_id : null;
    }
    return depth;
  };

  function change(page: PageNode, field: keyof Values, value: Values[keyof Values]) {
    setEdits((previous) => {
      const next = new Map(previous);
      next.set(page.id, { ...next.get(page.id), [field]: value });
      return next;
    });
  }

  async function saveAll() {
    setFailure(null);
    const rows: PageBulkRow[] = changedIds.map((id) => {
      const page = byId.get(id)!;
      const original = valuesOf(page);
      const now = current(page);
      const row: PageBulkRow = { id, version: page.version };
      if (now.number !== original.number) row.number = now.number.trim() === '' ? null : now.number.trim();
      if (now.title !== original.title) row.title = now.title;
      if (now.parent_id !== original.parent_id) row.parent_id = now.parent_id;
      if (now.status !== original.status) row.status = now.status;
      if (now.owner_id !== original.owner_id) row.owner_id = now.owner_id;
      return row;
    });
    try {
      await save.mutateAsync(rows);
      setEdits(new Map());
      setRowErrors(new Map());
      toast.success(`${rows.length} ${rows.length === 1 ? 'page' : 'pages'} saved.`);
    } catch (error) {
      const errors = error instanceof ApiError ? (error.body as { errors?: Record<string, string[]> })?.errors : null;
      const found = new Map<number, Partial<Record<Editable | 'version' | 'id', string>>>();
      for (const [key, messages] of Object.entries(errors ?? {})) {
        const match = /^rows\.(\d+)\.(\w+)$/.exec(key);
        const row = match ? rows[Number(match[1])] : undefined;
        if (!match || !row || !messages[0]) continue;
        found.set(row.id, { ...found.get(row.id), [match[2]!]: messages[0] });
      }
      setRowErrors(found);
      setFailure(
        found.size > 0
          ? `Nothing was saved: ${found.size} ${found.size === 1 ? 'row needs' : 'rows need'} a correction (marked below).`
          : messageFor(error, 'The pages could not be saved. Please try again.'),
      );
    }
  }

  function discard() {
    setDiscarding(false);
    setEdits(new Map());
    setRowErrors(new Map());
    setFailure(null);
  }

  if (editable.length === 0) return <Text>{EMPTY_GRID}</Text>;

  const ownerOptions = (page: PageNode) => {
    const list = owners ?? [];
    const options = [
      { value: NO_OWNER, label: 'No owner' },
      ...list.map((o) => ({ value: String(o.id), label: o.name })),
    ];
    if (page.owner && !list.some((o) => o.id === page.owner!.id)) {
      options.push({ value: String(page.owner.id), label: page.owner.name });
    }
    return options;
  };
  const statusOptions = PAGE_STATUSES.map((status) => ({ value: status, label: statusLabel(status) }));

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-label="Pages to update">
      <Stack gap="sm">
        {!manual && (
          <Text size="sm" c="dimmed">
            Numbers follow the tree (automatic numbering): they change when a parent changes.
          </Text>
        )}
        {owners === null && (
          <Text size="sm" c="dimmed">
            The list of possible owners could not be loaded: owners are shown but cannot be changed here.
          </Text>
        )}
        <ErrorNotice message={failure} />
        <Table.ScrollContainer minWidth={1100}>
          <Table verticalSpacing={6} aria-label="Pages" data-testid="page-grid">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" w={110}>
                  Number
                </Table.Th>
                <Table.Th scope="col">Title</Table.Th>
                <Table.Th scope="col" w={240}>
                  Parent
                </Table.Th>
                <Table.Th scope="col" w={120}>
                  Level
                </Table.Th>
                <Table.Th scope="col" w={190}>
                  Owner
                </Table.Th>
                <Table.Th scope="col" w={150}>
                  Status
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {editable.map((page) => {
                const values = current(page);
                const errors = rowErrors.get(page.id) ?? {};
                const changed = changedIds.includes(page.id);
                const branch = branchOf(pages, page.id);
                const parentOptions = [
                  { value: TOP, label: 'Top level' },
                  ...pages
                    .filter(
                      (candidate) =>
                        !branch.has(candidate.id) &&
                        (atLeast(candidate.abilities.level, 'edit') || candidate.id === page.parent_id),
                    )
                    .map((candidate) => ({ value: String(candidate.id), label: pageName(candidate) })),
                ];
                const depth = depthOf(page);
                const label = pageName(page);
                return (
                  <Table.Tr
                    key={page.id}
                    data-page-id={page.id}
                    data-changed={changed || undefined}
                    bg={changed ? 'yellow.0' : undefined}
                  >
                    <Table.Td>
                      <TextInput
                        aria-label={`Number of ${label}`}
                        value={values.number}
                        disabled={!manual}
                        onChange={(event) => change(page, 'number', event.currentTarget.value)}
                        error={errors.number}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        aria-label={`Title of ${label}`}
                        value={values.title}
                        maxLength={200}
                        onChange={(event) => change(page, 'title', event.currentTarget.value)}
                        error={errors.title ?? errors.version ?? errors.id}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={`Parent of ${label}`}
                        data={parentOptions}
                        value={values.parent_id === null ? TOP : String(values.parent_id)}
                        onChange={(value) =>
                          change(page, 'parent_id', value === null || value === TOP ? null : Number(value))
                        }
                        allowDeselect={false}
                        searchable
                        limit={200}
                        nothingFoundMessage="No page matches"
                        error={errors.parent_id}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c={depth > maxDepth ? 'red.8' : undefined}>
                        {depth > maxDepth ? 'Too deep' : (levelNames.get(depth) ?? `Level ${depth}`)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {owners === null ? (
                        <Text size="sm">{page.owner?.name ?? 'No owner'}</Text>
                      ) : (
                        <Select
                          aria-label={`Owner of ${label}`}
                          data={ownerOptions(page)}
                          value={values.owner_id === null ? NO_OWNER : String(values.owner_id)}
                          onChange={(value) =>
                            change(page, 'owner_id', value === null || value === NO_OWNER ? null : Number(value))
                          }
                          allowDeselect={false}
                          searchable
                          error={errors.owner_id}
                        />
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={`Status of ${label}`}
                        data={statusOptions}
                        value={values.status}
                        onChange={(value) => value && change(page, 'status', value as PageStatus)}
                        allowDeselect={false}
                        error={errors.status}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group gap="sm">
          <Button onClick={() => void saveAll()} disabled={!dirty} loading={save.isPending}>
            Save all
          </Button>
          <Button variant="default" onClick={() => setDiscarding(true)} disabled={!dirty || save.isPending}>
            Discard changes
          </Button>
          <Text size="sm" c="dimmed" role="status">
            {dirty
              ? `${changedIds.length} ${changedIds.length === 1 ? 'page' : 'pages'} changed, not saved yet.`
              : 'No unsaved changes.'}
          </Text>
        </Group>
      </Stack>
      <ConfirmActionModal
        opened={discarding}
        title="Discard changes?"
        message="Every change made since the last save is undone."
        confirmLabel="Discard changes"
        danger
        onConfirm={discard}
        onCancel={() => setDiscarding(false)}
      />
      <ConfirmActionModal
        opened={blocker.state === 'blocked'}
        title="Leave without saving?"
        message={`${changedIds.length} ${changedIds.length === 1 ? 'page has' : 'pages have'} unsaved changes. They are lost if you leave.`}
        confirmLabel="Leave without saving"
        danger
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      />
    </Paper>
  );
}

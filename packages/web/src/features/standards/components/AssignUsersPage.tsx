import { ActionIcon, Badge, Button, Group, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { ACCESS_DENIED, STD_ROLE_LABELS } from '@portal/shared';
import { type ReactNode, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { DisclosureChevron } from '../../../components/DisclosureChevron';
import { LoadFailure, PageHeading } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useStdAssessments } from '../api/assessments';
import {
  type StdAssignablePerson,
  type StdAssignmentRow,
  useSetAssignment,
  useStdAssignments,
} from '../api/assignments';
import { useStdMe } from '../api/me';
import { EmptyState, Loading, pickAssessment, StdAccessDenied, standardsRoute } from './std-parts';

const TITLE = 'Assign users';
export const NO_ASSESSMENTS = 'No assessments yet.';
export const INHERIT_NOTE =
  'Assignments inherit down the tree: the lead of a chapter oversees everything in it, and an owner given to a chapter or standard becomes the owner of every element below it.';

const isForbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

/**
 * /app/standards/{projectId}/assign-users[?assessment={id}] (DOMAIN.md 3.3): the chapters and standards of an
 * assessment as a tree, with the lead of each node and an owner that can be given to every element below it.
 */
export function AssignUsersPage() {
  usePageTitle(`${TITLE} | Standards`);
  const { projectId = '' } = useParams();
  const me = useStdMe(projectId);
  const assessments = useStdAssessments(projectId);
  const [params, setParams] = useSearchParams();

  if (isForbidden(me.error) || isForbidden(assessments.error) || me.data?.abilities.assign === false) {
    return (
      <StdAccessDenied reason={ACCESS_DENIED.forbidden} role={me.data?.role ? STD_ROLE_LABELS[me.data.role] : null} />
    );
  }

  let body: ReactNode;
  if (me.isError || assessments.isError) {
    const failed = me.isError ? me : assessments;
    body = (
      <LoadFailure
        error={failed.error}
        fallback="The assessments could not be loaded. Please try again."
        retrying={failed.isFetching}
        onRetry={() => void failed.refetch()}
      />
    );
  } else if (me.isPending || assessments.isPending) {
    body = <Loading label="Loading the assessments" />;
  } else if (assessments.data.assessments.length === 0) {
    body = (
      <EmptyState
        title={NO_ASSESSMENTS}
        action={
          me.data.abilities.create ? (
            <Button component={Link} to={standardsRoute(projectId, 'create')}>
              Create an assessment
            </Button>
          ) : undefined
        }
      >
        {me.data.abilities.create
          ? 'Create an assessment from a framework first; its chapters and standards then appear here to assign.'
          : 'A standards admin creates assessments; their chapters and standards then appear here to assign.'}
      </EmptyState>
    );
  } else {
    const list = assessments.data.assessments;
    const current = pickAssessment(list, params.get('assessment'))!;
    body = (
      <Stack gap="md">
        <Select
          label="Assessment"
          data={list.map((item) => ({
            value: String(item.id),
            label: `${item.name} (${item.framework.code} ${item.framework.edition})`,
          }))}
          value={String(current.id)}
          onChange={(value) => value && setParams({ assessment: value }, { replace: true })}
          allowDeselect={false}
          searchable
          nothingFoundMessage="No assessment by that name"
          maw={560}
        />
        <AssignmentTree key={current.id} projectId={projectId} assessmentId={current.id} />
      </Stack>
    );
  }

  return (
    <Stack gap="lg" w="100%" maw={1400}>
      <PageHeading title={TITLE}>{INHERIT_NOTE}</PageHeading>
      {body}
    </Stack>
  );
}

interface OwnerRequest {
  row: StdAssignmentRow;
  person: StdAssignablePerson;
}

function AssignmentTree({ projectId, assessmentId }: { projectId: string; assessmentId: number }) {
  const query = useStdAssignments(projectId, assessmentId);
  const save = useSetAssignment(projectId, assessmentId);
  /** Nodes opened or closed by hand; by default the chapters are open and everything below them closed. */
  const [toggled, setToggled] = useState<ReadonlySet<number>>(new Set());
  /** The owner picked per node, before "Apply to all below". */
  const [picked, setPicked] = useState<ReadonlyMap<number, string>>(new Map());
  const [confirming, setConfirming] = useState<OwnerRequest | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const rows = query.data?.rows ?? [];
  const people = query.data?.people ?? [];
  const { childCount, parentOf, minDepth } = useMemo(() => {
    const counts = new Map<number, number>();
    const parents = new Map<number, number | null>();
    for (const row of rows) {
      parents.set(row.node_id, row.parent_id);
      if (row.parent_id !== null) counts.set(row.parent_id, (counts.get(row.parent_id) ?? 0) + 1);
    }
    return {
      childCount: counts,
      parentOf: parents,
      minDepth: rows.reduce((min, row) => Math.min(min, row.depth), Number.POSITIVE_INFINITY),
    };
  }, [rows]);

  if (query.isPending) {
    return <Loading label="Loading the assignments" />;
  }
  if (query.isError) {
    return (
      <LoadFailure
        error={query.error}
        fallback="The assignments could not be loaded. Please try again."
        retrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (rows.length === 0) return <Text>This assessment has no chapters to assign.</Text>;

  const personOptions = (extra: { id: number; name: string } | null) => {
    const options = people.map((person) => ({
      value: String(person.id),
      label: `${person.name} (${STD_ROLE_LABELS[person.role]})`,
    }));
    // A lead who lost their role still shows as the lead.
    if (extra && !people.some((person) => person.id === extra.id)) {
      options.unshift({ value: String(extra.id), label: extra.name });
    }
    return options;
  };

  const depthOf = new Map(rows.map((row) => [row.node_id, row.depth]));
  const isCollapsed = (nodeId: number) => (depthOf.get(nodeId) ?? 0) > minDepth !== toggled.has(nodeId);

  function hidden(row: StdAssignmentRow): boolean {
    for (let parent = row.parent_id; parent !== null; parent = parentOf.get(parent) ?? null) {
      if (isCollapsed(parent)) return true;
    }
    return false;
  }

  function toggle(nodeId: number) {
    setToggled((previous) => {
      const next = new Set(previous);
      if (next.has(nodeId)) next.delete(nodeId);
      else next.add(nodeId);
      return next;
    });
  }

  async function setLead(row: StdAssignmentRow, value: string | null) {
    const leadId = value ? Number(value) : null;
    if (leadId === (row.lead?.id ?? null)) return;
    setBusy(`lead-${row.node_id}`);
    try {
      await save.mutateAsync({ node_id: row.node_id, lead_id: leadId });
      const name = people.find((person) => person.id === leadId)?.name;
      toast.success(name ? `${name} now leads ${row.ref_id}.` : `${row.ref_id} has no lead now.`);
    } catch (error) {
      toast.error(messageFor(error, 'The lead could not be saved. Please try again.'));
    } finally {
      setBusy(null);
    }
  }

  async function applyOwner({ row, person }: OwnerRequest) {
    setConfirming(null);
    setBusy(`owner-${row.node_id}`);
    try {
      await save.mutateAsync({ node_id: row.node_id, owner_id: person.id });
      toast.success(
        `${person.name} now owns ${row.elements === 1 ? 'the element' : `the ${row.elements} elements`} below ${row.ref_id}.`,
      );
      setPicked((previous) => {
        const next = new Map(previous);
        next.delete(row.node_id);
        return next;
      });
    } catch (error) {
      toast.error(messageFor(error, 'The owner could not be saved. Please try again.'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Table.ScrollContainer minWidth={1100}>
        <Table verticalSpacing="sm" aria-label="Assignments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Chapter or standard</Table.Th>
              <Table.Th scope="col" w={240}>
                Lead
              </Table.Th>
              <Table.Th scope="col" w={340}>
                Owner of every element below
              </Table.Th>
              <Table.Th scope="col">Current owners</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows
              .filter((row) => !hidden(row))
              .map((row) => {
                const indent = (row.depth - minDepth) * 20;
                const hasChildren = (childCount.get(row.node_id) ?? 0) > 0;
                const open = !isCollapsed(row.node_id);
                const ownerValue = picked.get(row.node_id) ?? null;
                const owner = people.find((person) => String(person.id) === ownerValue);
                const name = `${row.ref_id} ${row.title}`;
                return (
                  <Table.Tr key={row.node_id} data-node-id={row.node_id}>
                    <Table.Th scope="row" fw={400}>
                      <Group gap={6} wrap="nowrap" align="flex-start" pl={indent}>
                        {hasChildren ? (
                          <ActionIcon
                            variant="subtle"
                            color="gray.8"
                            size="sm"
                            aria-label={`${open ? 'Collapse' : 'Expand'} ${row.ref_id}`}
                            aria-expanded={open}
                            onClick={() => toggle(row.node_id)}
                          >
                            <DisclosureChevron open={open} />
                          </ActionIcon>
                        ) : (
                          <span style={{ width: 22, flexShrink: 0 }} />
                        )}
                        <Stack gap={0} miw={0}>
                          <Text size="sm" ff="monospace" fw={700}>
                            {row.ref_id}
                          </Text>
                          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                            {row.title}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {row.elements === 1 ? '1 element' : `${row.elements} elements`}
                          </Text>
                        </Stack>
                      </Group>
                    </Table.Th>
                    <Table.Td>
                      <Select
                        aria-label={`Lead of ${name}`}
                        placeholder="No lead"
                        data={personOptions(row.lead)}
                        value={row.lead ? String(row.lead.id) : null}
                        onChange={(value) => void setLead(row, value)}
                        clearable
                        clearButtonProps={{ 'aria-label': `Remove the lead of ${row.ref_id}` }}
                        searchable
                        nothingFoundMessage="Nobody by that name"
                        disabled={busy === `lead-${row.node_id}`}
                        comboboxProps={{ withinPortal: true }}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap" align="flex-start">
                        <Select
                          aria-label={`Owner for every element below ${name}`}
                          placeholder="Choose a person"
                          data={personOptions(null)}
                          value={ownerValue}
                          onChange={(value) =>
                            setPicked((previous) => {
                              const next = new Map(previous);
                              if (value) next.set(row.node_id, value);
                              else next.delete(row.node_id);
                              return next;
                            })
                          }
                          clearable
                          clearButtonProps={{ 'aria-label': `Clear the owner chosen for ${row.ref_id}` }}
                          searchable
                          nothingFoundMessage="Nobody by that name"
                          disabled={row.elements === 0}
                          comboboxProps={{ withinPortal: true }}
                          style={{ flex: 1 }}
                        />
                        <Button
                          variant="default"
                          disabled={!owner || row.elements === 0}
                          loading={busy === `owner-${row.node_id}`}
                          onClick={() => owner && setConfirming({ row, person: owner })}
                          aria-label={`Apply to all below ${row.ref_id}`}
                        >
                          Apply to all below
                        </Button>
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="wrap">
                        {row.owners.map((person) => (
                          <Badge key={person.id} variant="outline" color="gray.8" radius="sm" tt="none">
                            {person.name}
                          </Badge>
                        ))}
                        {row.unowned > 0 && (
                          <Badge variant="outline" color="red.9" radius="sm" tt="none">
                            {row.unowned} without owner
                          </Badge>
                        )}
                        {row.owners.length === 0 && row.unowned === 0 && (
                          <Text size="sm" c="dimmed">
                            —
                          </Text>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmActionModal
        opened={confirming !== null}
        title="Give an owner to every element below"
        message={
          confirming
            ? `Make ${confirming.person.name} the owner of ${confirming.row.elements === 1 ? 'the element' : `all ${confirming.row.elements} elements`} below ${confirming.row.ref_id} ${confirming.row.title}? This replaces their current owners.`
            : ''
        }
        confirmLabel="Apply to all below"
        onConfirm={() => confirming && void applyOwner(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </Paper>
  );
}

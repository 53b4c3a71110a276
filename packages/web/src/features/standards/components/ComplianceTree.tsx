import { ActionIcon, Box, Button, Checkbox, Group, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { isRealDay, STD_STATUS_LABELS } from '@portal/shared';
import { type KeyboardEvent, type MouseEvent, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { messageFor } from '../../../lib/api';
import { formatDay } from '../../../lib/dates';
import type { StdTreeRow } from '../api/assessments';
import { useBulkUpdate } from '../api/elements';
import { useStdMembers } from '../api/members';
import { Icon, InForceBadge, LinkCounts, OverdueBadge, ResultBadge } from './std-parts';
import { formatShare, plural } from './std-words';

/** One row of the tree with its children, in the order the server listed them. */
interface TreeNode {
  row: StdTreeRow;
  level: number;
  children: TreeNode[];
}

/** The flat rows as a tree; a row whose parent is missing (a filtered tree keeps ancestors, but be safe) is a root. */
export function buildTree(rows: readonly StdTreeRow[]): TreeNode[] {
  const nodes = new Map<number, TreeNode>(rows.map((row) => [row.node_id, { row, level: 0, children: [] }]));
  const roots: TreeNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.node_id)!;
    const parent = row.parent_id === null ? undefined : nodes.get(row.parent_id);
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const setLevels = (list: TreeNode[], level: number, seen: Set<number>) => {
    for (const node of list) {
      if (seen.has(node.row.node_id)) continue;
      seen.add(node.row.node_id);
      node.level = level;
      setLevels(node.children, level + 1, seen);
    }
  };
  setLevels(roots, 0, new Set());
  return roots;
}

/**
 * Which rows are open: by default the chapters (level 0), so their standards show; everything when the tree is
 * filtered or searched, so the matches show. Expand all / collapse all change the default; a click on one row
 * overrides it for that row.
 */
type OpenBase = 'chapters' | 'all' | 'none';

function isOpen(node: TreeNode, base: OpenBase, overrides: ReadonlyMap<number, boolean>): boolean {
  const override = overrides.get(node.row.node_id);
  if (override !== undefined) return override;
  if (base === 'all') return true;
  if (base === 'none') return false;
  return node.level === 0;
}

function visibleRows(roots: TreeNode[], base: OpenBase, overrides: ReadonlyMap<number, boolean>) {
  const out: { node: TreeNode; open: boolean }[] = [];
  const walk = (list: TreeNode[], seen: Set<number>) => {
    for (const node of list) {
      if (seen.has(node.row.node_id)) continue;
      seen.add(node.row.node_id);
      const open = node.children.length > 0 && isOpen(node, base, overrides);
      out.push({ node, open });
      if (open) walk(node.children, seen);
    }
  };
  walk(roots, new Set());
  return out;
}

function Chevron({ open }: { open: boolean }) {
  return (
    <Icon strokeWidth="2.5" style={{ transform: open ? 'rotate(90deg)' : undefined, transition: 'transform 120ms' }}>
      <path d="M9 6l6 6-6 6" />
    </Icon>
  );
}

interface ComplianceTreeProps {
  rows: readonly StdTreeRow[];
  /** The tree is filtered or searched: every row starts open so the matches show. */
  filtered: boolean;
  /** Rows can be ticked for the bulk bar. */
  selectable: boolean;
  selected: ReadonlySet<number>;
  onSelect: (next: Set<number>) => void;
  /** The element open in the side panel (its req id). */
  openReqId: number | null;
  onOpen: (reqId: number) => void;
}

/**
 * The compliance tree-table: chapter -> standard -> element, each row with its roll-up; element rows open the side
 * panel on a click or Enter. Status, owner and links hide on phones.
 */
export function ComplianceTree({
  rows,
  filtered,
  selectable,
  selected,
  onSelect,
  openReqId,
  onOpen,
}: ComplianceTreeProps) {
  const roots = useMemo(() => buildTree(rows), [rows]);
  const [base, setBase] = useState<OpenBase>(filtered ? 'all' : 'chapters');
  const [overrides, setOverrides] = useState<ReadonlyMap<number, boolean>>(() => new Map());
  const shown = visibleRows(roots, base, overrides);
  const elementIds = useMemo(() => rows.flatMap((row) => (row.req ? [row.req.id] : [])), [rows]);
  const allTicked = elementIds.length > 0 && elementIds.every((id) => selected.has(id));
  const someTicked = elementIds.some((id) => selected.has(id));

  const toggle = (node: TreeNode, open: boolean) =>
    setOverrides((current) => new Map(current).set(node.row.node_id, !open));
  const setAll = (next: OpenBase) => {
    setBase(next);
    setOverrides(new Map());
  };
  const tick = (reqId: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(reqId);
    else next.delete(reqId);
    onSelect(next);
  };

  if (rows.length === 0) {
    return (
      <Paper withBorder radius="md" p="lg">
        <Text c="dimmed">No elements match. Choose another filter or clear the search.</Text>
      </Paper>
    );
  }

  return (
    <Stack gap="xs">
      <Group gap={4}>
        <Button size="compact-sm" variant="subtle" onClick={() => setAll('all')}>
          Expand all
        </Button>
        <Button size="compact-sm" variant="subtle" onClick={() => setAll('none')}>
          Collapse all
        </Button>
      </Group>
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={360}>
          <Table verticalSpacing="xs" highlightOnHover aria-label="Compliance tree" data-testid="compliance-tree">
            <Table.Thead>
              <Table.Tr>
                {selectable && (
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Select every element shown"
                      checked={allTicked}
                      indeterminate={someTicked && !allTicked}
                      onChange={(event) => onSelect(event.currentTarget.checked ? new Set(elementIds) : new Set())}
                    />
                  </Table.Th>
                )}
                <Table.Th>Standard</Table.Th>
                <Table.Th miw={175}>Result</Table.Th>
                <Table.Th visibleFrom="sm">Status</Table.Th>
                <Table.Th visibleFrom="sm">Owner</Table.Th>
                <Table.Th>Due</Table.Th>
                <Table.Th visibleFrom="sm">Links</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map(({ node, open }) => (
                <TreeRow
                  key={node.row.node_id}
                  node={node}
                  open={open}
                  selectable={selectable}
                  ticked={node.row.req ? selected.has(node.row.req.id) : false}
                  current={node.row.req !== null && node.row.req.id === openReqId}
                  onToggle={() => toggle(node, open)}
                  onTick={(on) => node.row.req && tick(node.row.req.id, on)}
                  onOpen={onOpen}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </Stack>
  );
}

interface TreeRowProps {
  node: TreeNode;
  open: boolean;
  selectable: boolean;
  ticked: boolean;
  current: boolean;
  onToggle: () => void;
  onTick: (on: boolean) => void;
  onOpen: (reqId: number) => void;
}

function TreeRow({ node, open, selectable, ticked, current, onToggle, onTick, onOpen }: TreeRowProps) {
  const { row } = node;
  const req = row.req;
  const parent = node.children.length > 0;

  const activate = () => {
    if (req) onOpen(req.id);
    else if (parent) onToggle();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      activate();
    } else if (parent && event.key === 'ArrowRight' && !open) onToggle();
    else if (parent && event.key === 'ArrowLeft' && open) onToggle();
  };
  const stop = (event: MouseEvent) => event.stopPropagation();
  // Table rows draw no focus ring of their own in every browser: the focused element row gets one here.
  const [focused, setFocused] = useState(false);

  return (
    <Table.Tr
      tabIndex={req ? 0 : undefined}
      onClick={activate}
      onKeyDown={onKeyDown}
      data-req-id={req?.id}
      data-node-id={row.node_id}
      data-level={node.level}
      aria-current={current ? 'true' : undefined}
      bg={current ? 'blue.0' : undefined}
      onFocus={(event) => setFocused(event.target === event.currentTarget)}
      onBlur={() => setFocused(false)}
      style={{
        cursor: req || parent ? 'pointer' : undefined,
        outline: 'none',
        boxShadow: focused ? 'inset 0 0 0 2px var(--mantine-color-blue-8)' : undefined,
      }}
    >
      {selectable && (
        <Table.Td onClick={stop}>
          {req && (
            <Checkbox
              aria-label={`Select ${row.ref_id}`}
              checked={ticked}
              onChange={(event) => onTick(event.currentTarget.checked)}
            />
          )}
        </Table.Td>
      )}
      <Table.Td>
        <Group gap={6} wrap="nowrap" align="flex-start" pl={node.level * 18}>
          {parent ? (
            <ActionIcon
              variant="subtle"
              color="gray.8"
              size="sm"
              mt={2}
              aria-label={`${open ? 'Collapse' : 'Expand'} ${row.ref_id}`}
              aria-expanded={open}
              onClick={(event) => {
                event.stopPropagation();
                onToggle();
              }}
            >
              <Chevron open={open} />
            </ActionIcon>
          ) : (
            <Box w={22} style={{ flexShrink: 0 }} />
          )}
          <Box miw={0}>
            <Text size="sm" fw={700} component="span" mr={6} data-testid="row-ref">
              {row.ref_id}
            </Text>
            <Text size="sm" component="span" fw={req ? 400 : 600}>
              {row.title}
            </Text>
            {row.in_force_from && <InForceBadge day={row.in_force_from} />}
            {req && req.comments > 0 && (
              <Text size="xs" c="dimmed">
                {plural(req.comments, 'comment')}
              </Text>
            )}
          </Box>
        </Group>
      </Table.Td>
      <Table.Td>
        <Stack gap={2} align="flex-start">
          <ResultBadge result={row.rollup} counts={req ? undefined : row.counts} />
          {!req && row.score !== null && (
            <Text size="xs" c="dimmed">
              {formatShare(row.score)} compliant
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{req ? STD_STATUS_LABELS[req.status] : ''}</Text>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        {req &&
          (req.owner ? (
            <Text size="sm">{req.owner.name}</Text>
          ) : (
            <Text size="sm" c="dimmed">
              No owner
            </Text>
          ))}
      </Table.Td>
      <Table.Td>
        {req?.due_date && (
          <Stack gap={2} align="flex-start">
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {formatDay(req.due_date)}
            </Text>
            {req.overdue && <OverdueBadge />}
          </Stack>
        )}
        {req && !req.due_date && req.overdue && <OverdueBadge />}
      </Table.Td>
      <Table.Td visibleFrom="sm">{req && <LinkCounts links={req.links} />}</Table.Td>
    </Table.Tr>
  );
}

const NO_OWNER = 'none';

/**
 * Sets an owner and/or a due date for the ticked elements (POST /req-assessments/bulk); a field left empty keeps
 * what each element has.
 */
export function BulkBar({
  projectId,
  selected,
  onDone,
}: {
  projectId: string;
  selected: ReadonlySet<number>;
  onDone: () => void;
}) {
  const members = useStdMembers(projectId);
  const bulk = useBulkUpdate(projectId);
  const [owner, setOwner] = useState<string | null>(null);
  const [due, setDue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const people = (members.data?.members ?? []).filter((member) => member.effective_role !== null);
  const ownerOptions = [
    { value: NO_OWNER, label: 'No owner (take the owner away)' },
    ...people.map((member) => ({ value: String(member.user_id), label: member.name })),
  ];

  async function apply() {
    setError(null);
    if (owner === null && due === '') {
      setError('Choose an owner or a due date.');
      return;
    }
    if (due !== '' && !isRealDay(due)) {
      setError('Enter a date like 2027-03-01.');
      return;
    }
    const body = {
      ids: [...selected],
      ...(owner !== null ? { owner_id: owner === NO_OWNER ? null : Number(owner) } : {}),
      ...(due !== '' ? { due_date: due } : {}),
    };
    try {
      const result = await bulk.mutateAsync(body);
      toast.success(`Updated ${plural(result.updated, 'element')}.`);
      setOwner(null);
      setDue('');
      onDone();
    } catch (failure) {
      const message = messageFor(failure, 'The elements could not be updated. Please try again.');
      setError(message);
      toast.error(message);
    }
  }

  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      shadow="sm"
      role="region"
      aria-label="Change the selected elements"
      style={{ position: 'sticky', bottom: 8, zIndex: 5 }}
      bg="white"
    >
      <Stack gap="xs">
        <Group gap="md" align="flex-end" wrap="wrap">
          <Text fw={700} size="sm" style={{ alignSelf: 'center' }}>
            {plural(selected.size, 'element')} selected
          </Text>
          <Select
            label="Set owner"
            placeholder={members.isPending ? 'Loading people…' : 'Keep each owner'}
            data={ownerOptions}
            value={owner}
            onChange={setOwner}
            clearable
            searchable
            nothingFoundMessage="Nobody with a standards role matches"
            w={{ base: '100%', xs: 240 }}
          />
          <TextInput
            type="date"
            label="Set due date"
            value={due}
            onChange={(event) => setDue(event.currentTarget.value)}
            w={{ base: '100%', xs: 180 }}
          />
          <Button onClick={() => void apply()} loading={bulk.isPending}>
            Apply to {plural(selected.size, 'element')}
          </Button>
          <Button variant="default" onClick={onDone}>
            Clear selection
          </Button>
        </Group>
        {error && (
          <Text size="sm" c="red.9" role="alert">
            {error}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type ScreenReaderInstructions,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Code,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  compareNumbers,
  inBranch,
  levelsOf,
  type NumberChange,
  type NumberedItem,
  parentKey,
  parseNumber,
  planMove,
} from '@portal/shared';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ErrorNotice, LoadFailure, LoadingRows, PageHeading } from '../../../components/page-parts';
import { ColumnHeads } from '../../../components/shared-parts/ColumnHeads';
import { SortableListItem } from '../../../components/sortable/SortableListItem';
import { ApiError } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { type DocumentRow, useDocuments } from '../api/get-documents';
import { type Scheme, useNumbering } from '../api/get-numbering';
import { invalidatePolicies } from '../api/keys';
import { useMoveDocument } from '../api/move-document';
import { documentName } from './document-format';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

export const EMPTY_BRANCH = 'No policies found.';
/** The Select's value for the top level (the parent key is ""). */
const TOP = '__top__';

interface Numbered extends NumberedItem {
  title: string;
}

interface Plan {
  documentId: number;
  parent: string;
  index: number;
  changes: NumberChange[];
  problem: string | null;
  /** The branch's order to show while the preview is open (a drag inside the branch), else null. */
  order: number[] | null;
}

const INSTRUCTIONS: ScreenReaderInstructions = {
  draggable:
    'To pick up a policy, press Space or Enter. Use the up and down arrow keys to move it, then Space or Enter to drop it and see the new numbers, or Escape to cancel.',
};

/** /app/policy_management/{projectId}/dnd: reorder the policies of a branch, or move one under another parent. */
export function DndPage() {
  usePageTitle('Reorder and renumber');
  const projectId = usePolicyProjectId();
  const documents = useDocuments(projectId);
  const numbering = useNumbering(projectId);

  let body: ReactNode;
  if (documents.isPending || numbering.isPending) {
    body = <LoadingRows label="Loading the policies" />;
  } else if (documents.isError || numbering.isError) {
    body = (
      <LoadFailure
        error={documents.error ?? numbering.error}
        fallback="The policies could not be loaded. Please try again."
        retrying={documents.isFetching || numbering.isFetching}
        onRetry={() => {
          if (documents.isError) void documents.refetch();
          if (numbering.isError) void numbering.refetch();
        }}
      />
    );
  } else {
    body = <Reorder projectId={projectId} rows={documents.data} scheme={numbering.data.scheme} />;
  }

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title="Reorder and renumber">
        Drag policies into a new order, or move one under another parent. You see the new numbers before anything
        changes.
      </PageHeading>
      {body}
    </Stack>
  );
}

/** Parents to choose from: the top level, the department prefixes in use, and the policies that may have children. */
function parentOptions(items: Numbered[], levels: number, exclude?: Numbered) {
  const prefixes = new Set<string>();
  for (const item of items) {
    const parsed = parseNumber(item.number);
    if (parsed?.prefix) prefixes.add(`${parsed.prefix}${parsed.separator}`);
  }
  const options = [{ value: TOP, label: 'Top level' }];
  for (const prefix of [...prefixes].sort()) options.push({ value: prefix, label: `${prefix} (department numbers)` });
  const parents = items
    .filter((item) => levelsOf(item.number) < levels && !(exclude && inBranch(item.number, exclude.number)))
    .sort((a, b) => compareNumbers(a.number, b.number));
  for (const item of parents) options.push({ value: item.number, label: documentName(item) });
  return options;
}

function childrenOf(items: Numbered[], parent: string): Numbered[] {
  return items
    .filter((item) => parentKey(item.number) === parent && item.number !== parent)
    .sort((a, b) => compareNumbers(a.number, b.number));
}

function parentName(parent: string, items: Numbered[]): string {
  if (parent === '') return 'the top level';
  if (/[-.]$/.test(parent)) return parent;
  const item = items.find((candidate) => candidate.number === parent);
  return item ? documentName(item) : parent;
}

function Reorder({ projectId, rows, scheme }: { projectId: string; rows: DocumentRow[]; scheme: Scheme }) {
  const queryClient = useQueryClient();
  const move = useMoveDocument(projectId);
  const [branch, setBranch] = useState(TOP);
  const [plan, setPlan] = useState<Plan | null>(null);
  const [moving, setMoving] = useState<Numbered | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const items = useMemo<Numbered[]>(
    () => rows.flatMap((row) => (row.number === null ? [] : [{ id: row.id, number: row.number, title: row.title }])),
    [rows],
  );
  const byId = useMemo(() => new Map(items.map((item) => [item.id, item])), [items]);
  const options = useMemo(() => parentOptions(items, scheme.levels), [items, scheme.levels]);
  const parent = branch === TOP ? '' : branch;
  const children = useMemo(() => childrenOf(items, parent), [items, parent]);
  const below = useMemo(() => {
    const counts = new Map<number, number>();
    for (const child of children) {
      counts.set(child.id, items.filter((item) => item.id !== child.id && inBranch(item.number, child.number)).length);
    }
    return counts;
  }, [children, items]);
  const shown = plan?.order ? plan.order.map((id) => byId.get(id)).filter((item) => item !== undefined) : children;

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const position = (id: UniqueIdentifier | undefined) => shown.findIndex((item) => item.id === id) + 1;
  const name = (id: UniqueIdentifier) => {
    const item = byId.get(Number(id));
    return item ? documentName(item) : 'The policy';
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Picked up ${name(active.id)}. It is in position ${position(active.id)} of ${shown.length}.`,
    onDragOver: ({ active, over }) =>
      over ? `${name(active.id)} was moved into position ${position(over.id)} of ${shown.length}.` : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? `${name(active.id)} was dropped at position ${position(over.id)} of ${shown.length}. The preview of new numbers is below.`
        : `${name(active.id)} was dropped.`,
    onDragCancel: ({ active }) =>
      `Moving was cancelled. ${name(active.id)} is back in position ${position(active.id)}.`,
  };

  function preview(documentId: number, target: string, index: number, order: number[] | null) {
    const result = planMove(items, documentId, target, index, scheme.levels);
    setFailure(null);
    setPlan({ documentId, parent: target, index, changes: result.changes, problem: result.problem, order });
  }

  function dragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const from = shown.findIndex((item) => item.id === active.id);
    const to = shown.findIndex((item) => item.id === over.id);
    if (from < 0 || to < 0) return;
    const order = arrayMove(
      shown.map((item) => item.id),
      from,
      to,
    );
    preview(Number(active.id), parent, to, order);
  }

  function cancel() {
    setPlan(null);
    setFailure(null);
  }

  async function apply() {
    if (!plan) return;
    setConfirming(false);
    setFailure(null);
    try {
      const result = await move.mutateAsync({
        document_id: plan.documentId,
        parent: plan.parent,
        index: plan.index,
        expected: plan.changes,
      });
      setPlan(null);
      const count = result.changes.length;
      toast.success(`Renumbering applied: ${count} ${count === 1 ? 'number' : 'numbers'} changed.`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // Someone renumbered meanwhile: the preview is stale, start again from the current numbers.
        toast.error(error.message);
        setPlan(null);
        await invalidatePolicies(queryClient, projectId);
        return;
      }
      setFailure(error instanceof ApiError ? error.message : 'The numbers could not be changed. Please try again.');
    }
  }

  const locked = plan !== null;
  return (
    <>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="branch-heading">
        <Stack gap="md">
          <Title order={2} fz="h4" id="branch-heading">
            Branch
          </Title>
          <Select
            label="Show the policies under"
            data={options}
            value={branch}
            onChange={(value) => {
              setBranch(value ?? TOP);
              cancel();
            }}
            allowDeselect={false}
            searchable
            limit={200}
            nothingFoundMessage="No policy matches"
            maw={520}
          />
          {items.length === 0 ? (
            <Text>{EMPTY_BRANCH}</Text>
          ) : shown.length === 0 ? (
            <Text>{EMPTY_BRANCH}</Text>
          ) : (
            <DndContext
              sensors={sensors}
              collisionDetection={closestCenter}
              onDragEnd={dragEnd}
              accessibility={{ announcements, screenReaderInstructions: INSTRUCTIONS }}
            >
              <SortableContext items={shown.map((item) => item.id)} strategy={verticalListSortingStrategy}>
                <Box component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Policies in this branch">
                  {shown.map((item, index) => (
                    <SortableRow
                      key={item.id}
                      item={item}
                      index={index}
                      below={below.get(item.id) ?? 0}
                      locked={locked}
                      projectId={projectId}
                      onMove={() => setMoving(item)}
                    />
                  ))}
                </Box>
              </SortableContext>
            </DndContext>
          )}
          {locked && (
            <Text size="sm" c="dimmed">
              Apply or cancel the change below before making another.
            </Text>
          )}
        </Stack>
      </Paper>

      {plan && (
        <PlanPreview
          plan={plan}
          items={items}
          byId={byId}
          failure={failure}
          applying={move.isPending}
          onApply={() => setConfirming(true)}
          onCancel={cancel}
        />
      )}

      <MoveModal
        key={moving?.id ?? 'none'}
        item={moving}
        items={items}
        levels={scheme.levels}
        onClose={() => setMoving(null)}
        onPreview={(target, index) => {
          if (!moving) return;
          preview(moving.id, target, index, null);
          setMoving(null);
        }}
      />
      <ConfirmActionModal
        opened={confirming}
        title="Apply renumbering?"
        message={
          plan
            ? `${plan.changes.length} ${plan.changes.length === 1 ? 'policy gets' : 'policies get'} a new number. Each policy keeps its old numbers in its history.`
            : ''
        }
        confirmLabel="Apply renumbering"
        onConfirm={() => void apply()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}

interface RowProps {
  item: Numbered;
  index: number;
  below: number;
  locked: boolean;
  projectId: string;
  onMove: () => void;
}

function SortableRow({ item, index, below, locked, projectId, onMove }: RowProps) {
  return (
    <SortableListItem
      id={item.id}
      disabled={locked}
      movable={!locked}
      handleLabel={`Reorder ${documentName(item)}`}
      data-row-index={index}
      data-document-id={item.id}
      py="xs"
      px="sm"
      mb={6}
    >
      <Code fz="sm" style={{ flexShrink: 0 }}>
        {item.number}
      </Code>
      <Box style={{ flex: 1, minWidth: 0 }}>
        <Anchor
          component={Link}
          to={policyRoute(projectId, `documents/${item.id}`)}
          style={{ overflowWrap: 'anywhere' }}
        >
          {item.title}
        </Anchor>
        <Text size="xs" c="dimmed">
          {below === 0 ? 'No policies below' : `${below} ${below === 1 ? 'policy' : 'policies'} below`}
        </Text>
      </Box>
      <Button
        variant="default"
        size="compact-sm"
        onClick={onMove}
        disabled={locked}
        aria-label={`Move ${documentName(item)} to…`}
        style={{ flexShrink: 0 }}
      >
        Move to…
      </Button>
    </SortableListItem>
  );
}

interface PreviewProps {
  plan: Plan;
  items: Numbered[];
  byId: Map<number, Numbered>;
  failure: string | null;
  applying: boolean;
  onApply: () => void;
  onCancel: () => void;
}

function PlanPreview({ plan, items, byId, failure, applying, onApply, onCancel }: PreviewProps) {
  const item = byId.get(plan.documentId);
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="preview-heading">
      <Stack gap="md">
        <Title order={2} fz="h4" id="preview-heading">
          Preview of new numbers
        </Title>
        {item && (
          <Text size="sm">
            Moving {documentName(item)} to position {plan.index + 1} under {parentName(plan.parent, items)}.
          </Text>
        )}
        {plan.problem ? (
          <Alert color="red" variant="light" role="alert" title="This move is not possible">
            {plan.problem}
          </Alert>
        ) : plan.changes.length === 0 ? (
          <Text>Nothing changes: the policy is already there.</Text>
        ) : (
          <Box style={{ overflowX: 'auto' }}>
            <Table miw={480} verticalSpacing="xs" striped data-testid="preview-table">
              <ColumnHeads columns={['Policy', 'From', 'To']} />
              <Table.Tbody>
                {plan.changes.map((change) => (
                  <Table.Tr key={change.id} data-change-id={change.id}>
                    <Table.Td>{byId.get(change.id)?.title ?? `Policy ${change.id}`}</Table.Td>
                    <Table.Td>
                      <Code>{change.from}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Code>{change.to}</Code>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Box>
        )}
        <ErrorNotice message={failure} />
        <Group gap="sm">
          {!plan.problem && plan.changes.length > 0 && (
            <Button onClick={onApply} loading={applying}>
              Apply renumbering
            </Button>
          )}
          <Button variant="default" onClick={onCancel} disabled={applying}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

interface MoveModalProps {
  item: Numbered | null;
  items: Numbered[];
  levels: number;
  onClose: () => void;
  onPreview: (parent: string, index: number) => void;
}

/** The keyboard-friendly way to move a policy, also across branches: a new parent and a position among its children. */
function MoveModal({ item, items, levels, onClose, onPreview }: MoveModalProps) {
  const current = item ? parentKey(item.number) : '';
  const [target, setTarget] = useState(current === '' ? TOP : current);
  const parent = target === TOP ? '' : target;
  const siblings = useMemo(
    () => (item ? childrenOf(items, parent).filter((child) => child.id !== item.id) : []),
    [items, parent, item],
  );
  const [index, setIndex] = useState<string | null>(null);
  const options = useMemo(() => (item ? parentOptions(items, levels, item) : []), [items, levels, item]);
  const positions = [
    { value: '0', label: 'First' },
    ...siblings.map((sibling, i) => ({ value: String(i + 1), label: `After ${documentName(sibling)}` })),
  ];
  const chosen = index ?? String(siblings.length);

  return (
    <Modal
      opened={item !== null}
      onClose={onClose}
      title={item ? `Move ${documentName(item)}` : 'Move'}
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <Stack gap="md">
        <Select
          label="New parent"
          data={options}
          value={target}
          onChange={(value) => {
            setTarget(value ?? TOP);
            setIndex(null);
          }}
          allowDeselect={false}
          searchable
          limit={200}
          nothingFoundMessage="No policy matches"
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Position"
          data={positions}
          value={chosen}
          onChange={setIndex}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => onPreview(parent, Number(chosen))}>Preview the new numbers</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent,
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
import { Box, Button, Code, Menu, Paper, Stack, Text } from '@mantine/core';
import { atLeast, branchHeight, branchOf, type PageMove } from '@portal/shared';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { PageHeading, QueryBody } from '../../../components/page-parts';
import { SortableListItem } from '../../../components/sortable/SortableListItem';
import { messageFor } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { type PageNode, usePageTree } from '../api/pages-list';
import { useMovePage } from '../api/structure-move';
import { LevelIcon, pageName } from './pages-parts';
import { useMonitoringProjectId } from './use-monitoring-project';

/** How far (in pixels) a sideways drag goes for one level of indentation. */
const INDENT = 28;

const INSTRUCTIONS: ScreenReaderInstructions = {
  draggable:
    'To pick up a page, press Space or Enter. Use the up and down arrow keys to move it, then Space or Enter to drop it, or Escape to cancel. The Move menu of each page also moves it up, down, in or out.',
};

export const EMPTY_TREE = 'No pages yet. Create pages first, then arrange them here.';

/** Where a page goes: under `parent_id`, before `before_id` (null: last), at `depth`. */
interface Placement {
  parent_id: number | null;
  before_id: number | null;
  depth: number;
}

const mayMove = (page: PageNode) => atLeast(page.abilities.level, 'edit');

/**
 * Where a dragged page lands in the flat list (tree order, its own sub-pages left out): after the row above it and
 * before the row below, as deep as the sideways drag asks within what the neighbours allow and the tree's depth.
 * The branch is taken out of the list while it moves, so a page can never land under its own sub-pages.
 */
export function projectDrop(
  pages: PageNode[],
  activeId: number,
  overId: number,
  depthChange: number,
  maxDepth: number,
): Placement | null {
  const branch = branchOf(pages, activeId);
  const list = pages.filter((page) => page.id === activeId || !branch.has(page.id));
  const from = list.findIndex((page) => page.id === activeId);
  const to = list.findIndex((page) => page.id === overId);
  if (from < 0 || to < 0) return null;
  const moved = arrayMove(list, from, to);
  const active = list[from]!;
  const above = moved[to - 1];
  const below = moved[to + 1];
  const height = branchHeight(pages, activeId);
  const deepest = Math.min(above ? above.depth + 1 : 1, maxDepth - height);
  const shallowest = below ? below.depth : 1;
  if (deepest < 1) return null;
  const depth = Math.max(Math.min(active.depth + depthChange, deepest), Math.min(shallowest, deepest));
  let parentId: number | null = null;
  for (let i = to - 1; i >= 0 && depth > 1; i--) {
    if (moved[i]!.depth === depth - 1) {
      parentId = moved[i]!.id;
      break;
    }
  }
  const beforeId = below && below.depth === depth ? below.id : null;
  return { parent_id: parentId, before_id: beforeId, depth };
}

/** The moves of the row menu (the keyboard path): up, down, indent (under the previous sibling), outdent. */
function menuMoves(pages: PageNode[], page: PageNode, maxDepth: number) {
  const siblings = pages.filter((candidate) => candidate.parent_id === page.parent_id);
  const index = siblings.findIndex((candidate) => candidate.id === page.id);
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  const afterNext = siblings[index + 2];
  const parent = page.parent_id === null ? null : pages.find((candidate) => candidate.id === page.parent_id);
  const height = branchHeight(pages, page.id);
  const parentSiblings = parent ? pages.filter((candidate) => candidate.parent_id === parent.parent_id) : [];
  const afterParent = parent ? parentSiblings[parentSiblings.findIndex((c) => c.id === parent.id) + 1] : undefined;
  return {
    up: previous ? { parent_id: page.parent_id, before_id: previous.id } : null,
    down: next ? { parent_id: page.parent_id, before_id: afterNext?.id ?? null } : null,
    indent:
      previous && previous.depth + 1 + height <= maxDepth && mayMove(previous)
        ? { parent_id: previous.id, before_id: null }
        : null,
    outdent: parent ? { parent_id: parent.parent_id, before_id: afterParent?.id ?? null } : null,
  };
}

/** /app/monitoring/{projectId}/drag-and-drop: arrange the page tree by dragging, or with each row's Move menu. */
export function DragAndDropPage(_props: Record<string, never>) {
  usePageTitle('Arrange pages');
  const projectId = useMonitoringProjectId();
  const tree = usePageTree(projectId);

  return (
    <Stack gap="lg" w="100%" maw={1000}>
      <PageHeading title="Arrange pages">
        Drag a page up or down to reorder it, and sideways to make it a sub-page or move it out. Its sub-pages move with
        it, and the numbers follow.
      </PageHeading>
      <QueryBody
        query={tree}
        fallback="The pages could not be loaded. Please try again."
        loadingLabel="Loading the pages"
      >
        {(data) =>
          data.pages.length === 0 ? (
            <Text>{EMPTY_TREE}</Text>
          ) : (
            <Arrange projectId={projectId} pages={data.pages} maxDepth={data.max_depth} />
          )
        }
      </QueryBody>
    </Stack>
  );
}

function Arrange({ projectId, pages, maxDepth }: { projectId: string; pages: PageNode[]; maxDepth: number }) {
  const move = useMovePage(projectId);
  const [activeId, setActiveId] = useState<number | null>(null);
  const [depthChange, setDepthChange] = useState(0);
  const [overId, setOverId] = useState<number | null>(null);
  const byId = useMemo(() => new Map(pages.map((page) => [page.id, page])), [pages]);

  // While a page is dragged its sub-pages are hidden: they move with it, and nothing can drop among them.
  const hidden = useMemo(() => {
    if (activeId === null) return new Set<number>();
    const branch = branchOf(pages, activeId);
    branch.delete(activeId);
    return branch;
  }, [activeId, pages]);
  const shown = pages.filter((page) => !hidden.has(page.id));
  const projection =
    activeId !== null && overId !== null ? projectDrop(pages, activeId, overId, depthChange, maxDepth) : null;

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const name = (id: UniqueIdentifier | null | undefined) => {
    const page = id === null || id === undefined ? undefined : byId.get(Number(id));
    return page ? pageName(page) : 'The page';
  };
  const where = (placement: Placement | null) => {
    if (!placement) return 'here it cannot go';
    const parent = placement.parent_id === null ? 'the top level' : name(placement.parent_id);
    return placement.before_id === null
      ? `last under ${parent}`
      : `under ${parent}, before ${name(placement.before_id)}`;
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${name(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${name(active.id)} would go ${where(projectDrop(pages, Number(active.id), Number(over.id), 0, maxDepth))}.`
        : undefined,
    onDragEnd: ({ active, over }) =>
      over ? `${name(active.id)} was dropped.` : `${name(active.id)} was dropped back.`,
    onDragCancel: ({ active }) => `Moving was cancelled. ${name(active.id)} stays where it was.`,
  };

  async function send(page: PageNode, placement: Omit<PageMove, 'version'>) {
    try {
      const tree = await move.mutateAsync({ pageId: page.id, body: { ...placement, version: page.version } });
      const now = tree.pages.find((candidate) => candidate.id === page.id);
      toast.success(now?.number ? `${page.title} moved: it is now ${now.number}.` : `${page.title} moved.`);
    } catch (error) {
      toast.error(messageFor(error, 'The page could not be moved. Please try again.'));
    }
  }

  function reset() {
    setActiveId(null);
    setOverId(null);
    setDepthChange(0);
  }

  function dragStart({ active }: DragStartEvent) {
    setActiveId(Number(active.id));
    setOverId(Number(active.id));
    setDepthChange(0);
  }

  function dragMove({ delta, over }: DragMoveEvent) {
    setDepthChange(Math.round(delta.x / INDENT));
    setOverId(over ? Number(over.id) : null);
  }

  function dragEnd({ active, over }: DragEndEvent) {
    const page = byId.get(Number(active.id));
    const placement = over ? projectDrop(pages, Number(active.id), Number(over.id), depthChange, maxDepth) : null;
    reset();
    if (!page || !placement) return;
    const siblings = pages.filter((candidate) => candidate.parent_id === page.parent_id);
    const nextSibling = siblings[siblings.findIndex((candidate) => candidate.id === page.id) + 1];
    if (placement.parent_id === page.parent_id && placement.before_id === (nextSibling?.id ?? null)) return;
    void send(page, { parent_id: placement.parent_id, before_id: placement.before_id });
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-label="Page tree">
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragStart={dragStart}
        onDragMove={dragMove}
        onDragEnd={dragEnd}
        onDragCancel={reset}
        accessibility={{ announcements, screenReaderInstructions: INSTRUCTIONS }}
      >
        <SortableContext items={shown.map((page) => page.id)} strategy={verticalListSortingStrategy}>
          <Box component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Pages in tree order">
            {shown.map((page) => (
              <SortableRow
                key={page.id}
                page={page}
                depth={page.id === activeId && projection ? projection.depth : page.depth}
                busy={move.isPending}
                moves={menuMoves(pages, page, maxDepth)}
                onMove={(placement) => void send(page, placement)}
              />
            ))}
          </Box>
        </SortableContext>
      </DndContext>
      <Text size="sm" c="dimmed" mt="sm">
        The tree is at most {maxDepth} {maxDepth === 1 ? 'level' : 'levels'} deep.
      </Text>
    </Paper>
  );
}

type MenuMove = { parent_id: number | null; before_id: number | null } | null;

interface RowProps {
  page: PageNode;
  depth: number;
  busy: boolean;
  moves: { up: MenuMove; down: MenuMove; indent: MenuMove; outdent: MenuMove };
  onMove: (placement: { parent_id: number | null; before_id: number | null }) => void;
}

function SortableRow({ page, depth, busy, moves, onMove }: RowProps) {
  const allowed = mayMove(page);
  const label = pageName(page);
  const item = (text: string, placement: MenuMove) => (
    <Menu.Item disabled={!placement} onClick={() => placement && onMove(placement)}>
      {text}
    </Menu.Item>
  );
  return (
    <SortableListItem
      id={page.id}
      disabled={!allowed || busy}
      movable={allowed}
      handleLabel={`Drag ${label}`}
      data-page-id={page.id}
      data-depth={depth}
      py={6}
      px="sm"
      mb={4}
      ml={(depth - 1) * INDENT}
    >
      <LevelIcon icon={page.level?.icon} />
      {page.number && (
        <Code fz="sm" style={{ flexShrink: 0 }}>
          {page.number}
        </Code>
      )}
      <Text style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>{page.title}</Text>
      {allowed && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button variant="default" size="compact-sm" aria-label={`Move ${label}`} disabled={busy}>
              Move
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {item('Move up', moves.up)}
            {item('Move down', moves.down)}
            {item('Indent (make a sub-page of the page above)', moves.indent)}
            {item('Outdent (move out one level)', moves.outdent)}
          </Menu.Dropdown>
        </Menu>
      )}
    </SortableListItem>
  );
}

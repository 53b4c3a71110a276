import { ActionIcon, Anchor, Box, Button, Group, Text, VisuallyHidden } from '@mantine/core';
import { compareNumbers, type DocumentRow, parentKey } from '@portal/shared';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { DisclosureChevron } from '../../../components/DisclosureChevron';
import { StatusBadge } from '../../../components/policy/StatusBadge';
import { matchesText } from './browse-ui';
import { policyRoute } from './use-policy-project';

/** Key of the group that holds the documents without a number (listed last). */
export const UNNUMBERED_KEY = 'unnumbered';

export interface PolicyNode {
  /** The document's id, or UNNUMBERED_KEY for the group. */
  key: string;
  /** Null for the 'Unnumbered' group. */
  doc: DocumentRow | null;
  children: PolicyNode[];
  /** Set by pruneTree on a document kept only because something below it matches. */
  context?: boolean;
}

/**
 * The documents as a tree by dotted number: a document's parent is the document whose number is its parentKey
 * ("1.2" for "1.2.3"); a document whose parent is missing is a root. Siblings in number order (1.2 before 1.10).
 * Documents without a number hang under one 'Unnumbered' group at the end, in title order.
 */
export function buildPolicyTree(documents: readonly DocumentRow[]): PolicyNode[] {
  const numbered = documents.filter((doc) => doc.number);
  const unnumbered = documents.filter((doc) => !doc.number);
  const nodes = new Map<string, PolicyNode>();
  for (const doc of numbered) {
    // Numbers are unique in a project; should two documents ever share one, the first keeps the children.
    if (!nodes.has(doc.number!)) nodes.set(doc.number!, { key: String(doc.id), doc, children: [] });
  }
  const roots: PolicyNode[] = [];
  for (const doc of numbered) {
    const own = nodes.get(doc.number!);
    const node = own?.doc === doc ? own : { key: String(doc.id), doc, children: [] };
    const key = parentKey(doc.number!);
    const parent = key && key !== doc.number ? nodes.get(key) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const order = (a: PolicyNode, b: PolicyNode) =>
    compareNumbers(a.doc!.number!, b.doc!.number!) || a.doc!.title.localeCompare(b.doc!.title);
  const sortAll = (list: PolicyNode[]) => {
    list.sort(order);
    for (const node of list) if (node.children.length) sortAll(node.children);
  };
  sortAll(roots);
  if (unnumbered.length) {
    roots.push({
      key: UNNUMBERED_KEY,
      doc: null,
      children: unnumbered
        .map((doc) => ({ key: String(doc.id), doc, children: [] }))
        .sort((a, b) => a.doc.title.localeCompare(b.doc.title, 'en', { numeric: true })),
    });
  }
  return roots;
}

/** Keeps the nodes that match and the nodes above them (so a match still shows where it sits). */
export function pruneTree(nodes: readonly PolicyNode[], keep: (doc: DocumentRow) => boolean): PolicyNode[] {
  const result: PolicyNode[] = [];
  for (const node of nodes) {
    const children = pruneTree(node.children, keep);
    const match = node.doc !== null && keep(node.doc);
    if (match || children.length) result.push({ ...node, children, context: !match });
  }
  return result;
}

/** Keys of every node that has children (what Expand all opens). */
export function branchKeys(nodes: readonly PolicyNode[]): string[] {
  const keys: string[] = [];
  const visit = (list: readonly PolicyNode[]) => {
    for (const node of list) {
      if (!node.children.length) continue;
      keys.push(node.key);
      visit(node.children);
    }
  };
  visit(nodes);
  return keys;
}

export interface TreeRow {
  node: PolicyNode;
  depth: number;
  expanded: boolean;
}

/** The rows on screen: every root, and the children of the open nodes, depth first. */
export function visibleRows(nodes: readonly PolicyNode[], open: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const visit = (list: readonly PolicyNode[], depth: number) => {
    for (const node of list) {
      const expanded = node.children.length > 0 && open.has(node.key);
      rows.push({ node, depth, expanded });
      if (expanded) visit(node.children, depth + 1);
    }
  };
  visit(nodes, 0);
  return rows;
}

interface PolicyTreeProps {
  documents: readonly DocumentRow[];
  projectId: string;
  /** Accessible name of the list. */
  label?: string;
  /**
   * Narrows the tree to documents whose number or title holds every word (their parents stay, greyed out); while
   * it is set, every branch starts open.
   */
  filter?: string;
}

const ROW_ESTIMATE = 40;
const INDENT = 18;

/**
 * The policies as a tree by dotted number, virtualised: only the rows in view (and a few around them) are in the
 * page, so thousands of documents scroll smoothly. Each row: a chevron when it has children, the number and title
 * linking to the document, its status, and a hint when a draft is open. Keyboard: Tab reaches every link and
 * chevron; the arrow keys move between rows, Right opens and Left closes a branch.
 */
export function PolicyTree({ documents, projectId, label = 'Policies by number', filter = '' }: PolicyTreeProps) {
  const tree = useMemo(() => buildPolicyTree(documents), [documents]);
  const query = filter.trim();
  const shown = useMemo(() => (query ? pruneTree(tree, (doc) => matchesText(doc, query)) : tree), [tree, query]);

  // The open branches; a new filter opens everything it leaves (adjusted during render, not in an effect).
  const [state, setState] = useState(() => ({ query, open: initialOpen(shown, query) }));
  let open = state.open;
  if (state.query !== query) {
    open = initialOpen(shown, query);
    setState({ query, open });
  }
  const setOpen = (update: (current: ReadonlySet<string>) => ReadonlySet<string>) =>
    setState((current) => ({ query: current.query, open: update(current.open) }));
  const toggle = (key: string, expand: boolean) =>
    setOpen((current) => {
      if (current.has(key) === expand) return current;
      const next = new Set(current);
      if (expand) next.add(key);
      else next.delete(key);
      return next;
    });

  const rows = useMemo(() => visibleRows(shown, open), [shown, open]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    getItemKey: (index) => rows[index]!.node.key,
    overscan: 10,
  });

  // Arrow keys move focus to a row that may not be rendered yet: scroll to it, then focus it once it is there.
  const pendingFocus = useRef<number | null>(null);
  const focusPending = () => {
    const index = pendingFocus.current;
    if (index === null) return;
    const target = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${index}"] [data-row-focus]`);
    if (target) {
      pendingFocus.current = null;
      target.focus();
    }
  };
  useEffect(focusPending);
  const focusRow = (index: number) => {
    if (index < 0 || index >= rows.length) return;
    pendingFocus.current = index;
    virtualizer.scrollToIndex(index, { align: 'auto' });
    focusPending();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const rowElement = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
    if (!rowElement) return;
    const index = Number(rowElement.dataset.index);
    const row = rows[index];
    if (!row) return;
    let handled = true;
    if (event.key === 'ArrowDown') focusRow(index + 1);
    else if (event.key === 'ArrowUp') focusRow(index - 1);
    else if (event.key === 'Home') focusRow(0);
    else if (event.key === 'End') focusRow(rows.length - 1);
    else if (event.key === 'ArrowRight' && row.node.children.length && !row.expanded) toggle(row.node.key, true);
    else if (event.key === 'ArrowLeft' && row.expanded) toggle(row.node.key, false);
    else if (event.key === 'ArrowLeft' && row.depth > 0) {
      let parent = index - 1;
      while (parent >= 0 && rows[parent]!.depth >= row.depth) parent--;
      focusRow(parent);
    } else handled = false;
    if (handled) event.preventDefault();
  };

  const hintId = useId();
  const branches = useMemo(() => branchKeys(shown), [shown]);
  const items = virtualizer.getVirtualItems();

  return (
    <Box>
      {branches.length > 0 && (
        <Group gap="xs" mb="xs">
          <Button size="compact-sm" variant="subtle" onClick={() => setOpen(() => new Set(branches))}>
            Expand all
          </Button>
          <Button size="compact-sm" variant="subtle" onClick={() => setOpen(() => new Set())}>
            Collapse all
          </Button>
        </Group>
      )}
      <VisuallyHidden id={hintId}>
        Use the up and down arrow keys to move between policies, right to open a branch and left to close it.
      </VisuallyHidden>
      <Box
        ref={scrollRef}
        mah="70vh"
        data-testid="policy-tree-scroll"
        style={{ overflowY: 'auto', overflowX: 'hidden', overscrollBehavior: 'contain' }}
        bd="1px solid var(--mantine-color-gray-3)"
        bdrs="md"
        onKeyDown={onKeyDown}
      >
        <ul
          aria-label={label}
          aria-describedby={hintId}
          style={{
            height: virtualizer.getTotalSize(),
            position: 'relative',
            width: '100%',
            margin: 0,
            padding: 0,
            listStyle: 'none',
          }}
        >
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <li
                key={item.key}
                aria-posinset={item.index + 1}
                aria-setsize={rows.length}
                data-index={item.index}
                data-key={row.node.key}
                data-number={row.node.doc?.number ?? undefined}
                data-depth={row.depth}
                ref={virtualizer.measureElement}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  width: '100%',
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <PolicyTreeRow row={row} projectId={projectId} toggle={toggle} />
              </li>
            );
          })}
        </ul>
      </Box>
    </Box>
  );
}

function initialOpen(nodes: readonly PolicyNode[], query: string): ReadonlySet<string> {
  return query ? new Set(branchKeys(nodes)) : new Set();
}

interface PolicyTreeRowProps {
  row: TreeRow;
  projectId: string;
  toggle: (key: string, expand: boolean) => void;
}

function PolicyTreeRow({ row, projectId, toggle }: PolicyTreeRowProps) {
  const { node, depth, expanded } = row;
  const doc = node.doc;
  const name = doc ? (doc.number ?? doc.title) : 'Unnumbered';
  const hasChildren = node.children.length > 0;
  return (
    <Group
      gap={6}
      wrap="nowrap"
      align="flex-start"
      py={6}
      pr="sm"
      pl={`calc(var(--mantine-spacing-xs) + ${Math.min(depth, 8) * INDENT}px)`}
      style={{ borderBottom: '1px solid var(--mantine-color-gray-1)' }}
    >
      {hasChildren ? (
        <ActionIcon
          variant="subtle"
          color="gray"
          c="gray.8"
          size="md"
          onClick={() => toggle(node.key, !expanded)}
          aria-label={`${expanded ? 'Collapse' : 'Expand'} ${name}`}
          aria-expanded={expanded}
          data-row-focus={doc ? undefined : true}
        >
          <DisclosureChevron size={16} open={expanded} />
        </ActionIcon>
      ) : (
        <Box w={28} style={{ flexShrink: 0 }} aria-hidden="true" />
      )}
      {doc ? (
        <Group gap={6} wrap="wrap" style={{ flex: 1, minWidth: 0 }} pt={4}>
          <Anchor
            component={Link}
            to={policyRoute(projectId, `documents/${doc.id}`)}
            size="sm"
            data-row-focus
            c={node.context ? 'dimmed' : undefined}
            style={{ overflowWrap: 'anywhere', minWidth: 0 }}
          >
            {doc.number && (
              <Text span fw={600} inherit mr={6}>
                {doc.number}
              </Text>
            )}
            {/* A space, so the link reads "3.4 Sharps disposal" and not "3.4Sharps disposal". */}
            {doc.number && ' '}
            {doc.title}
          </Anchor>
          <StatusBadge status={doc.status} />
          {doc.has_draft && (
            <Text span size="xs" c="dimmed" fs="italic">
              Draft in progress
            </Text>
          )}
        </Group>
      ) : (
        <Text size="sm" fw={600} pt={4} style={{ flex: 1 }}>
          Unnumbered{' '}
          <Text span c="dimmed" inherit fw={400}>
            ({node.children.length})
          </Text>
        </Text>
      )}
    </Group>
  );
}

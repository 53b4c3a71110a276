import { ActionIcon, Anchor, Box, Button, Group, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { DisclosureChevron } from '../DisclosureChevron';
import { ancestorKeys, buildTree, parentKeys, type TreeItem, type TreeNode } from './dotted-number';

interface NumberTreeProps<T extends TreeItem> {
  items: readonly T[];
  /** Accessible name of the tree, e.g. "Policy table of contents". */
  label: string;
  /** Shown when there are no items ('No policies found.', 'No pages found.'). */
  emptyText: string;
  /** The item being viewed: highlighted, and its ancestors open by themselves. */
  activeId?: string | number | null;
}

/**
 * One tree for both tables of contents (policies, monitoring pages): items ordered by dotted number, expand and
 * collapse per node, expand all and collapse all, a view link per item and an icon by depth.
 */
export function NumberTree<T extends TreeItem>({ items, label, emptyText, activeId }: NumberTreeProps<T>) {
  const roots = useMemo(() => buildTree(items), [items]);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());

  // Ancestors of the active item open by themselves (and stay open when the user navigates further).
  const activeAncestors = useMemo(
    () => (activeId === undefined || activeId === null ? [] : ancestorKeys(roots, activeId)),
    [roots, activeId],
  );
  useEffect(() => {
    if (activeAncestors.length === 0) return;
    setOpen((current) => {
      if (activeAncestors.every((key) => current.has(key))) return current;
      return new Set([...current, ...activeAncestors]);
    });
  }, [activeAncestors]);

  if (roots.length === 0) {
    return (
      <Text size="sm" c="dimmed" py="xs">
        {emptyText}
      </Text>
    );
  }

  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <Stack gap={4}>
      <Group gap={4} wrap="nowrap">
        <Button size="compact-xs" variant="subtle" onClick={() => setOpen(new Set(parentKeys(roots)))}>
          Expand all
        </Button>
        <Button size="compact-xs" variant="subtle" onClick={() => setOpen(new Set())}>
          Collapse all
        </Button>
      </Group>
      <Box component="ul" aria-label={label} data-tree m={0} p={0} style={{ listStyle: 'none' }}>
        {roots.map((node) => (
          <TreeRow key={node.item.id} node={node} open={open} toggle={toggle} activeId={activeId} />
        ))}
      </Box>
    </Stack>
  );
}

interface TreeRowProps<T extends TreeItem> {
  node: TreeNode<T>;
  open: ReadonlySet<string>;
  toggle: (key: string) => void;
  activeId?: string | number | null;
}

function TreeRow<T extends TreeItem>({ node, open, toggle, activeId }: TreeRowProps<T>) {
  const key = String(node.item.id);
  const hasChildren = node.children.length > 0;
  const expanded = hasChildren && open.has(key);
  const active = activeId !== undefined && activeId !== null && String(activeId) === key;
  const name = node.item.label ?? `${node.item.number} ${node.item.title}`;
  return (
    <li data-number={node.item.number} data-depth={node.depth} data-active={active || undefined}>
      <Group gap={4} wrap="nowrap" pl={node.depth * 12} py={2} bg={active ? 'blue.0' : undefined}>
        {hasChildren ? (
          <ActionIcon
            size="sm"
            variant="subtle"
            color="gray"
            c="gray.8"
            onClick={() => toggle(key)}
            aria-label={`${expanded ? 'Collapse' : 'Expand'} ${name}`}
            aria-expanded={expanded}
          >
            <DisclosureChevron open={expanded} />
          </ActionIcon>
        ) : (
          <Box w={22} aria-hidden="true" />
        )}
        <DepthIcon depth={node.depth} leaf={!hasChildren} />
        {/*
          The name is the link: a side menu is 10vw wide (SPEC section 2), too narrow for a name beside a "View" link.
          Lines break between words; a word breaks only when it alone is wider than the menu.
        */}
        <Anchor
          component={Link}
          to={node.item.href}
          size="sm"
          fw={active ? 700 : 400}
          c={active ? undefined : 'gray.9'}
          aria-current={active ? 'page' : undefined}
          style={{ flex: 1, minWidth: 0, overflowWrap: 'break-word', hyphens: 'auto' }}
        >
          {name}
        </Anchor>
      </Group>
      {expanded && (
        <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {node.children.map((child) => (
            <TreeRow key={child.item.id} node={child} open={open} toggle={toggle} activeId={activeId} />
          ))}
        </Box>
      )}
    </li>
  );
}

/** Icons by depth: a folder at the top, a stack of pages below it, a single page further down or for a leaf. */
export function DepthIcon({ depth, leaf }: { depth: number; leaf: boolean }) {
  const kind = leaf && depth > 0 ? 'page' : depth === 0 ? 'folder' : depth === 1 ? 'pages' : 'page';
  const paths: Record<typeof kind, string> = {
    folder: 'M3 6h6l2 2h10v11H3z',
    pages: 'M7 3h10v14H7zM4 6v15h11',
    page: 'M6 3h9l4 4v14H6zM15 3v4h4',
  };
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      data-icon={kind}
      style={{ flexShrink: 0, color: 'var(--mantine-color-gray-7)' }}
    >
      <path d={paths[kind]} fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinejoin="round" />
    </svg>
  );
}

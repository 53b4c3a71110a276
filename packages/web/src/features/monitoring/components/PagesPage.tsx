import { ActionIcon, Anchor, Box, Button, Checkbox, Group, Menu, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { DisclosureChevron } from '../../../components/DisclosureChevron';
import { DialogModal } from '../../../components/form-parts/DialogModal';
import { RowAction } from '../../../components/form-parts/RowAction';
import { PageHeading, QueryBody } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDeletePage } from '../api/pages-delete';
import { type PageNode, usePageTree } from '../api/pages-list';
import { ImportOutlineButton } from './ImportOutlineButton';
import { LevelIcon, PageStatusBadge, pageName, RestrictedIcon, useMonitoringSections } from './pages-parts';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

/** /pages: the page tree with numbers, level icons, statuses, a filter, and each page's actions. */
export function PagesPage() {
  const projectId = useMonitoringProjectId();
  usePageTitle('Pages');
  const may = useMonitoringSections(projectId);
  const tree = usePageTree(projectId);
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const [deleting, setDeleting] = useState<PageNode | null>(null);

  useEffect(() => {
    if (tree.isError) toast.error('Failed to load pages');
  }, [tree.isError]);

  const pages = tree.data?.pages ?? [];
  const children = useMemo(() => {
    const map = new Map<number | null, PageNode[]>();
    for (const page of pages) map.set(page.parent_id, [...(map.get(page.parent_id) ?? []), page]);
    return map;
  }, [pages]);

  // While filtering: the matching pages and their ancestors, all open.
  const shown = useMemo(() => {
    const words = filter.trim().toLowerCase();
    if (!words) return null;
    const byId = new Map(pages.map((page) => [page.id, page]));
    const keep = new Set<number>();
    for (const page of pages) {
      if (!pageName(page).toLowerCase().includes(words)) continue;
      for (let at: PageNode | undefined = page; at && !keep.has(at.id); ) {
        keep.add(at.id);
        at = at.parent_id === null ? undefined : byId.get(at.parent_id);
      }
    }
    return keep;
  }, [filter, pages]);

  const toggle = (id: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const roots = (children.get(null) ?? []).filter((page) => !shown || shown.has(page.id));
  const canCreate = may('create-page');
  const maxDepth = tree.data?.max_depth ?? 0;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <PageHeading title="Pages">The programme's domains, programmes and indicators.</PageHeading>
        <Group gap="xs" wrap="wrap">
          <ImportOutlineButton />
          {canCreate && (
            <Button component={Link} to={monitoringRoute(projectId, 'create-page')}>
              New page
            </Button>
          )}
        </Group>
      </Group>
      <QueryBody query={tree} fallback="Failed to load pages" loadingLabel="Loading the pages">
        {() => (
          <Paper withBorder p="sm">
            <Stack gap="sm">
              <Group gap="xs" wrap="wrap" justify="space-between">
                <TextInput
                  aria-label="Filter pages"
                  placeholder="Filter by number or title"
                  value={filter}
                  onChange={(event) => setFilter(event.currentTarget.value)}
                  style={{ flex: '1 1 16rem' }}
                />
                <Group gap={4}>
                  <RowAction
                    onClick={() =>
                      setOpen(new Set(pages.filter((page) => page.child_count > 0).map((page) => page.id)))
                    }
                  >
                    Expand all
                  </RowAction>
                  <RowAction onClick={() => setOpen(new Set())}>Collapse all</RowAction>
                </Group>
              </Group>
              {roots.length === 0 ? (
                <Text c="dimmed" py="xs">
                  No pages found.
                </Text>
              ) : (
                <Box component="ul" aria-label="Page tree" data-tree m={0} p={0} style={{ listStyle: 'none' }}>
                  {roots.map((page) => (
                    <PageRow
                      key={page.id}
                      page={page}
                      childrenOf={(id) => (children.get(id) ?? []).filter((child) => !shown || shown.has(child.id))}
                      isOpen={(id) => shown !== null || open.has(id)}
                      toggle={toggle}
                      projectId={projectId}
                      canAddSub={(node) => canCreate && node.abilities.edit && node.depth < maxDepth}
                      onDelete={setDeleting}
                    />
                  ))}
                </Box>
              )}
            </Stack>
          </Paper>
        )}
      </QueryBody>
      <DeletePageModal projectId={projectId} page={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

interface PageRowProps {
  page: PageNode;
  childrenOf: (id: number) => PageNode[];
  isOpen: (id: number) => boolean;
  toggle: (id: number) => void;
  projectId: string;
  canAddSub: (page: PageNode) => boolean;
  onDelete: (page: PageNode) => void;
}

function PageRow({ page, childrenOf, isOpen, toggle, projectId, canAddSub, onDelete }: PageRowProps) {
  const kids = childrenOf(page.id);
  const hasChildren = kids.length > 0;
  const expanded = hasChildren && isOpen(page.id);
  const name = pageName(page);
  const view = monitoringRoute(projectId, `pages/page/${page.id}`);
  return (
    <li data-page-id={page.id} data-number={page.number ?? undefined} data-depth={page.depth}>
      <Group gap={6} wrap="nowrap" pl={(page.depth - 1) * 20} py={4}>
        {hasChildren ? (
          <ActionIcon
            size="sm"
            variant="subtle"
            color="gray"
            c="gray.8"
            onClick={() => toggle(page.id)}
            aria-label={`${expanded ? 'Collapse' : 'Expand'} ${name}`}
            aria-expanded={expanded}
          >
            <DisclosureChevron open={expanded} />
          </ActionIcon>
        ) : (
          <Box w={22} aria-hidden="true" />
        )}
        <LevelIcon icon={page.level?.icon} />
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Group gap={6} wrap="wrap">
            <Anchor component={Link} to={view} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {page.number && (
                <Text span fw={600} size="sm">
                  {page.number}{' '}
                </Text>
              )}
              {page.title}
            </Anchor>
            {page.restricted && <RestrictedIcon />}
            <PageStatusBadge status={page.status} />
            {page.level && (
              <Text size="xs" c="dimmed">
                {page.level.name}
              </Text>
            )}
          </Group>
        </Box>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" c="gray.8" aria-label={`Actions for ${name}`}>
              <DotsIcon />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item component={Link} to={view}>
              View
            </Menu.Item>
            {page.abilities.edit && (
              <Menu.Item component={Link} to={monitoringRoute(projectId, `edit-page/${page.id}`)}>
                Edit
              </Menu.Item>
            )}
            {canAddSub(page) && (
              <Menu.Item component={Link} to={monitoringRoute(projectId, `create-page?parent=${page.id}`)}>
                Add sub-page
              </Menu.Item>
            )}
            {page.abilities.delete && (
              <Menu.Item color="red.8" onClick={() => onDelete(page)}>
                Delete
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      </Group>
      {expanded && (
        <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {kids.map((child) => (
            <PageRow
              key={child.id}
              page={child}
              childrenOf={childrenOf}
              isOpen={isOpen}
              toggle={toggle}
              projectId={projectId}
              canAddSub={canAddSub}
              onDelete={onDelete}
            />
          ))}
        </Box>
      )}
    </li>
  );
}

/** Asks before deleting; a page with sub-pages goes only with its whole branch, ticked on purpose. */
function DeletePageModal({
  projectId,
  page,
  onClose,
}: {
  projectId: string;
  page: PageNode | null;
  onClose: () => void;
}) {
  const remove = useDeletePage(projectId);
  const [branch, setBranch] = useState(false);
  const close = () => {
    setBranch(false);
    onClose();
  };
  const hasChildren = (page?.child_count ?? 0) > 0;
  const confirm = () => {
    if (!page) return;
    remove.mutate(
      { pageId: page.id, cascade: hasChildren && branch },
      {
        onSuccess: (deleted) => {
          toast.success(deleted.length > 1 ? `${deleted.length} pages deleted` : 'Page deleted');
          close();
        },
        onError: (error) => {
          toast.error('Failed to delete page', { description: messageFor(error, '') || undefined });
        },
      },
    );
  };
  return (
    <DialogModal opened={page !== null} onClose={close} title="Delete page">
      {page && (
        <Stack gap="md">
          <Text>{`Delete page "${page.title}"?`}</Text>
          {hasChildren && (
            <>
              <Text size="sm">
                {page.child_count === 1
                  ? 'It has a sub-page, which would be left without its parent.'
                  : `It has ${page.child_count} sub-pages, which would be left without their parent.`}
              </Text>
              <Checkbox
                label="Delete the whole branch: this page and every page below it"
                checked={branch}
                onChange={(event) => setBranch(event.currentTarget.checked)}
              />
            </>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} data-autofocus>
              Cancel
            </Button>
            <Button color="red.8" onClick={confirm} loading={remove.isPending} disabled={hasChildren && !branch}>
              {hasChildren ? 'Delete branch' : 'Delete'}
            </Button>
          </Group>
        </Stack>
      )}
    </DialogModal>
  );
}

function DotsIcon() {
  return (
    <svg width={16} height={16} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M5 12h.01M12 12h.01M19 12h.01" fill="none" stroke="currentColor" strokeWidth={3} strokeLinecap="round" />
    </svg>
  );
}

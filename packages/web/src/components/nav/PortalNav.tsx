import {
  ActionIcon,
  Box,
  Button,
  Divider,
  NavLink as MantineNavLink,
  ScrollArea,
  SegmentedControl,
  Stack,
  Text,
} from '@mantine/core';
import type { AppCode } from '@portal/shared';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { useMonitoringTocItems } from '../../lib/monitoring-toc';
import { usePolicyTocItems } from '../../lib/policy-toc';
import { useStoredChoice } from '../../lib/stored-choice';
import { NumberTree } from '../tree/NumberTree';
import {
  ADMIN_LABELS,
  type AdminLabel,
  adminLinks,
  type NavContext,
  type NavProject,
  navItems,
  SUBMENU_KEYS,
  type SubmenuKey,
} from './nav-items';

export const OPEN_SUBMENU_KEY = 'portal.openSubmenu';
export const ADMIN_LABEL_KEY = 'portal.adminLabel';

export function useAdminLabel() {
  return useStoredChoice<AdminLabel>(ADMIN_LABEL_KEY, ADMIN_LABELS, 'Admin');
}

interface PortalNavProps extends Omit<NavContext, 'adminLabel'> {
  projectName: string | null;
  user: { id: number; username: string } | null;
  /** The open sub-menu state, owned by the layout (it widens the navbar while one is open). */
  submenu: ReturnType<typeof useOpenSubmenu>;
}

/** Which sub-menu is open ('none' or one key), kept in localStorage. */
export function useOpenSubmenu() {
  return useStoredChoice(OPEN_SUBMENU_KEY, SUBMENU_KEYS, 'none');
}

/** The sub-menu to show: the stored one, if the current nav offers it. */
export function visibleSubmenu(ctx: NavContext, stored: (typeof SUBMENU_KEYS)[number]): SubmenuKey | null {
  if (stored === 'none' || !ctx.project) return null;
  return navItems(ctx).some((item) => item.submenu === stored) ? stored : null;
}

const SUBMENU_TITLE: Record<SubmenuKey, (label: AdminLabel) => string> = {
  admin: (label) => `${label} menu`,
  policy: () => 'Policy table of contents',
  analytics: () => 'Analytics table of contents',
};

/**
 * The left navigation of SPEC section 2 "Layout": back button, project and user, the nav items, and one open
 * sub-menu at a time (Admin, Policy or Analytics table of contents), remembered in localStorage.
 */
export function PortalNav({ projectName, user, submenu, ...ctx }: PortalNavProps) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [adminLabel, setAdminLabel] = useAdminLabel();
  const [openMenu, setOpenMenu] = submenu;
  const items = navItems({ ...ctx, adminLabel });
  // One item is current: the most specific one the address is in (/superadmin/projects is Projects, not also Home).
  const activeKey = items
    .filter(
      (item) => item.to && (pathname === item.to || (item.key !== 'dashboard' && pathname.startsWith(`${item.to}/`))),
    )
    .sort((a, b) => (b.to?.length ?? 0) - (a.to?.length ?? 0))[0]?.key;
  const available = new Set(items.flatMap((item) => (item.submenu ? [item.submenu] : [])));
  const open = visibleSubmenu({ ...ctx, adminLabel }, openMenu);
  const toggle = (key: SubmenuKey) => setOpenMenu(open === key ? 'none' : key);

  return (
    <div className="portal-nav">
      <ScrollArea type="auto" className="portal-nav-main">
        <Stack gap="xs" p="sm">
          <Button
            variant="subtle"
            size="compact-sm"
            color="gray"
            c="gray.8"
            justify="flex-start"
            onClick={() => {
              const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
              if (index > 0) void navigate(-1);
              else void navigate('/member/projects');
            }}
            leftSection={<BackIcon />}
          >
            Back
          </Button>
          <Box px="xs">
            {ctx.project ? (
              <>
                <Text fw={700} size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="nav-project-name">
                  {projectName}
                </Text>
                <Text size="xs" c="dimmed">
                  Project ID: {ctx.project.id}
                </Text>
              </>
            ) : (
              <Text size="sm" c="dimmed">
                No project selected
              </Text>
            )}
            {user && (
              <>
                <Text size="sm" mt={6} style={{ overflowWrap: 'anywhere' }}>
                  {user.username}
                </Text>
                <Text size="xs" c="dimmed">
                  User ID: {user.id}
                </Text>
              </>
            )}
          </Box>
          <Divider />
          <Box component="nav" aria-label="Main">
            <Stack gap={2} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {items.map((item) => (
                <li key={item.key}>
                  <Box display="flex" style={{ alignItems: 'center' }}>
                    {item.to ? (
                      <MantineNavLink
                        component={NavLink}
                        to={item.to}
                        label={item.label}
                        end
                        active={item.key === activeKey}
                        data-nav={item.key}
                        style={{ flex: 1, borderRadius: 'var(--mantine-radius-sm)' }}
                      />
                    ) : (
                      <MantineNavLink
                        component="button"
                        label={item.label}
                        data-nav={item.key}
                        aria-expanded={open === item.submenu}
                        onClick={() => item.submenu && toggle(item.submenu)}
                        style={{ flex: 1, borderRadius: 'var(--mantine-radius-sm)' }}
                      />
                    )}
                    {item.submenu && item.to && (
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        c="gray.8"
                        aria-label={SUBMENU_TITLE[item.submenu](adminLabel)}
                        aria-expanded={open === item.submenu}
                        onClick={() => item.submenu && toggle(item.submenu)}
                      >
                        <ChevronIcon open={open === item.submenu} />
                      </ActionIcon>
                    )}
                  </Box>
                </li>
              ))}
            </Stack>
          </Box>
          {available.has('admin') && (
            <Stack gap={4} role="radiogroup" aria-labelledby="admin-label-title">
              <Text size="xs" c="gray.8" id="admin-label-title">
                Admin menu label
              </Text>
              <SegmentedControl
                size="xs"
                data={[...ADMIN_LABELS]}
                value={adminLabel}
                onChange={(value) => setAdminLabel(value as AdminLabel)}
              />
            </Stack>
          )}
        </Stack>
      </ScrollArea>
      {open && ctx.project && (
        <Submenu
          menu={open}
          title={SUBMENU_TITLE[open](adminLabel)}
          project={ctx.project}
          usableApps={ctx.usableApps}
          onClose={() => toggle(open)}
        />
      )}
    </div>
  );
}

function Submenu({
  menu,
  title,
  project,
  usableApps,
  onClose,
}: {
  menu: SubmenuKey;
  title: string;
  project: NavProject;
  usableApps: readonly AppCode[] | undefined;
  onClose: () => void;
}) {
  return (
    <Box component="section" aria-label={title} className="portal-submenu" data-submenu={menu} bg="gray.0" p="sm">
      <Box display="flex" mb="xs" style={{ alignItems: 'center', justifyContent: 'space-between', gap: 4 }}>
        <Text fw={700} size="sm">
          {title}
        </Text>
        <ActionIcon variant="subtle" color="gray" c="gray.8" size="sm" aria-label={`Close ${title}`} onClick={onClose}>
          <CloseIcon />
        </ActionIcon>
      </Box>
      {menu === 'admin' ? (
        <Stack gap={2}>
          {adminLinks(project, usableApps).map((link) => (
            <MantineNavLink key={link.to} component={Link} to={link.to} label={link.label} />
          ))}
        </Stack>
      ) : menu === 'policy' ? (
        <PolicyToc project={project} title={title} />
      ) : (
        <AnalyticsToc project={project} title={title} />
      )}
    </Box>
  );
}

/** The project's policies by dotted number; the one being viewed is highlighted and its ancestors open. */
function PolicyToc({ project, title }: { project: NavProject; title: string }) {
  const { items, loading, failed } = usePolicyTocItems(String(project.id));
  const { pathname } = useLocation();
  const active = /^\/app\/policy_management\/[^/]+\/documents\/(\d+)/.exec(pathname)?.[1] ?? null;
  if (loading) {
    return (
      <Text size="sm" c="dimmed" py="xs" role="status">
        Loading policies…
      </Text>
    );
  }
  return (
    <NumberTree
      items={items}
      label={title}
      emptyText={failed ? 'The policies could not be loaded.' : 'No policies found.'}
      activeId={active}
    />
  );
}

/** The monitoring pages the user may see, as a tree; the page being viewed is highlighted and its ancestors open. */
function AnalyticsToc({ project, title }: { project: NavProject; title: string }) {
  const { items, loading, failed } = useMonitoringTocItems(String(project.id));
  const { pathname } = useLocation();
  const active = /^\/app\/monitoring\/[^/]+\/pages\/page\/(\d+)/.exec(pathname)?.[1] ?? null;
  if (loading) {
    return (
      <Text size="sm" c="dimmed" py="xs" role="status">
        Loading pages…
      </Text>
    );
  }
  return (
    <NumberTree
      items={items}
      label={title}
      emptyText={failed ? 'Failed to load pages' : 'No pages found.'}
      activeId={active}
    />
  );
}

function BackIcon() {
  return (
    <svg width={16} height={16} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M15 6l-6 6 6 6" fill="none" stroke="currentColor" strokeWidth={2.2} strokeLinecap="round" />
    </svg>
  );
}

function ChevronIcon({ open }: { open: boolean }) {
  return (
    <svg width={16} height={16} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d={open ? 'M15 6l-6 6 6 6' : 'M9 6l6 6-6 6'}
        fill="none"
        stroke="currentColor"
        strokeWidth={2.2}
        strokeLinecap="round"
      />
    </svg>
  );
}

function CloseIcon() {
  return (
    <svg width={14} height={14} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" strokeWidth={2.2} strokeLinecap="round" />
    </svg>
  );
}

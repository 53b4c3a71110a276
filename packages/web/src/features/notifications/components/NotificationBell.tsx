import {
  ActionIcon,
  Anchor,
  Box,
  Button,
  Divider,
  Group,
  Indicator,
  Loader,
  Popover,
  ScrollArea,
  Stack,
  Text,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { toast } from 'sonner';
import { formatDateTime } from '../../../lib/dates';
import { projectRefFromPath } from '../../../lib/project/project-path';
import { type Notification, type NotificationScope, spansProjects, useNotifications } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-notification-read';
import { useNotificationStream } from '../hooks/use-notification-stream';

export const NOTIFICATION_TEXTS = {
  empty: 'No notifications',
  loadFailed: 'Failed to load notifications',
  markFailed: 'Failed to mark notification as read',
  loadingProject: 'Loading project...',
  loading: 'Loading notifications',
} as const;

interface NotificationBellProps {
  /** The current project (loaded); inside a project a member's bell lists that project's notifications. */
  projectId: string | null;
  /** The project the path names is still loading. */
  projectLoading?: boolean;
  /** Superadmins use the global /super/notifications/ and need no project. */
  superadmin: boolean;
}

/**
 * Which list the bell shows. A path that names a project shows that project's (disabled, 'Loading project...', until
 * it has loaded); any other path (the landing page /member/projects, where a member chooses a project) shows the
 * member's notifications across all their projects, even when a last-opened project is remembered. A project that
 * fails to load falls back to the list across projects rather than a bell that stays disabled.
 */
function bellScope(
  pathname: string,
  { projectId, projectLoading = false, superadmin }: NotificationBellProps,
): NotificationScope | null {
  if (superadmin) return { kind: 'super' };
  if (projectRefFromPath(pathname) === null) return { kind: 'member' };
  if (projectId) return { kind: 'project', projectId };
  return projectLoading ? null : { kind: 'member' };
}

/** The bell of SPEC section 2 "Notification dropdown". */
export function NotificationBell(props: NotificationBellProps) {
  const scope = bellScope(useLocation().pathname, props);
  const everyProject = scope ? spansProjects(scope) : false;
  const [opened, setOpened] = useState(false);
  // Streamed for every signed-in person, with a project or not: the stream also says when the session was ended.
  const poll = useNotificationStream(true, scope?.kind === 'project' ? scope.projectId : null, everyProject);
  const list = useNotifications(scope, poll);
  const mark = useMarkNotificationsRead(scope);

  // SPEC section 8: 'Failed to load notifications', and the list is emptied.
  const failedAt = list.isError ? list.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) toast.error(NOTIFICATION_TEXTS.loadFailed);
  }, [failedAt]);

  if (!scope) {
    return (
      <ActionIcon
        variant="subtle"
        color="gray"
        c="gray.8"
        size="lg"
        disabled
        title={NOTIFICATION_TEXTS.loadingProject}
        aria-label="Notifications"
      >
        <BellIcon />
      </ActionIcon>
    );
  }

  const notifications = list.isError ? [] : (list.data ?? []);
  const count = notifications.length;
  const markRead = (ids: number[]) => {
    if (ids.length === 0) return;
    mark.mutate(ids, { onError: () => toast.error(NOTIFICATION_TEXTS.markFailed) });
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={340} shadow="md" withinPortal>
      {/* The indicator wraps the target, not the other way round: the popup's ARIA belongs on the button. */}
      <Indicator label={count > 99 ? '99+' : count} size={18} disabled={count === 0} color="red.8" offset={6}>
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            c="gray.8"
            size="lg"
            aria-label={count ? `Notifications (${count} unread)` : 'Notifications'}
            aria-haspopup="dialog"
            aria-expanded={opened}
            onClick={() => setOpened((value) => !value)}
          >
            <BellIcon />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown p={0} aria-label="Notifications" role="dialog">
        <Group justify="space-between" px="sm" py="xs">
          <Text fw={700} size="sm">
            Notifications
          </Text>
          {count > 0 && (
            <Button
              size="compact-xs"
              variant="subtle"
              loading={mark.isPending}
              onClick={() => markRead(notifications.map((n) => n.id))}
            >
              Dismiss All
            </Button>
          )}
        </Group>
        <Divider />
        {list.isPending ? (
          // The first load: not yet 'No notifications', which would be untrue for a moment.
          <Group justify="center" p="sm" role="status" aria-label={NOTIFICATION_TEXTS.loading}>
            <Loader size="sm" />
          </Group>
        ) : count === 0 ? (
          <Text size="sm" c="dimmed" p="sm" ta="center">
            {NOTIFICATION_TEXTS.empty}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={360} type="auto">
            <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {notifications.map((notification) => (
                <NotificationItem
                  key={notification.id}
                  notification={notification}
                  showProject={everyProject}
                  onDismiss={() => markRead([notification.id])}
                  onView={() => {
                    setOpened(false);
                    markRead([notification.id]);
                  }}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

/** Only links inside the portal (a path, never `//host`) or to http(s) are followed. */
function safeLink(link: string | null): { internal: boolean; href: string } | null {
  if (!link) return null;
  if (link.startsWith('/') && !link.startsWith('//')) return { internal: true, href: link };
  return /^https?:\/\//i.test(link) ? { internal: false, href: link } : null;
}

function NotificationItem({
  notification,
  showProject,
  onDismiss,
  onView,
}: {
  notification: Notification;
  showProject: boolean;
  onDismiss: () => void;
  onView: () => void;
}) {
  const link = safeLink(notification.link);
  return (
    <Box
      component="li"
      px="sm"
      py="xs"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      data-notification={notification.id}
    >
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {notification.message}
      </Text>
      {showProject && notification.project_name && (
        <Text size="xs" fw={500}>
          {notification.project_name}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        <time dateTime={notification.created_at}>{formatDateTime(notification.created_at)}</time>
      </Text>
      <Group gap="sm" mt={4}>
        {link &&
          (link.internal ? (
            <Anchor component={Link} to={link.href} size="xs" onClick={onView}>
              View
            </Anchor>
          ) : (
            <Anchor href={link.href} size="xs" target="_blank" rel="noopener noreferrer" onClick={onView}>
              View
            </Anchor>
          ))}
        <Button size="compact-xs" variant="subtle" color="gray" c="gray.8" onClick={onDismiss}>
          Dismiss
        </Button>
      </Group>
    </Box>
  );
}

function BellIcon() {
  return (
    <svg width={20} height={20} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M6 17V11a6 6 0 0 1 12 0v6l2 2H4zM10 21h4"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}

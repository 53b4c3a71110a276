import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import {
  type LevelIcon as LevelIconName,
  type MonitoringSection,
  type PageStatus,
  permissionKey,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { TONE } from '../../../components/status-tones';
import { myPermissionsQueryOptions } from '../../../lib/permissions';
import { sanitizeHtml } from '../../../lib/sanitize';

/** Pieces the page screens of monitoring share (headings, states, icons, rich text). */

const STATUS_COLOR: Record<PageStatus, string> = {
  draft: TONE.neutral,
  published: TONE.done,
  archived: TONE.neutral,
};
const STATUS_LABEL: Record<PageStatus, string> = { draft: 'Draft', published: 'Published', archived: 'Archived' };

export const statusLabel = (status: PageStatus) => STATUS_LABEL[status];

export function PageStatusBadge({ status }: { status: PageStatus }) {
  return (
    <Badge size="sm" variant="light" color={STATUS_COLOR[status]}>
      {STATUS_LABEL[status]}
    </Badge>
  );
}

/** Outline paths (24 x 24) of the level icons a project may choose (LEVEL_ICONS in shared). */
const LEVEL_PATHS: Record<LevelIconName, string> = {
  folder: 'M3 6h6l2 2h10v11H3z',
  layers: 'M12 3l9 5-9 5-9-5zM3 13l9 5 9-5',
  chart: 'M4 20h16M7 16v-5M12 16V7M17 16v-8',
  target: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM12 8a4 4 0 1 0 0 8a4 4 0 1 0 0-8z',
  heart: 'M12 20s-7-4.5-7-10a4 4 0 0 1 7-2.5A4 4 0 0 1 19 10c0 5.5-7 10-7 10z',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z',
  pill: 'M4.5 19.5a4 4 0 0 1 0-5.7l9.3-9.3a4 4 0 0 1 5.7 5.7l-9.3 9.3a4 4 0 0 1-5.7 0zM9 9l6 6',
  clipboard: 'M9 4h6v3H9zM7 5H5v16h14V5h-2',
};

/** The icon of a page's level (a folder when the level or its icon is unknown); decorative. */
export function LevelIcon({ icon, size = 16 }: { icon: string | null | undefined; size?: number }) {
  const name = (icon && icon in LEVEL_PATHS ? icon : 'folder') as LevelIconName;
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      data-icon={name}
      style={{ flexShrink: 0, color: 'var(--mantine-color-gray-7)' }}
    >
      <path
        d={LEVEL_PATHS[name]}
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** The lock of a restricted page, with its meaning for screen readers. */
export function RestrictedIcon() {
  return (
    <svg width={14} height={14} viewBox="0 0 24 24" role="img" aria-label="Restricted" style={{ flexShrink: 0 }}>
      <title>Restricted: only the people granted access see it</title>
      <path
        d="M6 11h12v10H6zM8.5 11V8a3.5 3.5 0 0 1 7 0v3"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** True when the HTML shows nothing: no words, no images, no tables. */
export function isBlankHtml(html: string): boolean {
  if (/<(img|table|hr)\b/i.test(html)) return false;
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;|&#160;/gi, ' ')
      .trim() === ''
  );
}

/** Stored rich text, sanitised again before it is rendered; a short dimmed note when there is none. */
export function RichContent({ html, emptyText }: { html: string; emptyText: string }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  if (isBlankHtml(clean)) {
    return (
      <Text c="dimmed" fs="italic" size="sm">
        {emptyText}
      </Text>
    );
  }
  return (
    <div
      className="monitoring-rich-text"
      style={{ overflowWrap: 'anywhere' }}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised just above with the SPEC section 5 policy.
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}

/**
 * Whether the signed-in user's role may use a monitoring section (the permission map, keys monitoring:{section}).
 * While the map loads nothing is allowed; the server checks every call anyway.
 */
export function useMonitoringSections(projectId: string): (section: MonitoringSection) => boolean {
  const { data } = useQuery(myPermissionsQueryOptions('monitoring', projectId));
  return (section) => data?.[permissionKey('monitoring', section)] === true;
}

/** "1.2 Title" or the title alone when the page has no number. */
export const pageName = (page: { number: string | null; title: string }) =>
  page.number ? `${page.number} ${page.title}` : page.title;

/** How many pages sit directly below a page ("1 sub-page", "3 sub-pages"). */
export function SubPageCount({ count }: { count: number }) {
  return (
    <Text size="sm" c="dimmed">
      {count === 1 ? '1 sub-page' : `${count} sub-pages`}
    </Text>
  );
}

/**
 * The "Not saved" alert after someone else saved first (a 409): what happened (`children`), Reload, and Keep my
 * version (save over theirs) where `onKeep` is given. The page and chart forms show the same choice.
 */
export function ConflictAlert({
  onReload,
  onKeep,
  children,
}: {
  onReload: () => void;
  onKeep?: () => void;
  children: ReactNode;
}) {
  return (
    <Alert color="orange.9" variant="light" role="alert" title="Not saved">
      <Stack gap="xs">
        {children}
        <Group gap="xs">
          <Button size="compact-sm" variant="default" onClick={onReload}>
            Reload
          </Button>
          {onKeep && (
            <Button size="compact-sm" variant="subtle" onClick={onKeep}>
              Keep my version
            </Button>
          )}
        </Group>
      </Stack>
    </Alert>
  );
}

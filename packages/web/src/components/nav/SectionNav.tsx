import { Box, Button, Group } from '@mantine/core';
import type { CSSProperties } from 'react';
import { Link } from 'react-router';

/**
 * The section an app path is in: /app/{app}/{id or slug}/{section}/... ('' for the app's home, null outside the
 * app); `alsoUnder` names paths that belong to a section without being its own link.
 */
export function activeAppSection(
  pathname: string,
  app: string,
  alsoUnder: Readonly<Record<string, string>> = {},
): string | null {
  const parts = pathname.split('/').filter(Boolean);
  if (parts[0] !== 'app' || parts[1] !== app || !parts[2]) return null;
  if (!parts[3]) return '';
  return alsoUnder[parts[3]] ?? parts[3];
}

export interface SectionNavLink {
  section: string;
  label: string;
  to: string;
}

/**
 * An app's sub-navigation (monitoring, policies, chart review, standards): a wrapping row of links to its sections,
 * the current one marked for screen readers (and with `data-active` where `markActive`).
 */
export function SectionNav({
  label,
  links,
  active,
  markActive = false,
  style,
}: {
  label: string;
  links: readonly SectionNavLink[];
  active: string | null;
  markActive?: boolean;
  style?: CSSProperties;
}) {
  return (
    <Box component="nav" aria-label={label} style={style}>
      <Group component="ul" gap={4} wrap="wrap" m={0} p={0} style={{ listStyle: 'none' }}>
        {links.map((item) => {
          const current = item.section === active;
          return (
            <li key={item.section}>
              <Button
                component={Link}
                to={item.to}
                size="compact-sm"
                variant={current ? 'light' : 'subtle'}
                aria-current={current ? 'page' : undefined}
                data-active={markActive ? current || undefined : undefined}
              >
                {item.label}
              </Button>
            </li>
          );
        })}
      </Group>
    </Box>
  );
}

import { Box, Button, Collapse, Group, Stack } from '@mantine/core';
import { type CSSProperties, useId, useState } from 'react';
import { Link } from 'react-router';
import { usePhone } from '../../lib/use-phone';
import { DisclosureChevron } from '../DisclosureChevron';

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

interface SectionNavProps {
  label: string;
  links: readonly SectionNavLink[];
  active: string | null;
  markActive?: boolean;
  style?: CSSProperties;
}

/**
 * An app's sub-navigation (monitoring, policies, chart review, standards): a wrapping row of links to its sections,
 * the current one marked for screen readers (and with `data-active` where `markActive`). On a phone it folds behind
 * one button naming the current section, so the page's own content starts in the first screen.
 */
export function SectionNav(props: SectionNavProps) {
  const phone = usePhone();
  return phone ? <FoldedSectionNav {...props} /> : <SectionLinks {...props} />;
}

function SectionLinks({
  label,
  links,
  active,
  markActive = false,
  style,
  vertical = false,
  onFollow,
}: SectionNavProps & { vertical?: boolean; onFollow?: () => void }) {
  const List = vertical ? Stack : Group;
  return (
    <Box component="nav" aria-label={label} style={style}>
      <List component="ul" gap={4} wrap="wrap" m={0} p={0} style={{ listStyle: 'none' }}>
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
                onClick={onFollow}
                fullWidth={vertical}
                justify={vertical ? 'flex-start' : undefined}
              >
                {item.label}
              </Button>
            </li>
          );
        })}
      </List>
    </Box>
  );
}

function FoldedSectionNav(props: SectionNavProps) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const current = props.links.find((item) => item.section === props.active);
  return (
    <Box style={props.style}>
      <Button
        variant="default"
        size="compact-md"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((was) => !was)}
        rightSection={<DisclosureChevron open={open} />}
        maw="100%"
        // A long section name wraps by words inside the button rather than being cut where the row is narrow.
        styles={{
          root: { height: 'auto', minHeight: 30, paddingBlock: 4 },
          label: { whiteSpace: 'normal', textAlign: 'start', overflow: 'visible' },
        }}
      >
        {current ? current.label : 'Sections'}
      </Button>
      <Collapse expanded={open} id={listId}>
        <SectionLinks {...props} style={{ marginTop: 6 }} vertical onFollow={() => setOpen(false)} />
      </Collapse>
    </Box>
  );
}

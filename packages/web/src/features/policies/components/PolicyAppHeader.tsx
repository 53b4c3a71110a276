import { Box, Group } from '@mantine/core';
import { useLocation } from 'react-router';
import { activeAppSection, SectionNav } from '../../../components/nav/SectionNav';
import { usePhone } from '../../../lib/use-phone';
import { PolicySearchBox } from './PolicySearchBox';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

/** The policy app's sections with a place in the sub-navigation, in their order there. */
export const POLICY_NAV_SECTIONS = [
  { section: '', label: 'My tasks' },
  { section: 'admin-dashboard', label: 'Dashboard' },
  { section: 'toc', label: 'Table of contents' },
  { section: 'documents', label: 'Documents' },
  { section: 'navigator', label: 'Navigator' },
  { section: 'archive-navigator', label: 'Archive' },
  { section: 'convert', label: 'Convert Word' },
  { section: 'numbering', label: 'Numbering' },
  { section: 'guest-reading', label: 'Guest reading' },
  { section: 'search-synonyms', label: 'Search synonyms' },
  { section: 'insert-department', label: 'Departments' },
  { section: 'dnd', label: 'Reorder' },
  { section: 'healthy-departments', label: 'Department health' },
  { section: 'policy-users', label: 'People' },
  { section: 'quick-reference-guide', label: 'Quick reference' },
] as const;

/** Paths that belong to a section without being its own route (a document under Documents, and so on). */
const ALSO_UNDER: Record<string, string> = {
  'edit-department': 'insert-department',
  'department-reviewers': 'healthy-departments',
  'department-signers': 'healthy-departments',
  'department-readers': 'healthy-departments',
};

/** The section a policy path is in: /app/policy_management/{id or slug}/{section}/... */
export function activePolicySection(pathname: string): string | null {
  // The app's home (no section) is the "My tasks" page.
  return activeAppSection(pathname, 'policy_management', ALSO_UNDER);
}

interface PolicyAppHeaderProps {
  /** The sections the user may open (route segments such as 'toc', 'numbering'); others get no link. */
  sections: readonly string[];
}

/**
 * What every policy screen shows above its content: links to the app's sections (the current one highlighted)
 * and the search box. On a phone the sections fold behind one button beside the search box, one line in all.
 */
export function PolicyAppHeader({ sections }: PolicyAppHeaderProps) {
  const projectId = usePolicyProjectId();
  const { pathname } = useLocation();
  const active = activePolicySection(pathname);
  const phone = usePhone();
  const allowed = new Set(sections);
  const links = POLICY_NAV_SECTIONS.filter((item) => allowed.has(item.section));

  return (
    <Group
      className="policy-app-header"
      justify="space-between"
      align={phone ? 'flex-start' : 'center'}
      gap="sm"
      wrap={phone ? 'nowrap' : 'wrap'}
      w="100%"
    >
      {links.length > 0 && (
        <SectionNav
          label="Policy management"
          links={links.map((item) => ({ ...item, to: policyRoute(projectId, item.section) }))}
          active={active}
          markActive
          style={phone ? { flex: '0 1 auto', maxWidth: '48%', minWidth: 0 } : { flex: '1 1 22rem', minWidth: 0 }}
        />
      )}
      <Box
        style={{ flex: phone ? '1 1 0' : '0 1 auto', minWidth: 0 }}
        w={phone ? undefined : { base: '100%', sm: 'auto' }}
      >
        <PolicySearchBox />
      </Box>
    </Group>
  );
}

import { useLocation } from 'react-router';
import { activeAppSection, SectionNav } from '../../../components/nav/SectionNav';
import { useMonitoringSections } from './pages-parts';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

/** The monitoring app's sections with a place in its sub-navigation, in their order there. */
export const MONITORING_NAV_SECTIONS = [
  { section: '', label: 'Home', guard: 'introduction' },
  { section: 'introduction', label: 'Introduction', guard: 'introduction' },
  { section: 'pages', label: 'Pages', guard: 'pages' },
  { section: 'csv-import', label: 'Data', guard: 'csv-import' },
  { section: 'formula-builder', label: 'Measures', guard: 'formula-builder' },
  { section: 'page-charts', label: 'Charts', guard: 'page-charts' },
  { section: 'page-levels', label: 'Levels', guard: 'page-levels' },
  { section: 'numbering', label: 'Numbering', guard: 'numbering' },
  { section: 'drag-and-drop', label: 'Reorder', guard: 'drag-and-drop' },
  { section: 'update-page-list-tables', label: 'Bulk edit', guard: 'update-page-list-tables' },
  { section: 'page-permissions', label: 'Permissions', guard: 'page-permissions' },
  { section: 'page-role-manager', label: 'Roles', guard: 'page-role-manager' },
  { section: 'manage-users', label: 'Users', guard: 'manage-users' },
  { section: 'main-role-dashboard', label: 'Main roles', guard: 'main-role-dashboard' },
  { section: 'request-form', label: 'Request Data', guard: 'request-form' },
] as const;

/** Paths that belong to a section without being its own link (a page view under Pages, and so on). */
const ALSO_UNDER: Record<string, string> = {
  'create-page': 'pages',
  'edit-page': 'pages',
  'add-page-chart': 'page-charts',
  'edit-page-chart': 'page-charts',
  'key-insights': 'pages',
  'page-numbering': 'numbering',
  'assign-users': 'manage-users',
  'create-user': 'manage-users',
  'assign-main-role': 'main-role-dashboard',
};

/** The section a monitoring path is in: /app/monitoring/{id or slug}/{section}/... ('' for the app's home). */
export function activeMonitoringSection(pathname: string): string | null {
  return activeAppSection(pathname, 'monitoring', ALSO_UNDER);
}

/**
 * What every monitoring screen shows above its content: links to the app's sections the user's role may open
 * (the permission map), the current one highlighted. They wrap onto more lines on a phone.
 */
export function MonitoringAppHeader() {
  const projectId = useMonitoringProjectId();
  const may = useMonitoringSections(projectId);
  const { pathname } = useLocation();
  const active = activeMonitoringSection(pathname);
  const links = MONITORING_NAV_SECTIONS.filter((item) => may(item.guard));
  if (links.length === 0) return null;
  return (
    <SectionNav
      label="Analytics"
      links={links.map((item) => ({ ...item, to: monitoringRoute(projectId, item.section) }))}
      active={active}
      markActive
    />
  );
}

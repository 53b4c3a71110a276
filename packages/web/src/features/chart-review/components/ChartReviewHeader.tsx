import { type ChartReviewSection, permissionKey } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { activeAppSection, SectionNav } from '../../../components/nav/SectionNav';
import { myPermissionsQueryOptions } from '../../../lib/permissions';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

/** The sections of this part of the app, in their order in the sub-navigation. */
export const CHART_REVIEW_NAV_SECTIONS = [
  { section: 'my', label: 'My reviews' },
  { section: 'dashboard', label: 'Dashboard' },
  { section: 'tools', label: 'Tools' },
  { section: 'programs', label: 'Programmes' },
  { section: 'sampling', label: 'Sampling' },
  { section: 'irr', label: 'Reliability' },
  { section: 'findings', label: 'Findings' },
  { section: 'settings', label: 'Settings' },
] as const satisfies readonly { section: ChartReviewSection; label: string }[];

/** The section a chart review path is in: /app/chart-review/{id or slug}/{section}/... */
export function activeChartReviewSection(pathname: string): string | null {
  return activeAppSection(pathname, 'chart-review');
}

/** Links to the chart review sections the user's role may open; they wrap onto more lines on a phone. */
export function ChartReviewHeader() {
  const projectId = useChartReviewProjectId();
  const active = activeChartReviewSection(useLocation().pathname);
  // The server's permission map (the same rules SectionGuard applies): a link is shown only where it may lead.
  const { data: allowed } = useQuery(myPermissionsQueryOptions('chart_review', projectId));
  const links = CHART_REVIEW_NAV_SECTIONS.filter(
    (item) => allowed?.[permissionKey('chart_review', item.section)] === true,
  );
  if (links.length === 0) return null;
  return (
    <SectionNav
      label="Chart review"
      links={links.map((item) => ({ ...item, to: chartReviewRoute(projectId, item.section) }))}
      active={active}
    />
  );
}

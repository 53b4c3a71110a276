import { Anchor, Breadcrumbs, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { LoadFailure, LoadingRows } from '../../../components/page-parts';
import { ApiError } from '../../../lib/api';
import { formatDayLong } from '../../../lib/dates';
import { useDashboardVisitAudit } from '../../../lib/monitoring-audit';
import { usePageTitle } from '../../../lib/use-page-title';
import { pageChartsQueryOptions } from '../api/charts-page';
import { pageInsightsQueryOptions } from '../api/insights-page';
import { usePage } from '../api/pages-detail';
import { seriesQueryOptions } from '../api/series-measure';
import { measureSummaryQueryOptions } from '../api/series-summary';
import { PageInsights } from './PageInsights';
import { PageMeasures } from './PageMeasures';
import { LevelIcon, PageStatusBadge, pageName, RestrictedIcon, RichContent } from './pages-parts';
import { seriesParamsOf } from './SavedChart';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

const SECTIONS = [
  { key: 'introduction', title: 'Introduction', empty: 'No introduction yet.' },
  { key: 'benchmarks', title: 'Benchmarks', empty: 'No benchmarks yet.' },
  { key: 'parameters_and_metrics', title: 'Parameters and metrics', empty: 'No parameters or metrics yet.' },
] as const;

/** /pages/page/{pageId}: one page of the programme with its sections, sub-pages and key insights. */
export function PageViewPage() {
  const projectId = useMonitoringProjectId();
  const { pageId: raw } = useParams();
  const pageId = raw && /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  useDashboardVisitAudit(projectId);
  const query = usePage(projectId, pageId);
  const page = query.data;
  usePagePartsAhead(projectId, pageId);
  usePageTitle(page ? pageName(page) : 'Page');
  const pagesLink = monitoringRoute(projectId, 'pages');

  if (pageId === null || (query.isError && query.error instanceof ApiError && query.error.status === 404)) {
    return (
      <Stack gap="sm" align="flex-start">
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          Page not found
        </Title>
        <Text>This page does not exist, was deleted, or is not shared with you.</Text>
        <Anchor component={Link} to={pagesLink}>
          Back to the pages
        </Anchor>
      </Stack>
    );
  }
  if (query.isPending) return <LoadingRows label="Loading the page" />;
  if (query.isError || !page) {
    return (
      <LoadFailure
        error={query.error}
        fallback="The page could not be loaded."
        retrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  }

  return (
    <Stack gap="lg" data-page-id={page.id}>
      <Breadcrumbs separator="›" aria-label="Breadcrumb" style={{ flexWrap: 'wrap' }}>
        <Anchor component={Link} to={pagesLink} size="sm">
          Pages
        </Anchor>
        {page.ancestors.map((ancestor) => (
          <Anchor
            key={ancestor.id}
            component={Link}
            to={monitoringRoute(projectId, `pages/page/${ancestor.id}`)}
            size="sm"
          >
            {pageName(ancestor)}
          </Anchor>
        ))}
      </Breadcrumbs>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={6} style={{ flex: '1 1 20rem', minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap" align="center">
            <LevelIcon icon={page.level?.icon} size={22} />
            <Title order={1} fz={{ base: 'h3', sm: 'h2' }} style={{ overflowWrap: 'anywhere' }}>
              {page.number && (
                <Text span inherit c="dimmed" mr={4}>
                  {page.number}{' '}
                </Text>
              )}
              {page.title}
            </Title>
            {page.restricted && <RestrictedIcon />}
          </Group>
          <Group gap="sm" wrap="wrap">
            <PageStatusBadge status={page.status} />
            {page.level && (
              <Text size="sm" c="dimmed">
                {page.level.name}
              </Text>
            )}
            <Text size="sm" c="dimmed">
              Owner: {page.owner?.name ?? 'nobody yet'}
            </Text>
            <Text size="sm" c="dimmed">
              Last updated {formatDayLong(page.updated_at.slice(0, 10))}
              {page.updated_by ? ` by ${page.updated_by.name}` : ''}
            </Text>
          </Group>
        </Stack>
        {page.abilities.edit && (
          <Button component={Link} to={monitoringRoute(projectId, `edit-page/${page.id}`)} variant="default">
            Edit page
          </Button>
        )}
      </Group>

      {SECTIONS.map((section) => (
        <Paper
          key={section.key}
          withBorder
          p="md"
          component="section"
          aria-labelledby={`page-section-${section.key}`}
          data-section={section.key}
        >
          <Stack gap="xs">
            <Title order={2} size="h4" id={`page-section-${section.key}`}>
              {section.title}
            </Title>
            <RichContent html={page[section.key]} emptyText={section.empty} />
          </Stack>
        </Paper>
      ))}

      <PageMeasures pageId={page.id} canEdit={page.abilities.edit} />

      {page.children.length > 0 && (
        <Stack gap="xs" component="section" aria-labelledby="page-children-title">
          <Title order={2} size="h4" id="page-children-title">
            Sub-pages
          </Title>
          <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }}>
            {page.children.map((child) => (
              <Group component="li" key={child.id} gap="sm" wrap="wrap">
                <Anchor component={Link} to={monitoringRoute(projectId, `pages/page/${child.id}`)}>
                  {pageName(child)}
                </Anchor>
                <PageStatusBadge status={child.status} />
              </Group>
            ))}
          </Stack>
        </Stack>
      )}

      <PageInsights pageId={page.id} canEdit={page.abilities.add_insight} />
    </Stack>
  );
}

/**
 * Asks for a page's measures, charts and insights with the page, and for each chart's series as soon as the charts
 * are known, rather than each once the screen above it has drawn: the first chart comes two round trips sooner
 * (bench/screens.ts). A page the server refuses refuses these too, and nothing of them is shown.
 */
export function prefetchPageParts(queryClient: QueryClient, projectId: string, pageId: number): void {
  void queryClient.prefetchQuery(measureSummaryQueryOptions(projectId, pageId));
  void queryClient.prefetchQuery(pageInsightsQueryOptions(projectId, pageId));
  queryClient
    .fetchQuery(pageChartsQueryOptions(projectId, pageId))
    .then(({ charts }) => {
      for (const chart of charts) {
        void queryClient.prefetchQuery(seriesQueryOptions(projectId, chart.measure.id, seriesParamsOf(chart)));
      }
    })
    .catch(() => undefined);
}

function usePagePartsAhead(projectId: string, pageId: number | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (pageId !== null) prefetchPageParts(queryClient, projectId, pageId);
  }, [queryClient, projectId, pageId]);
}

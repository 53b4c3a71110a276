import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { recordRoute } from '../../../app/route-params';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { preloadSpcChart } from '../../../components/spc/LazySpcChart';
import type { ScreenPrefetch } from '../../../lib/lazy-named';
import { projectRefFromPath } from '../../../lib/project/project-path';
import { pageQueryOptions } from '../api/pages-detail';
import { AddStandardsPage } from './AddStandardsPage';
import { ChartFormPage } from './ChartFormPage';
import { CsvImportPage } from './CsvImportPage';
import { DragAndDropPage } from './DragAndDropPage';
import { FormulaBuilderPage } from './FormulaBuilderPage';
import { InsightEditPage } from './InsightEditPage';
import { IntroductionPage } from './IntroductionPage';
import { LevelFormPage } from './LevelFormPage';
import { MainRoleDashboardPage } from './MainRoleDashboardPage';
import { MonitoringAppHeader } from './MonitoringAppHeader';
import { MonitoringHomePage } from './MonitoringHomePage';
import { NumberingPage } from './NumberingPage';
import { PageChartsPage } from './PageChartsPage';
import { PageFormPage } from './PageFormPage';
import { PageGridPage } from './PageGridPage';
import { PageLevelsPage } from './PageLevelsPage';
import { PageNumberingPage } from './PageNumberingPage';
import { PagePermissionsPage } from './PagePermissionsPage';
import { PageRoleManagerPage } from './PageRoleManagerPage';
import { PagesPage } from './PagesPage';
import { PageViewPage, prefetchPageParts } from './PageViewPage';
import { RequestFormPage } from './RequestFormPage';

/**
 * Opened directly on a page of charts (a link, a reload): the page, its parts and their chart code are asked for with
 * the app, not after its guards have answered (bench/screens.ts). Here rather than in routes.tsx, so that the login
 * page does not download it.
 */
export const prefetchScreen: ScreenPrefetch = (pathname, queryClient) => {
  const page = /\/pages\/page\/(\d{1,10})\/?$/.exec(pathname);
  if (!page?.[1]) return;
  preloadSpcChart();
  const project = projectRefFromPath(pathname);
  if (!project || !('id' in project)) return;
  const pageId = Number(page[1]);
  void queryClient.prefetchQuery(pageQueryOptions(project.id, pageId));
  prefetchPageParts(queryClient, project.id, pageId);
};

/**
 * The monitoring ("Analytics") app under /app/monitoring/{projectId or slug}/...: the route in routes.tsx has
 * already checked the project and the section (SectionGuard); this picks the screen. Query parameters carry the
 * context of the data screens: csv-import?dataset={id}, formula-builder?page={id}&measure={id},
 * page-charts?page={id}, add-page-chart?page={id}, add-standards?page={id}&measure={id}. The people screens (users,
 * main roles, new-user requests) are shared with other apps: routes.tsx hands them in as `people` routes.
 */
export function MonitoringApp({ people }: { people?: ReactNode }) {
  return (
    <Stack gap="md">
      <MonitoringAppHeader />
      <Routes>
        <Route index element={<MonitoringHomePage />} />
        <Route path="introduction" element={<IntroductionPage />} />
        <Route path="pages" element={<PagesPage />} />
        <Route path="pages/page/:pageId" element={recordRoute(<PageViewPage />, 'pageId')} />
        <Route path="create-page" element={<PageFormPage mode="create" />} />
        <Route path="edit-page/:pageId" element={recordRoute(<PageFormPage mode="edit" />, 'pageId')} />
        <Route path="page-levels" element={<PageLevelsPage />} />
        <Route path="page-levels/add" element={<LevelFormPage />} />
        <Route path="page-levels/edit/:levelId" element={recordRoute(<LevelFormPage />, 'levelId')} />
        <Route path="numbering" element={<NumberingPage />} />
        <Route path="page-numbering" element={<PageNumberingPage />} />
        <Route path="drag-and-drop" element={<DragAndDropPage />} />
        <Route path="update-page-list-tables" element={<PageGridPage />} />
        <Route path="key-insights/edit/:insightId" element={recordRoute(<InsightEditPage />, 'insightId')} />
        <Route path="page-permissions" element={<PagePermissionsPage />} />
        <Route path="page-role-manager" element={<PageRoleManagerPage />} />
        {people}
        <Route path="main-role-dashboard" element={<MainRoleDashboardPage />} />
        <Route path="request-form" element={<RequestFormPage />} />
        <Route path="csv-import" element={<CsvImportPage />} />
        <Route path="formula-builder" element={<FormulaBuilderPage />} />
        <Route path="page-charts" element={<PageChartsPage />} />
        <Route path="add-page-chart" element={<ChartFormPage mode="create" />} />
        <Route path="edit-page-chart/:chartId" element={recordRoute(<ChartFormPage mode="edit" />, 'chartId')} />
        <Route path="add-standards" element={<AddStandardsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Stack>
  );
}

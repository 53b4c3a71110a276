import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { recordRoute } from '../../../app/route-params';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { preloadSpcChart } from '../../../components/spc/LazySpcChart';
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
import { PageViewPage } from './PageViewPage';
import { RequestFormPage } from './RequestFormPage';

// Opened directly on a page of charts (a link, a reload): their code comes while the page's data is asked for, not
// after it (bench/screens.ts). Here rather than in routes.tsx, so that the login page does not download it.
if (typeof window !== 'undefined' && /\/pages\/page\/\d+\/?$/.test(window.location.pathname)) preloadSpcChart();

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

import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { recordRoute } from '../../../app/route-params';
import { AdjudicationPage } from './AdjudicationPage';
import { ChartReviewHeader } from './ChartReviewHeader';
import { DashboardPage } from './DashboardPage';
import { DashboardProgramPage } from './DashboardProgramPage';
import { FindingsDetailPage } from './FindingsDetailPage';
import { FindingsPage } from './FindingsPage';
import { IrrPage } from './IrrPage';
import { MyReviewsPage } from './MyReviewsPage';
import { ProgramFormPage } from './ProgramFormPage';
import { ProgramsPage } from './ProgramsPage';
import { ReviewFormPage } from './ReviewFormPage';
import { SamplingPage } from './SamplingPage';
import { SamplingProgramPage } from './SamplingProgramPage';
import { SettingsPage } from './SettingsPage';
import { ToolPage } from './ToolPage';
import { ToolsPage } from './ToolsPage';

/**
 * The chart review app under /app/chart-review/{projectId or slug}/...: the route in routes.tsx has already
 * checked the project and the section (SectionGuard); this picks the screen. Paths of parts still to come (my,
 * dashboards, sampling...) render `fallback`.
 */
export function ChartReviewApp({ fallback }: { fallback: ReactNode }) {
  return (
    <Stack gap="md">
      <ChartReviewHeader />
      <Routes>
        <Route path="dashboard" element={<DashboardPage />} />
        <Route path="dashboard/:programId" element={recordRoute(<DashboardProgramPage />, 'programId')} />
        <Route path="my" element={<MyReviewsPage />} />
        <Route path="review/:assignmentId" element={recordRoute(<ReviewFormPage />, 'assignmentId')} />
        <Route path="irr" element={<IrrPage />} />
        <Route path="irr/:pairId" element={recordRoute(<AdjudicationPage />, 'pairId')} />
        <Route path="sampling" element={<SamplingPage />} />
        <Route path="sampling/:programId" element={recordRoute(<SamplingProgramPage />, 'programId')} />
        <Route path="findings" element={<FindingsPage />} />
        <Route path="findings/:findingId" element={recordRoute(<FindingsDetailPage />, 'findingId')} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="tools" element={<ToolsPage />} />
        <Route path="tools/:toolId" element={recordRoute(<ToolPage />, 'toolId')} />
        <Route path="programs" element={<ProgramsPage />} />
        <Route path="programs/new" element={<ProgramFormPage />} />
        <Route path="programs/:programId/edit" element={recordRoute(<ProgramFormPage />, 'programId')} />
        <Route path="*" element={fallback} />
      </Routes>
    </Stack>
  );
}

export default ChartReviewApp;

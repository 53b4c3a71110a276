import { Stack } from '@mantine/core';
import { BULK_ACTIONS, permissionKey } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { recordRoute } from '../../../app/route-params';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { LoadingRows } from '../../../components/page-parts';
import { lazyNamed, type ScreenPrefetch } from '../../../lib/lazy-named';
import { myPermissionsQueryOptions, sectionOfSegment } from '../../../lib/permissions';
import { projectRefFromPath } from '../../../lib/project/project-path';
import { documentQueryOptions } from '../api/get-document';
import { PolicyAppHeader } from './PolicyAppHeader';
import { usePolicyProjectId } from './use-policy-project';

// Each screen is a chunk of its own: a policy's page does not download the editor, the converter or the trees.
const AddStandardsPage = lazyNamed(() => import('./AddStandardsPage'), 'AddStandardsPage');
const ArchiveNavigatorPage = lazyNamed(() => import('./ArchiveNavigatorPage'), 'ArchiveNavigatorPage');
const BulkActionPage = lazyNamed(() => import('./BulkActionPage'), 'BulkActionPage');
const ConvertPage = lazyNamed(() => import('./ConvertPage'), 'ConvertPage');
const DepartmentAttestationsPage = lazyNamed(
  () => import('./DepartmentAttestationsPage'),
  'DepartmentAttestationsPage',
);
const DepartmentRolePage = lazyNamed(() => import('./DepartmentRolePage'), 'DepartmentRolePage');
const DepartmentsPage = lazyNamed(() => import('./DepartmentsPage'), 'DepartmentsPage');
const DndPage = lazyNamed(() => import('./DndPage'), 'DndPage');
const DocumentEditPage = lazyNamed(() => import('./DocumentEditPage'), 'DocumentEditPage');
const DocumentPage = lazyNamed(() => import('./DocumentPage'), 'DocumentPage');
const DocumentPrintPage = lazyNamed(() => import('./DocumentPrintPage'), 'DocumentPrintPage');
const DocumentsStatusPage = lazyNamed(() => import('./DocumentsStatusPage'), 'DocumentsStatusPage');
const GuestReadingPage = lazyNamed(() => import('./GuestReadingPage'), 'GuestReadingPage');
const HealthyDepartmentsPage = lazyNamed(() => import('./HealthyDepartmentsPage'), 'HealthyDepartmentsPage');
const NavigatorPage = lazyNamed(() => import('./NavigatorPage'), 'NavigatorPage');
const NumberingPage = lazyNamed(() => import('./NumberingPage'), 'NumberingPage');
const PolicyDashboardPage = lazyNamed(() => import('./PolicyDashboardPage'), 'PolicyDashboardPage');
const PolicyHomePage = lazyNamed(() => import('./PolicyHomePage'), 'PolicyHomePage');
const QuickReferenceGuidePage = lazyNamed(() => import('./QuickReferenceGuidePage'), 'QuickReferenceGuidePage');
const SearchPage = lazyNamed(() => import('./SearchPage'), 'SearchPage');
const SearchSynonymsPage = lazyNamed(() => import('./SearchSynonymsPage'), 'SearchSynonymsPage');
const TocPage = lazyNamed(() => import('./TocPage'), 'TocPage');

/**
 * Opened directly on a policy or the table of contents (a link, a reload): the screen's code, and a policy itself,
 * are asked for with the app, not after the app's guards have answered (bench/budgets.ts, bench/screens.ts).
 */
export const prefetchScreen: ScreenPrefetch = (pathname, queryClient) => {
  const document = /\/documents\/(\d{1,10})\/?$/.exec(pathname);
  if (document?.[1]) {
    void DocumentPage.preload();
    const project = projectRefFromPath(pathname);
    if (project && 'id' in project) void queryClient.prefetchQuery(documentQueryOptions(project.id, document[1]));
  }
  if (/\/toc\/?$/.test(pathname)) void TocPage.preload();
};

/** Route segments of the header's links, in order; shown when the permission map allows the section they open. */
const HEADER_SEGMENTS: readonly string[] = [
  '',
  'admin-dashboard',
  'toc',
  'documents',
  'navigator',
  'archive-navigator',
  'convert',
  'numbering',
  'guest-reading',
  'search-synonyms',
  'insert-department',
  'dnd',
  'healthy-departments',
  'policy-users',
  'quick-reference-guide',
];

/**
 * The policy management app under /app/policy_management/{projectId or slug}/...: the route in routes.tsx has
 * already checked the project and the section (SectionGuard); this picks the screen. The people screens (users,
 * main roles, new-user requests) are shared with other apps: routes.tsx hands them in as `people` routes.
 */
export function PolicyApp({ people }: { people?: ReactNode }) {
  const projectId = usePolicyProjectId();
  const permissions = useQuery(myPermissionsQueryOptions('policy_management', projectId));
  // The home page ('') has no rule of its own: every policy user has one. A segment opens the section
  // sectionOfSegment names (guest reading is the numbering administrators' setting), as the route guard reads it.
  const sections = HEADER_SEGMENTS.filter((segment) => {
    const section = sectionOfSegment('policy_management', segment);
    if (section === null) return false;
    return section === '' || (permissions.data?.[permissionKey('policy_management', section)] ?? section === 'toc');
  });
  return (
    <Stack gap="md">
      <PolicyAppHeader sections={sections} />
      <Suspense fallback={<LoadingRows label="Loading" />}>
        <Routes>
          <Route index element={<PolicyHomePage />} />
          <Route path="admin-dashboard" element={<PolicyDashboardPage />} />
          <Route path="healthy-departments" element={<HealthyDepartmentsPage />} />
          <Route
            path="attestation-reports/:departmentId"
            element={recordRoute(<DepartmentAttestationsPage />, 'departmentId')}
          />
          {(['reviewer', 'signer', 'reader'] as const).map((role) => (
            <Route
              key={role}
              path={`department-${role}s/:departmentId?`}
              element={recordRoute(<DepartmentRolePage role={role} />, 'departmentId')}
            />
          ))}
          {BULK_ACTIONS.map((action) => (
            <Route key={action} path={`bulk-${action}`} element={<BulkActionPage action={action} />} />
          ))}
          <Route path="toc" element={<TocPage />} />
          <Route path="documents" element={<DocumentsStatusPage />} />
          <Route path="documents/status/:status" element={<DocumentsStatusPage />} />
          <Route path="documents/:documentId" element={recordRoute(<DocumentPage />, 'documentId')} />
          <Route path="documents/:documentId/edit" element={recordRoute(<DocumentEditPage />, 'documentId')} />
          <Route path="documents/:documentId/print" element={recordRoute(<DocumentPrintPage />, 'documentId')} />
          <Route path="navigator" element={<NavigatorPage />} />
          <Route path="archive-navigator" element={<ArchiveNavigatorPage />} />
          <Route path="search" element={<SearchPage />} />
          <Route path="convert" element={<ConvertPage />} />
          <Route path="numbering" element={<NumberingPage />} />
          <Route path="guest-reading" element={<GuestReadingPage />} />
          <Route path="search-synonyms" element={<SearchSynonymsPage />} />
          <Route path="insert-department" element={<DepartmentsPage />} />
          <Route path="edit-department" element={<DepartmentsPage />} />
          <Route path="edit-department/:departmentId" element={recordRoute(<DepartmentsPage />, 'departmentId')} />
          <Route path="dnd" element={<DndPage />} />
          <Route path="quick-reference-guide" element={<QuickReferenceGuidePage />} />
          {people}
          <Route path="add-standards" element={<AddStandardsPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </Stack>
  );
}

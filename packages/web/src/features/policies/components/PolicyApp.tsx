import { Stack } from '@mantine/core';
import { BULK_ACTIONS } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { myPermissionsQueryOptions } from '../../../lib/permissions';
import { AddStandardsPage } from './AddStandardsPage';
import { ArchiveNavigatorPage } from './ArchiveNavigatorPage';
import { BulkActionPage } from './BulkActionPage';
import { ConvertPage } from './ConvertPage';
import { CreateProjectUserPage } from './CreateProjectUserPage';
import { DepartmentAttestationsPage } from './DepartmentAttestationsPage';
import { DepartmentRolePage } from './DepartmentRolePage';
import { DepartmentsPage } from './DepartmentsPage';
import { DndPage } from './DndPage';
import { DocumentEditPage } from './DocumentEditPage';
import { DocumentPage } from './DocumentPage';
import { DocumentPrintPage } from './DocumentPrintPage';
import { DocumentsStatusPage } from './DocumentsStatusPage';
import { HealthyDepartmentsPage } from './HealthyDepartmentsPage';
import { MainRolesPage } from './MainRolesPage';
import { NavigatorPage } from './NavigatorPage';
import { NumberingPage } from './NumberingPage';
import { PolicyAppHeader } from './PolicyAppHeader';
import { PolicyDashboardPage } from './PolicyDashboardPage';
import { PolicyHomePage } from './PolicyHomePage';
import { PolicyUsersPage } from './PolicyUsersPage';
import { QuickReferenceGuidePage } from './QuickReferenceGuidePage';
import { SearchPage } from './SearchPage';
import { TocPage } from './TocPage';
import { usePolicyProjectId } from './use-policy-project';

/** Sections of the header's links, in order; shown when the permission map allows them. */
const HEADER_SECTIONS = [
  '',
  'admin-dashboard',
  'toc',
  'documents',
  'navigator',
  'archive-navigator',
  'convert',
  'numbering',
  'insert-department',
  'dnd',
  'healthy-departments',
  'policy-users',
  'quick-reference-guide',
];

/**
 * The policy management app under /app/policy_management/{projectId or slug}/...: the route in routes.tsx has
 * already checked the project and the section (SectionGuard); this picks the screen.
 */
export function PolicyApp() {
  const projectId = usePolicyProjectId();
  const permissions = useQuery(myPermissionsQueryOptions('policy_management', projectId));
  // The home page ('') has no rule of its own: every policy user has one.
  const sections = HEADER_SECTIONS.filter(
    (s) => s === '' || (permissions.data?.[`policy_management:${s}`] ?? s === 'toc'),
  );
  return (
    <Stack gap="md">
      <PolicyAppHeader sections={sections} />
      <Routes>
        <Route index element={<PolicyHomePage />} />
        <Route path="admin-dashboard" element={<PolicyDashboardPage />} />
        <Route path="healthy-departments" element={<HealthyDepartmentsPage />} />
        <Route path="attestation-reports/:departmentId" element={<DepartmentAttestationsPage />} />
        {(['reviewer', 'signer', 'reader'] as const).map((role) => (
          <Route key={role} path={`department-${role}s/:departmentId?`} element={<DepartmentRolePage role={role} />} />
        ))}
        {BULK_ACTIONS.map((action) => (
          <Route key={action} path={`bulk-${action}`} element={<BulkActionPage action={action} />} />
        ))}
        <Route path="toc" element={<TocPage />} />
        <Route path="documents" element={<DocumentsStatusPage />} />
        <Route path="documents/status/:status" element={<DocumentsStatusPage />} />
        <Route path="documents/:documentId" element={<DocumentPage />} />
        <Route path="documents/:documentId/edit" element={<DocumentEditPage />} />
        <Route path="documents/:documentId/print" element={<DocumentPrintPage />} />
        <Route path="navigator" element={<NavigatorPage />} />
        <Route path="archive-navigator" element={<ArchiveNavigatorPage />} />
        <Route path="search" element={<SearchPage />} />
        <Route path="convert" element={<ConvertPage />} />
        <Route path="numbering" element={<NumberingPage />} />
        <Route path="insert-department" element={<DepartmentsPage />} />
        <Route path="edit-department" element={<DepartmentsPage />} />
        <Route path="edit-department/:departmentId" element={<DepartmentsPage />} />
        <Route path="dnd" element={<DndPage />} />
        <Route path="quick-reference-guide" element={<QuickReferenceGuidePage />} />
        {['policy-users', 'assign-users', 'manage-users'].map((path) => (
          <Route key={path} path={path} element={<PolicyUsersPage />} />
        ))}
        <Route path="assign-main-role" element={<MainRolesPage mode="assign" />} />
        <Route path="edit-main-role" element={<MainRolesPage mode="edit" />} />
        <Route path="create-project-user" element={<CreateProjectUserPage />} />
        <Route path="add-standards" element={<AddStandardsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Stack>
  );
}

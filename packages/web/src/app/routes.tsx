import type { PermissionApp } from '@portal/shared';
import type { QueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { LoadingRows } from '../components/page-parts';
import { RouteErrorPage } from '../components/RouteErrorPage';
import { LoginPage } from '../features/auth/components/LoginPage';
import { MONITORING_SCREENS, POLICY_SCREENS } from '../features/people/apps';
import { peopleRoutes } from '../features/people/routes';
import { lazyNamed, type ScreenPrefetch } from '../lib/lazy-named';
import { projectRefFromPath } from '../lib/project/project-path';
import { authCheckQueryOptions } from '../lib/session';
import { HomeRedirect } from './HomeRedirect';
import { RootLayout } from './RootLayout';
import { RouteParamGuard, type RouteParamKind } from './route-params';

// Every screen but the login page and the error pages is a chunk of its own (lib/lazy-named.ts), loaded when its
// route first renders under the Suspense boundaries of RootLayout and PortalLayout: the login page downloads little
// (bench/budgets.ts: at most 170 KB of JavaScript gzipped).
// The signed-in frame and the route guards: one chunk (portal.ts).
const loadPortal = () => import('./portal');
const PortalLayout = lazyNamed(loadPortal, 'PortalLayout');
const RequireSuperadmin = lazyNamed(loadPortal, 'RequireSuperadmin');
const AdminGuard = lazyNamed(loadPortal, 'AdminGuard');
const AppCodeRedirect = lazyNamed(loadPortal, 'AppCodeRedirect');
const AppEntryPage = lazyNamed(loadPortal, 'AppEntryPage');
const SectionGuard = lazyNamed(loadPortal, 'SectionGuard');

const MyAccountPage = lazyNamed(() => import('../features/account/components/MyAccountPage'), 'MyAccountPage');
const LogoutConfirmPage = lazyNamed(() => import('../features/auth/components/LogoutConfirmPage'), 'LogoutConfirmPage');
const LostPasswordPage = lazyNamed(() => import('../features/auth/components/LostPasswordPage'), 'LostPasswordPage');
const ResetPasswordPage = lazyNamed(() => import('../features/auth/components/ResetPasswordPage'), 'ResetPasswordPage');
const ContactMessagesPage = lazyNamed(
  () => import('../features/contact/components/ContactMessagesPage'),
  'ContactMessagesPage',
);
const ContactUsPage = lazyNamed(() => import('../features/contact/components/ContactUsPage'), 'ContactUsPage');
const PageProjectRedirect = lazyNamed(
  () => import('../features/monitoring/components/PageProjectRedirect'),
  'PageProjectRedirect',
);
const PermissionMatrixPage = lazyNamed(
  () => import('../features/permission-matrix/components/PermissionMatrixPage'),
  'PermissionMatrixPage',
);
const PolicyApp = lazyNamed(() => import('../features/policies/components/PolicyApp'), 'PolicyApp');
const AdminDashboardPage = lazyNamed(
  () => import('../features/project-admin/components/AdminDashboardPage'),
  'AdminDashboardPage',
);
const EditUserPage = lazyNamed(() => import('../features/project-admin/components/EditUserPage'), 'EditUserPage');
const NewUserRequestPage = lazyNamed(
  () => import('../features/project-admin/components/NewUserRequestPage'),
  'NewUserRequestPage',
);
const ProjectDetailsEditPage = lazyNamed(
  () => import('../features/project-admin/components/ProjectDetailsEditPage'),
  'ProjectDetailsEditPage',
);
const MemberProjectsPage = lazyNamed(
  () => import('../features/projects/components/MemberProjectsPage'),
  'MemberProjectsPage',
);
const ProjectAppsPage = lazyNamed(() => import('../features/projects/components/ProjectAppsPage'), 'ProjectAppsPage');
const AuditLogPage = lazyNamed(() => import('../features/superadmin-console/components/AuditLogPage'), 'AuditLogPage');
const DevEditorPage = lazyNamed(
  () => import('../features/superadmin-console/components/DevEditorPage'),
  'DevEditorPage',
);
const EmailLogsPage = lazyNamed(
  () => import('../features/superadmin-console/components/EmailLogsPage'),
  'EmailLogsPage',
);
const SuperadminDashboardPage = lazyNamed(
  () => import('../features/superadmin-console/components/SuperadminDashboardPage'),
  'SuperadminDashboardPage',
);
const TermsEditorPage = lazyNamed(
  () => import('../features/superadmin-console/components/TermsEditorPage'),
  'TermsEditorPage',
);
const TermsHistoryPage = lazyNamed(
  () => import('../features/superadmin-console/components/TermsHistoryPage'),
  'TermsHistoryPage',
);
const ProjectPage = lazyNamed(() => import('../features/superadmin-projects/components/ProjectPage'), 'ProjectPage');
const ProjectsPage = lazyNamed(() => import('../features/superadmin-projects/components/ProjectsPage'), 'ProjectsPage');
const NewUserRequestsPage = lazyNamed(
  () => import('../features/superadmin-users/components/NewUserRequestsPage'),
  'NewUserRequestsPage',
);
const UserPage = lazyNamed(() => import('../features/superadmin-users/components/UserPage'), 'UserPage');
const UsersPage = lazyNamed(() => import('../features/superadmin-users/components/UsersPage'), 'UsersPage');
const ImportUsersPage = lazyNamed(
  () => import('../features/superadmin-users/components/ImportUsersPage'),
  'ImportUsersPage',
);
const IdentityProvidersPage = lazyNamed(
  () => import('../features/superadmin-identity-providers/components/IdentityProvidersPage'),
  'IdentityProvidersPage',
);
const GroupMappingsPage = lazyNamed(
  () => import('../features/superadmin-identity-providers/components/GroupMappingsPage'),
  'GroupMappingsPage',
);
const TermsPage = lazyNamed(() => import('../features/terms/components/TermsPage'), 'TermsPage');
// The guest reader (issue 28): no account, no signed-in frame.
const GuestReaderHomePage = lazyNamed(
  () => import('../features/guest-reader/components/GuestReaderHomePage'),
  'GuestReaderHomePage',
);
const GuestDocumentPage = lazyNamed(
  () => import('../features/guest-reader/components/GuestDocumentPage'),
  'GuestDocumentPage',
);
const StableLinkPage = lazyNamed(() => import('../features/policies/components/StableLinkPage'), 'StableLinkPage');
const TwoFactorSettingsPage = lazyNamed(
  () => import('../features/two-factor/components/TwoFactorSettingsPage'),
  'TwoFactorSettingsPage',
);
const NotSuperadminPage = lazyNamed(() => import('./NotSuperadminPage'), 'NotSuperadminPage');

// The monitoring app (with its charts) is a chunk of its own: no other screen downloads it (issue 9).
const MonitoringApp = lazyNamed(() => import('../features/monitoring/components/MonitoringApp'), 'MonitoringApp');
// Chart review likewise: its screens load only when a chart review route opens.
const ChartReviewApp = lazyNamed(() => import('../features/chart-review/components/ChartReviewApp'), 'ChartReviewApp');
// Standards likewise: the compliance tree, the wizard and the people screens, and the member's overview.
const StandardsApp = lazyNamed(() => import('../features/standards/components/StandardsApp'), 'StandardsApp');
// The policy generator likewise (its wizard, preview and template editor).
const PolicyGeneratorApp = lazyNamed(
  () => import('../features/policy-generator/components/PolicyGeneratorApp'),
  'PolicyGeneratorApp',
);
const MyStandardsPage = lazy(() =>
  import('../features/standards/components/MyStandardsPage').then((module) => ({ default: module.MyStandardsPage })),
);

const guard = (rules: Record<string, RouteParamKind>, element: ReactNode) => (
  <RouteParamGuard rules={rules}>{element}</RouteParamGuard>
);
const byId = (element: ReactNode) => guard({ projectId: 'projectId' }, element);
const bySlug = (name: string, element: ReactNode) => guard({ [name]: 'slug' }, element);
const admin = (element: ReactNode) => byId(<AdminGuard>{element}</AdminGuard>);

/** All routes, shared by the browser router and by tests (memory router). */
const PUBLIC_PATHS = new Set(['/', '/member-login', '/lost-password', '/reset-password', '/terms-and-conditions']);

/**
 * A signed-in page opened directly checks the session and fetches its frame and its app at once, then what the app's
 * guard waits for and what the app says its screen reads first (`prefetchScreen`: a policy, a page of charts), not
 * one after the other (Lighthouse on a policy page, bench/budgets.ts; bench/screens.ts). Public pages fetch nothing
 * more.
 */
export function preloadScreensFor(pathname: string, queryClient: QueryClient): void {
  if (PUBLIC_PATHS.has(pathname) || pathname.startsWith('/read/')) return;
  // The session check every signed-in screen waits for starts now, not once the frame's chunk has arrived.
  void queryClient.prefetchQuery(authCheckQueryOptions());
  void PortalLayout.preload();
  const [, app, guarded] = APP_CHUNKS.find(([prefix]) => pathname.startsWith(prefix)) ?? [];
  if (app) {
    const project = projectRefFromPath(pathname);
    void SectionGuard.preload().then((portal) => {
      if (guarded && portal && project && 'id' in project) {
        portal.prefetchSectionAccess(guarded, project.id, queryClient);
      }
    });
    void app.preload().then((module) => {
      const prefetchScreen = (module as { prefetchScreen?: ScreenPrefetch } | undefined)?.prefetchScreen;
      prefetchScreen?.(pathname, queryClient);
    });
  }
}

/** Each app's chunk by the prefix of its addresses, and the app whose SectionGuard checks them. */
const APP_CHUNKS: readonly [string, { preload: () => Promise<unknown> }, PermissionApp?][] = [
  ['/app/policy_management/', PolicyApp, 'policy_management'],
  ['/app/monitoring/', MonitoringApp, 'monitoring'],
  ['/app/standards/', StandardsApp],
  ['/app/chart_review/', ChartReviewApp, 'chart_review'],
  ['/app/policy_generator/', PolicyGeneratorApp],
];

export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      // Public (SPEC section 2): no login check except where a screen needs to know (/ and the login page).
      { path: '/', element: <HomeRedirect /> },
      { path: '/member-login', element: <LoginPage /> },
      { path: '/lost-password', element: <LostPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/terms-and-conditions', element: <TermsPage /> },
      // Reading without an account, where the project allows it (the server decides; docs/policies.md).
      { path: '/read/:projectId', element: <GuestReaderHomePage /> },
      { path: '/read/:projectId/documents/:documentId', element: <GuestDocumentPage /> },
      // A policy's stable link (issue 28): for everyone, signed in or not; the server says where it leads.
      { path: '/p/:projectId/:number', element: byId(<StableLinkPage />) },
      // Logged-in group: unauthenticated visitors go to /member-login?redirect=<path>.
      {
        element: <PortalLayout />,
        children: [
          { path: '/member/projects', element: <MemberProjectsPage /> },
          { path: '/member/projects/:slug/myaccount', element: bySlug('slug', <MyAccountPage />) },
          { path: '/member/projects/:projectId/apps', element: byId(<ProjectAppsPage />) },
          { path: '/member/projects/:projectId/contact-us', element: byId(<ContactUsPage />) },
          { path: '/member/projects/:projectId/contact-us-messages', element: byId(<ContactMessagesPage />) },
          { path: '/two-factor-settings', element: <TwoFactorSettingsPage /> },
          { path: '/logout-confirm', element: <LogoutConfirmPage /> },
          { path: '/not-superadmin', element: <NotSuperadminPage /> },
          { path: '/app/:code', element: <AppCodeRedirect /> },
          {
            // The generator works in the current project (the path names none): it has its own picker.
            path: '/app/policy_generator/*',
            element: (
              <Suspense fallback={<LoadingRows label="Loading the Policy Generator" />}>
                <PolicyGeneratorApp />
              </Suspense>
            ),
          },
          // Project apps (SPEC section 2). Screens of modules still to come show the app's entry page behind the
          // same guards.
          {
            path: '/app/policy_management/:projectOrSlug/*',
            element: bySlug(
              'projectOrSlug',
              <SectionGuard app="policy_management">
                <PolicyApp people={peopleRoutes(POLICY_SCREENS)} />
              </SectionGuard>,
            ),
          },
          { path: '/app/monitoring/pages/page/:pageId', element: <PageProjectRedirect /> },
          {
            path: '/app/monitoring/:projectOrSlug/*',
            element: bySlug(
              'projectOrSlug',
              <SectionGuard app="monitoring">
                <Suspense fallback={<LoadingRows label="Loading Analytics" />}>
                  <MonitoringApp people={peopleRoutes(MONITORING_SCREENS)} />
                </Suspense>
              </SectionGuard>,
            ),
          },
          {
            // Sections still to come (my, review, sampling, irr, findings, dashboard) show the app's entry page.
            path: '/app/chart-review/:slug/*',
            element: bySlug(
              'slug',
              <SectionGuard app="chart_review">
                <Suspense fallback={<LoadingRows label="Loading Chart Review" />}>
                  <ChartReviewApp fallback={<AppEntryPage app="chart_review" />} />
                </Suspense>
              </SectionGuard>,
            ),
          },
          // Project Admin app: project admins and superadmins (the check-admin answer), SPEC section 2 "Admin".
          { path: '/app/admin/:projectId', element: byId(<Navigate to="admin-dashboard" replace />) },
          { path: '/app/admin/:projectId/admin-dashboard', element: admin(<AdminDashboardPage />) },
          { path: '/app/admin/:projectId/edit-user/:userId', element: admin(<EditUserPage />) },
          { path: '/app/admin/:projectId/new-user-request', element: admin(<NewUserRequestPage />) },
          { path: '/app/admin/:projectId/project-details-edit', element: admin(<ProjectDetailsEditPage />) },
          { path: '/app/admin/:projectId/*', element: admin(<NotFoundPage />) },
          {
            // The app checks the user's standards role itself (GET /me): it is not part of the permission matrix.
            path: '/app/standards/:projectId/*',
            element: byId(
              <Suspense fallback={<LoadingRows label="Loading Standards" />}>
                <StandardsApp />
              </Suspense>,
            ),
          },
          {
            path: '/:projectId/standards',
            element: byId(
              <Suspense fallback={<LoadingRows label="Loading Standards" />}>
                <MyStandardsPage />
              </Suspense>,
            ),
          },
          // Superadmin group: anyone else goes to /not-superadmin.
          {
            element: <RequireSuperadmin />,
            children: [
              { path: '/superadmin', element: <SuperadminDashboardPage /> },
              { path: '/superadmin/terms_and_conditions', element: <TermsEditorPage /> },
              { path: '/superadmin/terms_and_conditions/history', element: <TermsHistoryPage /> },
              { path: '/superadmin/email-logs', element: <EmailLogsPage /> },
              { path: '/superadmin/audit-log', element: <AuditLogPage /> },
              { path: '/dev/editor', element: <DevEditorPage /> },
              { path: '/superadmin/projects', element: <ProjectsPage /> },
              { path: '/superadmin/projects/:id', element: guard({ id: 'projectId' }, <ProjectPage />) },
              { path: '/superadmin/users', element: <UsersPage /> },
              { path: '/superadmin/users/import', element: <ImportUsersPage /> },
              { path: '/superadmin/users/:id', element: guard({ id: 'projectId' }, <UserPage />) },
              { path: '/superadmin/new-user-requests', element: <NewUserRequestsPage /> },
              { path: '/superadmin/identity-providers', element: <IdentityProvidersPage /> },
              {
                path: '/superadmin/identity-providers/:id/mappings',
                element: guard({ id: 'projectId' }, <GroupMappingsPage />),
              },
              { path: '/superadmin/monitoring-permissions', element: <PermissionMatrixPage app="monitoring" /> },
              { path: '/superadmin/chart-review-permissions', element: <PermissionMatrixPage app="chart_review" /> },
              {
                path: '/superadmin/policy-management-permissions',
                element: <PermissionMatrixPage app="policy_management" />,
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

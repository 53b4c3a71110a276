import { Center, Loader } from '@mantine/core';
import type { PermissionApp } from '@portal/shared';
import { type ReactNode, useEffect } from 'react';
import { Navigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { AccessDenied } from '../../../components/AccessDenied';
import { ACCESS_TOASTS, type RouteSection, sectionOfSegment, useSectionAccess } from '../../../lib/permissions';
import { useCurrentProject } from '../../../lib/project/project-context';
import { useSession } from '../../../lib/session';

/** The section of an app route: the first path segment after the project ('' for the app's home). */
export function useSection(): string {
  const params = useParams();
  return (params['*'] ?? '').split('/').filter(Boolean)[0] ?? '';
}

function Waiting({ label }: { label: string }) {
  return (
    <Center py="xl" role="status" aria-label={label}>
      <Loader />
    </Center>
  );
}

/**
 * Shows `children` only when the user may open this section of `app` (SPEC section 6): the Access Denied panel
 * and the SPEC section 8 toast otherwise; a simple member on a monitoring administration page is sent to the
 * monitoring home; without a project, 'No project context.'. A path segment that names no section of the app is
 * denied like a section without a rule (superadmins pass, and see the app's not-found page).
 */
export function SectionGuard({ app, children }: { app: PermissionApp; children: ReactNode }) {
  const section = sectionOfSegment(app, useSection());
  const signedOut = useSession().status !== 'signed-in';
  const { projectId, loading } = useCurrentProject();
  // A session that just ended (inactivity, a sign-out in another tab) leaves the page without a project for a
  // moment before RequireAuth moves to the sign-in page: no project is missing then, so nothing is said.
  if (signedOut) return null;
  if (loading) return <Waiting label="Loading project" />;
  if (!projectId) return <NoProjectContext app={app} />;
  return (
    <SectionCheck app={app} section={section}>
      {children}
    </SectionCheck>
  );
}

function NoProjectContext({ app }: { app: PermissionApp }) {
  useEffect(() => {
    toast.error(ACCESS_TOASTS.noProject, { id: 'no-project-context' });
  }, []);
  return <AccessDenied app={app} reason={undefined} userRole={null} />;
}

function SectionCheck({
  app,
  section,
  children,
}: {
  app: PermissionApp;
  section: RouteSection | null;
  children: ReactNode;
}) {
  const access = useSectionAccess(app, section);
  const toastText = typeof access === 'object' && 'reason' in access ? access.toast : null;
  useEffect(() => {
    // One toast per message: sonner replaces a toast with the same id instead of stacking copies.
    if (toastText) toast.error(toastText, { id: toastText });
  }, [toastText]);

  if (access === 'loading') return <Waiting label="Checking your access" />;
  if (access === 'allowed') return children;
  if ('redirect' in access) return <Navigate to={access.redirect} replace />;
  return <AccessDenied app={app} reason={access.reason} userRole={access.role} />;
}

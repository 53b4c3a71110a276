import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AccessDenied } from '../../../components/AccessDenied';
import { checkAdminQueryOptions } from '../../../lib/project/check-admin';
import { useCurrentProject, useIsSuperadmin } from '../../../lib/project/project-context';

/** The Admin app: superadmins and the project's admins (GET .../check-admin), nobody else (SPEC section 6). */
export function AdminGuard({ children }: { children: ReactNode }) {
  const superadmin = useIsSuperadmin();
  const { projectId, loading } = useCurrentProject();
  const check = useQuery({ ...checkAdminQueryOptions(projectId ?? '0'), enabled: projectId !== null && !superadmin });
  if (superadmin) return children;
  if (loading || (projectId && check.isPending)) {
    return (
      <Center py="xl" role="status" aria-label="Checking your access">
        <Loader />
      </Center>
    );
  }
  if (projectId && check.data === true) return children;
  return <AccessDenied app="policy_management" reason={projectId ? 'forbidden' : undefined} userRole={null} />;
}

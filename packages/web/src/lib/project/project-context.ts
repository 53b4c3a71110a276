import type { Project } from '@portal/shared';
import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { isTwoFactorOverdue, useSession } from '../session';
import { useProject } from './get-project';
import { useProjects } from './get-projects';
import { projectRefFromPath, readLastProjectId, rememberProjectId, subscribeLastProjectId } from './project-path';

export function useIsSuperadmin(): boolean {
  const session = useSession();
  return session.status === 'signed-in' && session.user.role === 'superadmin';
}

/**
 * The project id the current path names (/app/{module}/{projectId}/..., /member/projects/{projectId}/...,
 * /{projectId}/standards), or null. A slug (/app/policy_management/{slug}/...) is resolved through the user's
 * project list.
 */
export function useProjectId(): string | null {
  return usePathProject().id;
}

/** The path's project id, and whether a slug in the path is still being looked up. */
function usePathProject(): { id: string | null; named: boolean; resolving: boolean } {
  const { pathname } = useLocation();
  const session = useSession();
  const superadmin = session.status === 'signed-in' && session.user.role === 'superadmin';
  const ref = projectRefFromPath(pathname);
  const needsList = ref !== null && 'slug' in ref && session.status === 'signed-in' && !isTwoFactorOverdue(session);
  const projects = useProjects(superadmin, needsList);
  if (!ref) return { id: null, named: false, resolving: false };
  if ('id' in ref) return { id: ref.id, named: true, resolving: false };
  const match = projects.data?.find((project) => project.slug === ref.slug);
  return { id: match ? String(match.id) : null, named: true, resolving: needsList && projects.isPending };
}

export interface CurrentProject {
  /** Set once the project has loaded: project-scoped screens and calls use it. */
  projectId: string | null;
  project: Project | undefined;
  /** True while a named or remembered project is still being looked up. */
  loading: boolean;
}

/**
 * The project the user works in: the one the path names, else (when the path names none) the last one opened in
 * this browser. A lookup that
 * fails (404 for a project the user cannot see, or any other error) falls back silently to "no project" (SPEC
 * section 8) and forgets a remembered id that no longer works.
 */
export function useCurrentProject(): CurrentProject {
  const session = useSession();
  // While two-factor setup is overdue the server answers no project call: none is made.
  const signedIn = session.status === 'signed-in' && !isTwoFactorOverdue(session);
  const superadmin = signedIn && session.user.role === 'superadmin';
  const fromPath = usePathProject();
  const remembered = useSyncExternalStore(subscribeLastProjectId, readLastProjectId, () => null);
  // A path that names a project never falls back to another one; other paths use the remembered project.
  const id = signedIn && !fromPath.resolving ? (fromPath.named ? fromPath.id : remembered) : null;
  const query = useProject(id, superadmin);

  const loadedId = query.data ? String(query.data.id) : null;
  useEffect(() => {
    if (loadedId) rememberProjectId(loadedId);
  }, [loadedId]);
  const failed = query.isError;
  useEffect(() => {
    if (failed && id !== null && id === readLastProjectId()) rememberProjectId(null);
  }, [failed, id]);

  if (!id || !query.data || String(query.data.id) !== id) {
    return { projectId: null, project: undefined, loading: fromPath.resolving || (id !== null && query.isPending) };
  }
  return { projectId: id, project: query.data, loading: false };
}

import { isProjectId, isProjectRef } from '@portal/shared';

/** A project named by a path: its numeric id, or a slug still to be resolved against the user's projects. */
export type ProjectRef = { id: string } | { slug: string };

/**
 * The project a path names (SPEC section 2): /app/{module}/{projectId}/..., /member/projects/{projectId}/... and
 * /{projectId}/standards. Values are checked against the shared patterns; anything else names no project.
 */
export function projectRefFromPath(pathname: string): ProjectRef | null {
  const parts = pathname.split('/').filter(Boolean);
  // /app/policy_generator/...: the generator works in the current project; its sections are not projects.
  if (parts[0] === 'app' && parts[1] === 'policy_generator') return null;
  let candidate: string | undefined;
  if (parts[0] === 'app' && parts.length >= 3) candidate = parts[2];
  else if (parts[0] === 'member' && parts[1] === 'projects' && parts.length >= 3) candidate = parts[2];
  else if (parts.length === 2 && parts[1] === 'standards')
    return parts[0] && isProjectId(parts[0]) ? { id: parts[0] } : null;
  if (!candidate) return null;
  let value: string;
  try {
    value = decodeURIComponent(candidate);
  } catch {
    return null;
  }
  if (isProjectId(value)) return { id: value };
  // /app/monitoring/pages/page/{id}: "pages" is a section, not a project.
  if (parts[0] === 'app' && parts[1] === 'monitoring' && value === 'pages') return null;
  return isProjectRef(value) ? { slug: value } : null;
}

export const LAST_PROJECT_KEY = 'portal.lastProjectId';

/** The last project the user opened in this browser (validated: stored values are not trusted). */
export function readLastProjectId(): string | null {
  try {
    const value = window.localStorage.getItem(LAST_PROJECT_KEY);
    return value && isProjectId(value) ? value : null;
  } catch {
    return null;
  }
}

// Screens that show the current project (the navbar, the generator's picker) re-render when it changes.
const listeners = new Set<() => void>();

/** For useSyncExternalStore: called whenever rememberProjectId changes the remembered project. */
export function subscribeLastProjectId(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function rememberProjectId(id: string | null): void {
  if (id !== null && !isProjectId(id)) return;
  if (readLastProjectId() === id) return;
  try {
    if (id === null) window.localStorage.removeItem(LAST_PROJECT_KEY);
    else window.localStorage.setItem(LAST_PROJECT_KEY, id);
  } catch {
    // Storage unavailable (private mode): the project is simply not remembered.
    return;
  }
  for (const listener of listeners) listener();
}

import { useEffect } from 'react';
import { apiFetch } from './api';

/**
 * The monitoring dashboard audit (SPEC section 7): a visit when the Analytics entry page opens, a logout when the
 * user signs out after visiting. The project of the last visit in this tab is kept so the logout names it.
 */
let visitedProject: string | null = null;
/** React's development double-run of effects must not record two visits. */
const REPEAT_WINDOW_MS = 1000;
let lastVisit: { projectId: string; at: number } | null = null;

/** Records a visit; null when the same visit was just recorded. */
export function postDashboardVisit(projectId: string): Promise<void> | null {
  const now = Date.now();
  if (lastVisit && lastVisit.projectId === projectId && now - lastVisit.at < REPEAT_WINDOW_MS) return null;
  lastVisit = { projectId, at: now };
  visitedProject = projectId;
  return apiFetch(`/api/projects/${projectId}/monitoring/audit/dashboard-visit`, { method: 'POST' });
}

/** At logout: records the end of the dashboard visit, if there was one. A failure is ignored (SPEC section 8). */
export async function postDashboardLogout(): Promise<void> {
  const projectId = visitedProject;
  visitedProject = null;
  if (!projectId) return;
  try {
    await apiFetch(`/api/projects/${projectId}/monitoring/audit/dashboard-logout`, { method: 'POST' });
  } catch {
    // Ignored: the sign-out goes on.
  }
}

export function resetDashboardAuditForTests(): void {
  visitedProject = null;
  lastVisit = null;
}

/** Records the visit once per opening of an Analytics screen that shows the programme (home, a page). */
export function useDashboardVisitAudit(projectId: string | null): void {
  useEffect(() => {
    if (!projectId) return;
    postDashboardVisit(projectId)?.catch(() => {
      // An audit failure never blocks the page; the server logs its own errors.
    });
  }, [projectId]);
}

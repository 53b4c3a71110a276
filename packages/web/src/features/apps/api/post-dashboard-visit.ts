import { useEffect } from 'react';
import { postDashboardVisit } from '../../../lib/monitoring-audit';

/** POST .../monitoring/audit/dashboard-visit once per opening of the Analytics entry page. */
export function useDashboardVisitAudit(projectId: string | null): void {
  useEffect(() => {
    if (!projectId) return;
    postDashboardVisit(projectId)?.catch(() => {
      // An audit failure never blocks the page; the server logs its own errors.
    });
  }, [projectId]);
}

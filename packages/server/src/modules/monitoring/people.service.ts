import type { MainRoleDashboard, MonitoringPerson, MonitoringWorkKind } from '@portal/shared';
import { MONITORING_MAIN_ROLES } from '@portal/shared';
import { and, count, eq, inArray, isNull, notExists, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { monInsights, monPages, monRequests, monUsers, projectMemberships } from '../../db/schema/index.js';
import { projectAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { listAppUsers } from '../people/people.service.js';

/**
 * Monitoring's people beyond what every app shares (modules/people: who takes part, main roles, new-user requests;
 * decision record 008, docs/monitoring.md "People and permissions"): the audit of monitoring changes, the checks
 * that people named take part in monitoring, and the main-role dashboard.
 */

/** Records a monitoring change (`monitoring.<action>`) in the transaction of the change. */
export const monitoringAudit = projectAudit('monitoring');

/** The ids among `userIds` that are monitoring users of the project. */
export async function monitoringUserIds(db: DbOrTx, projectId: number, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: monUsers.userId })
    .from(monUsers)
    .innerJoin(
      projectMemberships,
      and(eq(projectMemberships.projectId, monUsers.projectId), eq(projectMemberships.userId, monUsers.userId)),
    )
    .where(and(eq(monUsers.projectId, projectId), inArray(monUsers.userId, userIds)));
  return new Set(rows.map((row) => row.userId));
}

/** A 400 naming `field.{index}` for each id that is not a monitoring user of the project. */
export async function requireMonitoringUsers(db: DbOrTx, projectId: number, userIds: number[], field: string) {
  const found = await monitoringUserIds(db, projectId, userIds);
  const errors: Record<string, string[]> = {};
  userIds.forEach((userId, i) => {
    if (!found.has(userId)) errors[`${field}.${i}`] = ['This person does not take part in monitoring.'];
  });
  if (Object.keys(errors).length) {
    throw new AppError('VALIDATION_FAILED', 'Some of the people chosen do not take part in monitoring.', errors);
  }
}

const OPEN_REQUEST = ['submitted', 'triaged', 'in_progress'];

/**
 * The main-role dashboard: per main role its people and their open work (counts only, so no page title reaches the
 * screen), and the monitoring users without a main role.
 */
export async function mainRoleDashboard(db: DbOrTx, projectId: number): Promise<MainRoleDashboard> {
  const people = await listAppUsers(db, 'monitoring', projectId);
  const livePage = and(eq(monPages.projectId, projectId), isNull(monPages.deletedAt));
  const byOwner = async (where: ReturnType<typeof and>) =>
    new Map(
      (
        await db
          .select({ userId: monPages.ownerId, n: count() })
          .from(monPages)
          .where(and(livePage, where))
          .groupBy(monPages.ownerId)
      ).map((row) => [row.userId, row.n]),
    );
  const withoutInsight = await byOwner(
    notExists(
      db
        .select({ one: sql`1` })
        .from(monInsights)
        .where(
          and(
            eq(monInsights.projectId, projectId),
            eq(monInsights.pageId, monPages.id),
            eq(monInsights.status, 'published'),
            isNull(monInsights.deletedAt),
          ),
        ),
    ),
  );
  const drafts = await byOwner(eq(monPages.status, 'draft'));
  const [withoutOwner] = await db
    .select({ n: count() })
    .from(monPages)
    .where(and(livePage, isNull(monPages.ownerId)));
  const requestsBy = async (column: typeof monRequests.assigneeId | typeof monRequests.requesterId) =>
    new Map(
      (
        await db
          .select({ userId: column, n: count() })
          .from(monRequests)
          .where(and(eq(monRequests.projectId, projectId), inArray(monRequests.status, OPEN_REQUEST)))
          .groupBy(column)
      ).map((row) => [row.userId, row.n]),
    );
  const assigned = await requestsBy(monRequests.assigneeId);
  const filed = await requestsBy(monRequests.requesterId);
  const [unassigned] = await db
    .select({ n: count() })
    .from(monRequests)
    .where(
      and(eq(monRequests.projectId, projectId), eq(monRequests.status, 'submitted'), isNull(monRequests.assigneeId)),
    );

  const workOf = (role: string, userId: number): { kind: MonitoringWorkKind; count: number }[] => {
    switch (role) {
      case 'monitoring_admin':
        return [
          { kind: 'unassigned_requests', count: unassigned?.n ?? 0 },
          { kind: 'pages_without_owner', count: withoutOwner?.n ?? 0 },
        ];
      case 'page_owner':
        return [
          { kind: 'pages_without_insight', count: withoutInsight.get(userId) ?? 0 },
          { kind: 'draft_pages', count: drafts.get(userId) ?? 0 },
        ];
      case 'data_entry':
        return [{ kind: 'assigned_requests', count: assigned.get(userId) ?? 0 }];
      default:
        return [{ kind: 'own_open_requests', count: filed.get(userId) ?? 0 }];
    }
  };
  const brief = (person: MonitoringPerson) => ({ id: person.id, name: person.name, username: person.username });
  return {
    roles: MONITORING_MAIN_ROLES.map((role) => ({
      role,
      people: people
        .filter((person) => person.main_role === role)
        .map((person) => ({ ...brief(person), work: workOf(role, person.id) })),
    })),
    without_role: people.filter((person) => person.main_role === null).map(brief),
  };
}

import type { AuditAction, AuditActionIn } from '@portal/shared';
import type { DbOrTx } from '../db/client.js';
import { auditEvents } from '../db/schema/index.js';

export interface AuditEvent {
  /** One of the known actions (shared audit-events.ts): an unknown name fails typecheck. */
  action: AuditAction;
  projectId?: number | null;
  actorUserId?: number | null;
  subjectType?: string;
  subjectId?: string | number;
  /** What happened; an update carries `changes` from lib/audit-diff.ts (`{ field: { from, to } }`). */
  data?: Record<string, unknown>;
  ip?: string | null;
  requestId?: string | null;
  /**
   * When it happened: the app clock's time where the caller has it (`app.clock.now()`, a service's `now`), so an event
   * stamps the same moment as the change it records. Without it the database's time (the column default). The hash
   * chain hashes the stored value as PostgreSQL renders it, so either is sealed the same way (lib/audit-chain.ts).
   */
  at?: Date;
}

/** Appends an audit event. Pass the transaction of the change it records, so both land or neither does. */
export async function recordAudit(tx: DbOrTx, event: AuditEvent): Promise<void> {
  await tx.insert(auditEvents).values({
    action: event.action,
    projectId: event.projectId ?? null,
    actorUserId: event.actorUserId ?? null,
    subjectType: event.subjectType ?? null,
    subjectId: event.subjectId === undefined ? null : String(event.subjectId),
    data: event.data ?? {},
    ip: event.ip ?? null,
    requestId: event.requestId ?? null,
    ...(event.at ? { createdAt: event.at } : {}),
  });
}

/** Who acts in a project: the person, their project, and the request that carries the change. */
export interface ProjectActorFacts {
  userId: number | null;
  projectId: number;
  ip: string | null;
  requestId: string | null;
}

/**
 * The audit recorder of one project app: `<app>.<action>` by the actor, in the actor's project, in the transaction
 * of the change, at `at` (the clock's time of the change). Each app's services hold one (`monitoringAudit`, ...).
 */
export function projectAudit<App extends string>(app: App) {
  return (
    tx: DbOrTx,
    actor: ProjectActorFacts,
    action: AuditActionIn<App>,
    subject: { type: string; id: number | string },
    data: Record<string, unknown> = {},
    at?: Date,
  ): Promise<void> =>
    recordAudit(tx, {
      action: `${app}.${action}` as AuditAction,
      projectId: actor.projectId,
      actorUserId: actor.userId,
      subjectType: subject.type,
      subjectId: subject.id,
      data,
      ip: actor.ip,
      requestId: actor.requestId,
      ...(at ? { at } : {}),
    });
}

/**
 * The audit recorder of one kind of row of a project app (`subjectAudit('monitoring', 'mon_chart')`): as
 * projectAudit, with the row's id as the subject.
 */
export function subjectAudit<App extends string>(app: App, type: string) {
  const record = projectAudit(app);
  return (
    tx: DbOrTx,
    actor: ProjectActorFacts,
    action: AuditActionIn<App>,
    id: number | string,
    data: Record<string, unknown> = {},
    at?: Date,
  ): Promise<void> => record(tx, actor, action, { type, id }, data, at);
}

import type { MonitoringSection } from '@portal/shared';
import type { DbOrTx } from '../db/client.js';
import { AppError } from '../lib/errors.js';
import type { SessionUser } from '../plugins/session.js';
import { type AppActor, appAccess, mayUseSection } from './app-access.js';

/**
 * Who may do what in a project's monitoring (docs/permissions.md, decision record 008): the shared app access rules
 * (app-access.ts) over the monitoring sections. What a person may do on one page is decided per page (page-access.ts).
 */
export type MonitoringActor = AppActor;

export function monitoringAccess(
  db: DbOrTx,
  user: SessionUser,
  request: { ip: string; id: string },
  projectId: number,
  section: MonitoringSection,
): Promise<MonitoringActor> {
  return appAccess(db, 'monitoring', user, request, projectId, section);
}

/** Whether the actor's role may use a section (for abilities and for what a list shows). */
export const canUse: (actor: MonitoringActor, section: MonitoringSection) => boolean = mayUseSection;

/** Monitoring administrators (and superadmins) see and manage every page, restricted or not. */
export const administersMonitoring = (actor: MonitoringActor) =>
  actor.isSuperadmin || actor.role === 'monitoring_admin';

/**
 * A check of the actor alone, for a call about no one record (the queue of data requests, the page owners a form
 * offers, the programme introduction): 403 with `refusal` unless `may(actor)`. A record's own decisions are record
 * rules (monitoring-records.ts).
 */
export function requireActor(actor: MonitoringActor, may: (actor: MonitoringActor) => boolean, refusal: string): void {
  if (!may(actor)) throw new AppError('FORBIDDEN', refusal);
}

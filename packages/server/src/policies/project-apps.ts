import {
  APP_CODES,
  type AppCode,
  type AppUnavailableCause,
  appsUnavailableReason,
  type MyApp,
  PERMISSION_APPS,
  type PermissionApp,
} from '@portal/shared';
import type { DbOrTx } from '../db/client.js';
import { AppError } from '../lib/errors.js';
import type { SessionUser } from '../plugins/session.js';
import { appAccess, mainRoleIn } from './app-access.js';
import { GENERATE } from './generator-records.js';
import { isProjectAdmin, type ProjectAccess, projectAccess } from './projects.js';
import { standardsAccess } from './standards.js';

/**
 * Which of a project's active apps a person can open, and why not the others (issue 32): the project page shows a
 * card for each app they can open and one explanation for the rest, and the navigation leaves out the links of the
 * rest. Nothing is decided here that the apps' own gates do not decide; each answer asks the gate the app's calls
 * pass through (docs/permissions.md "What the project page shows"):
 * - monitoring, policy management, chart review: a main role in the app (appAccess answers "unconfigured" without);
 * - standards: a standards role (standardsAccess; project admins and superadmins are standards admins);
 * - admin: project admins and superadmins (isProjectAdmin);
 * - the policy generator: policy management switched on, and a policy management role whose rules allow its
 *   `policy-generator` section (the gate of its routes: modules/policy-generator/kit.ts generatorAccess).
 * Superadmins pass every gate. Non-members get 404 (projectAccess). On a read of the project's address the session
 * read everything this needs (plugins/session.ts ProjectContext): no statement of its own.
 */
export async function projectAppsOf(
  db: DbOrTx,
  user: SessionUser,
  request: { ip: string; id: string },
  projectId: number,
): Promise<MyApp[]> {
  const access = await projectAccess(db, user, projectId);
  const active = APP_CODES.filter((code) => access.project.activeApps.includes(code));
  const apps: MyApp[] = [];
  for (const code of active) {
    const cause = await unavailableCause(db, user, request, access, code);
    apps.push({
      code,
      usable: cause === null,
      reason: cause === null ? null : appsUnavailableReason(cause, [code]),
      cause,
    });
  }
  return apps;
}

const isPermissionApp = (code: AppCode): code is PermissionApp => (PERMISSION_APPS as readonly string[]).includes(code);

async function unavailableCause(
  db: DbOrTx,
  user: SessionUser,
  request: { ip: string; id: string },
  access: ProjectAccess,
  code: AppCode,
): Promise<AppUnavailableCause | null> {
  const projectId = access.project.id;
  if (isPermissionApp(code)) {
    return access.isSuperadmin || (await mainRoleIn(db, access, user, code)) ? null : 'no_role';
  }
  switch (code) {
    case 'standards':
      return (await passes(() => standardsAccess(db, user, request, projectId))) ? null : 'no_standards_role';
    case 'admin':
      return isProjectAdmin(access) ? null : 'admins_only';
    case 'policy_generator':
      if (!access.project.activeApps.includes('policy_management')) return 'needs_policy_management';
      if (!access.isSuperadmin && !(await mainRoleIn(db, access, user, 'policy_management'))) {
        return 'needs_policy_role';
      }
      return (await passes(() => appAccess(db, 'policy_management', user, request, projectId, GENERATE)))
        ? null
        : 'policy_role_excludes';
  }
}

/** Whether a gate lets the person through: true, or false for its 403 (anything else is thrown on). */
async function passes(gate: () => Promise<unknown>): Promise<boolean> {
  try {
    await gate();
    return true;
  } catch (error) {
    if (error instanceof AppError && error.status === 403) return false;
    throw error;
  }
}

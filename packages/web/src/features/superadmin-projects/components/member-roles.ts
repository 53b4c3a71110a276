import { type MainRoles, type Member, PERMISSION_APPS } from '@portal/shared';
import type { z } from 'zod';
import type { MemberRoles } from '../../../components/MemberRoleFields';
import { APP_ROLE_LABELS, roleLabel } from '../../../lib/role-labels';

/** The keys MemberRoleFields shows server messages under. */
export const ROLE_FIELDS = [
  'project_role',
  'main_roles',
  ...PERMISSION_APPS.map((app) => `main_roles.${app}` as const),
] as const;
export type RoleField = (typeof ROLE_FIELDS)[number];

export const NEW_MEMBER_ROLES: MemberRoles = { project_role: 'simple', main_roles: {} };

/** A member's roles as the editor holds them. */
export function rolesOf(member: Member): MemberRoles {
  const main_roles: Record<string, string | null> = {};
  for (const app of PERMISSION_APPS) main_roles[app] = member.main_roles[app];
  return { project_role: member.project_role, main_roles: main_roles as MainRoles };
}

/** Every app's main role, null for none: what is sent when the main roles change. */
export function allMainRoles(roles: MainRoles): MainRoles {
  const all: Record<string, string | null> = {};
  for (const app of PERMISSION_APPS) all[app] = roles[app] ?? null;
  return all as MainRoles;
}

/** "Monitoring: Page owner" for each app where the member has a main role. */
export function mainRoleSummary(member: Member): string[] {
  return PERMISSION_APPS.flatMap((app) => {
    const role = member.main_roles[app];
    return role ? [`${APP_ROLE_LABELS[app]}: ${roleLabel(role)}`] : [];
  });
}

/** The first message per field of a failed parse, keyed by the whole path ("main_roles.monitoring"). */
export function roleFieldErrors(error: z.ZodError): Partial<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || 'form';
    if (!(key in found)) found[key] = issue.message;
  }
  return found;
}

import { PERMISSION_APPS } from '@portal/shared';
import { APP_ROLE_LABELS, roleLabel } from '../../../lib/role-labels';

export function fullName(person: { first_name: string; last_name: string }, fallback = 'Unnamed user'): string {
  return `${person.first_name} ${person.last_name}`.trim() || fallback;
}

/** 'Monitoring: Page owner' per app with a main role; apps without one are left out. */
export function mainRoleLines(mainRoles: Partial<Record<string, string | null | undefined>>): string[] {
  return PERMISSION_APPS.filter((app) => mainRoles[app]).map(
    (app) => `${APP_ROLE_LABELS[app]}: ${roleLabel(mainRoles[app])}`,
  );
}

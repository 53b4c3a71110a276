import { PERMISSION_APPS } from '@portal/shared';
import { APP_ROLE_LABELS, roleLabel } from '../../../lib/role-labels';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** '2026-03-04T18:00:00Z' -> 'Mar 4, 2026, 10:00 AM' in the reader's time zone; an unreadable value as it came. */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTime.format(date);
}

/** '2026-03-04T18:00:00Z' -> 'Mar 4, 2026'. */
export function formatDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateOnly.format(date);
}

export function fullName(person: { first_name: string; last_name: string }, fallback = 'Unnamed user'): string {
  return `${person.first_name} ${person.last_name}`.trim() || fallback;
}

/** 'Monitoring: Page owner' per app with a main role; apps without one are left out. */
export function mainRoleLines(mainRoles: Partial<Record<string, string | null | undefined>>): string[] {
  return PERMISSION_APPS.filter((app) => mainRoles[app]).map(
    (app) => `${APP_ROLE_LABELS[app]}: ${roleLabel(mainRoles[app])}`,
  );
}

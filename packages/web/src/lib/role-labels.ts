import { MAIN_ROLES, PERMISSION_APPS, type PermissionApp } from '@portal/shared';

/** Names people read for the role codes of @portal/shared (docs/permissions.md explains each role). */
export const APP_ROLE_LABELS: Record<PermissionApp, string> = {
  monitoring: 'Monitoring',
  policy_management: 'Policy management',
  chart_review: 'Chart review',
};

export const PROJECT_ROLE_LABELS = { admin: 'Project admin', simple: 'Member' } as const;

/** `policy_admin` -> `Policy admin`. */
export function roleLabel(code: string | null | undefined): string {
  if (!code) return 'No role';
  const words = code.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const mainRoleOptions = (app: PermissionApp) => [
  { value: '', label: 'No role' },
  ...MAIN_ROLES[app].map((role) => ({ value: role, label: roleLabel(role) })),
];

export { PERMISSION_APPS };

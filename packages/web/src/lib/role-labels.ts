import {
  MAIN_ROLE_LABELS,
  MAIN_ROLES,
  type MainRole,
  type MonitoringMainRole,
  PERMISSION_APPS,
  type PermissionApp,
  type POLICY_MAIN_ROLES,
} from '@portal/shared';

/** Names people read for the role codes of @portal/shared (docs/permissions.md explains each role). */
export const APP_ROLE_LABELS: Record<PermissionApp, string> = {
  monitoring: 'Monitoring',
  policy_management: 'Policy management',
  chart_review: 'Chart review',
};

export const PROJECT_ROLE_LABELS = { admin: 'Project admin', simple: 'Member' } as const;

/** `policy_admin` -> `Policy admin` (shared MAIN_ROLE_LABELS; a code it does not know, in words). */
export function roleLabel(code: string | null | undefined): string {
  if (!code) return 'No role';
  const known = (MAIN_ROLE_LABELS as Record<string, string | undefined>)[code as MainRole];
  if (known) return known;
  const words = code.replace(/[_-]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const mainRoleOptions = (app: PermissionApp) => [
  { value: '', label: 'No role' },
  ...MAIN_ROLES[app].map((role) => ({ value: role, label: roleLabel(role) })),
];

/** What each main role may do in its app (the role guides of the people screens and the main-role dashboard). */
export const MAIN_ROLE_DESCRIPTIONS: {
  policy_management: Record<(typeof POLICY_MAIN_ROLES)[number], string>;
  monitoring: Record<MonitoringMainRole, string>;
} = {
  policy_management: {
    policy_admin: 'Everything, including numbering, departments, people and import.',
    author: 'Writes drafts and new versions.',
    reviewer: 'Reviews the drafts of their departments.',
    signer: 'Signs policies.',
    reader: 'Reads and acknowledges published policies.',
  },
  monitoring: {
    monitoring_admin: 'Everything, including the page tree, levels, users and permissions.',
    page_owner: 'Edits the pages they own and writes key insights.',
    data_entry: 'Imports data and answers data requests.',
    viewer: 'Reads pages and asks for data.',
  },
};

export { PERMISSION_APPS };

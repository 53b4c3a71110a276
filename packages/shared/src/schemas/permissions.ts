import { z } from 'zod';
import { queryRecordId } from './common.js';

/**
 * Main roles per app (docs/permissions.md). A member has a project role (admin, simple) and, per app, at most one
 * main role. Permission rules map a section path of an app to the main roles allowed there.
 */
export const POLICY_MAIN_ROLES = ['policy_admin', 'author', 'reviewer', 'signer', 'reader'] as const;
export const MONITORING_MAIN_ROLES = ['monitoring_admin', 'page_owner', 'data_entry', 'viewer'] as const;
export const CHART_REVIEW_MAIN_ROLES = ['chart_review_admin', 'program_lead', 'reviewer', 'viewer'] as const;
/** The apps whose sections are guarded by main roles and a permission matrix. */
export const PERMISSION_APPS = ['monitoring', 'policy_management', 'chart_review'] as const;
export type PermissionApp = (typeof PERMISSION_APPS)[number];
export const MAIN_ROLES = {
  monitoring: MONITORING_MAIN_ROLES,
  policy_management: POLICY_MAIN_ROLES,
  chart_review: CHART_REVIEW_MAIN_ROLES,
} as const satisfies Record<PermissionApp, readonly string[]>;

export type MainRole<A extends PermissionApp = PermissionApp> = (typeof MAIN_ROLES)[A][number];

/** The main roles as people read them, on every screen (never the code; chart review says "programme"). */
export const MAIN_ROLE_LABELS: Record<MainRole, string> = {
  policy_admin: 'Policy admin',
  author: 'Author',
  reviewer: 'Reviewer',
  signer: 'Signer',
  reader: 'Reader',
  monitoring_admin: 'Monitoring admin',
  page_owner: 'Page owner',
  data_entry: 'Data entry',
  viewer: 'Viewer',
  chart_review_admin: 'Chart review admin',
  program_lead: 'Programme lead',
};

/**
 * The sections of each app that the permission matrix guards (docs/permissions.md): every path the server's default
 * rules cover (packages/server/src/policies/permission-defaults.ts gives each one its roles), the sections the
 * routes and the web's section guards name. The order is the order of the superadmin's matrices. A path that is not
 * listed has no default rule, and a path without a rule is denied (isAllowed).
 */
export const PERMISSION_SECTIONS = {
  monitoring: [
    'introduction',
    'pages',
    'page',
    'request-form',
    'edit-page',
    'key-insights',
    'request-queue',
    'page-charts',
    'add-page-chart',
    'edit-page-chart',
    'csv-import',
    'formula-builder',
    'page-levels',
    'numbering',
    'page-numbering',
    'drag-and-drop',
    'create-page',
    'update-page-list-tables',
    'page-permissions',
    'add-standards',
    'create-user',
    'assign-users',
    'manage-users',
    'assign-main-role',
    'main-role-dashboard',
    'page-role-manager',
  ],
  policy_management: [
    'toc',
    'documents',
    'navigator',
    'archive-navigator',
    'quick-reference-guide',
    'healthy-departments',
    'bulk-read',
    'bulk-sign',
    'attestation-reports',
    'bulk-send-to-sign',
    'bulk-new-version',
    'edit-documents',
    'policy-generator',
    'admin-dashboard',
    'numbering',
    'search-synonyms',
    'convert',
    'dnd',
    'insert-department',
    'edit-department',
    'department-reviewers',
    'department-signers',
    'department-readers',
    'policy-users',
    'create-project-user',
    'assign-users',
    'manage-users',
    'assign-main-role',
    'edit-main-role',
    'add-standards',
    'archive-documents',
    'generator-templates',
  ],
  chart_review: ['dashboard', 'my', 'review', 'programs', 'sampling', 'irr', 'findings', 'tools', 'settings'],
} as const satisfies Record<PermissionApp, readonly string[]>;
/** A section of an app (of any app when none is given). */
export type PermissionSection<A extends PermissionApp = PermissionApp> = (typeof PERMISSION_SECTIONS)[A][number];
export type MonitoringSection = PermissionSection<'monitoring'>;
export type PolicySection = PermissionSection<'policy_management'>;
export type ChartReviewSection = PermissionSection<'chart_review'>;

/** Whether `path` names a section of `app` (exactly, as the routes and the rules spell it). */
export function isPermissionSection<A extends PermissionApp>(app: A, path: string): path is PermissionSection<A> {
  return (PERMISSION_SECTIONS[app] as readonly string[]).includes(path);
}

/** The key of a section in the permission map of GET /api/me/permissions: "{app}:{section}". */
export function permissionKey<A extends PermissionApp>(app: A, section: NoInfer<PermissionSection<A>>): string {
  return `${app}:${section}`;
}

/** The SPEC's permission-cache version key (section 7): bump it when the shape of rules changes. */
export const PERMISSION_CACHE_VERSION = '2025-09-06-v1';

export const permissionRuleSchema = z.object({ path: z.string(), allowed_roles: z.array(z.string()) });
export type PermissionRule = z.infer<typeof permissionRuleSchema>;
/** GET /api/projects/{id}/monitoring/permissions and .../policy-management/permissions. */
export const permissionRulesSchema = z.object({ rules: z.array(permissionRuleSchema) });

/** GET /api/projects/{id}/monitoring/me. */
export const monitoringMeSchema = z.object({
  main_role: z.string().nullable(),
  project_role: z.enum(['admin', 'simple']).nullable(),
  is_superadmin: z.boolean(),
});
/** GET /api/projects/{id}/policy-management/me. */
export const policyMeSchema = z.object({
  main_role: z.string().nullable(),
  project_role: z.enum(['admin', 'simple']).nullable(),
  can_sign: z.boolean(),
});

/** GET /api/me/permissions?project={id}&app=..&apps=a,b: { "{app}:{section}": allowed }. */
export const myPermissionsQuerySchema = z.object({
  project: queryRecordId,
  app: z.enum(PERMISSION_APPS).optional(),
  apps: z.string().max(200).optional(),
});
export const myPermissionsSchema = z.object({ permissions: z.record(z.string(), z.boolean()) });

/** Access reasons of SPEC section 4 and their texts (section 6). */
export const ACCESS_DENIED = {
  title: 'Access Denied !',
  forbidden: 'Your role is not permitted to access this section.',
  unconfigured: {
    monitoring:
      'You do not have access to monitoring features yet. Contact an administrator to assign you a monitoring role.',
    policy_management:
      'You do not have access to policy management features yet. Contact an administrator to assign you a policy management role.',
    chart_review:
      'You do not have access to chart review features yet. Contact an administrator to assign you a chart review role.',
  },
  roleUnavailable: {
    monitoring: 'We could not determine your monitoring role. Please refresh or contact support.',
    policy_management: 'We could not determine your policy management role. Please refresh or contact support.',
    chart_review: 'We could not determine your chart review role. Please refresh or contact support.',
  },
  unknown: 'Access denied.',
} as const;
export type AccessReason = 'forbidden' | 'unconfigured' | 'roleUnavailable';

/**
 * SPEC section 6, the one rule check both sides use: roles compared case-insensitively; a rule with an empty or
 * missing list, or a user without a role: denied. Several roles (monitoring's multi-role check) must all be allowed.
 * No rule for the path: denied (issue 26, decision record 020; SPEC says allowed). The rules in force always hold a
 * rule for every section of PERMISSION_SECTIONS (the server fills the project's gaps with the defaults), so only a
 * path that is no section at all, a typo or a section somebody forgot to give a default, finds no rule: it fails
 * closed instead of opening to everyone.
 */
export function isAllowed(
  rules: readonly PermissionRule[],
  path: string,
  roles: string | readonly string[] | null,
): boolean {
  const rule = rules.find((r) => r.path.toLowerCase() === path.toLowerCase());
  if (!rule) return false;
  const wanted = (typeof roles === 'string' ? [roles] : (roles ?? [])).filter(Boolean);
  if (!rule.allowed_roles?.length || wanted.length === 0) return false;
  const allowed = new Set(rule.allowed_roles.map((r) => r.toLowerCase()));
  return wanted.every((role) => allowed.has(role.toLowerCase()));
}

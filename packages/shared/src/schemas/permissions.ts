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
 * missing list, or a user without a role: denied; no rule for the path: allowed. Several roles (monitoring's
 * multi-role check) must all be allowed.
 */
export function isAllowed(
  rules: readonly PermissionRule[],
  path: string,
  roles: string | readonly string[] | null,
): boolean {
  const rule = rules.find((r) => r.path.toLowerCase() === path.toLowerCase());
  if (!rule) return true;
  const wanted = (typeof roles === 'string' ? [roles] : (roles ?? [])).filter(Boolean);
  if (!rule.allowed_roles?.length || wanted.length === 0) return false;
  const allowed = new Set(rule.allowed_roles.map((r) => r.toLowerCase()));
  return wanted.every((role) => allowed.has(role.toLowerCase()));
}

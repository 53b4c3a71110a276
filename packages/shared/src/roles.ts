/** Role vocabulary of SPEC section 6. Module main roles arrive with their modules. */
export const GLOBAL_ROLES = ['superadmin', 'user'] as const;
export type GlobalRole = (typeof GLOBAL_ROLES)[number];

export const PROJECT_ROLES = ['admin', 'simple'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

export const USER_STATUSES = ['active', 'invited', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** App codes a project can activate (SPEC: Projects -> active apps). */
export const APP_CODES = [
  'monitoring',
  'policy_management',
  'chart_review',
  'standards',
  'admin',
  'policy_generator',
] as const;
export type AppCode = (typeof APP_CODES)[number];

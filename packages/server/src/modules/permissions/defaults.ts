import type { PermissionApp, PermissionRule } from '@portal/shared';

/**
 * Default permission rules per app: section path -> main roles allowed (docs/permissions.md explains each role).
 * A project's own rules (table permission_rules, edited by the superadmin) override these path by path. A section
 * without a rule is open to every member of the app; superadmins pass every check.
 */
const monitoringAll = ['monitoring_admin', 'page_owner', 'data_entry', 'viewer'];
const monitoringEditors = ['monitoring_admin', 'page_owner'];
const monitoringData = ['monitoring_admin', 'page_owner', 'data_entry'];
const monitoringAdmin = ['monitoring_admin'];

const policyAll = ['policy_admin', 'author', 'reviewer', 'signer', 'reader'];

const chartReviewAll = ['chart_review_admin', 'program_lead', 'reviewer', 'viewer'];
const chartReviewLeads = ['chart_review_admin', 'program_lead'];
const policyAdmin = ['policy_admin'];

export const DEFAULT_RULES: Record<PermissionApp, PermissionRule[]> = {
  monitoring: [
    ...['introduction', 'pages', 'page', 'request-form'].map((path) => ({ path, allowed_roles: monitoringAll })),
    ...['edit-page', 'key-insights'].map((path) => ({ path, allowed_roles: monitoringEditors })),
    // The data stewards who answer data requests (issue 8).
    { path: 'request-queue', allowed_roles: ['monitoring_admin', 'data_entry'] },
    ...['page-charts', 'add-page-chart', 'edit-page-chart', 'csv-import', 'formula-builder'].map((path) => ({
      path,
      allowed_roles: monitoringData,
    })),
    ...[
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
    ].map((path) => ({ path, allowed_roles: monitoringAdmin })),
  ],
  policy_management: [
    ...[
      'toc',
      'documents',
      'navigator',
      'archive-navigator',
      'quick-reference-guide',
      'healthy-departments',
      'bulk-read',
    ].map((path) => ({ path, allowed_roles: policyAll })),
    ...['bulk-sign', 'attestation-reports'].map((path) => ({ path, allowed_roles: ['policy_admin', 'signer'] })),
    ...['bulk-send-to-sign', 'bulk-new-version', 'edit-documents', 'policy-generator'].map((path) => ({
      path,
      allowed_roles: ['policy_admin', 'author'],
    })),
    ...[
      'admin-dashboard',
      'numbering',
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
    ].map((path) => ({ path, allowed_roles: policyAdmin })),
  ],
  chart_review: [
    { path: 'dashboard', allowed_roles: chartReviewAll },
    ...['my', 'review'].map((path) => ({ path, allowed_roles: ['chart_review_admin', 'program_lead', 'reviewer'] })),
    ...['programs', 'sampling', 'irr', 'findings', 'tools'].map((path) => ({ path, allowed_roles: chartReviewLeads })),
    { path: 'settings', allowed_roles: ['chart_review_admin'] },
  ],
};

/** Main roles that may sign policies (GET .../policy-management/me can_sign). */
export const SIGNING_ROLES = new Set(['policy_admin', 'signer']);

import {
  type MainRole,
  PERMISSION_SECTIONS,
  type PermissionApp,
  type PermissionRule,
  type PermissionSection,
} from '@portal/shared';

/**
 * Default permission rules per app: section path -> main roles allowed (docs/permissions.md explains each role).
 * The sections themselves are PERMISSION_SECTIONS of the shared package; the type below makes every one of them
 * carry a default here (a section without one does not compile). A project's own rules (table permission_rules,
 * edited by the superadmin) override these path by path, and rulesFor() fills whatever a project has not stored
 * from here, so a section added after a project was created still has its default rule there. A path with no rule
 * at all is denied (isAllowed); superadmins pass every check.
 */
type DefaultRoles = { [A in PermissionApp]: Record<PermissionSection<A>, readonly MainRole<A>[]> };

const monitoringAll = ['monitoring_admin', 'page_owner', 'data_entry', 'viewer'] as const;
const monitoringEditors = ['monitoring_admin', 'page_owner'] as const;
const monitoringData = ['monitoring_admin', 'page_owner', 'data_entry'] as const;
const monitoringAdmin = ['monitoring_admin'] as const;

const policyAll = ['policy_admin', 'author', 'reviewer', 'signer', 'reader'] as const;
const policySigners = ['policy_admin', 'signer'] as const;
const policyAuthors = ['policy_admin', 'author'] as const;
const policyAdmin = ['policy_admin'] as const;

const chartReviewAll = ['chart_review_admin', 'program_lead', 'reviewer', 'viewer'] as const;
const chartReviewReviewers = ['chart_review_admin', 'program_lead', 'reviewer'] as const;
const chartReviewLeads = ['chart_review_admin', 'program_lead'] as const;

const DEFAULT_ROLES: DefaultRoles = {
  monitoring: {
    introduction: monitoringAll,
    pages: monitoringAll,
    page: monitoringAll,
    'request-form': monitoringAll,
    'edit-page': monitoringEditors,
    'key-insights': monitoringEditors,
    // The data stewards who answer data requests (issue 8).
    'request-queue': ['monitoring_admin', 'data_entry'],
    'page-charts': monitoringData,
    'add-page-chart': monitoringData,
    'edit-page-chart': monitoringData,
    'csv-import': monitoringData,
    'formula-builder': monitoringData,
    'page-levels': monitoringAdmin,
    numbering: monitoringAdmin,
    'page-numbering': monitoringAdmin,
    'drag-and-drop': monitoringAdmin,
    'create-page': monitoringAdmin,
    'update-page-list-tables': monitoringAdmin,
    'page-permissions': monitoringAdmin,
    'add-standards': monitoringAdmin,
    'create-user': monitoringAdmin,
    'assign-users': monitoringAdmin,
    'manage-users': monitoringAdmin,
    'assign-main-role': monitoringAdmin,
    'main-role-dashboard': monitoringAdmin,
    'page-role-manager': monitoringAdmin,
  },
  policy_management: {
    toc: policyAll,
    documents: policyAll,
    navigator: policyAll,
    'archive-navigator': policyAll,
    'quick-reference-guide': policyAll,
    'healthy-departments': policyAll,
    'bulk-read': policyAll,
    'bulk-sign': policySigners,
    'attestation-reports': policySigners,
    'bulk-send-to-sign': policyAuthors,
    'bulk-new-version': policyAuthors,
    'edit-documents': policyAuthors,
    'policy-generator': policyAuthors,
    'admin-dashboard': policyAdmin,
    numbering: policyAdmin,
    'search-synonyms': policyAdmin,
    convert: policyAdmin,
    dnd: policyAdmin,
    'insert-department': policyAdmin,
    'edit-department': policyAdmin,
    'department-reviewers': policyAdmin,
    'department-signers': policyAdmin,
    'department-readers': policyAdmin,
    'policy-users': policyAdmin,
    'create-project-user': policyAdmin,
    'assign-users': policyAdmin,
    'manage-users': policyAdmin,
    'assign-main-role': policyAdmin,
    'edit-main-role': policyAdmin,
    'add-standards': policyAdmin,
    'archive-documents': policyAdmin,
    'generator-templates': policyAdmin,
  },
  chart_review: {
    dashboard: chartReviewAll,
    my: chartReviewReviewers,
    review: chartReviewReviewers,
    programs: chartReviewLeads,
    sampling: chartReviewLeads,
    irr: chartReviewLeads,
    findings: chartReviewLeads,
    tools: chartReviewLeads,
    settings: ['chart_review_admin'],
  },
};

const rulesOf = <A extends PermissionApp>(app: A): PermissionRule[] =>
  PERMISSION_SECTIONS[app].map((path: PermissionSection<A>) => ({
    path,
    allowed_roles: [...DEFAULT_ROLES[app][path]],
  }));

/** The default rules of each app, one per section of PERMISSION_SECTIONS, in its order. */
export const DEFAULT_RULES: Record<PermissionApp, PermissionRule[]> = {
  monitoring: rulesOf('monitoring'),
  policy_management: rulesOf('policy_management'),
  chart_review: rulesOf('chart_review'),
};

/** Main roles that may sign policies (GET .../policy-management/me can_sign). */
export const SIGNING_ROLES = new Set(['policy_admin', 'signer']);

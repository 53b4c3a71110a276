import type { PermissionApp, PermissionSection } from './schemas/permissions.js';

/** A section of an app as the permission matrices show it: its name and what opening it allows. */
export interface SectionLabel {
  name: string;
  about: string;
}

/**
 * The sections of PERMISSION_SECTIONS in words (issue 32): the matrices list names with a line of explanation each,
 * and the section's address only in a secondary style, for the administrator who needs it.
 */
export const SECTION_LABELS: { [A in PermissionApp]: Record<PermissionSection<A>, SectionLabel> } = {
  monitoring: {
    introduction: { name: 'Introduction', about: 'The welcome page of Analytics.' },
    pages: { name: 'Page list', about: 'The tree of monitoring pages.' },
    page: { name: 'Monitoring page', about: 'A page with its charts, measures and key insights.' },
    'request-form': { name: 'Request data', about: 'Ask for data or a new measure.' },
    'edit-page': { name: 'Edit a page', about: 'Change a page’s title, text and settings.' },
    'key-insights': { name: 'Key insights', about: 'Write and publish the key insights of a page.' },
    'request-queue': { name: 'Request queue', about: 'Answer the data requests people sent.' },
    'page-charts': { name: 'Page charts', about: 'See and arrange the charts of a page.' },
    'add-page-chart': { name: 'Add a chart', about: 'Put a new chart on a page.' },
    'edit-page-chart': { name: 'Edit a chart', about: 'Change a chart’s measure, type and display.' },
    'csv-import': { name: 'Import data', about: 'Load measure data from a CSV file.' },
    'formula-builder': { name: 'Formula builder', about: 'Define how a measure is calculated.' },
    'page-levels': { name: 'Page levels', about: 'Name the levels of the page tree.' },
    numbering: { name: 'Numbering', about: 'Set how pages are numbered.' },
    'page-numbering': { name: 'Page numbers', about: 'Give each page its number.' },
    'drag-and-drop': { name: 'Arrange pages', about: 'Move pages around the tree.' },
    'create-page': { name: 'Create a page', about: 'Add a page to the tree.' },
    'update-page-list-tables': { name: 'Page list tables', about: 'Update the tables of the page list.' },
    'page-permissions': { name: 'Page permissions', about: 'Restrict a branch of pages to some people or roles.' },
    'add-standards': { name: 'Link standards', about: 'Link accreditation standards to measures.' },
    'create-user': { name: 'Create a user', about: 'Add a person to the project for Analytics.' },
    'assign-users': { name: 'Assign users', about: 'Give people access to Analytics.' },
    'manage-users': { name: 'Manage users', about: 'See and change who uses Analytics.' },
    'assign-main-role': { name: 'Assign main roles', about: 'Give people their Analytics role.' },
    'main-role-dashboard': { name: 'Roles overview', about: 'See who holds each Analytics role.' },
    'page-role-manager': { name: 'Page roles', about: 'Choose page owners and their helpers.' },
  },
  policy_management: {
    toc: { name: 'Table of contents', about: 'Browse the project’s policies by number.' },
    documents: { name: 'Policies', about: 'Read policies and take their workflow steps.' },
    navigator: { name: 'Navigator', about: 'Find policies by department and status.' },
    'archive-navigator': { name: 'Archive', about: 'Browse archived policies.' },
    'quick-reference-guide': { name: 'Quick reference guide', about: 'The short guide to using Policy.' },
    'healthy-departments': { name: 'Department health', about: 'See which departments lack reviewers or signers.' },
    'bulk-read': { name: 'Acknowledge several', about: 'Confirm reading several policies at once.' },
    'bulk-sign': { name: 'Sign several', about: 'Sign several policies at once.' },
    'attestation-reports': { name: 'Read reports', about: 'See who has read which policies.' },
    'bulk-send-to-sign': { name: 'Send several to sign', about: 'Send several policies for signature at once.' },
    'bulk-new-version': { name: 'New versions of several', about: 'Start new versions of several policies.' },
    'edit-documents': { name: 'Write policies', about: 'Create drafts and edit them.' },
    'policy-generator': { name: 'Policy Generator', about: 'Draft policies from templates.' },
    'admin-dashboard': { name: 'Admin dashboard', about: 'The overview for policy administrators.' },
    numbering: { name: 'Numbering', about: 'Set how policies are numbered.' },
    'search-synonyms': { name: 'Search synonyms', about: 'Teach search the words your staff use.' },
    convert: { name: 'Import files', about: 'Turn uploaded files into policies.' },
    dnd: { name: 'Arrange policies', about: 'Move policies between chapters.' },
    'insert-department': { name: 'Add a department', about: 'Create a department.' },
    'edit-department': { name: 'Edit a department', about: 'Rename or change a department.' },
    'department-reviewers': { name: 'Department reviewers', about: 'Choose who reviews a department’s drafts.' },
    'department-signers': { name: 'Department signers', about: 'Choose who signs a department’s policies.' },
    'department-readers': { name: 'Department readers', about: 'Choose who must read a department’s policies.' },
    'policy-users': { name: 'Policy users', about: 'See the people who use Policy.' },
    'create-project-user': { name: 'Create a user', about: 'Add a person to the project for Policy.' },
    'assign-users': { name: 'Assign users', about: 'Give people access to Policy.' },
    'manage-users': { name: 'Manage users', about: 'See and change who uses Policy.' },
    'assign-main-role': { name: 'Assign main roles', about: 'Give people their Policy role.' },
    'edit-main-role': { name: 'Change main roles', about: 'Change a person’s Policy role.' },
    'add-standards': { name: 'Link standards', about: 'Link accreditation standards to policies.' },
    'archive-documents': { name: 'Archive policies', about: 'Retire policies that no longer apply.' },
    'generator-templates': { name: 'Generator templates', about: 'Manage the templates of the Policy Generator.' },
  },
  chart_review: {
    dashboard: { name: 'Dashboard', about: 'Results of the review programmes.' },
    my: { name: 'My reviews', about: 'The charts assigned to me.' },
    review: { name: 'Review a chart', about: 'Answer a chart’s questions.' },
    programs: { name: 'Programmes', about: 'Set up review programmes and their questions.' },
    sampling: { name: 'Sampling', about: 'Draw the charts to review and assign them.' },
    irr: { name: 'Agreement between reviewers', about: 'Second reviews, agreement and adjudication.' },
    findings: { name: 'Findings', about: 'Record findings and their action plans.' },
    tools: { name: 'Tools', about: 'Import encounters and other utilities.' },
    settings: { name: 'Settings', about: 'The chart review settings of the project.' },
  },
};

/** A section's label; a path with no label (a rule for a section since removed) is shown as it is. */
export function sectionLabel(app: PermissionApp, path: string): SectionLabel {
  return (SECTION_LABELS[app] as Record<string, SectionLabel | undefined>)[path] ?? { name: path, about: '' };
}

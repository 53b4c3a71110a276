import { z } from 'zod';

/**
 * Every action the server records in the audit log (issue 26), one per line with what its event's `data` holds.
 * The names are stored as they are (existing rows and readers match them): add a name here before recording it,
 * never rename one. Updates carry `changes`: `{ field: { from, to } }` for the fields that changed, or
 * `{ field: { changed: true } }` for a secret one (server lib/audit-diff.ts).
 */
export const auditActionSchema = z.enum([
  // ------------------------------------------------------------------------------------------ sign-in and sessions
  'auth.login', // a sign-in: whether two-factor was used
  'auth.login_failed', // a refused sign-in: the reason and the login typed
  'auth.lockout', // an account locked after too many failed sign-ins
  'auth.logout', // a sign-out
  'auth.logout_inactivity', // a sign-out after the inactivity timeout
  'auth.session_ended', // one of my other sessions ended by me
  'auth.other_sessions_ended', // all my other sessions ended by me: how many
  'password.reset_requested', // a password reset link sent
  'password.reset_completed', // a password set through a reset link
  'two_factor.enable', // two-factor authentication turned on
  'two_factor.disable', // two-factor authentication turned off
  'two_factor.recovery_codes_regenerated', // new two-factor recovery codes made
  'two_factor.recovery_code_used', // a recovery code used to sign in: how many are left
  'auth.sso_linked', // an existing account linked to an identity provider at its first single sign-on: provider
  'auth.sso_user_created', // an account created at a first single sign-on (just in time): provider, email
  'identity_provider.create', // an identity provider added: its settings (the secret named only)
  'identity_provider.update', // an identity provider's settings changed: changes (the secret named only)
  'identity_provider.delete', // an identity provider removed: its name and how many accounts were linked
  'identity_provider.scim_token_rotate', // a provider's SCIM token made or replaced (the old one stops at once)
  'identity_provider.scim_token_revoke', // a provider's SCIM token revoked: provisioning off
  'scim.user_create', // a person provisioned by a directory (SCIM): provider, email, whether an account was linked
  'scim.user_update', // a provisioned person changed by the directory (SCIM): provider and changes
  'scim.user_delete', // a provisioned person deleted by the directory (SCIM): the account is disabled, never removed
  'scim.group_create', // a directory group pushed (SCIM): provider, name and members
  'scim.group_update', // a directory group changed (SCIM): provider, name and members added or removed
  'scim.group_delete', // a directory group removed (SCIM): provider, name and its former members
  'scim.refused', // a directory's change refused (SCIM): a superadmin is never disabled through provisioning
  'identity_provider.mapping_create', // a directory group mapped to a project: mapping_id and changes (the mapping)
  'identity_provider.mapping_update', // a group mapping changed: mapping_id and changes
  'identity_provider.mapping_delete', // a group mapping removed: mapping_id and the mapping
  // ------------------------------------------------------------------------------------------ accounts
  'user.profile_updated', // my first and last name changed: changes
  'user.password_changed', // my password changed: changes (the password named only)
  'user.email_changed', // my email address changed: from, to and changes
  'user.invitation_accepted', // an invited user set a first password
  'user.create', // an account created by a superadmin: email, username, role and projects
  'user.import', // a CSV import of people by a superadmin: how many accounts, the import's id
  'user.create_superadmin', // a superadmin account created on the command line
  'user.update', // an account's email, username, name or status changed by a superadmin: changes
  'user.role_change', // as user.update, with the account's role changed
  'user.memberships_update', // an account's projects and roles changed by a superadmin: before, after and changes
  'user.disable', // an account disabled (its sessions end)
  'user.enable', // an account enabled again
  'user.reset_two_factor', // an account's two-factor authentication reset
  'user.send_password_reset', // a password reset link sent by a superadmin
  'user.unlock', // a locked account unlocked: failed attempts cleared
  'user.resend_invitation', // an invitation sent again
  'user_request.create', // a request for a new user made by a project admin
  'user_request.approve', // a user request approved: the user and whether an account was created
  'user_request.reject', // a user request rejected: the reason
  // ------------------------------------------------------------------------------------------ projects and access
  'project.create', // a project created: its details
  'project.update', // a project's details changed by a superadmin: changes
  'project.deactivate', // a project deactivated: changes
  'project.reactivate', // a project reactivated: changes
  'project.update_details', // a project's details changed by its admin: changes
  'project.logo_replace', // a project's logo replaced: type and size
  'project.logo_remove', // a project's logo removed
  'member.add', // a member added to a project: project role and main roles
  'member.update', // a member's project role or main roles changed: changes
  'member.remove', // a member removed from a project
  'member.mapped_grant', // membership, project role, main roles or reader duties granted by a group mapping: provider, groups, changes
  'member.mapped_revoke', // what a group mapping had granted taken away (the person left the group): provider, changes
  'permissions.update', // the permission matrix of an app changed: changes (allowed roles per section)
  'permissions.copy', // a permission matrix copied from another project
  'permissions.reset', // a permission matrix reset to the defaults
  'terms.save_draft', // the draft of the terms of use saved: changes (long text shortened)
  'terms.publish', // a version of the terms of use published
  'terms.accept', // the terms of use accepted by a user
  'contact.message_sent', // a contact message sent: subject, category and recipients
  'contact.message_status', // a contact message's status changed: from, to and changes
  'contact.message_replied', // a contact message answered
  'email.resend', // an email of the log sent again: to and subject
  'email.body_viewed', // a superadmin opened an email of the log: to and subject
  'system.demo_data_created', // the demo project and accounts created
  // ------------------------------------------------------------------------------------------ policy management
  'policy.document_created', // a policy created: title, number, department
  'policy.document_updated', // a policy's title, number or department changed: changes
  'policy.draft_edited', // a policy draft saved: the version and changes (long text shortened)
  'policy.version_started', // a new version of a published policy started
  'policy.version_restored', // an earlier text restored into the draft
  'policy.sent_to_review', // a draft sent for review: the reviewers
  'policy.withdrawn', // a draft withdrawn from review or signing
  'policy.review_approved', // a review approved
  'policy.changes_requested', // a reviewer asked for changes: the comment
  'policy.document_signed', // a version signed: method and content hash
  'policy.signature_declined', // a signer declined: the comment
  'policy.document_published', // a version published: content hash and effective date
  'policy.document_attested', // a reader attested a version
  'policy.document_archived', // a policy archived (and the policy that replaces it, if named)
  'policy.qr_sheet_printed', // a sheet of QR codes of policies' stable links exported: which policies
  'policy.document_restored', // a policy restored from the archive
  'policy.requests_reassigned', // reviewers or signers of a round changed
  'policy.review_reminder_sent', // a reminder that a policy's review is due
  'policy.department_created', // a department created
  'policy.department_updated', // a department's name, code or parent changed: before, after and changes
  'policy.department_deleted', // a department deleted
  'policy.department_roles_changed', // a department's reviewers, signers or readers changed
  'policy.department_roles_pruned', // department roles dropped after a main role change
  'policy.workflow_settings_changed', // the workflow settings changed: before, after and changes
  'policy.numbers_assigned', // numbers given to policies: each policy's from and to
  'policy.numbering_scheme_changed', // the numbering scheme changed: before, after and changes
  'policy.documents_renumbered', // policies moved and renumbered
  'policy.document_converted', // a Word file converted to a draft
  'policy.file_text_read', // the text of an uploaded PDF read, by the background job: method, pages, or the error
  'policy.document_pdf_downloaded', // the current version taken as a PDF to print or keep
  'policy.guest_reading_changed', // reading without an account switched or its address ranges changed: before, after
  'policy.search_synonyms_created', // a group of search synonyms added: its terms
  'policy.search_synonyms_updated', // a group of search synonyms changed: before and after
  'policy.search_synonyms_deleted', // a group of search synonyms deleted: its terms
  'policy.users_added', // people added to policy management
  'policy.users_updated', // the people of policy management changed: added and removed
  'policy.main_roles_changed', // main roles of policy management changed: each person's from and to
  // ------------------------------------------------------------------------------------------ policy generator
  'policy_generator.profile_saved', // the facility profile saved: its answers and changes
  'policy_generator.template_created', // a template created
  'policy_generator.template_draft_saved', // a template draft saved: sections, variables and changes
  'policy_generator.template_published', // a template version published
  'policy_generator.template_draft_discarded', // a template draft discarded
  'policy_generator.template_deleted', // a template deleted
  'policy_generator.policy_generated', // a policy generated from a template
  'policy_generator.policy_regenerated', // a policy generated again from a newer template
  'policy_generator.assist_called', // the writing assistant asked: section, action, model and outcome
  'policy_generator.assist_accepted', // an assistant suggestion accepted
  'policy_generator.assist_rejected', // an assistant suggestion rejected
  // ------------------------------------------------------------------------------------------ monitoring
  'monitoring.dashboard_visit', // the monitoring dashboard opened
  'monitoring.dashboard_logout', // signed out from the monitoring dashboard
  'monitoring.introduction_updated', // the dashboard introduction changed: changes (long text shortened)
  'monitoring.users_added', // people added to monitoring
  'monitoring.users_updated', // the people of monitoring changed: added and removed
  'monitoring.main_roles_changed', // main roles of monitoring changed: each person's from and to
  'monitoring.role_created', // a monitoring role created
  'monitoring.role_updated', // a monitoring role's name, description or members changed: changes
  'monitoring.role_deleted', // a monitoring role deleted
  'monitoring.page_permissions_changed', // who may see and change a page changed
  'monitoring.level_created', // a page level created
  'monitoring.level_updated', // a page level changed: changes
  'monitoring.level_deleted', // a page level deleted
  'monitoring.numbering_changed', // the page numbering mode changed: pages renumbered
  'monitoring.pages_renumbered', // pages renumbered
  'monitoring.page_created', // a page created
  'monitoring.page_updated', // a page changed: changed fields and changes
  'monitoring.page_moved', // a page moved: from and to
  'monitoring.page_deleted', // a page (and its branch) deleted
  'monitoring.pages_bulk_updated', // several pages changed at once
  'monitoring.pages_imported', // pages imported from a file
  'monitoring.dataset_created', // a dataset created
  'monitoring.dataset_updated', // a dataset's settings changed: changes
  'monitoring.dataset_deleted', // a dataset deleted
  'monitoring.dataset_rows_exported', // a dataset's rows exported
  'monitoring.dataset_retention_purged', // old rows of a dataset removed by its retention
  'monitoring.import_uploaded', // a file uploaded for import
  'monitoring.import_settings_saved', // an import's settings saved
  'monitoring.import_commit_started', // an import started
  'monitoring.import_committed', // an import finished: rows taken and refused
  'monitoring.import_failed', // an import failed: the message
  'monitoring.import_rolled_back', // an import undone
  'monitoring.import_discarded', // an import discarded
  'monitoring.measure_created', // a measure created
  'monitoring.measure_updated', // a measure changed: changed fields and changes
  'monitoring.measure_deleted', // a measure deleted
  'monitoring.measure_target_added', // a target added to a measure
  'monitoring.measure_target_removed', // a target removed from a measure
  'monitoring.measure_benchmark_added', // a benchmark added to a measure
  'monitoring.measure_benchmark_updated', // a benchmark of a measure changed: changes
  'monitoring.measure_benchmark_removed', // a benchmark removed from a measure
  'monitoring.measure_phase_added', // a phase added to a measure
  'monitoring.measure_phase_removed', // a phase removed from a measure
  'monitoring.measure_annotation_added', // an annotation added to a measure
  'monitoring.measure_annotation_updated', // an annotation of a measure changed: changes
  'monitoring.measure_annotation_removed', // an annotation removed from a measure
  'monitoring.chart_created', // a chart added to a page
  'monitoring.chart_updated', // a chart changed: changed fields and changes
  'monitoring.chart_deleted', // a chart removed
  'monitoring.insight_created', // an insight written
  'monitoring.insight_updated', // an insight changed: changed fields and changes (long text shortened)
  'monitoring.insight_published', // an insight published: changes
  'monitoring.insight_unpublished', // an insight taken back to draft: changes
  'monitoring.insight_deleted', // an insight deleted
  'monitoring.request_created', // a data request made
  'monitoring.request_updated', // a data request changed: changed fields and changes
  'monitoring.request_commented', // a comment on a data request
  'monitoring.request_file_delivered', // a file delivered for a data request
  // ------------------------------------------------------------------------------------------ chart review
  'chart_review.settings_updated', // the chart review settings changed: changes
  'chart_review.reviewer_units_updated', // the units each reviewer covers changed: each reviewer's from and to
  'chart_review.tool_created', // an audit tool created
  'chart_review.tool_updated', // an audit tool's name, description or retirement changed: changes
  'chart_review.tool_version_created', // a new version of an audit tool started
  'chart_review.tool_questions_saved', // the questions of a tool version saved
  'chart_review.tool_version_published', // a tool version published
  'chart_review.tool_version_discarded', // a tool version draft discarded
  'chart_review.program_created', // a review programme created
  'chart_review.program_updated', // a review programme changed: changes
  'chart_review.sample_uploaded', // a sample file uploaded
  'chart_review.sample_drawn', // a sample drawn: seed, plan and size
  'chart_review.sample_locked', // a sample locked and its reviews assigned
  'chart_review.pull_list_downloaded', // a sample's pull list downloaded: the reason
  'chart_review.case_excluded', // a case excluded from a sample: the reason and its replacement
  'chart_review.encounter_ref_revealed', // an encrypted encounter reference revealed: the reason
  'chart_review.encounter_refs_purged', // encounter references removed by retention
  'chart_review.review_started', // the first answers of a review saved: changes (the answers)
  'chart_review.answers_saved', // later answers of a review saved: changes (the answers that changed)
  'chart_review.review_submitted', // a review submitted
  'chart_review.review_returned', // a submitted review returned to its reviewer: the reason
  'chart_review.review_reassigned', // a review given to another reviewer
  'chart_review.review_adjudicated', // a disagreement between two reviewers settled
  'chart_review.results_exported', // a programme's results exported
  'chart_review.finding_created', // a finding raised from the results
  'chart_review.finding_plan_saved', // a finding's action plan saved: changes
  'chart_review.finding_closed', // a finding closed: the note
  'chart_review.finding_reopened', // a finding reopened: the note
  'chart_review.finding_auto_closed', // a finding closed on its own after sustained success
  // ------------------------------------------------------------------------------------------ standards
  'standards.role_changed', // a person's standards role changed: from, to and changes
  'standards.assigned', // leads and owners assigned to elements
  'standards.framework_imported', // a framework imported
  'standards.edition_loaded', // a built-in edition of a regulation loaded from the eCFR XML by a superadmin: sections, crosswalk
  'standards.crosswalk_imported', // a crosswalk between two frameworks imported
  'standards.assessment_created', // an assessment created
  'standards.assessment_upgraded', // an assessment carried to a newer edition
  'standards.element_updated', // an element's result, status, owner, due date or observation changed: changes
  'standards.wording_updated', // the facility's wording of an element changed: changes (long text shortened)
  'standards.comment_added', // a comment on an element
  'standards.evidence_added', // evidence added to an element
  'standards.evidence_updated', // evidence changed: changes
  'standards.evidence_removed', // evidence removed
  'standards.evidence_expired', // evidence expired: the element back in review
  'standards.link_created', // an element linked to a policy, measure or audit question
  'standards.link_deleted', // a link removed
  'standards.finding_created', // a finding recorded on an element
  'standards.finding_updated', // a finding changed: changes
  'standards.finding_plan_saved', // a finding's plan saved: changes
  'standards.finding_closed', // a finding closed: the note
  'standards.finding_reopened', // a finding reopened: the note
  'standards.finding_auto_closed', // a finding closed on its own after sustained success
  'standards.tracer_created', // a tracer recorded
  'standards.tracer_updated', // a tracer changed: changes
  'standards.binder_exported', // a survey binder exported
  'standards.gap_report_exported', // a gap report exported
]);
export type AuditAction = z.infer<typeof auditActionSchema>;
export const AUDIT_ACTIONS = auditActionSchema.options;

/**
 * The actions under one prefix, without it: `AuditActionIn<'policy'>` is `'document_created' | …`. For the module
 * helpers that prefix their actions (`policy.`, `monitoring.`, …): an unknown name fails typecheck there too.
 */
export type AuditActionIn<P extends string> = AuditAction extends infer A
  ? A extends `${P}.${infer S}`
    ? S
    : never
  : never;

/** What the audit log screen says for each action. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'auth.login': 'Signed in',
  'auth.login_failed': 'Sign-in refused',
  'auth.lockout': 'Account locked after failed sign-ins',
  'auth.logout': 'Signed out',
  'auth.logout_inactivity': 'Signed out after inactivity',
  'auth.session_ended': 'Other session ended',
  'auth.other_sessions_ended': 'All other sessions ended',
  'password.reset_requested': 'Password reset requested',
  'password.reset_completed': 'Password reset',
  'two_factor.enable': 'Two-factor authentication turned on',
  'two_factor.disable': 'Two-factor authentication turned off',
  'two_factor.recovery_codes_regenerated': 'Recovery codes regenerated',
  'two_factor.recovery_code_used': 'Recovery code used to sign in',
  'auth.sso_linked': 'Account linked to single sign-on',
  'auth.sso_user_created': 'Account created at single sign-on',
  'identity_provider.create': 'Identity provider added',
  'identity_provider.update': 'Identity provider changed',
  'identity_provider.delete': 'Identity provider removed',
  'identity_provider.scim_token_rotate': 'Provisioning (SCIM) token created',
  'identity_provider.scim_token_revoke': 'Provisioning (SCIM) turned off',
  'scim.user_create': 'User provisioned by the directory',
  'scim.user_update': 'User changed by the directory',
  'scim.user_delete': 'User deprovisioned by the directory',
  'scim.group_create': 'Directory group added',
  'scim.group_update': 'Directory group changed',
  'scim.group_delete': 'Directory group removed',
  'scim.refused': 'Directory change refused',
  'identity_provider.mapping_create': 'Group mapping added',
  'identity_provider.mapping_update': 'Group mapping changed',
  'identity_provider.mapping_delete': 'Group mapping removed',
  'user.profile_updated': 'Profile updated',
  'user.password_changed': 'Password changed',
  'user.email_changed': 'Email address changed',
  'user.invitation_accepted': 'Invitation accepted',
  'user.create': 'User created',
  'user.import': 'People imported from a CSV file',
  'user.create_superadmin': 'Superadmin created',
  'user.update': 'User updated',
  'user.role_change': 'User role changed',
  'user.memberships_update': 'User projects changed',
  'user.disable': 'User disabled',
  'user.enable': 'User enabled',
  'user.reset_two_factor': 'Two-factor authentication reset',
  'user.send_password_reset': 'Password reset link sent',
  'user.unlock': 'User unlocked',
  'user.resend_invitation': 'Invitation sent again',
  'user_request.create': 'User requested',
  'user_request.approve': 'User request approved',
  'user_request.reject': 'User request rejected',
  'project.create': 'Project created',
  'project.update': 'Project updated',
  'project.deactivate': 'Project deactivated',
  'project.reactivate': 'Project reactivated',
  'project.update_details': 'Project details updated',
  'project.logo_replace': 'Project logo replaced',
  'project.logo_remove': 'Project logo removed',
  'member.add': 'Member added',
  'member.update': 'Member updated',
  'member.remove': 'Member removed',
  'member.mapped_grant': 'Roles granted by a group mapping',
  'member.mapped_revoke': 'Roles removed by a group mapping',
  'permissions.update': 'Permissions changed',
  'permissions.copy': 'Permissions copied from another project',
  'permissions.reset': 'Permissions reset to defaults',
  'terms.save_draft': 'Terms draft saved',
  'terms.publish': 'Terms published',
  'terms.accept': 'Terms accepted',
  'contact.message_sent': 'Contact message sent',
  'contact.message_status': 'Contact message status changed',
  'contact.message_replied': 'Contact message answered',
  'email.resend': 'Email sent again',
  'email.body_viewed': 'Email opened in the log',
  'system.demo_data_created': 'Demo data created',
  'policy.document_created': 'Policy created',
  'policy.document_updated': 'Policy settings changed',
  'policy.draft_edited': 'Policy draft saved',
  'policy.version_started': 'Policy version started',
  'policy.version_restored': 'Earlier policy text restored',
  'policy.sent_to_review': 'Policy sent for review',
  'policy.withdrawn': 'Policy withdrawn from the workflow',
  'policy.review_approved': 'Policy review approved',
  'policy.changes_requested': 'Policy changes requested',
  'policy.document_signed': 'Policy signed',
  'policy.signature_declined': 'Policy signature declined',
  'policy.document_published': 'Policy published',
  'policy.document_attested': 'Policy read and attested',
  'policy.document_archived': 'Policy archived',
  'policy.qr_sheet_printed': 'Policy QR codes printed',
  'policy.document_restored': 'Policy restored from the archive',
  'policy.requests_reassigned': 'Policy reviewers or signers changed',
  'policy.review_reminder_sent': 'Policy review reminder sent',
  'policy.department_created': 'Department created',
  'policy.department_updated': 'Department updated',
  'policy.department_deleted': 'Department deleted',
  'policy.department_roles_changed': 'Department reviewers, signers or readers changed',
  'policy.department_roles_pruned': 'Department roles dropped after a role change',
  'policy.workflow_settings_changed': 'Policy workflow settings changed',
  'policy.numbers_assigned': 'Policy numbers assigned',
  'policy.numbering_scheme_changed': 'Policy numbering scheme changed',
  'policy.documents_renumbered': 'Policies moved and renumbered',
  'policy.document_converted': 'Word file converted',
  'policy.file_text_read': 'Text of a PDF read',
  'policy.document_pdf_downloaded': 'Policy downloaded as PDF',
  'policy.guest_reading_changed': 'Guest reading settings changed',
  'policy.search_synonyms_created': 'Search synonyms added',
  'policy.search_synonyms_updated': 'Search synonyms changed',
  'policy.search_synonyms_deleted': 'Search synonyms deleted',
  'policy.users_added': 'Policy users added',
  'policy.users_updated': 'Policy users changed',
  'policy.main_roles_changed': 'Policy roles changed',
  'policy_generator.profile_saved': 'Facility profile saved',
  'policy_generator.template_created': 'Policy template created',
  'policy_generator.template_draft_saved': 'Policy template draft saved',
  'policy_generator.template_published': 'Policy template published',
  'policy_generator.template_draft_discarded': 'Policy template draft discarded',
  'policy_generator.template_deleted': 'Policy template deleted',
  'policy_generator.policy_generated': 'Policy generated',
  'policy_generator.policy_regenerated': 'Policy generated again',
  'policy_generator.assist_called': 'Writing assistant asked',
  'policy_generator.assist_accepted': 'Assistant suggestion accepted',
  'policy_generator.assist_rejected': 'Assistant suggestion rejected',
  'monitoring.dashboard_visit': 'Monitoring dashboard opened',
  'monitoring.dashboard_logout': 'Signed out from monitoring',
  'monitoring.introduction_updated': 'Monitoring introduction updated',
  'monitoring.users_added': 'Monitoring users added',
  'monitoring.users_updated': 'Monitoring users changed',
  'monitoring.main_roles_changed': 'Monitoring roles changed',
  'monitoring.role_created': 'Monitoring role created',
  'monitoring.role_updated': 'Monitoring role updated',
  'monitoring.role_deleted': 'Monitoring role deleted',
  'monitoring.page_permissions_changed': 'Page permissions changed',
  'monitoring.level_created': 'Page level created',
  'monitoring.level_updated': 'Page level updated',
  'monitoring.level_deleted': 'Page level deleted',
  'monitoring.numbering_changed': 'Page numbering changed',
  'monitoring.pages_renumbered': 'Pages renumbered',
  'monitoring.page_created': 'Page created',
  'monitoring.page_updated': 'Page updated',
  'monitoring.page_moved': 'Page moved',
  'monitoring.page_deleted': 'Page deleted',
  'monitoring.pages_bulk_updated': 'Pages updated together',
  'monitoring.pages_imported': 'Pages imported',
  'monitoring.dataset_created': 'Dataset created',
  'monitoring.dataset_updated': 'Dataset updated',
  'monitoring.dataset_deleted': 'Dataset deleted',
  'monitoring.dataset_rows_exported': 'Dataset rows exported',
  'monitoring.dataset_retention_purged': 'Old dataset rows removed',
  'monitoring.import_uploaded': 'Import file uploaded',
  'monitoring.import_settings_saved': 'Import settings saved',
  'monitoring.import_commit_started': 'Import started',
  'monitoring.import_committed': 'Import finished',
  'monitoring.import_failed': 'Import failed',
  'monitoring.import_rolled_back': 'Import undone',
  'monitoring.import_discarded': 'Import discarded',
  'monitoring.measure_created': 'Measure created',
  'monitoring.measure_updated': 'Measure updated',
  'monitoring.measure_deleted': 'Measure deleted',
  'monitoring.measure_target_added': 'Measure target added',
  'monitoring.measure_target_removed': 'Measure target removed',
  'monitoring.measure_benchmark_added': 'Measure benchmark added',
  'monitoring.measure_benchmark_updated': 'Measure benchmark updated',
  'monitoring.measure_benchmark_removed': 'Measure benchmark removed',
  'monitoring.measure_phase_added': 'Measure phase added',
  'monitoring.measure_phase_removed': 'Measure phase removed',
  'monitoring.measure_annotation_added': 'Measure annotation added',
  'monitoring.measure_annotation_updated': 'Measure annotation updated',
  'monitoring.measure_annotation_removed': 'Measure annotation removed',
  'monitoring.chart_created': 'Chart created',
  'monitoring.chart_updated': 'Chart updated',
  'monitoring.chart_deleted': 'Chart deleted',
  'monitoring.insight_created': 'Insight created',
  'monitoring.insight_updated': 'Insight updated',
  'monitoring.insight_published': 'Insight published',
  'monitoring.insight_unpublished': 'Insight unpublished',
  'monitoring.insight_deleted': 'Insight deleted',
  'monitoring.request_created': 'Data request created',
  'monitoring.request_updated': 'Data request updated',
  'monitoring.request_commented': 'Data request commented',
  'monitoring.request_file_delivered': 'Data request file delivered',
  'chart_review.settings_updated': 'Chart review settings updated',
  'chart_review.reviewer_units_updated': 'Reviewer units changed',
  'chart_review.tool_created': 'Audit tool created',
  'chart_review.tool_updated': 'Audit tool updated',
  'chart_review.tool_version_created': 'Audit tool version started',
  'chart_review.tool_questions_saved': 'Audit tool questions saved',
  'chart_review.tool_version_published': 'Audit tool version published',
  'chart_review.tool_version_discarded': 'Audit tool version discarded',
  'chart_review.program_created': 'Review programme created',
  'chart_review.program_updated': 'Review programme updated',
  'chart_review.sample_uploaded': 'Sample uploaded',
  'chart_review.sample_drawn': 'Sample drawn',
  'chart_review.sample_locked': 'Sample locked and assigned',
  'chart_review.pull_list_downloaded': 'Pull list downloaded',
  'chart_review.case_excluded': 'Case excluded',
  'chart_review.encounter_ref_revealed': 'Encounter reference revealed',
  'chart_review.encounter_refs_purged': 'Encounter references removed',
  'chart_review.review_started': 'Review started',
  'chart_review.answers_saved': 'Review answers saved',
  'chart_review.review_submitted': 'Review submitted',
  'chart_review.review_returned': 'Review returned',
  'chart_review.review_reassigned': 'Review reassigned',
  'chart_review.review_adjudicated': 'Review disagreement settled',
  'chart_review.results_exported': 'Review results exported',
  'chart_review.finding_created': 'Chart review finding raised',
  'chart_review.finding_plan_saved': 'Chart review action plan saved',
  'chart_review.finding_closed': 'Chart review finding closed',
  'chart_review.finding_reopened': 'Chart review finding reopened',
  'chart_review.finding_auto_closed': 'Chart review finding closed automatically',
  'standards.role_changed': 'Standards role changed',
  'standards.assigned': 'Standards leads and owners assigned',
  'standards.framework_imported': 'Framework imported',
  'standards.edition_loaded': 'Regulation edition loaded from the eCFR',
  'standards.crosswalk_imported': 'Crosswalk imported',
  'standards.assessment_created': 'Assessment created',
  'standards.assessment_upgraded': 'Assessment carried to a new edition',
  'standards.element_updated': 'Element assessment updated',
  'standards.wording_updated': 'Element wording updated',
  'standards.comment_added': 'Element comment added',
  'standards.evidence_added': 'Evidence added',
  'standards.evidence_updated': 'Evidence updated',
  'standards.evidence_removed': 'Evidence removed',
  'standards.evidence_expired': 'Evidence expired',
  'standards.link_created': 'Element linked',
  'standards.link_deleted': 'Element link removed',
  'standards.finding_created': 'Standards finding recorded',
  'standards.finding_updated': 'Standards finding updated',
  'standards.finding_plan_saved': 'Standards finding plan saved',
  'standards.finding_closed': 'Standards finding closed',
  'standards.finding_reopened': 'Standards finding reopened',
  'standards.finding_auto_closed': 'Standards finding closed automatically',
  'standards.tracer_created': 'Tracer recorded',
  'standards.tracer_updated': 'Tracer updated',
  'standards.binder_exported': 'Survey binder exported',
  'standards.gap_report_exported': 'Gap report exported',
};

/** The label of a stored action: its words, or the raw name for an old row whose action is no longer known. */
export function auditActionLabel(action: string): string {
  const known = auditActionSchema.safeParse(action);
  return known.success ? AUDIT_ACTION_LABELS[known.data] : action;
}

/** One changed field of an update: its value before and after, or only that it changed (a secret). */
export const auditChangeSchema = z.union([
  z.object({ from: z.unknown(), to: z.unknown() }),
  z.object({ changed: z.literal(true) }),
]);
export type AuditChange = z.infer<typeof auditChangeSchema>;
/** `data.changes` of an update event: the changed fields by name (lib/audit-diff.ts on the server). */
export const auditChangesSchema = z.record(z.string(), auditChangeSchema);
export type AuditChanges = z.infer<typeof auditChangesSchema>;

/** What an event is about, in words (the audit log's Subject column): the kinds of record the server audits. */
const AUDIT_SUBJECT_LABELS: Record<string, string> = {
  user: 'User',
  user_request: 'New-user request',
  user_import: 'User import',
  session: 'Session',
  email: 'Email',
  project: 'Project',
  terms_version: 'Terms version',
  permission_matrix: 'Permission matrix',
  identity_provider: 'Identity provider',
  directory_group: 'Directory group',
  contact_message: 'Contact message',
  stored_file: 'File',
  facility_profile: 'Facility profile',
  policy: 'Policy',
  policy_document: 'Policy',
  policy_department: 'Department',
  policy_search_synonyms: 'Search synonyms',
  pg_template: 'Policy template',
  pg_llm_call: 'Writing assistant call',
  monitoring: 'Monitoring',
  measure: 'Measure',
  mon_measure: 'Measure',
  mon_chart: 'Chart',
  mon_dataset: 'Dataset',
  mon_import: 'Data import',
  mon_insight: 'Key insight',
  mon_page: 'Monitoring page',
  mon_page_level: 'Page level',
  mon_request: 'Data request',
  mon_role: 'Monitoring role',
  mon_settings: 'Monitoring settings',
  cr_assignment: 'Review assignment',
  cr_case: 'Case',
  cr_finding: 'Chart review finding',
  cr_irr_pair: 'Second review',
  cr_program: 'Programme',
  cr_sample: 'Sample',
  cr_settings: 'Chart review settings',
  cr_tool: 'Audit tool',
  cr_tool_version: 'Audit tool version',
  std_assessment: 'Assessment',
  std_framework: 'Framework',
  std_node: 'Standard',
  std_req_assessment: 'Requirement assessment',
  std_tracer: 'Tracer',
};

/** The kind of record an event is about, in words; an unknown kind reads as its words ("some_kind" → "Some kind"). */
export function auditSubjectLabel(type: string): string {
  const known = AUDIT_SUBJECT_LABELS[type];
  if (known) return known;
  const words = type.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

import { z } from 'zod';
import { SLUG_PATTERN } from '../patterns.js';
import { APP_CODES, GLOBAL_ROLES, PROJECT_ROLES, USER_STATUSES } from '../roles.js';
import { INT4_MAX, queryRecordId, recordId } from './common.js';
import { MAIN_ROLES, PERMISSION_APPS } from './permissions.js';
import { usernameSchema } from './users.js';

/**
 * Contracts of issue 5: the superadmin console (calls under /super/...) and a project's Admin app (calls under
 * /api/projects/{id}/admin/...). Times are ISO strings; lists that can grow are paged.
 */

const id = z.number().int();
const time = z.string();
const trimmed = (max: number, label: string) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters.`);
const required = (max: number, label: string) => trimmed(max, label).min(1, `Enter the ${label.toLowerCase()}.`);
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email('Enter a valid email address.'))
  .pipe(z.string().max(254, 'Email must be at most 254 characters.'));
const optionalEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'Email must be at most 254 characters.')
  .refine((value) => value === '' || z.email().safeParse(value).success, 'Enter a valid email address.');

/** Query of every paged list. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
});
const paged = { total: z.number().int(), page: z.number().int(), page_size: z.number().int() };

/** A member's main role per app (null: none). Only the apps of PERMISSION_APPS have main roles. */
export const mainRolesSchema = z
  .object({
    monitoring: z.enum(MAIN_ROLES.monitoring).nullable().optional(),
    policy_management: z.enum(MAIN_ROLES.policy_management).nullable().optional(),
    chart_review: z.enum(MAIN_ROLES.chart_review).nullable().optional(),
  })
  .strict();
export type MainRoles = z.infer<typeof mainRolesSchema>;
/** The answer form: every app present. */
export const mainRolesAnswerSchema = z.object({
  monitoring: z.string().nullable(),
  policy_management: z.string().nullable(),
  chart_review: z.string().nullable(),
});

const personRef = z.object({ id, name: z.string() }).nullable();
const projectRef = z.object({ id, name: z.string() }).nullable();

// ---------------------------------------------------------------- projects

/** The editable details of a project, without defaults (PATCH bodies leave out what they do not change). */
export const projectDetailsFields = {
  name: required(120, 'Name'),
  facility_name: trimmed(200, 'Facility name'),
  address: trimmed(500, 'Address'),
  phone: trimmed(50, 'Phone'),
  /** The project's contact email (shown to members, used as reply-to). */
  email: optionalEmail,
};
export const slugSchema = z
  .string()
  .trim()
  .regex(SLUG_PATTERN, 'The slug is 1 to 50 letters, digits, underscores or hyphens.')
  // A path reads digits only as a project id (isProjectRef), so such a slug would never open its project.
  .refine(
    (slug) => !/^\d+$/.test(slug),
    'The slug needs at least one letter, underscore or hyphen: digits only read as a project id.',
  );
export const activeAppsInputSchema = z
  .array(z.enum(APP_CODES, 'Pick apps from the list.'))
  .max(APP_CODES.length)
  .transform((apps) => APP_CODES.filter((code) => apps.includes(code)));

/** POST /super/projects. */
export const superProjectCreateSchema = z.object({
  ...projectDetailsFields,
  facility_name: projectDetailsFields.facility_name.default(''),
  address: projectDetailsFields.address.default(''),
  phone: projectDetailsFields.phone.default(''),
  email: projectDetailsFields.email.default(''),
  slug: slugSchema,
  active_apps: activeAppsInputSchema.default([]),
});
export type SuperProjectCreate = z.input<typeof superProjectCreateSchema>;
/** PATCH /super/projects/{id}: any subset; is_active false deactivates (projects are never deleted). */
export const superProjectUpdateSchema = z
  .object({ ...projectDetailsFields, slug: slugSchema, active_apps: activeAppsInputSchema, is_active: z.boolean() })
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'Change at least one field.');
export type SuperProjectUpdate = z.input<typeof superProjectUpdateSchema>;

/** GET /super/projects?q&status&page&page_size. */
export const superProjectListQuerySchema = pageQuerySchema.extend({
  q: z.string().trim().max(100).optional(),
  status: z.enum(['active', 'inactive', 'all']).default('all'),
});
export const superProjectRowSchema = z.object({
  id,
  name: z.string(),
  slug: z.string(),
  active_apps: z.array(z.enum(APP_CODES)),
  facility_name: z.string(),
  is_active: z.boolean(),
  member_count: z.number().int(),
  created_at: time,
});
export type SuperProjectRow = z.infer<typeof superProjectRowSchema>;
export const superProjectListSchema = z.object({ projects: z.array(superProjectRowSchema), ...paged });

/** GET /super/projects/{id} and the answer of create and update. */
export const superProjectDetailSchema = superProjectRowSchema.extend({
  address: z.string(),
  phone: z.string(),
  email: z.string(),
  /** Where the logo is served (GET /api/projects/{id}/logo), or null. */
  logo_url: z.string().nullable(),
  /** The signed-in user's role in the project (null for a superadmin who is not a member). */
  project_role: z.enum(PROJECT_ROLES).nullable(),
  updated_at: time,
});
export type SuperProjectDetail = z.infer<typeof superProjectDetailSchema>;

/** PUT /super/projects/{id}/logo and /api/projects/{id}/admin/logo: PNG, JPEG or WebP, at most 512 KB. */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const logoUploadSchema = z.object({
  content_type: z.enum(LOGO_TYPES, 'The logo must be a PNG, JPEG or WebP image.'),
  /** The file, base64-encoded. */
  data: z
    .string()
    .min(1, 'Choose an image.')
    .max(Math.ceil(LOGO_MAX_BYTES / 3) * 4 + 4, 'The logo must be at most 512 KB.'),
});

// ---------------------------------------------------------------- members

/** A project member as the superadmin's project page and the project Admin app show them. */
export const memberSchema = z.object({
  user_id: id,
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  status: z.enum(USER_STATUSES),
  project_role: z.enum(PROJECT_ROLES),
  main_roles: mainRolesAnswerSchema,
  last_login_at: time.nullable(),
  two_factor_enabled: z.boolean(),
  joined_at: time,
});
export type Member = z.infer<typeof memberSchema>;
export const memberListSchema = z.object({ members: z.array(memberSchema) });

/** POST /super/projects/{id}/members: add an existing user. */
export const memberAddSchema = z.object({
  user_id: id.positive('Pick a user.').max(INT4_MAX, 'No such record.'),
  project_role: z.enum(PROJECT_ROLES).default('simple'),
  main_roles: mainRolesSchema.default({}),
});
/** PATCH .../members/{userId} (superadmin and project admin). */
export const memberUpdateSchema = z
  .object({ project_role: z.enum(PROJECT_ROLES).optional(), main_roles: mainRolesSchema.optional() })
  .refine((body) => body.project_role !== undefined || body.main_roles !== undefined, 'Change at least one field.');
export type MemberUpdate = z.input<typeof memberUpdateSchema>;

// ---------------------------------------------------------------- users

/** GET /super/users?q&role&status&project&page&page_size. */
export const superUserListQuerySchema = pageQuerySchema.extend({
  q: z.string().trim().max(100).optional(),
  role: z.enum(GLOBAL_ROLES).optional(),
  status: z.enum([...USER_STATUSES, 'locked']).optional(),
  project: queryRecordId.optional(),
});
export const superUserRowSchema = z.object({
  id,
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.enum(GLOBAL_ROLES),
  status: z.enum(USER_STATUSES),
  /** Ten failed sign-ins in a row lock an account for 15 minutes; a superadmin can unlock it sooner. */
  locked: z.boolean(),
  two_factor_enabled: z.boolean(),
  last_login_at: time.nullable(),
  project_count: z.number().int(),
  created_at: time,
});
export type SuperUserRow = z.infer<typeof superUserRowSchema>;
export const superUserListSchema = z.object({ users: z.array(superUserRowSchema), ...paged });

export const membershipSchema = z.object({
  project_id: id,
  project_name: z.string(),
  project_role: z.enum(PROJECT_ROLES),
  main_roles: mainRolesAnswerSchema,
});
export const superUserDetailSchema = superUserRowSchema.extend({
  locked_until: time.nullable(),
  /** False while an invited user has not chosen a password yet. */
  password_set: z.boolean(),
  is_demo: z.boolean(),
  memberships: z.array(membershipSchema),
  updated_at: time,
});
export type SuperUserDetail = z.infer<typeof superUserDetailSchema>;

export const membershipInputSchema = z.object({
  project_id: recordId,
  project_role: z.enum(PROJECT_ROLES).default('simple'),
  main_roles: mainRolesSchema.default({}),
});
const uniqueProjects = (list: { project_id: number }[]) => new Set(list.map((m) => m.project_id)).size === list.length;

/** POST /super/users: creates the account and emails an invitation with a set-password link. */
export const superUserCreateSchema = z.object({
  email: emailSchema,
  username: usernameSchema,
  first_name: required(100, 'First name'),
  last_name: required(100, 'Last name'),
  role: z.enum(GLOBAL_ROLES).default('user'),
  memberships: z.array(membershipInputSchema).max(200).default([]).refine(uniqueProjects, 'Each project only once.'),
});
export type SuperUserCreate = z.input<typeof superUserCreateSchema>;
/** PATCH /super/users/{id}: profile and global role. */
export const superUserUpdateSchema = z
  .object({
    email: emailSchema.optional(),
    username: usernameSchema.optional(),
    first_name: required(100, 'First name').optional(),
    last_name: required(100, 'Last name').optional(),
    role: z.enum(GLOBAL_ROLES).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Change at least one field.');
export type SuperUserUpdate = z.input<typeof superUserUpdateSchema>;
/** PUT /super/users/{id}/memberships: the complete list; projects left out are left. */
export const superUserMembershipsSchema = z.object({
  memberships: z.array(membershipInputSchema).max(200).refine(uniqueProjects, 'Each project only once.'),
});
/**
 * POST /super/users/{id}/{action}: disable (ends every session at once), enable, reset-two-factor,
 * send-password-reset, unlock, resend-invitation. Each answers the user's detail.
 */
export const USER_ACTIONS = [
  'disable',
  'enable',
  'reset-two-factor',
  'send-password-reset',
  'unlock',
  'resend-invitation',
] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

/** How long an invitation's set-password link works. */
export const INVITATION_TTL_DAYS = 7;

// ---------------------------------------------------------------- new-user requests

export const USER_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
/** POST /api/projects/{id}/admin/user-requests: a project admin asks the superadmins for a new account. */
export const userRequestCreateSchema = z.object({
  first_name: required(100, 'First name'),
  last_name: required(100, 'Last name'),
  email: emailSchema,
  project_role: z.enum(PROJECT_ROLES).default('simple'),
  /** The apps the person needs, with the main role asked for in each. */
  main_roles: mainRolesSchema.default({}),
  justification: required(2000, 'Justification'),
});
export type UserRequestCreate = z.input<typeof userRequestCreateSchema>;
export const userRequestSchema = z.object({
  id,
  project: z.object({ id, name: z.string() }),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  project_role: z.enum(PROJECT_ROLES),
  main_roles: mainRolesAnswerSchema,
  justification: z.string(),
  status: z.enum(USER_REQUEST_STATUSES),
  requested_by: personRef,
  decided_by: personRef,
  decided_at: time.nullable(),
  rejection_reason: z.string().nullable(),
  /** The account the approval created or reused. */
  user_id: id.nullable(),
  created_at: time,
});
export type UserRequest = z.infer<typeof userRequestSchema>;
export const userRequestListSchema = z.object({ requests: z.array(userRequestSchema) });
/** GET /super/user-requests?status. */
export const userRequestListQuerySchema = z.object({
  status: z.enum([...USER_REQUEST_STATUSES, 'all']).default('pending'),
});
/** POST /super/user-requests/{id}/approve: the username defaults to one made from the email. */
export const userRequestApproveSchema = z.object({ username: usernameSchema.optional() });
/** POST /super/user-requests/{id}/reject: the reason is emailed to the admin who asked. */
export const userRequestRejectSchema = z.object({ reason: required(1000, 'Reason') });

// ---------------------------------------------------------------- terms

export const termsVersionSchema = z.object({
  id,
  status: z.enum(['draft', 'published']),
  published_at: time.nullable(),
  published_by: personRef,
  created_at: time,
  updated_at: time,
  /** Users whose acceptance of this version is recorded. */
  accepted_count: z.number().int(),
});
export const termsVersionListSchema = z.object({
  versions: z.array(termsVersionSchema),
  /** Active users who have not accepted the newest published version. */
  pending_acceptance: z.number().int(),
});
export const termsVersionDetailSchema = termsVersionSchema.extend({ content: z.string() });
export type TermsVersionDetail = z.infer<typeof termsVersionDetailSchema>;
/** GET /super/terms/editor: the draft if there is one, else the newest published text to start from. */
export const termsEditorSchema = z.object({
  draft: termsVersionDetailSchema.nullable(),
  published: termsVersionDetailSchema.nullable(),
});
/** PUT /super/terms/draft and POST /super/terms/publish. */
export const termsContentSchema = z.object({
  content: z
    .string()
    .max(200_000, 'The terms must be at most 200,000 characters.')
    .refine((html) => html.replace(/<[^>]*>/g, '').trim().length > 0, 'Write the terms before saving.'),
});

// ---------------------------------------------------------------- email log

export const EMAIL_STATUSES = ['queued', 'sending', 'sent', 'failed', 'logged'] as const;
export const emailLogQuerySchema = pageQuerySchema.extend({
  q: z.string().trim().max(100).optional(),
  status: z.enum(EMAIL_STATUSES).optional(),
  project: queryRecordId.optional(),
});
export const emailLogRowSchema = z.object({
  id,
  to: z.string(),
  subject: z.string(),
  template: z.string(),
  status: z.enum(EMAIL_STATUSES),
  error: z.string().nullable(),
  attempts: z.number().int(),
  project: projectRef,
  created_at: time,
  sent_at: time.nullable(),
  /** When the next try is due (a message waiting to be sent again after a failure). */
  next_attempt_at: time.nullable(),
});
export const emailLogListSchema = z.object({ emails: z.array(emailLogRowSchema), ...paged });
/** What became of the set-password link the log no longer holds. */
export const EMAIL_LINK_STATES = ['used', 'unused', 'expired', 'replaced'] as const;
/**
 * GET /super/email-logs/{id}: with the body (plain text; shown as text, never as HTML). A set-password link is never
 * in it (a marker stands in its place); `link` says whether that link was used.
 */
export const emailLogDetailSchema = emailLogRowSchema.extend({
  body: z.string(),
  link: z.object({ state: z.enum(EMAIL_LINK_STATES), at: time.nullable() }).nullable(),
});

// ---------------------------------------------------------------- permission matrices

/** The apps with a permission matrix, as their /superadmin/... screens and /super/permissions/{app} calls name them. */
export const MATRIX_APPS = PERMISSION_APPS;
export const permissionMatrixQuerySchema = z.object({
  project: queryRecordId,
});
export const permissionMatrixSchema = z.object({
  app: z.enum(PERMISSION_APPS),
  project_id: id,
  /** The columns: the app's main roles. */
  roles: z.array(z.string()),
  /** The rows. A section with no role is locked for everyone but superadmins. */
  sections: z.array(
    z.object({ path: z.string(), allowed_roles: z.array(z.string()), is_default: z.boolean(), locked: z.boolean() }),
  ),
});
export type PermissionMatrix = z.infer<typeof permissionMatrixSchema>;
/** PUT /super/permissions/{app}: every section of the app with its allowed roles. */
export const permissionMatrixUpdateSchema = z.object({
  project_id: recordId,
  sections: z
    .array(z.object({ path: z.string().max(100), allowed_roles: z.array(z.string().max(50)).max(20) }))
    .max(200),
});
/** POST /super/permissions/{app}/copy. */
export const permissionMatrixCopySchema = z.object({ project_id: recordId, from_project_id: recordId });
/** POST /super/permissions/{app}/reset. */
export const permissionMatrixResetSchema = z.object({ project_id: recordId });

// ---------------------------------------------------------------- audit log

export const auditQuerySchema = pageQuerySchema.extend({
  actor: queryRecordId.optional(),
  project: queryRecordId.optional(),
  /** An action, or its prefix such as `user.` */
  action: z
    .string()
    .trim()
    .regex(/^[a-z0-9_.]{1,100}$/, 'Actions are lower-case words joined by dots.')
    .optional(),
  from: z.iso.datetime({ offset: true, message: 'Give the start as an ISO date and time.' }).optional(),
  to: z.iso.datetime({ offset: true, message: 'Give the end as an ISO date and time.' }).optional(),
});
export const auditEventSchema = z.object({
  id,
  created_at: time,
  action: z.string(),
  actor: personRef,
  project: projectRef,
  subject_type: z.string().nullable(),
  subject_id: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;
export const auditEventListSchema = z.object({ events: z.array(auditEventSchema), ...paged });

/** Whether the audit trail's hash chain verifies (GET /super/audit-chain; lib/audit-chain.ts on the server). */
export const auditChainSchema = z.object({
  ok: z.boolean(),
  verified: z.number(),
  unsealed: z.number(),
  head_hash: z.string().nullable(),
  broken: z.object({ seq: z.number(), event_id: z.number().nullable(), reason: z.string() }).nullable(),
  checked_at: z.string(),
});
export type AuditChain = z.infer<typeof auditChainSchema>;
/** The most rows one CSV export holds. */
export const AUDIT_EXPORT_MAX_ROWS = 50_000;

// ---------------------------------------------------------------- dashboard and tools

/** GET /super/dashboard. */
export const superDashboardSchema = z.object({
  counts: z.object({
    projects: z.number().int(),
    active_projects: z.number().int(),
    users: z.number().int(),
    pending_user_requests: z.number().int(),
    failed_emails: z.number().int(),
    users_without_two_factor: z.number().int(),
  }),
  latest_audit_events: z.array(auditEventSchema),
});
export type SuperDashboard = z.infer<typeof superDashboardSchema>;

/** POST /super/sanitize (for /dev/editor): the server's sanitiser applied to the editor's HTML. */
export const sanitizeRequestSchema = z.object({ html: z.string().max(200_000) });
export const sanitizeResponseSchema = z.object({ html: z.string() });

// ---------------------------------------------------------------- project Admin app

/** GET /api/projects/{id}/admin/dashboard. */
export const projectAdminDashboardSchema = z.object({
  members: z.array(memberSchema),
  pending_requests: z.array(userRequestSchema),
  unread_contact_messages: z.number().int(),
});
/** GET and PATCH /api/projects/{id}/admin/details (active apps stay a superadmin decision). */
export const projectDetailsSchema = z.object({
  id,
  name: z.string(),
  slug: z.string(),
  facility_name: z.string(),
  address: z.string(),
  phone: z.string(),
  email: z.string(),
  logo_url: z.string().nullable(),
  active_apps: z.array(z.enum(APP_CODES)),
});
export type ProjectDetails = z.infer<typeof projectDetailsSchema>;
export const projectDetailsUpdateSchema = z
  .object(projectDetailsFields)
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'Change at least one field.');

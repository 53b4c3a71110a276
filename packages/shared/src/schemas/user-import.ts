import { z } from 'zod';

/**
 * A CSV import of people, for facilities without a directory to provision from (issue 27): the superadmin uploads a
 * file, sees every row checked (with each row's problems in words), imports all of it or nothing, and the
 * invitations go out in the background with their progress shown. One row per person; a person's project is
 * optional (an account with no project yet).
 */
export const USER_IMPORT_COLUMNS = [
  'email',
  'first_name',
  'last_name',
  'username',
  'project',
  'project_role',
  'policy_role',
  'monitoring_role',
  'chart_review_role',
  'reader_departments',
] as const;
export type UserImportColumn = (typeof USER_IMPORT_COLUMNS)[number];

/** What each column holds, as the import screen explains it. */
export const USER_IMPORT_COLUMN_HELP: Record<UserImportColumn, string> = {
  email: 'Required. The person signs in with it and gets the invitation there.',
  first_name: 'Required.',
  last_name: 'Required.',
  username: 'Optional: made from the email address when empty.',
  project: 'Optional: the project’s name (or number). Empty: an account with no project yet.',
  project_role: 'admin or member (the default).',
  policy_role: 'Optional main role in policy management: policy_admin, author, reviewer, signer or reader.',
  monitoring_role: 'Optional main role in monitoring: monitoring_admin, page_owner, data_entry or viewer.',
  chart_review_role: 'Optional main role in chart review: chart_review_admin, program_lead, reviewer or viewer.',
  reader_departments:
    'Optional: policy departments (name or code) whose policies the person must read, separated by ;. Needs a policy role.',
};

export const USER_IMPORT_MAX_ROWS = 5_000;
export const USER_IMPORT_MAX_BYTES = 2_000_000;

export const userImportRequestSchema = z.object({
  csv: z
    .string('Choose a CSV file.')
    .min(1, 'Choose a CSV file.')
    .max(USER_IMPORT_MAX_BYTES, 'The file is at most 2 MB.'),
});
export type UserImportRequest = z.infer<typeof userImportRequestSchema>;

export const userImportRowSchema = z.object({
  /** The line of the file (the header is line 1). */
  line: z.number(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  project: z.string().nullable(),
  project_role: z.enum(['admin', 'simple']),
  main_roles: z.object({
    policy_management: z.string().nullable(),
    monitoring: z.string().nullable(),
    chart_review: z.string().nullable(),
  }),
  reader_departments: z.array(z.string()),
  /** What is wrong with the row, in words; empty: it can be imported. */
  problems: z.array(z.string()),
});
export type UserImportRow = z.infer<typeof userImportRowSchema>;

export const userImportPreviewSchema = z.object({
  rows: z.array(userImportRowSchema),
  /** Problems of the file itself (its header, its size). */
  file_problems: z.array(z.string()),
  ready: z.number(),
  with_problems: z.number(),
});
export type UserImportPreview = z.infer<typeof userImportPreviewSchema>;

/** An import under way or done: its invitations sent so far. */
export const userImportStatusSchema = z.object({
  id: z.number(),
  total: z.number(),
  sent: z.number(),
  failed: z.number(),
  finished: z.boolean(),
  created_at: z.string(),
});
export type UserImportStatus = z.infer<typeof userImportStatusSchema>;

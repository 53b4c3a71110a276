import {
  emailSchema,
  MAIN_ROLES,
  type MainRoles,
  USER_IMPORT_COLUMNS,
  USER_IMPORT_MAX_ROWS,
  type UserImportColumn,
  type UserImportPreview,
  type UserImportRow,
  type UserImportStatus,
  usernameSchema,
} from '@portal/shared';
import { parse } from 'csv-parse/sync';
import { eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import {
  emailLog,
  policyDepartmentRoles,
  policyDepartments,
  projects,
  userImports,
  users,
} from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { looksBinary, NOT_CSV_TEXT } from '../../lib/csv.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Mailer } from '../../lib/mailer.js';
import type { Actor } from '../members/members.service.js';
import { invitationMail, issuePasswordLink } from './invitations.js';
import { replaceMemberships } from './super-users.service.js';

/**
 * The CSV import of people (issue 27, docs/identity.md "Importing people"): every row checked against the file and
 * the database before anything is written, all rows imported in one transaction or none, then the invitations sent
 * in the background with their count kept in `user_imports` for the screen's progress.
 */

const ROLE_COLUMNS = {
  policy_management: 'policy_role',
  monitoring: 'monitoring_role',
  chart_review: 'chart_review_role',
} as const satisfies Record<keyof MainRoles, UserImportColumn>;
const APP_NAMES: Record<keyof typeof ROLE_COLUMNS, string> = {
  policy_management: 'policy management',
  monitoring: 'monitoring',
  chart_review: 'chart review',
};
const REQUIRED: UserImportColumn[] = ['email', 'first_name', 'last_name'];

/** A row ready to import, with the ids the preview resolved. */
interface PlannedRow extends UserImportRow {
  projectId: number | null;
  departmentIds: number[];
}

const header = (name: string) =>
  name
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** A username from an email's local part: allowed characters only, 3 to 50 long, not yet taken. */
function usernameFor(email: string, taken: Set<string>): string {
  const base =
    email
      .slice(0, email.indexOf('@'))
      .replace(/[^A-Za-z0-9._-]+/g, '.')
      .replace(/^[._-]+|[._-]+$/g, '')
      .slice(0, 45) || 'user';
  const padded = base.length >= 3 ? base : `${base}.user`;
  let candidate = padded;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${padded}${n}`;
  return candidate;
}

/** Checks the file: its header, then every row against the others and the database. Writes nothing. */
export async function planImport(db: DbOrTx, csv: string): Promise<{ preview: UserImportPreview; rows: PlannedRow[] }> {
  const fileProblems: string[] = [];
  const empty = (problems: string[]) => ({
    preview: { rows: [], file_problems: problems, ready: 0, with_problems: 0 },
    rows: [],
  });
  if (looksBinary(new TextEncoder().encode(csv))) return empty([NOT_CSV_TEXT]);
  let records: string[][];
  try {
    records = parse(csv, { relax_column_count: true, skip_empty_lines: true, bom: true });
  } catch {
    return empty(['The file could not be read as CSV: check its quotes and separators (commas).']);
  }
  if (records.length === 0) return empty(['The file is empty: it needs a header line and a line per person.']);
  const columns = records[0]!.map(header);
  const unknown = columns.filter((c) => c && !(USER_IMPORT_COLUMNS as readonly string[]).includes(c));
  if (unknown.length) {
    fileProblems.push(
      `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `“${c}”`).join(', ')}: the columns are ${USER_IMPORT_COLUMNS.join(', ')}.`,
    );
  }
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (missing.length)
    fileProblems.push(`The header lacks the required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`);
  const body = records.slice(1);
  if (body.length === 0) fileProblems.push('The file has a header but no one to import.');
  if (body.length > USER_IMPORT_MAX_ROWS) {
    fileProblems.push(`At most ${USER_IMPORT_MAX_ROWS.toLocaleString('en-US')} people per file: split it.`);
  }
  if (fileProblems.length) return empty(fileProblems);

  const cell = (record: string[], column: UserImportColumn) => {
    const at = columns.indexOf(column);
    return at === -1 ? '' : (record[at] ?? '').trim();
  };

  // What the rows name, read once: the projects, their policy departments, the accounts already there.
  const projectRows = await db
    .select({ id: projects.id, name: projects.name, active: projects.isActive })
    .from(projects);
  const departmentRows = await db
    .select({
      id: policyDepartments.id,
      projectId: policyDepartments.projectId,
      name: policyDepartments.name,
      code: policyDepartments.code,
    })
    .from(policyDepartments);
  const emails = body.map((r) => cell(r, 'email').toLowerCase()).filter(Boolean);
  const usernames = body.map((r) => cell(r, 'username').toLowerCase()).filter(Boolean);
  const existing = emails.length
    ? await db
        .select({ email: sql<string>`lower(${users.email})`, username: sql<string>`lower(${users.username})` })
        .from(users)
        .where(
          sql`lower(${users.email}) in ${emails} or lower(${users.username}) in ${usernames.length ? usernames : ['']}`,
        )
    : [];
  const takenEmails = new Set(existing.map((u) => u.email));
  const takenNames = new Set(existing.map((u) => u.username));
  const firstLineOf = new Map<string, number>();

  const rows: PlannedRow[] = body.map((record, index) => {
    const line = index + 2;
    const problems: string[] = [];
    const rawEmail = cell(record, 'email');
    const email = emailSchema.safeParse(rawEmail);
    if (!rawEmail) problems.push('Enter the email address.');
    else if (!email.success) problems.push(`“${rawEmail}” is not a valid email address.`);
    const address = email.success ? email.data : rawEmail.toLowerCase();
    if (email.success) {
      const earlier = firstLineOf.get(address);
      if (earlier) problems.push(`This email address is also on line ${earlier}.`);
      else firstLineOf.set(address, line);
      if (takenEmails.has(address)) problems.push('An account with this email address already exists.');
    }
    const firstName = cell(record, 'first_name');
    const lastName = cell(record, 'last_name');
    if (!firstName) problems.push('Enter the first name.');
    if (!lastName) problems.push('Enter the last name.');
    if (firstName.length > 100 || lastName.length > 100) problems.push('A name is at most 100 characters.');

    let username = cell(record, 'username');
    if (username) {
      const parsed = usernameSchema.safeParse(username);
      if (!parsed.success) problems.push(parsed.error.issues[0]!.message);
      else if (takenNames.has(username.toLowerCase())) problems.push(`The username “${username}” is taken.`);
    } else if (email.success) {
      username = usernameFor(address, takenNames);
    }
    if (username) takenNames.add(username.toLowerCase());

    const projectName = cell(record, 'project');
    const project = projectName
      ? projectRows.find(
          (p) => p.name.trim().toLowerCase() === projectName.toLowerCase() || String(p.id) === projectName,
        )
      : undefined;
    if (projectName && !project) problems.push(`No project is named “${projectName}”.`);
    else if (project && !project.active) problems.push(`The project “${project.name}” is not active.`);

    const roleText = cell(record, 'project_role').toLowerCase();
    const projectRole = roleText === 'admin' ? 'admin' : 'simple';
    if (roleText && !['admin', 'member', 'simple'].includes(roleText)) {
      problems.push(`“${roleText}” is not a project role: admin or member.`);
    }
    const mainRoles = { policy_management: null, monitoring: null, chart_review: null } as UserImportRow['main_roles'];
    for (const [app, column] of Object.entries(ROLE_COLUMNS) as [keyof typeof ROLE_COLUMNS, UserImportColumn][]) {
      const role = cell(record, column).toLowerCase();
      if (!role) continue;
      if (!(MAIN_ROLES[app] as readonly string[]).includes(role)) {
        problems.push(`“${role}” is not a ${APP_NAMES[app]} role: ${MAIN_ROLES[app].join(', ')}.`);
      } else mainRoles[app] = role;
    }
    const hasRoles = Object.values(mainRoles).some(Boolean) || roleText === 'admin';
    if (hasRoles && !projectName) problems.push('Roles need a project: name it, or leave the roles empty.');

    const departmentNames = cell(record, 'reader_departments')
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean);
    const departmentIds: number[] = [];
    if (departmentNames.length && !mainRoles.policy_management) {
      problems.push('Reader departments need a policy role.');
    }
    for (const name of departmentNames) {
      const found = departmentRows.find(
        (d) =>
          d.projectId === project?.id &&
          (d.name.toLowerCase() === name.toLowerCase() || d.code.toLowerCase() === name.toLowerCase()),
      );
      if (found) departmentIds.push(found.id);
      else if (project) problems.push(`“${project.name}” has no policy department “${name}”.`);
    }

    return {
      line,
      email: address,
      first_name: firstName,
      last_name: lastName,
      username,
      project: project?.name ?? (projectName || null),
      project_role: projectRole,
      main_roles: mainRoles,
      reader_departments: departmentNames,
      problems,
      projectId: project?.id ?? null,
      departmentIds: [...new Set(departmentIds)],
    };
  });
  const withProblems = rows.filter((r) => r.problems.length).length;
  return {
    preview: {
      rows: rows.map(({ projectId: _p, departmentIds: _d, ...row }) => row),
      file_problems: [],
      ready: rows.length - withProblems,
      with_problems: withProblems,
    },
    rows,
  };
}

export interface ImportFacts {
  actor: Actor;
  appUrl: string;
  now: Date;
  /** The invitations are queued in the import's transaction. */
  mailer: Mailer;
}

/**
 * Imports every row, or nothing when a row has a problem (422: the screen checks first, so this means the
 * database changed in between). The invitations are queued in the same transaction (the outbox, decision record
 * 025): every imported person is invited, or nobody is imported.
 */
export async function importPeople(db: Database, csv: string, facts: ImportFacts): Promise<UserImportStatus> {
  return db.transaction(async (tx) => {
    // One import at a time: two imports of the same file must not both pass the checks.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('portal.user_import'))`);
    const { preview, rows } = await planImport(tx, csv);
    if (preview.file_problems.length || preview.with_problems || rows.length === 0) {
      throw new AppError('UNPROCESSABLE', 'Some rows have problems: check the file again and correct them.', {
        csv: [preview.file_problems[0] ?? `${preview.with_problems} rows have problems.`],
      });
    }
    const [record] = await tx
      .insert(userImports)
      .values({ createdBy: facts.actor.userId, total: rows.length, createdAt: facts.now })
      .returning();
    for (const row of rows) {
      const [created] = await tx
        .insert(users)
        .values({
          email: row.email,
          username: row.username,
          firstName: row.first_name,
          lastName: row.last_name,
          role: 'user',
          status: 'invited',
          createdAt: facts.now,
          updatedAt: facts.now,
        })
        .returning();
      const user = created!;
      const memberships = row.projectId
        ? [{ project_id: row.projectId, project_role: row.project_role, main_roles: row.main_roles as MainRoles }]
        : [];
      if (memberships.length) await replaceMemberships(tx, user.id, memberships, facts.actor, facts.now);
      if (row.projectId && row.departmentIds.length) {
        await tx
          .insert(policyDepartmentRoles)
          .values(
            row.departmentIds.map((departmentId) => ({
              projectId: row.projectId!,
              departmentId,
              userId: user.id,
              role: 'reader',
              createdBy: facts.actor.userId,
              createdAt: facts.now,
            })),
          )
          .onConflictDoNothing();
      }
      const link = await issuePasswordLink(tx, {
        userId: user.id,
        email: user.email,
        purpose: 'invitation',
        now: facts.now,
        appUrl: facts.appUrl,
      });
      await recordAudit(tx, {
        action: 'user.create',
        actorUserId: facts.actor.userId,
        subjectType: 'user',
        subjectId: user.id,
        data: {
          email: user.email,
          username: user.username,
          role: 'user',
          memberships,
          reader_departments: row.reader_departments,
          import_id: record!.id,
        },
        ip: facts.actor.ip,
        requestId: facts.actor.requestId,
        at: facts.now,
      });
      await facts.mailer.queue(tx, {
        ...invitationMail(user, link, row.project ?? undefined),
        userImportId: record!.id,
        at: facts.now,
      });
    }
    await recordAudit(tx, {
      action: 'user.import',
      actorUserId: facts.actor.userId,
      subjectType: 'user_import',
      subjectId: record!.id,
      data: { import_id: record!.id, people: rows.length },
      ip: facts.actor.ip,
      requestId: facts.actor.requestId,
      at: facts.now,
    });
    return importStatus(tx, record!.id);
  });
}

/** An import's progress: its invitations as the email log has them (logged without SMTP counts as sent). */
export async function importStatus(db: DbOrTx, id: number): Promise<UserImportStatus> {
  const [row] = await db
    .select({
      id: userImports.id,
      total: userImports.total,
      createdAt: userImports.createdAt,
      sent: sql<number>`count(${emailLog.id}) filter (where ${emailLog.status} in ('sent', 'logged'))::int`,
      failed: sql<number>`count(${emailLog.id}) filter (where ${emailLog.status} = 'failed')::int`,
      waiting: sql<number>`count(${emailLog.id}) filter (where ${emailLog.status} in ('queued', 'sending'))::int`,
    })
    .from(userImports)
    .leftJoin(emailLog, eq(emailLog.userImportId, userImports.id))
    .where(eq(userImports.id, id))
    .groupBy(userImports.id);
  if (!row) throw notFound('Import not found.');
  return {
    id: row.id,
    total: row.total,
    sent: row.sent,
    failed: row.failed,
    finished: row.waiting === 0,
    created_at: row.createdAt.toISOString(),
  };
}

import {
  type AuditChanges,
  eligibleFor,
  type GroupMapping,
  type GroupMappingBody,
  type GroupMappingOptions,
  MAIN_ROLES,
  type MainRoles,
  PERMISSION_APPS,
  type PermissionApp,
  type ProjectRole,
} from '@portal/shared';
import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import {
  directoryGroupMembers,
  directoryGroups,
  identityGroupMappings,
  identityProviders,
  mappedMemberships,
  policyDepartmentRoles,
  policyDepartments,
  policyUsers,
  projectMemberRoles,
  projectMemberships,
  projects,
} from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import { writerActor } from '../../policies/policy-management.js';
import { writeMainRoles } from '../members/members.service.js';
import type { Notice, ProjectNotices } from '../notifications/notices.js';
import { pruneDepartmentRoles } from '../policies/department-roles.service.js';

/**
 * Group mappings (docs/identity.md "Group mappings"): a directory group of a provider mapped to a project, its
 * project role, a main role per app and the reader duty of policy departments. The superadmin's CRUD, what the form
 * may offer, and `applyGroupMappings`, which makes one person's memberships what their groups say (at sign-in, and
 * wherever a provider tells us a person's groups).
 */

export type MappingRow = typeof identityGroupMappings.$inferSelect;
type MappedRoles = Record<PermissionApp, string | null>;

export interface MappingFacts {
  actorUserId: number;
  now: Date;
  ip: string;
  requestId: string;
}

const noRoles = (): MappedRoles => ({ monitoring: null, policy_management: null, chart_review: null });
const rolesOf = (stored: Record<string, string | null>): MappedRoles => {
  const roles = noRoles();
  for (const app of PERMISSION_APPS) roles[app] = stored[app] ?? null;
  return roles;
};
const groupKey = (value: string) => value.trim().toLowerCase();

// ---------------------------------------------------------------- the superadmin's CRUD

async function requireProvider(db: DbOrTx, providerId: number) {
  const [row] = await db
    .select({ id: identityProviders.id, slug: identityProviders.slug })
    .from(identityProviders)
    .where(eq(identityProviders.id, providerId));
  if (!row) throw notFound('Identity provider not found.');
  return row;
}

async function departmentNames(db: DbOrTx, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: policyDepartments.id, name: policyDepartments.name })
    .from(policyDepartments)
    .where(inArray(policyDepartments.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

async function present(db: DbOrTx, rows: MappingRow[]): Promise<GroupMapping[]> {
  const projectIds = [...new Set(rows.map((row) => row.projectId))];
  const names = projectIds.length
    ? new Map(
        (
          await db
            .select({ id: projects.id, name: projects.name })
            .from(projects)
            .where(inArray(projects.id, projectIds))
        ).map((p) => [p.id, p.name]),
      )
    : new Map<number, string>();
  const departments = await departmentNames(db, [...new Set(rows.flatMap((row) => row.readerDepartmentIds))]);
  return rows.map((row) => ({
    id: row.id,
    provider_id: row.providerId,
    group: row.group,
    project_id: row.projectId,
    project_name: names.get(row.projectId) ?? '',
    project_role: row.projectRole as ProjectRole,
    main_roles: rolesOf(row.mainRoles),
    // A department removed since keeps no place in the mapping (it grants nothing).
    reader_departments: row.readerDepartmentIds
      .filter((id) => departments.has(id))
      .map((id) => ({ id, name: departments.get(id)! }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }));
}

/** The values an audit event compares: the mapping as the console shows it, by names. */
function auditView(mapping: GroupMapping) {
  return {
    group: mapping.group,
    project: mapping.project_name,
    project_role: mapping.project_role,
    ...Object.fromEntries(PERMISSION_APPS.map((app) => [`${app}_role`, mapping.main_roles[app]])),
    reader_departments: mapping.reader_departments.map((d) => d.name),
  };
}

export async function listMappings(db: Database, providerId: number): Promise<GroupMapping[]> {
  await requireProvider(db, providerId);
  const rows = await db
    .select()
    .from(identityGroupMappings)
    .where(eq(identityGroupMappings.providerId, providerId))
    .orderBy(asc(sql`lower(${identityGroupMappings.group})`), asc(identityGroupMappings.id));
  const presented = await present(db, rows);
  return presented.sort(
    (a, b) =>
      a.group.toLowerCase().localeCompare(b.group.toLowerCase()) ||
      a.project_name.localeCompare(b.project_name) ||
      a.id - b.id,
  );
}

/** What the form may offer: active projects by name, their active apps that have main roles, their departments. */
export async function mappingOptions(db: Database, providerId: number): Promise<GroupMappingOptions> {
  await requireProvider(db, providerId);
  const rows = await db
    .select({ id: projects.id, name: projects.name, activeApps: projects.activeApps })
    .from(projects)
    .where(eq(projects.isActive, true))
    .orderBy(asc(sql`lower(${projects.name})`), asc(projects.id));
  const withPolicies = rows.filter((p) => p.activeApps.includes('policy_management')).map((p) => p.id);
  const departments = withPolicies.length
    ? await db
        .select({
          id: policyDepartments.id,
          projectId: policyDepartments.projectId,
          name: policyDepartments.name,
          code: policyDepartments.code,
        })
        .from(policyDepartments)
        .where(inArray(policyDepartments.projectId, withPolicies))
        .orderBy(asc(sql`lower(${policyDepartments.name})`), asc(policyDepartments.id))
    : [];
  return {
    projects: rows.map((p) => ({
      id: p.id,
      name: p.name,
      apps: PERMISSION_APPS.filter((app) => p.activeApps.includes(app)),
      departments: departments.filter((d) => d.projectId === p.id).map(({ id, name, code }) => ({ id, name, code })),
    })),
    main_roles: {
      monitoring: [...MAIN_ROLES.monitoring],
      policy_management: [...MAIN_ROLES.policy_management],
      chart_review: [...MAIN_ROLES.chart_review],
    },
  };
}

const APP_NAMES: Record<PermissionApp, string> = {
  monitoring: 'Monitoring',
  policy_management: 'Policy management',
  chart_review: 'Chart review',
};

/** 422 naming each field whose project, app or department does not fit; 409 for a group already mapped there. */
async function validate(tx: DbOrTx, providerId: number, input: GroupMappingBody, exceptId: number | null) {
  const [project] = await tx
    .select({ id: projects.id, isActive: projects.isActive, activeApps: projects.activeApps })
    .from(projects)
    .where(eq(projects.id, input.project_id));
  const errors: Record<string, string[]> = {};
  if (!project) errors.project_id = ['This project does not exist.'];
  else if (!project.isActive) errors.project_id = ['This project is deactivated: pick an active project.'];
  if (project?.isActive) {
    for (const app of PERMISSION_APPS) {
      const role = input.main_roles[app];
      if (role === null) continue;
      if (!project.activeApps.includes(app)) {
        errors[`main_roles.${app}`] = [`${APP_NAMES[app]} is not switched on in this project.`];
      } else if (!(MAIN_ROLES[app] as readonly string[]).includes(role)) {
        errors[`main_roles.${app}`] = [`This is not a role of ${APP_NAMES[app]}.`];
      }
    }
    if (input.reader_department_ids.length) {
      const found = await tx
        .select({ id: policyDepartments.id })
        .from(policyDepartments)
        .where(
          and(
            eq(policyDepartments.projectId, input.project_id),
            inArray(policyDepartments.id, input.reader_department_ids),
          ),
        );
      const ours = new Set(found.map((d) => d.id));
      if (input.reader_department_ids.some((id) => !ours.has(id))) {
        errors.reader_department_ids = ['Pick departments of this project’s policy management.'];
      }
    }
  }
  if (Object.keys(errors).length) throw new AppError('UNPROCESSABLE', Object.values(errors)[0]![0]!, errors);
  const [taken] = await tx
    .select({ id: identityGroupMappings.id })
    .from(identityGroupMappings)
    .where(
      and(
        eq(identityGroupMappings.providerId, providerId),
        eq(identityGroupMappings.projectId, input.project_id),
        sql`lower(${identityGroupMappings.group}) = ${groupKey(input.group)}`,
        exceptId === null ? undefined : ne(identityGroupMappings.id, exceptId),
      ),
    );
  if (taken) throw groupTaken(input.group);
}

const groupTaken = (group: string) =>
  new AppError('CONFLICT', 'This group is already mapped to this project.', {
    group: [`“${group}” is already mapped to this project: change that mapping instead.`],
  });
const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

function columnsOf(input: GroupMappingBody) {
  return {
    group: input.group,
    projectId: input.project_id,
    projectRole: input.project_role,
    mainRoles: { ...input.main_roles },
    readerDepartmentIds: input.reader_department_ids,
  };
}

async function auditMapping(
  tx: DbOrTx,
  action: 'identity_provider.mapping_create' | 'identity_provider.mapping_update' | 'identity_provider.mapping_delete',
  providerId: number,
  mappingId: number,
  data: Record<string, unknown>,
  facts: MappingFacts,
) {
  await recordAudit(tx, {
    action,
    actorUserId: facts.actorUserId,
    subjectType: 'identity_provider',
    subjectId: providerId,
    data: { mapping_id: mappingId, ...data },
    ip: facts.ip,
    requestId: facts.requestId,
    at: facts.now,
  });
}

export async function createMapping(
  db: Database,
  providerId: number,
  input: GroupMappingBody,
  facts: MappingFacts,
): Promise<GroupMapping> {
  try {
    return await db.transaction(async (tx) => {
      await requireProvider(tx, providerId);
      await validate(tx, providerId, input, null);
      const [row] = await tx
        .insert(identityGroupMappings)
        .values({ providerId, ...columnsOf(input), createdAt: facts.now, updatedAt: facts.now })
        .returning();
      const [mapping] = await present(tx, [row!]);
      await auditMapping(
        tx,
        'identity_provider.mapping_create',
        providerId,
        row!.id,
        { changes: changes(null, auditView(mapping!)) },
        facts,
      );
      return mapping!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw groupTaken(input.group);
    throw error;
  }
}

async function lockMapping(tx: DbOrTx, providerId: number, mappingId: number): Promise<MappingRow> {
  const [row] = await tx
    .select()
    .from(identityGroupMappings)
    .where(and(eq(identityGroupMappings.id, mappingId), eq(identityGroupMappings.providerId, providerId)))
    .for('update');
  if (!row) throw notFound('Group mapping not found.');
  return row;
}

export async function updateMapping(
  db: Database,
  providerId: number,
  mappingId: number,
  input: GroupMappingBody,
  facts: MappingFacts,
): Promise<GroupMapping> {
  try {
    return await db.transaction(async (tx) => {
      await requireProvider(tx, providerId);
      const before = await lockMapping(tx, providerId, mappingId);
      await validate(tx, providerId, input, mappingId);
      const [after] = await tx
        .update(identityGroupMappings)
        .set({ ...columnsOf(input), updatedAt: facts.now })
        .where(eq(identityGroupMappings.id, mappingId))
        .returning();
      const [was, now] = await present(tx, [before, after!]);
      const changed = changes(auditView(was!), auditView(now!));
      if (Object.keys(changed).length) {
        await auditMapping(tx, 'identity_provider.mapping_update', providerId, mappingId, { changes: changed }, facts);
      }
      return now!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw groupTaken(input.group);
    throw error;
  }
}

/** Removes a mapping. What it granted goes at each person's next sign-in (or directory push), unless another grants it. */
export async function deleteMapping(
  db: Database,
  providerId: number,
  mappingId: number,
  facts: MappingFacts,
): Promise<void> {
  await db.transaction(async (tx) => {
    await requireProvider(tx, providerId);
    const row = await lockMapping(tx, providerId, mappingId);
    const [mapping] = await present(tx, [row]);
    await tx.delete(identityGroupMappings).where(eq(identityGroupMappings.id, mappingId));
    await auditMapping(
      tx,
      'identity_provider.mapping_delete',
      providerId,
      mappingId,
      { changes: changes(auditView(mapping!), null, { fields: Object.keys(auditView(mapping!)) }) },
      facts,
    );
  });
}

// ---------------------------------------------------------------- a person's groups

/** At most this many groups are read from one sign-in's groups claim (a directory can send thousands). */
export const MAX_CLAIMED_GROUPS = 500;

/** The groups claim's values: strings, trimmed, at most 300 characters, once each; anything else is not a group. */
export function claimedGroups(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const seen = new Set<string>();
  const groups: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string') continue;
    const name = item.trim();
    if (!name || name.length > 300 || seen.has(name)) continue;
    seen.add(name);
    groups.push(name);
    if (groups.length >= MAX_CLAIMED_GROUPS) break;
  }
  return groups;
}

/**
 * Makes the person's groups of this provider exactly `names` (a sign-in's groups claim): a group is found by its
 * external id, then by its display name, else made with both set to the value; memberships of other groups of the
 * provider go.
 */
export async function replaceDirectoryGroups(
  tx: DbOrTx,
  options: { providerId: number; userId: number; names: string[]; at: Date },
): Promise<void> {
  const { providerId, userId, names, at } = options;
  const ids: number[] = [];
  if (names.length) {
    // Concurrent sign-ins naming a new group: the unique external id makes one row, the others find it.
    await tx
      .insert(directoryGroups)
      .values(names.map((name) => ({ providerId, externalId: name, displayName: name, createdAt: at, updatedAt: at })))
      .onConflictDoNothing();
    const rows = await tx
      .select({
        id: directoryGroups.id,
        externalId: directoryGroups.externalId,
        displayName: directoryGroups.displayName,
      })
      .from(directoryGroups)
      .where(
        and(
          eq(directoryGroups.providerId, providerId),
          or(inArray(directoryGroups.externalId, names), inArray(directoryGroups.displayName, names)),
        ),
      )
      .orderBy(asc(directoryGroups.id));
    for (const name of names) {
      const found = rows.find((r) => r.externalId === name) ?? rows.find((r) => r.displayName === name);
      if (found && !ids.includes(found.id)) ids.push(found.id);
    }
  }
  const current = await tx
    .select({ groupId: directoryGroupMembers.groupId })
    .from(directoryGroupMembers)
    .innerJoin(directoryGroups, eq(directoryGroups.id, directoryGroupMembers.groupId))
    .where(and(eq(directoryGroupMembers.userId, userId), eq(directoryGroups.providerId, providerId)));
  const had = new Set(current.map((row) => row.groupId));
  const gone = [...had].filter((id) => !ids.includes(id));
  if (gone.length) {
    await tx
      .delete(directoryGroupMembers)
      .where(and(eq(directoryGroupMembers.userId, userId), inArray(directoryGroupMembers.groupId, gone)));
  }
  const added = ids.filter((id) => !had.has(id));
  if (added.length) {
    await tx
      .insert(directoryGroupMembers)
      .values(added.map((groupId) => ({ groupId, userId, createdAt: at })))
      .onConflictDoNothing();
  }
}

// ---------------------------------------------------------------- applying the mappings

export interface ApplyActor {
  userId: number | null;
  ip: string | null;
  requestId: string | null;
}

interface Desired {
  projectRole: ProjectRole;
  mainRoles: MappedRoles;
  readers: Set<number>;
  groups: string[];
}

/** The stronger of two main roles of an app: the one earlier in MAIN_ROLES[app] (its order is by reach). */
function stronger(app: PermissionApp, a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  const order = MAIN_ROLES[app] as readonly string[];
  return order.indexOf(a) <= order.indexOf(b) ? a : b;
}

/** What the person's groups grant, per active project (apps switched off and departments since removed ignored). */
async function desiredGrants(tx: DbOrTx, providerId: number, userId: number): Promise<Map<number, Desired>> {
  const groups = await tx
    .select({ externalId: directoryGroups.externalId, displayName: directoryGroups.displayName })
    .from(directoryGroupMembers)
    .innerJoin(directoryGroups, eq(directoryGroups.id, directoryGroupMembers.groupId))
    .where(and(eq(directoryGroupMembers.userId, userId), eq(directoryGroups.providerId, providerId)));
  const keys = new Set(
    groups.flatMap((g) => [groupKey(g.displayName), ...(g.externalId ? [groupKey(g.externalId)] : [])]),
  );
  const desired = new Map<number, Desired>();
  if (!keys.size) return desired;
  const mappings = (
    await tx
      .select()
      .from(identityGroupMappings)
      .where(eq(identityGroupMappings.providerId, providerId))
      .orderBy(asc(identityGroupMappings.id))
  ).filter((m) => keys.has(groupKey(m.group)));
  if (!mappings.length) return desired;
  const projectIds = [...new Set(mappings.map((m) => m.projectId))];
  const active = new Map(
    (
      await tx
        .select({ id: projects.id, activeApps: projects.activeApps })
        .from(projects)
        .where(and(inArray(projects.id, projectIds), eq(projects.isActive, true)))
    ).map((p) => [p.id, p.activeApps]),
  );
  const departmentIds = [...new Set(mappings.flatMap((m) => m.readerDepartmentIds))];
  const departments = departmentIds.length
    ? await tx
        .select({ id: policyDepartments.id, projectId: policyDepartments.projectId })
        .from(policyDepartments)
        .where(inArray(policyDepartments.id, departmentIds))
    : [];
  for (const mapping of mappings) {
    const apps = active.get(mapping.projectId);
    if (!apps) continue;
    const grant = desired.get(mapping.projectId) ?? {
      projectRole: 'simple' as ProjectRole,
      mainRoles: noRoles(),
      readers: new Set<number>(),
      groups: [],
    };
    if (mapping.projectRole === 'admin') grant.projectRole = 'admin';
    for (const app of PERMISSION_APPS) {
      const role = mapping.mainRoles[app] ?? null;
      if (role === null || !apps.includes(app) || !(MAIN_ROLES[app] as readonly string[]).includes(role)) continue;
      grant.mainRoles[app] = stronger(app, grant.mainRoles[app], role);
    }
    if (apps.includes('policy_management')) {
      for (const id of mapping.readerDepartmentIds) {
        if (departments.some((d) => d.id === id && d.projectId === mapping.projectId)) grant.readers.add(id);
      }
    }
    if (!grant.groups.includes(mapping.group)) grant.groups.push(mapping.group);
    desired.set(mapping.projectId, grant);
  }
  return desired;
}

/** The person's membership in a project as the audit shows it. */
interface MemberState {
  member: boolean;
  project_role: string | null;
  roles: MappedRoles;
  readers: number[];
}

async function memberState(tx: DbOrTx, projectId: number, userId: number): Promise<MemberState> {
  const [membership] = await tx
    .select({ projectRole: projectMemberships.projectRole })
    .from(projectMemberships)
    .where(and(eq(projectMemberships.projectId, projectId), eq(projectMemberships.userId, userId)));
  const roles = noRoles();
  const roleRows = await tx
    .select({ app: projectMemberRoles.app, role: projectMemberRoles.mainRole })
    .from(projectMemberRoles)
    .where(and(eq(projectMemberRoles.projectId, projectId), eq(projectMemberRoles.userId, userId)));
  for (const row of roleRows) roles[row.app as PermissionApp] = row.role;
  const readers = await tx
    .select({ departmentId: policyDepartmentRoles.departmentId })
    .from(policyDepartmentRoles)
    .where(
      and(
        eq(policyDepartmentRoles.projectId, projectId),
        eq(policyDepartmentRoles.userId, userId),
        eq(policyDepartmentRoles.role, 'reader'),
      ),
    );
  return {
    member: membership !== undefined,
    project_role: membership?.projectRole ?? null,
    roles,
    readers: readers.map((r) => r.departmentId).sort((a, b) => a - b),
  };
}

async function isLastAdmin(tx: DbOrTx, projectId: number, userId: number): Promise<boolean> {
  const [others] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(projectMemberships)
    .where(
      and(
        eq(projectMemberships.projectId, projectId),
        eq(projectMemberships.projectRole, 'admin'),
        ne(projectMemberships.userId, userId),
      ),
    );
  return !others?.count;
}

async function writeReaders(
  tx: DbOrTx,
  projectId: number,
  userId: number,
  added: number[],
  removed: number[],
  actorUserId: number | null,
  at: Date,
) {
  if (removed.length) {
    await tx
      .delete(policyDepartmentRoles)
      .where(
        and(
          eq(policyDepartmentRoles.projectId, projectId),
          eq(policyDepartmentRoles.userId, userId),
          eq(policyDepartmentRoles.role, 'reader'),
          inArray(policyDepartmentRoles.departmentId, removed),
        ),
      );
  }
  if (added.length) {
    await tx
      .insert(policyDepartmentRoles)
      .values(
        added.map((departmentId) => ({
          projectId,
          departmentId,
          userId,
          role: 'reader',
          createdBy: actorUserId,
          createdAt: at,
        })),
      )
      .onConflictDoNothing();
  }
}

/**
 * Makes one person's memberships what their directory groups of this provider say, through the provider's mappings
 * (docs/identity.md "Group mappings"). Per active project:
 * - grants: project role admin if any matching mapping says admin, else member; per app the strongest main role any
 *   matching mapping names (earliest in MAIN_ROLES[app]); reader duties the union of the mappings' departments;
 * - a membership an administrator granted by hand (no mapped_memberships row) is never changed nor removed;
 * - in a membership a mapping made, a main role or reader duty is the mapping's only while it is what the mapping
 *   last set (recorded in mapped_memberships): one changed or added by hand stays as it is;
 * - what no mapping grants any more is taken away; the membership itself when no mapping grants it;
 * - every change is audited (`member.mapped_grant`, `member.mapped_revoke`); applying again changes nothing.
 * Runs in the caller's transaction; notices of open policy rounds that follow go to `options.notices`.
 */
export async function applyGroupMappings(
  tx: DbOrTx,
  options: { providerId: number; userId: number; at: Date; actor: ApplyActor; notices?: ProjectNotices[] },
): Promise<void> {
  const { providerId, userId } = options;
  const [provider] = await tx
    .select({ slug: identityProviders.slug })
    .from(identityProviders)
    .where(eq(identityProviders.id, providerId));
  if (!provider) return;
  const desired = await desiredGrants(tx, providerId, userId);
  const recorded = new Map(
    (
      await tx
        .select()
        .from(mappedMemberships)
        .where(and(eq(mappedMemberships.providerId, providerId), eq(mappedMemberships.userId, userId)))
    ).map((row) => [row.projectId, row]),
  );
  const projectIds = [...new Set([...desired.keys(), ...recorded.keys()])].sort((a, b) => a - b);
  if (!projectIds.length) return;
  // Deactivated projects are left as they are (nothing granted there, nothing taken away).
  const active = new Set(
    (
      await tx
        .select({ id: projects.id })
        .from(projects)
        .where(and(inArray(projects.id, projectIds), eq(projects.isActive, true)))
    ).map((p) => p.id),
  );
  for (const projectId of projectIds) {
    if (!active.has(projectId)) continue;
    await applyToProject(tx, {
      ...options,
      slug: provider.slug,
      projectId,
      want: desired.get(projectId),
      record: recorded.get(projectId),
    });
  }
}

async function applyToProject(
  tx: DbOrTx,
  input: {
    providerId: number;
    userId: number;
    at: Date;
    actor: ApplyActor;
    notices?: ProjectNotices[];
    slug: string;
    projectId: number;
    want: Desired | undefined;
    record: typeof mappedMemberships.$inferSelect | undefined;
  },
) {
  const { providerId, userId, projectId, at, want } = input;
  let record = input.record;
  const [membership] = await tx
    .select({ projectRole: projectMemberships.projectRole })
    .from(projectMemberships)
    .where(and(eq(projectMemberships.projectId, projectId), eq(projectMemberships.userId, userId)))
    .for('update');
  const recordWhere = and(
    eq(mappedMemberships.providerId, providerId),
    eq(mappedMemberships.projectId, projectId),
    eq(mappedMemberships.userId, userId),
  );
  // Granted by hand: the administrator's, whatever the groups say.
  if (membership && !record) return;
  // The mapped membership was removed by hand since: it is granted anew below if the groups still say so.
  if (!membership && record) {
    await tx.delete(mappedMemberships).where(recordWhere);
    record = undefined;
  }
  if (!membership && !want) return;

  // The writer of policy changes that follow (pruned department roles): the actor, or the person at their sign-in.
  const writer = { userId: input.actor.userId ?? userId, ip: input.actor.ip, requestId: input.actor.requestId };
  const notices: Notice[] = [];
  const before = await memberState(tx, projectId, userId);
  const recordedRoles = rolesOf(record?.mainRoles ?? {});
  const recordedReaders = new Set(record?.readerDepartmentIds ?? []);
  let newRecord: { mainRoles: MappedRoles; readers: number[] } | null;

  if (!want) {
    // No mapping grants the membership any more: it goes, with its roles (as removeMember does).
    if (before.project_role === 'admin' && (await isLastAdmin(tx, projectId, userId))) return;
    await tx
      .delete(projectMemberRoles)
      .where(and(eq(projectMemberRoles.projectId, projectId), eq(projectMemberRoles.userId, userId)));
    await tx.delete(policyUsers).where(and(eq(policyUsers.projectId, projectId), eq(policyUsers.userId, userId)));
    notices.push(...(await pruneDepartmentRoles(tx, writerActor(projectId, writer), userId, at)));
    await tx
      .delete(projectMemberships)
      .where(and(eq(projectMemberships.projectId, projectId), eq(projectMemberships.userId, userId)));
    newRecord = null;
  } else {
    if (!membership) {
      await tx
        .insert(projectMemberships)
        .values({ projectId, userId, projectRole: want.projectRole, createdAt: at })
        .onConflictDoNothing();
    } else if (membership.projectRole !== want.projectRole) {
      // A project keeps its last admin: a demotion that would leave none waits.
      const keep = membership.projectRole === 'admin' && (await isLastAdmin(tx, projectId, userId));
      if (!keep) {
        await tx
          .update(projectMemberships)
          .set({ projectRole: want.projectRole })
          .where(and(eq(projectMemberships.projectId, projectId), eq(projectMemberships.userId, userId)));
      }
    }
    // Main roles: the mapping's own (as last set, unchanged since) or none follow the mapping; hand-set ones stay.
    const write: MainRoles = {};
    const mainRoles = noRoles();
    for (const app of PERMISSION_APPS) {
      const current = before.roles[app];
      const mine = recordedRoles[app] !== null && current === recordedRoles[app];
      const wanted = want.mainRoles[app];
      if (!mine && current !== null) continue;
      if (wanted !== current) (write as Record<string, string | null>)[app] = wanted;
      mainRoles[app] = wanted;
    }
    if (Object.keys(write).length) {
      notices.push(...(await writeMainRoles(tx, projectId, userId, write, writer, at)));
    }
    // Reader duties: those the mapping gave (and still held) follow it; held by hand stay; need an eligible role.
    const policyRole =
      (write.policy_management === undefined ? before.roles.policy_management : write.policy_management) ?? null;
    const held = (await memberState(tx, projectId, userId)).readers;
    const wantedReaders = eligibleFor('reader', policyRole) ? want.readers : new Set<number>();
    const added = [...wantedReaders].filter((id) => !held.includes(id));
    const removed = held.filter((id) => recordedReaders.has(id) && !wantedReaders.has(id));
    await writeReaders(tx, projectId, userId, added, removed, input.actor.userId, at);
    const readers = [...wantedReaders].filter((id) => added.includes(id) || recordedReaders.has(id));
    newRecord = { mainRoles, readers: readers.sort((a, b) => a - b) };
  }

  if (newRecord === null) await tx.delete(mappedMemberships).where(recordWhere);
  else if (!record) {
    await tx.insert(mappedMemberships).values({
      providerId,
      projectId,
      userId,
      mainRoles: newRecord.mainRoles,
      readerDepartmentIds: newRecord.readers,
      createdAt: at,
      updatedAt: at,
    });
  } else if (
    JSON.stringify(rolesOf(record.mainRoles)) !== JSON.stringify(newRecord.mainRoles) ||
    JSON.stringify(record.readerDepartmentIds) !== JSON.stringify(newRecord.readers)
  ) {
    await tx
      .update(mappedMemberships)
      .set({ mainRoles: newRecord.mainRoles, readerDepartmentIds: newRecord.readers, updatedAt: at })
      .where(recordWhere);
  }

  if (notices.length) input.notices?.push({ projectId, notices });
  await auditApplied(tx, input, before, await memberState(tx, projectId, userId));
}

/** `member.mapped_grant` for what was granted or changed, `member.mapped_revoke` for what was taken away. */
async function auditApplied(
  tx: DbOrTx,
  input: { slug: string; projectId: number; userId: number; at: Date; actor: ApplyActor; want: Desired | undefined },
  before: MemberState,
  after: MemberState,
) {
  const ids = [...new Set([...before.readers, ...after.readers])];
  const names = await departmentNames(tx, ids);
  const view = (state: MemberState) => ({
    member: state.member,
    project_role: state.project_role,
    ...Object.fromEntries(PERMISSION_APPS.map((app) => [`${app}_role`, state.roles[app]])),
    reader_departments: state.readers.map((id) => names.get(id) ?? String(id)).sort(),
  });
  const all = changes(view(before), view(after));
  const granted: AuditChanges = {};
  const revoked: AuditChanges = {};
  for (const [field, change] of Object.entries(all)) {
    const to = 'to' in change ? change.to : null;
    const from = 'from' in change ? change.from : null;
    const lessOnly =
      Array.isArray(to) && Array.isArray(from) && to.every((item) => from.includes(item)) && to.length < from.length;
    if (to === null || to === false || lessOnly) revoked[field] = change;
    else granted[field] = change;
  }
  const record = (action: 'member.mapped_grant' | 'member.mapped_revoke', changed: AuditChanges) =>
    recordAudit(tx, {
      action,
      projectId: input.projectId,
      actorUserId: input.actor.userId,
      subjectType: 'user',
      subjectId: input.userId,
      data: {
        provider: input.slug,
        ...(action === 'member.mapped_grant' ? { groups: input.want?.groups ?? [] } : {}),
        changes: changed,
      },
      ip: input.actor.ip,
      requestId: input.actor.requestId,
      at: input.at,
    });
  if (Object.keys(granted).length) await record('member.mapped_grant', granted);
  if (Object.keys(revoked).length) await record('member.mapped_revoke', revoked);
}

import { randomBytes } from 'node:crypto';
import { DEFAULT_CLAIMS, type GroupMappingInput, oidcCallbackPath } from '@portal/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_APP_KEY, useTestApp } from '../../../test/app.js';
import { addMember, createProject, createUser, setMainRole } from '../../../test/factories.js';
import { startTestIdp, type TestIdp } from '../../../test/oidc-provider-kit.js';
import {
  auditEvents,
  directoryGroupMembers,
  directoryGroups,
  identityGroupMappings,
  identityProviders,
  mappedMemberships,
  policyDepartmentRoles,
  policyDepartments,
  projectMemberRoles,
  projectMemberships,
  users,
} from '../../db/schema/index.js';
import { encrypt } from '../../lib/crypto.js';
import { applyGroupMappings } from './group-mappings.service.js';

/**
 * Group mappings (docs/identity.md "Group mappings"): the superadmin's CRUD and its checks, applyGroupMappings
 * (grants, changes, revocations of exactly what a mapping granted, idempotence, the audit) and a sign-in through a
 * real oidc-provider whose groups claim makes the person a member of a project.
 */
const APP_URL = 'http://portal.test';
const SECRET = 'client-secret-0123456789';
const ctx = useTestApp({ env: { APP_URL } });
const db = () => ctx.db.handle.db;
const unique = () => randomBytes(3).toString('hex');
const ALL_APPS = ['monitoring', 'policy_management', 'chart_review'];

async function makeProvider(overrides: Partial<typeof identityProviders.$inferInsert> = {}) {
  const slug = overrides.slug ?? `idp-${unique()}`;
  const [row] = await db()
    .insert(identityProviders)
    .values({
      slug,
      name: `Hospital ${slug}`,
      kind: 'oidc',
      domains: [`${slug}.example.org`],
      claims: { ...DEFAULT_CLAIMS },
      issuer: 'https://login.example.com',
      clientId: `client-${slug}`,
      scopes: 'openid email profile groups',
      ...overrides,
    })
    .returning();
  return { ...row!, domain: `${slug}.example.org` };
}

async function makeDepartment(projectId: number, name: string) {
  const [row] = await db()
    .insert(policyDepartments)
    .values({ projectId, name, code: `D${randomBytes(2).toString('hex').toUpperCase()}` })
    .returning();
  return row!;
}

const superadminAgent = async () => ctx.signedIn(await createUser(db(), { role: 'superadmin' }));
const mappingsPath = (providerId: number) => `/super/identity-providers/${providerId}/mappings`;

const body = (projectId: number, overrides: Partial<GroupMappingInput> = {}): GroupMappingInput => ({
  group: 'ICU Nursing',
  project_id: projectId,
  project_role: 'simple',
  main_roles: { monitoring: null, policy_management: 'reader', chart_review: null },
  reader_department_ids: [],
  ...overrides,
});

describe('group mappings: the superadmin console', () => {
  it('creates, lists, changes and removes a mapping, each change audited with what changed', async () => {
    const provider = await makeProvider();
    const project = await createProject(db(), { activeApps: ALL_APPS });
    const icu = await makeDepartment(project.id, 'ICU');
    const er = await makeDepartment(project.id, 'Emergency');
    const agent = await superadminAgent();

    const created = await agent.post(
      mappingsPath(provider.id),
      body(project.id, { reader_department_ids: [icu.id, icu.id] }),
    );
    expect(created.statusCode).toBe(201);
    const mapping = created.json();
    expect(mapping).toMatchObject({
      provider_id: provider.id,
      group: 'ICU Nursing',
      project_id: project.id,
      project_name: project.name,
      project_role: 'simple',
      main_roles: { monitoring: null, policy_management: 'reader', chart_review: null },
      reader_departments: [{ id: icu.id, name: 'ICU' }],
    });
    const list = await agent.get(mappingsPath(provider.id));
    expect(list.statusCode).toBe(200);
    expect(list.json().mappings).toEqual([mapping]);

    const changed = await agent.put(
      `${mappingsPath(provider.id)}/${mapping.id}`,
      body(project.id, {
        project_role: 'admin',
        main_roles: { policy_management: 'author', chart_review: 'viewer' },
        reader_department_ids: [er.id, icu.id],
      }),
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      project_role: 'admin',
      main_roles: { monitoring: null, policy_management: 'author', chart_review: 'viewer' },
      reader_departments: [
        { id: er.id, name: 'Emergency' },
        { id: icu.id, name: 'ICU' },
      ],
    });
    // The same again: nothing changed, nothing audited.
    await agent.put(
      `${mappingsPath(provider.id)}/${mapping.id}`,
      body(project.id, {
        project_role: 'admin',
        main_roles: { policy_management: 'author', chart_review: 'viewer' },
        reader_department_ids: [icu.id, er.id],
      }),
    );
    expect((await agent.delete(`${mappingsPath(provider.id)}/${mapping.id}`)).statusCode).toBe(204);
    expect((await agent.delete(`${mappingsPath(provider.id)}/${mapping.id}`)).statusCode).toBe(404);
    expect((await agent.get(mappingsPath(provider.id))).json().mappings).toEqual([]);

    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectType, 'identity_provider'), eq(auditEvents.subjectId, String(provider.id))))
      .orderBy(auditEvents.id);
    expect(events.map((e) => e.action)).toEqual([
      'identity_provider.mapping_create',
      'identity_provider.mapping_update',
      'identity_provider.mapping_delete',
    ]);
    expect(events[0]!.data).toMatchObject({
      mapping_id: mapping.id,
      changes: {
        group: { from: null, to: 'ICU Nursing' },
        project: { from: null, to: project.name },
        policy_management_role: { from: null, to: 'reader' },
        reader_departments: { from: null, to: ['ICU'] },
      },
    });
    expect(events[1]!.data.changes).toEqual({
      project_role: { from: 'simple', to: 'admin' },
      policy_management_role: { from: 'reader', to: 'author' },
      chart_review_role: { from: null, to: 'viewer' },
      reader_departments: { from: ['ICU'], to: ['Emergency', 'ICU'] },
    });
    expect(events[2]!.data.changes).toMatchObject({ group: { from: 'ICU Nursing', to: null } });
  });

  it('validates with a sentence per field: roles of the app, active apps, departments of the project, one mapping per group and project', async () => {
    const provider = await makeProvider();
    const project = await createProject(db(), { activeApps: ['policy_management'] });
    const other = await createProject(db(), { activeApps: ALL_APPS });
    const theirs = await makeDepartment(other.id, 'Theirs');
    const closed = await createProject(db(), { isActive: false, activeApps: ALL_APPS });
    const agent = await superadminAgent();
    const path = mappingsPath(provider.id);

    const bad = await agent.post(path, {
      ...body(project.id),
      group: '  ',
      project_role: 'owner',
      main_roles: { monitoring: 'author', policy_management: null },
      reader_department_ids: [theirs.id],
    });
    expect(bad.statusCode).toBe(400);
    const errors = bad.json().errors;
    expect(errors.group).toEqual(['Enter the group’s name or ID as the directory sends it.']);
    expect(errors.project_role).toEqual(['Pick a project role: project admin or member.']);
    expect(errors['main_roles.monitoring']).toEqual(['Pick a monitoring role from the list, or no role.']);

    const noRole = await agent.post(path, body(project.id, { main_roles: {}, reader_department_ids: [1] }));
    expect(noRole.statusCode).toBe(400);
    expect(noRole.json().errors.reader_department_ids).toEqual([
      'Reader duties need a policy management main role: pick one, or no departments.',
    ]);

    const missing = await agent.post(path, body(2_147_483_000));
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.project_id).toEqual(['This project does not exist.']);
    const inactive = await agent.post(path, body(closed.id));
    expect(inactive.statusCode).toBe(422);
    expect(inactive.json().errors.project_id).toEqual(['This project is deactivated: pick an active project.']);

    const appOff = await agent.post(path, body(project.id, { main_roles: { monitoring: 'viewer' } }));
    expect(appOff.statusCode).toBe(422);
    expect(appOff.json().errors['main_roles.monitoring']).toEqual(['Monitoring is not switched on in this project.']);

    const foreign = await agent.post(path, body(project.id, { reader_department_ids: [theirs.id] }));
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.reader_department_ids).toEqual([
      'Pick departments of this project’s policy management.',
    ]);

    expect((await agent.post(path, body(project.id))).statusCode).toBe(201);
    const twice = await agent.post(path, body(project.id, { group: 'icu nursing ' }));
    expect(twice.statusCode).toBe(409);
    expect(twice.json().errors.group).toEqual([
      '“icu nursing” is already mapped to this project: change that mapping instead.',
    ]);
    // The same group may map to another project.
    expect((await agent.post(path, body(other.id))).statusCode).toBe(201);
    expect((await agent.get(mappingsPath(2_147_483_000))).statusCode).toBe(404);
    expect((await agent.put(`${path}/2147483000`, body(project.id))).statusCode).toBe(404);
    expect(
      await db().select().from(identityGroupMappings).where(eq(identityGroupMappings.providerId, provider.id)),
    ).toHaveLength(2);
  });

  it('offers the active projects, their apps with main roles and their policy departments', async () => {
    const provider = await makeProvider();
    const project = await createProject(db(), { name: `Options ${unique()}`, activeApps: ['policy_management'] });
    const dept = await makeDepartment(project.id, 'Wards');
    const closed = await createProject(db(), { isActive: false });
    const res = await (await superadminAgent()).get(`/super/identity-providers/${provider.id}/mapping-options`);
    expect(res.statusCode).toBe(200);
    const options = res.json();
    expect(options.projects.find((p: { id: number }) => p.id === project.id)).toEqual({
      id: project.id,
      name: project.name,
      apps: ['policy_management'],
      departments: [{ id: dept.id, name: 'Wards', code: dept.code }],
    });
    expect(options.projects.some((p: { id: number }) => p.id === closed.id)).toBe(false);
    expect(options.main_roles.policy_management).toEqual(['policy_admin', 'author', 'reviewer', 'signer', 'reader']);
  });

  it('is for superadmins only: 401 signed out, 403 for others, 419 without the XSRF token', async () => {
    const provider = await makeProvider();
    const project = await createProject(db(), { activeApps: ALL_APPS });
    const path = mappingsPath(provider.id);
    expect((await ctx.agent().get(path)).statusCode).toBe(401);
    expect((await ctx.agent().get(`/super/identity-providers/${provider.id}/mapping-options`)).statusCode).toBe(401);
    const anonymous = ctx.agent();
    await anonymous.csrf();
    expect((await anonymous.post(path, body(project.id))).statusCode).toBe(401);
    const admin = await createUser(db());
    await addMember(db(), project.id, admin.id, 'admin');
    const member = await ctx.signedIn(admin);
    expect((await member.get(path)).statusCode).toBe(403);
    expect((await member.post(path, body(project.id))).statusCode).toBe(403);
    expect((await member.delete(`${path}/1`)).statusCode).toBe(403);
    const agent = await superadminAgent();
    const forged = await agent.request({
      method: 'POST',
      url: path,
      payload: body(project.id),
      headers: { 'x-xsrf-token': 'forged' },
    });
    expect(forged.statusCode).toBe(419);
    expect(
      await db().select().from(identityGroupMappings).where(eq(identityGroupMappings.providerId, provider.id)),
    ).toEqual([]);
  });
});

describe('applyGroupMappings', () => {
  async function setting() {
    const provider = await makeProvider();
    const project = await createProject(db(), { activeApps: ALL_APPS });
    const icu = await makeDepartment(project.id, 'ICU');
    const er = await makeDepartment(project.id, 'Emergency');
    const user = await createUser(db());
    const group = async (name: string, externalId: string | null = null) => {
      const [row] = await db()
        .insert(directoryGroups)
        .values({ providerId: provider.id, displayName: name, externalId })
        .returning();
      return row!;
    };
    const map = async (values: Partial<typeof identityGroupMappings.$inferInsert> & { group: string }) => {
      const [row] = await db()
        .insert(identityGroupMappings)
        .values({ providerId: provider.id, projectId: project.id, ...values })
        .returning();
      return row!;
    };
    const join = (groupId: number) => db().insert(directoryGroupMembers).values({ groupId, userId: user.id });
    const leave = (groupId: number) =>
      db()
        .delete(directoryGroupMembers)
        .where(and(eq(directoryGroupMembers.groupId, groupId), eq(directoryGroupMembers.userId, user.id)));
    let tick = 0;
    const apply = () =>
      applyGroupMappings(db(), {
        providerId: provider.id,
        userId: user.id,
        at: new Date(Date.UTC(2030, 0, 1, 0, 0, tick++)),
        actor: { userId: null, ip: '10.0.0.1', requestId: 'req-1' },
      });
    const state = async (projectId = project.id) => {
      const [membership] = await db()
        .select()
        .from(projectMemberships)
        .where(and(eq(projectMemberships.projectId, projectId), eq(projectMemberships.userId, user.id)));
      const roles = await db()
        .select({ app: projectMemberRoles.app, role: projectMemberRoles.mainRole })
        .from(projectMemberRoles)
        .where(and(eq(projectMemberRoles.projectId, projectId), eq(projectMemberRoles.userId, user.id)));
      const readers = await db()
        .select({ id: policyDepartmentRoles.departmentId })
        .from(policyDepartmentRoles)
        .where(
          and(
            eq(policyDepartmentRoles.projectId, projectId),
            eq(policyDepartmentRoles.userId, user.id),
            eq(policyDepartmentRoles.role, 'reader'),
          ),
        );
      return {
        role: membership?.projectRole ?? null,
        main: Object.fromEntries(roles.map((r) => [r.app, r.role])),
        readers: readers.map((r) => r.id).sort((a, b) => a - b),
      };
    };
    const events = async () =>
      db()
        .select()
        .from(auditEvents)
        .where(
          and(
            inArray(auditEvents.action, ['member.mapped_grant', 'member.mapped_revoke']),
            eq(auditEvents.subjectId, String(user.id)),
          ),
        )
        .orderBy(auditEvents.id);
    return { provider, project, icu, er, user, group, map, join, leave, apply, state, events };
  }

  it('grants what the groups say (admin wins, the strongest main role, reader duties joined), audits it, and a second run changes nothing', async () => {
    const s = await setting();
    const nurses = await s.group('ICU Nursing');
    const leads = await s.group('Ward leads', '0b7f-guid');
    await s.group('Unrelated');
    await s.map({
      group: 'icu nursing',
      projectRole: 'simple',
      mainRoles: { policy_management: 'reader', chart_review: 'viewer' },
      readerDepartmentIds: [s.icu.id],
    });
    // Matched by the group's external id (as Entra ID sends them).
    await s.map({
      group: '0B7F-GUID',
      projectRole: 'admin',
      mainRoles: { policy_management: 'author', chart_review: 'reviewer', monitoring: null },
      readerDepartmentIds: [s.er.id],
    });
    await s.join(nurses.id);
    await s.join(leads.id);

    await s.apply();
    expect(await s.state()).toEqual({
      role: 'admin',
      main: { policy_management: 'author', chart_review: 'reviewer' },
      readers: [s.icu.id, s.er.id].sort((a, b) => a - b),
    });
    const [recorded] = await db().select().from(mappedMemberships).where(eq(mappedMemberships.userId, s.user.id));
    expect(recorded).toMatchObject({
      providerId: s.provider.id,
      projectId: s.project.id,
      mainRoles: { monitoring: null, policy_management: 'author', chart_review: 'reviewer' },
    });
    const events = await s.events();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'member.mapped_grant',
      projectId: s.project.id,
      actorUserId: null,
      ip: '10.0.0.1',
      data: {
        provider: s.provider.slug,
        groups: ['icu nursing', '0B7F-GUID'],
        changes: {
          member: { from: false, to: true },
          project_role: { from: null, to: 'admin' },
          policy_management_role: { from: null, to: 'author' },
          chart_review_role: { from: null, to: 'reviewer' },
          reader_departments: { from: [], to: ['Emergency', 'ICU'] },
        },
      },
    });

    await s.apply();
    expect(await s.events()).toHaveLength(1);
    expect((await s.state()).role).toBe('admin');
  });

  it('follows a changed mapping and a left group, takes away only what it granted, and keeps what was granted by hand', async () => {
    const s = await setting();
    const nurses = await s.group('ICU Nursing');
    const leads = await s.group('Ward leads');
    const mapping = await s.map({
      group: 'ICU Nursing',
      mainRoles: { policy_management: 'reader', monitoring: 'viewer' },
      readerDepartmentIds: [s.icu.id],
    });
    await s.map({ group: 'Ward leads', projectRole: 'admin', mainRoles: { policy_management: 'policy_admin' } });
    await s.join(nurses.id);
    await s.apply();
    expect(await s.state()).toEqual({
      role: 'simple',
      main: { policy_management: 'reader', monitoring: 'viewer' },
      readers: [s.icu.id],
    });

    // A role changed by the mapping follows; one an administrator set by hand stays; a reader duty held by hand stays.
    await db()
      .update(identityGroupMappings)
      .set({ mainRoles: { policy_management: 'author', monitoring: 'viewer', chart_review: 'viewer' } })
      .where(eq(identityGroupMappings.id, mapping.id));
    await db()
      .update(projectMemberRoles)
      .set({ mainRole: 'data_entry' })
      .where(and(eq(projectMemberRoles.userId, s.user.id), eq(projectMemberRoles.app, 'monitoring')));
    await db().insert(policyDepartmentRoles).values({
      projectId: s.project.id,
      departmentId: s.er.id,
      userId: s.user.id,
      role: 'reader',
    });
    await s.apply();
    expect(await s.state()).toEqual({
      role: 'simple',
      main: { policy_management: 'author', monitoring: 'data_entry', chart_review: 'viewer' },
      readers: [s.icu.id, s.er.id].sort((a, b) => a - b),
    });
    const changed = (await s.events()).at(-1)!;
    expect(changed.action).toBe('member.mapped_grant');
    expect(changed.data.changes).toEqual({
      policy_management_role: { from: 'reader', to: 'author' },
      chart_review_role: { from: null, to: 'viewer' },
    });

    // Joining a second group: admin, and the policy role earlier in MAIN_ROLES.
    await s.join(leads.id);
    await s.apply();
    expect(await s.state()).toMatchObject({ role: 'admin', main: { policy_management: 'policy_admin' } });
    await s.leave(leads.id);
    // The project needs another admin before the mapping may take the role back.
    const other = await createUser(db());
    await addMember(db(), s.project.id, other.id, 'admin');
    await s.apply();
    expect(await s.state()).toMatchObject({ role: 'simple', main: { policy_management: 'author' } });

    // Leaving every mapped group: the mapped membership goes, with its roles.
    await s.leave(nurses.id);
    await s.apply();
    expect(await s.state()).toEqual({ role: null, main: {}, readers: [] });
    expect(await db().select().from(mappedMemberships).where(eq(mappedMemberships.userId, s.user.id))).toEqual([]);
    const revoked = (await s.events()).at(-1)!;
    expect(revoked.action).toBe('member.mapped_revoke');
    expect(revoked.data.changes).toMatchObject({
      member: { from: true, to: false },
      project_role: { from: 'simple', to: null },
      policy_management_role: { from: 'author', to: null },
      chart_review_role: { from: 'viewer', to: null },
    });
    const count = (await s.events()).length;
    await s.apply();
    expect((await s.events()).length).toBe(count);
  });

  it('never touches a membership an administrator granted by hand', async () => {
    const s = await setting();
    const nurses = await s.group('ICU Nursing');
    await addMember(db(), s.project.id, s.user.id, 'simple');
    await setMainRole(db(), s.project.id, s.user.id, 'policy_management', 'reviewer');
    await s.map({
      group: 'ICU Nursing',
      projectRole: 'admin',
      mainRoles: { policy_management: 'reader', chart_review: 'viewer' },
      readerDepartmentIds: [s.icu.id],
    });
    await s.join(nurses.id);
    await s.apply();
    const handGranted = { role: 'simple', main: { policy_management: 'reviewer' }, readers: [] };
    expect(await s.state()).toEqual(handGranted);
    await s.leave(nurses.id);
    await s.apply();
    expect(await s.state()).toEqual(handGranted);
    expect(await s.events()).toEqual([]);
  });
});

describe('sign-in with a groups claim', () => {
  let idp: TestIdp;
  beforeAll(async () => {
    idp = await startTestIdp();
  });
  afterAll(async () => {
    await idp?.close();
  });

  it('puts the person in the claimed groups and makes them a member of the mapped project with its roles', async () => {
    const slug = `idp-${unique()}`;
    const clientId = `client-${slug}`;
    idp.addClient({
      client_id: clientId,
      client_secret: SECRET,
      redirect_uris: [`${APP_URL}${oidcCallbackPath(slug)}`],
    });
    const provider = await makeProvider({
      slug,
      issuer: idp.issuer,
      clientId,
      clientSecretSealed: encrypt(SECRET, TEST_APP_KEY),
    });
    const project = await createProject(db(), { activeApps: ALL_APPS });
    const icu = await makeDepartment(project.id, 'ICU');
    const superadmin = await superadminAgent();
    const created = await superadmin.post(
      mappingsPath(provider.id),
      body(project.id, {
        group: 'ICU Nursing',
        main_roles: { policy_management: 'reader', monitoring: 'viewer' },
        reader_department_ids: [icu.id],
      }),
    );
    expect(created.statusCode).toBe(201);

    const id = unique();
    const account = {
      sub: `sub-${id}`,
      email: `nurse.${id}@${provider.domain}`,
      email_verified: true,
      given_name: 'Joy',
      family_name: `Nurse ${id}`,
      preferred_username: `joy.${id}`,
      groups: ['ICU Nursing', 'All staff'],
    };
    const signIn = async (groups?: string[]) => {
      const agent = ctx.agent();
      const start = await agent.get(`/auth/oidc/${provider.slug}/login?redirect=/projects`);
      expect(start.statusCode).toBe(302);
      const { groups: _, ...rest } = account;
      idp.signInAs(groups === undefined ? rest : { ...rest, groups });
      const callback = await idp.authorize(start.headers.location as string, APP_URL);
      const res = await agent.get(callback.slice(APP_URL.length));
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/projects');
      return agent;
    };

    const agent = await signIn(account.groups);
    const [user] = await db().select().from(users).where(eq(users.email, account.email));
    const mine = await agent.get('/api/member/projects');
    expect(mine.statusCode).toBe(200);
    expect(mine.json().projects.map((p: { id: number }) => p.id)).toEqual([project.id]);
    expect((await agent.get(`/api/projects/${project.id}`)).json().project_role).toBe('simple');
    const roles = await db()
      .select({ app: projectMemberRoles.app, role: projectMemberRoles.mainRole })
      .from(projectMemberRoles)
      .where(eq(projectMemberRoles.userId, user!.id));
    expect(Object.fromEntries(roles.map((r) => [r.app, r.role]))).toEqual({
      policy_management: 'reader',
      monitoring: 'viewer',
    });
    const groups = await db()
      .select({ name: directoryGroups.displayName, externalId: directoryGroups.externalId })
      .from(directoryGroupMembers)
      .innerJoin(directoryGroups, eq(directoryGroups.id, directoryGroupMembers.groupId))
      .where(eq(directoryGroupMembers.userId, user!.id));
    expect(groups.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'All staff', externalId: 'All staff' },
      { name: 'ICU Nursing', externalId: 'ICU Nursing' },
    ]);
    const [grant] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'member.mapped_grant'), eq(auditEvents.subjectId, String(user!.id))));
    expect(grant).toMatchObject({ actorUserId: user!.id, projectId: project.id });

    // Without a groups claim the groups stay as they were; with one that no longer names the group, the grant goes.
    const again = await signIn(undefined);
    expect((await again.get('/api/member/projects')).json().projects).toHaveLength(1);
    const after = await signIn(['All staff']);
    expect((await after.get('/api/member/projects')).json().projects).toEqual([]);
    const [revoke] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'member.mapped_revoke'), eq(auditEvents.subjectId, String(user!.id))));
    expect(revoke!.data.changes).toMatchObject({ member: { from: true, to: false } });
  });
});

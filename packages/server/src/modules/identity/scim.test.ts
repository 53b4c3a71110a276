import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';
import {
  auditEvents,
  directoryGroupMembers,
  identityProviders,
  sessions,
  userIdentities,
  users,
} from '../../db/schema/index.js';
import { sha256 } from '../../lib/crypto.js';

const APP_URL = 'https://portal.example.org';
const BASE = '/scim/v2';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

describe('SCIM 2.0 provisioning', () => {
  const ctx = useTestApp({ env: { APP_URL } });
  const db = () => ctx.db.handle.db;
  let seq = 0;

  /** A provider claiming `domains`, and its SCIM token made through the console's API. */
  async function provider(domains: string[]) {
    seq++;
    const [row] = await db()
      .insert(identityProviders)
      .values({
        slug: `idp-${seq}-${Date.now().toString(36)}`,
        name: `Directory ${seq}`,
        kind: 'oidc',
        domains,
        claims: {
          email: 'email',
          first_name: 'given_name',
          last_name: 'family_name',
          username: 'upn',
          groups: 'groups',
        },
        issuer: 'https://login.example.com',
        clientId: 'portal',
        scopes: 'openid',
      })
      .returning();
    const admin = await ctx.signedIn(await createUser(db(), { role: 'superadmin' }));
    const made = await admin.post(`/super/identity-providers/${row!.id}/scim-token`);
    expect(made.statusCode).toBe(200);
    return { row: row!, admin, token: made.json().token as string, made: made.json() };
  }

  /** A SCIM client: the directory's calls, with its bearer token and application/scim+json. */
  function client(token: string | null) {
    const call = (method: InjectOptions['method'], url: string, body?: unknown) =>
      ctx.app.inject({
        method,
        url: `${BASE}${url}`,
        headers: {
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
    return {
      get: (url: string) => call('GET', url),
      post: (url: string, body: unknown) => call('POST', url, body),
      put: (url: string, body: unknown) => call('PUT', url, body),
      patch: (url: string, operations: unknown[]) =>
        call('PATCH', url, { schemas: [PATCH_SCHEMA], Operations: operations }),
      delete: (url: string) => call('DELETE', url),
    };
  }

  /** What Entra ID sends to create a user. */
  const entraUser = (userName: string, extra: Record<string, unknown> = {}) => ({
    schemas: [
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    ],
    externalId: `ext-${userName}`,
    userName,
    active: true,
    emails: [{ primary: true, type: 'work', value: userName }],
    meta: { resourceType: 'User' },
    name: { formatted: 'Alex Morgan', familyName: 'Morgan', givenName: 'Alex' },
    roles: [],
    ...extra,
  });

  const identityOf = async (id: string) =>
    (
      await db()
        .select()
        .from(userIdentities)
        .where(eq(userIdentities.id, Number(id)))
    )[0]!;
  const userOf = async (userId: number) => (await db().select().from(users).where(eq(users.id, userId)))[0]!;
  const auditsOf = async (userId: number) =>
    db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectType, 'user'), eq(auditEvents.subjectId, String(userId))))
      .orderBy(auditEvents.id);

  it('runs what Entra ID sends: create, change, group in and out, deactivate; the session and stream end at once', async () => {
    const { row, token } = await provider(['contoso.example']);
    const scim = client(token);

    const created = await scim.post('/Users', entraUser('alex.morgan@contoso.example'));
    expect(created.statusCode).toBe(201);
    expect(created.headers['content-type']).toContain('application/scim+json');
    const resource = created.json();
    expect(resource).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'alex.morgan@contoso.example',
      externalId: 'ext-alex.morgan@contoso.example',
      active: true,
      name: { givenName: 'Alex', familyName: 'Morgan' },
      emails: [{ value: 'alex.morgan@contoso.example', primary: true }],
      meta: { resourceType: 'User', location: `${APP_URL}${BASE}/Users/${resource.id}` },
    });
    expect(created.headers.location).toBe(resource.meta.location);
    const identity = await identityOf(resource.id);
    expect(identity).toMatchObject({ providerId: row.id, userName: 'alex.morgan@contoso.example', active: true });
    const account = await userOf(identity.userId);
    expect(account).toMatchObject({ email: 'alex.morgan@contoso.example', status: 'active', role: 'user' });
    expect(account.passwordHash).toBeNull();

    // Entra ID's attribute changes: capitalised ops, a filtered email path, an Add of externalId.
    const changed = await scim.patch(`/Users/${resource.id}`, [
      { op: 'Replace', path: 'emails[type eq "work"].value', value: 'alex.kim@contoso.example' },
      { op: 'Replace', path: 'name.familyName', value: 'Kim' },
      { op: 'Add', path: 'externalId', value: 'object-id-1' },
      { op: 'Add', path: 'title', value: 'Nurse' },
    ]);
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ externalId: 'object-id-1', name: { familyName: 'Kim' } });
    expect(await userOf(identity.userId)).toMatchObject({ email: 'alex.kim@contoso.example', lastName: 'Kim' });

    // The person signs in (a password set here: provisioned accounts have none) and opens the live stream.
    const { passwordHash } = await createUser(db());
    await db().update(users).set({ passwordHash }).where(eq(users.id, identity.userId));
    const agent = await ctx.signedIn({ email: 'alex.kim@contoso.example' });
    expect((await agent.get('/api/user')).statusCode).toBe(200);
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await fetch(`${address}/api/notifications/stream`, {
      headers: { cookie: [...agent.jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read(); // ": connected"

    // A group, with Entra ID's member add and remove.
    const group = await scim.post('/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      externalId: 'group-object-id',
      displayName: 'Ward nurses',
      meta: { resourceType: 'Group' },
    });
    expect(group.statusCode).toBe(201);
    const groupId = group.json().id as string;
    const added = await scim.patch(`/Groups/${groupId}`, [
      { op: 'Add', path: 'members', value: [{ value: resource.id }] },
    ]);
    expect(added.statusCode).toBe(204);
    const members = () =>
      db()
        .select()
        .from(directoryGroupMembers)
        .where(eq(directoryGroupMembers.groupId, Number(groupId)));
    expect((await members()).map((m) => m.userId)).toEqual([identity.userId]);
    expect((await scim.get(`/Groups/${groupId}`)).json().members).toEqual([
      expect.objectContaining({ value: resource.id }),
    ]);
    const removed = await scim.patch(`/Groups/${groupId}`, [
      { op: 'Remove', path: `members[value eq "${resource.id}"]` },
    ]);
    expect(removed.statusCode).toBe(204);
    expect(await members()).toEqual([]);
    const renamed = await scim.patch(`/Groups/${groupId}`, [
      { op: 'Replace', path: 'displayName', value: 'Ward nurses (night)' },
    ]);
    expect(renamed.statusCode).toBe(204);
    expect((await scim.get(`/Groups/${groupId}`)).json().displayName).toBe('Ward nurses (night)');

    // Deactivation as Entra ID sends it: the account is disabled, its session and its stream end at once.
    const deactivated = await scim.patch(`/Users/${resource.id}`, [{ op: 'Replace', path: 'active', value: 'False' }]);
    expect(deactivated.statusCode).toBe(200);
    expect(deactivated.json().active).toBe(false);
    let said = '';
    const ended = await Promise.race([
      (async () => {
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) return 'ended';
          said += new TextDecoder().decode(chunk.value);
        }
      })(),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 1000)),
    ]);
    expect(ended).toBe('ended');
    // The open tab is told why, so it leaves for the login page at once.
    expect(said).toContain('event: session_ended');
    expect(await db().select().from(sessions).where(eq(sessions.userId, identity.userId))).toEqual([]);
    expect((await agent.get('/api/user')).statusCode).toBe(401);
    const after = await userOf(identity.userId);
    expect(after.status).toBe('disabled');
    expect((await identityOf(resource.id)).active).toBe(false);
    const disabled = (await auditsOf(identity.userId)).find((e) => e.action === 'user.disable');
    expect(disabled?.data).toMatchObject({ by: 'scim', provider: row.slug, sessions_ended: 1 });
    expect(disabled?.actorUserId).toBeNull();

    // Reactivated: they may sign in again.
    const back = await scim.patch(`/Users/${resource.id}`, [{ op: 'Replace', path: 'active', value: 'True' }]);
    expect(back.statusCode).toBe(200);
    expect((await userOf(identity.userId)).status).toBe('active');
    expect((await auditsOf(identity.userId)).map((e) => e.action).filter((a) => !a.startsWith('auth.'))).toEqual([
      'scim.user_create',
      'scim.user_update',
      'scim.user_update',
      'user.disable',
      'scim.user_update',
      'user.enable',
    ]);
    expect((await ctx.signedIn({ email: 'alex.kim@contoso.example' })).jar.size).toBeGreaterThan(0);
  });

  it('takes Okta’s PATCH (a value object, lowercase op) and PUT', async () => {
    const { token } = await provider(['okta.example']);
    const scim = client(token);
    const { id } = (
      await scim.post('/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'sam@okta.example',
        name: { givenName: 'Sam', familyName: 'Lee' },
        emails: [{ primary: true, value: 'sam@okta.example', type: 'work' }],
        active: true,
      })
    ).json();
    const identity = await identityOf(id);
    const off = await scim.patch(`/Users/${id}`, [{ op: 'replace', value: { active: false } }]);
    expect(off.statusCode).toBe(200);
    expect((await userOf(identity.userId)).status).toBe('disabled');
    const on = await scim.patch(`/Users/${id}`, [
      { op: 'replace', value: { active: true, 'name.givenName': 'Samuel' } },
    ]);
    expect(on.json()).toMatchObject({ active: true, name: { givenName: 'Samuel' } });
    expect((await userOf(identity.userId)).status).toBe('active');

    const replaced = await scim.put(`/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'samuel@okta.example',
      name: { givenName: 'Samuel', familyName: 'Lee-Park' },
      emails: [{ primary: true, value: 'samuel@okta.example' }],
      active: false,
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({ userName: 'samuel@okta.example', active: false });
    expect(await userOf(identity.userId)).toMatchObject({
      email: 'samuel@okta.example',
      lastName: 'Lee-Park',
      status: 'disabled',
    });
    const bad = await scim.patch(`/Users/${id}`, [{ op: 'replace', path: 'active', value: 'maybe' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ schemas: [ERROR_SCHEMA], status: '400', scimType: 'invalidValue' });
    const noOp = await scim.patch(`/Users/${id}`, [{ op: 'move', path: 'active', value: true }]);
    expect(noOp.statusCode).toBe(400);
  });

  it('filters by userName and externalId, pages with startIndex and count, refuses other filters and duplicates', async () => {
    const { token } = await provider(['filter.example']);
    const scim = client(token);
    const ids: string[] = [];
    for (const name of ['ann', 'bob', 'cyd']) {
      ids.push((await scim.post('/Users', entraUser(`${name}@filter.example`))).json().id);
    }
    const byName = await scim.get(`/Users?filter=${encodeURIComponent('userName eq "BOB@filter.example"')}`);
    expect(byName.statusCode).toBe(200);
    expect(byName.json()).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 1,
      Resources: [{ id: ids[1], userName: 'bob@filter.example' }],
    });
    const byExternal = await scim.get(`/Users?filter=${encodeURIComponent('externalId eq "ext-cyd@filter.example"')}`);
    expect(byExternal.json().Resources.map((r: { id: string }) => r.id)).toEqual([ids[2]]);
    const none = await scim.get(`/Users?filter=${encodeURIComponent('userName eq "nobody@filter.example"')}`);
    expect(none.json()).toMatchObject({ totalResults: 0, Resources: [] });

    const page = await scim.get('/Users?startIndex=2&count=1');
    expect(page.json()).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1, Resources: [{ id: ids[1] }] });
    const countOnly = await scim.get('/Users?count=0');
    expect(countOnly.json()).toMatchObject({ totalResults: 3, itemsPerPage: 0, Resources: [] });

    for (const filter of [
      'emails co "ann"',
      'userName sw "a"',
      'displayName eq "x"',
      'userName eq "a" or userName eq "b"',
    ]) {
      const refused = await scim.get(`/Users?filter=${encodeURIComponent(filter)}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ schemas: [ERROR_SCHEMA], scimType: 'invalidFilter' });
    }

    const duplicate = await scim.post('/Users', entraUser('ANN@filter.example'));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ status: '409', scimType: 'uniqueness' });

    const group = (await scim.post('/Groups', { displayName: 'Pharmacy', externalId: 'g-1' })).json();
    await scim.post('/Groups', { displayName: 'Radiology' });
    const groups = await scim.get(`/Groups?filter=${encodeURIComponent('displayName eq "pharmacy"')}`);
    expect(groups.json()).toMatchObject({ totalResults: 1, Resources: [{ id: group.id }] });
    const byGroupExternal = await scim.get(
      `/Groups?filter=${encodeURIComponent('externalId eq "g-1"')}&excludedAttributes=members`,
    );
    expect(byGroupExternal.json().Resources).toEqual([expect.not.objectContaining({ members: expect.anything() })]);
  });

  it('links an existing account on a claimed domain instead of duplicating it; refuses one on another domain', async () => {
    const { token } = await provider(['link.example']);
    const scim = client(token);
    const existing = await createUser(db(), { email: 'dana@link.example' });
    const linked = await scim.post('/Users', entraUser('dana@link.example'));
    expect(linked.statusCode).toBe(201);
    expect((await identityOf(linked.json().id)).userId).toBe(existing.id);
    expect(await db().select().from(users).where(eq(users.email, 'dana@link.example'))).toHaveLength(1);

    await createUser(db(), { email: 'eve@elsewhere.example' });
    const refused = await scim.post('/Users', entraUser('eve@elsewhere.example'));
    expect(refused.statusCode).toBe(409);
  });

  it('answers 401 without a token, with a wrong, a replaced or a revoked one, and never to a session', async () => {
    const { row, token, admin, made } = await provider(['auth.example']);
    expect(made).toEqual({ token, created_at: expect.any(String), base_url: `${APP_URL}/scim/v2` });
    const [stored] = await db().select().from(identityProviders).where(eq(identityProviders.id, row.id));
    expect(stored!.scimTokenHash).toBe(sha256(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect((await client(token).get('/Users')).statusCode).toBe(200);
    const listed = (await admin.get('/super/identity-providers'))
      .json()
      .providers.find((p: { id: number }) => p.id === row.id);
    expect(listed.scim).toEqual({ enabled: true, created_at: made.created_at, base_url: `${APP_URL}/scim/v2` });
    expect(JSON.stringify(listed)).not.toContain(token);

    const refusedWith = async (value: string | null) => {
      const res = await client(value).get('/Users');
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toContain('application/scim+json');
      expect(res.json()).toEqual({
        schemas: [ERROR_SCHEMA],
        status: '401',
        detail: 'A valid bearer token is required.',
      });
    };
    await refusedWith(null);
    await refusedWith('not-the-token-at-all');
    // One character changed (a token that already ends in 0 ends in 1 instead).
    await refusedWith(`${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`);
    // A superadmin's session is no way in, and its missing CSRF token is not what refuses it.
    const withSession = await admin.request({
      method: 'POST',
      url: `${BASE}/Users`,
      payload: entraUser('x@auth.example'),
    });
    expect(withSession.statusCode).toBe(401);

    const rotated = await admin.post(`/super/identity-providers/${row.id}/scim-token`);
    const newToken = rotated.json().token as string;
    expect(newToken).not.toBe(token);
    await refusedWith(token);
    expect((await client(newToken).get('/ServiceProviderConfig')).statusCode).toBe(200);

    expect((await admin.delete(`/super/identity-providers/${row.id}/scim-token`)).statusCode).toBe(204);
    await refusedWith(newToken);
    const off = (await admin.get('/super/identity-providers'))
      .json()
      .providers.find((p: { id: number }) => p.id === row.id);
    expect(off.scim).toMatchObject({ enabled: false, created_at: null });
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectType, 'identity_provider'), eq(auditEvents.subjectId, String(row.id))))
      .orderBy(auditEvents.id);
    expect(events.map((e) => e.action)).toEqual([
      'identity_provider.scim_token_rotate',
      'identity_provider.scim_token_rotate',
      'identity_provider.scim_token_revoke',
    ]);
    expect(JSON.stringify(events)).not.toContain(token);
    // CSRF still guards the console's token calls.
    const noCsrf = await ctx.app.inject({
      method: 'POST',
      url: `/super/identity-providers/${row.id}/scim-token`,
      headers: { cookie: [...admin.jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(noCsrf.statusCode).toBe(419);
  });

  it('keeps each provider to its own people and groups', async () => {
    const a = await provider(['a-side.example']);
    const b = await provider(['b-side.example']);
    const scimA = client(a.token);
    const scimB = client(b.token);
    const bUser = (await scimB.post('/Users', entraUser('bee@b-side.example'))).json();
    const bGroup = (await scimB.post('/Groups', { displayName: 'B group' })).json();
    const aGroup = (await scimA.post('/Groups', { displayName: 'A group' })).json();

    expect((await scimA.get(`/Users/${bUser.id}`)).statusCode).toBe(404);
    expect((await scimA.get('/Users')).json().totalResults).toBe(0);
    expect(
      (await scimA.get(`/Users?filter=${encodeURIComponent('userName eq "bee@b-side.example"')}`)).json().totalResults,
    ).toBe(0);
    expect(
      (await scimA.patch(`/Users/${bUser.id}`, [{ op: 'replace', path: 'active', value: false }])).statusCode,
    ).toBe(404);
    expect((await scimA.delete(`/Users/${bUser.id}`)).statusCode).toBe(404);
    expect((await scimA.get(`/Groups/${bGroup.id}`)).statusCode).toBe(404);
    expect((await scimA.delete(`/Groups/${bGroup.id}`)).statusCode).toBe(404);
    expect((await scimA.get('/Groups')).json().Resources.map((g: { id: string }) => g.id)).toEqual([aGroup.id]);
    const foreignMember = await scimA.patch(`/Groups/${aGroup.id}`, [
      { op: 'add', path: 'members', value: [{ value: bUser.id }] },
    ]);
    expect(foreignMember.statusCode).toBe(400);
    expect((await userOf((await identityOf(bUser.id)).userId)).status).toBe('active');
    expect((await scimA.get('/Users/not-a-number')).statusCode).toBe(404);
    expect((await scimA.get('/Users/99999999999')).statusCode).toBe(404);
  });

  it('never disables a superadmin: 403 with a sentence, recorded', async () => {
    const { token } = await provider(['boss.example']);
    const scim = client(token);
    const boss = await createUser(db(), { email: 'boss@boss.example', role: 'superadmin' });
    const agent = await ctx.signedIn(boss);
    const { id } = (await scim.post('/Users', entraUser('boss@boss.example'))).json();
    const refused = await scim.patch(`/Users/${id}`, [{ op: 'Replace', path: 'active', value: 'False' }]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ schemas: [ERROR_SCHEMA], status: '403' });
    expect(refused.json().detail).toMatch(/superadmin is never disabled through provisioning/);
    expect((await scim.delete(`/Users/${id}`)).statusCode).toBe(403);
    expect((await userOf(boss.id)).status).toBe('active');
    expect((await identityOf(id)).active).toBe(true);
    expect((await agent.get('/api/user')).statusCode).toBe(200);
    const refusals = (await auditsOf(boss.id)).filter((e) => e.action === 'scim.refused');
    expect(refusals.map((e) => e.data.change)).toEqual(['active_false', 'delete']);
  });

  it('DELETE deprovisions but keeps the account; the directory can provision the person again', async () => {
    const { token } = await provider(['keep.example']);
    const scim = client(token);
    const { id } = (await scim.post('/Users', entraUser('kim@keep.example'))).json();
    const { userId } = await identityOf(id);
    const group = (await scim.post('/Groups', { displayName: 'Lab', members: [{ value: id }] })).json();
    expect(group.members).toHaveLength(1);

    expect((await scim.delete(`/Users/${id}`)).statusCode).toBe(204);
    expect(await userOf(userId)).toMatchObject({ status: 'disabled', email: 'kim@keep.example' });
    expect(await identityOf(id)).toMatchObject({ active: false, userName: null, userId });
    expect((await scim.get(`/Users/${id}`)).statusCode).toBe(404);
    expect((await scim.get(`/Groups/${group.id}`)).json().members).toEqual([]);
    expect((await scim.delete(`/Users/${id}`)).statusCode).toBe(404);

    const again = await scim.post('/Users', entraUser('kim@keep.example'));
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(id);
    expect(await userOf(userId)).toMatchObject({ status: 'active' });
    expect((await scim.delete(`/Groups/${group.id}`)).statusCode).toBe(204);
    expect((await scim.get(`/Groups/${group.id}`)).statusCode).toBe(404);
  });

  it('describes itself: ServiceProviderConfig, ResourceTypes and Schemas', async () => {
    const { token } = await provider([]);
    const scim = client(token);
    const config = await scim.get('/ServiceProviderConfig');
    expect(config.headers['content-type']).toContain('application/scim+json');
    expect(config.json()).toMatchObject({
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 100 },
      etag: { supported: false },
      authenticationSchemes: [{ type: 'oauthbearertoken', primary: true }],
    });
    const types = (await scim.get('/ResourceTypes')).json();
    expect(types.Resources.map((t: { endpoint: string }) => t.endpoint)).toEqual(['/Users', '/Groups']);
    const documents = (await scim.get('/Schemas')).json();
    expect(documents.Resources.map((s: { id: string }) => s.id)).toEqual([
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:core:2.0:Group',
    ]);
    expect(documents.Resources[0].attributes.map((a: { name: string }) => a.name)).toContain('active');
    expect((await client(null).get('/Schemas')).statusCode).toBe(401);
  });
});

import { randomUUID } from 'node:crypto';
import { type AuditAction, INT4_MAX, SCIM_BASE_PATH, type ScimToken, scimBaseUrl } from '@portal/shared';
import { and, asc, count, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import {
  directoryGroupMembers,
  directoryGroups,
  identityProviders,
  userIdentities,
  users,
} from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { notFound } from '../../lib/errors.js';
import { applyGroupMappings } from './group-mappings.service.js';
import { disableAccount, enableAccount, uniqueUsername } from './identity-users.service.js';
import { emailDomain, type ProviderRow } from './providers.service.js';

/**
 * SCIM 2.0 provisioning (RFC 7643, RFC 7644; docs/identity.md): a provider's directory creates, changes and
 * deprovisions the people it speaks for, and pushes its groups. One base address (/scim/v2) for every provider: the
 * bearer token (kept as its SHA-256) says which provider calls, and everything is scoped to that provider.
 * A SCIM User is a `user_identities` row of the provider with a `user_name` (its id is the row's id); a SCIM Group a
 * `directory_groups` row. Deprovisioning disables the portal account and ends its sessions at once; the account and
 * everything it signed or attested stay.
 */

export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** Most resources one page of a list holds (ServiceProviderConfig says so). */
export const SCIM_MAX_RESULTS = 100;

/** A SCIM error answer: its HTTP status, `scimType` (RFC 7644 3.12) and a sentence. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: string,
    /** Recorded even though the change is refused (after its transaction rolled back). */
    readonly refusal?: { action: AuditAction; subjectId: number; data: Record<string, unknown> },
  ) {
    super(detail);
    this.name = 'ScimError';
  }
}

const invalid = (detail: string) => new ScimError(400, detail, 'invalidValue');
const missing = (what: 'User' | 'Group') => new ScimError(404, `${what} not found.`);

export interface ScimFacts {
  db: Database;
  provider: ProviderRow;
  appUrl: string;
  now: Date;
  ip: string | null;
  requestId: string | null;
}

// ------------------------------------------------------------------------------------------------ tokens

/** The provider a bearer token belongs to: found by the token's SHA-256 (no stored token is ever compared). */
export async function providerForScimToken(db: DbOrTx, token: string): Promise<ProviderRow | undefined> {
  if (!/^[\x21-\x7e]{16,512}$/.test(token)) return undefined;
  const [row] = await db
    .select()
    .from(identityProviders)
    .where(and(isNotNull(identityProviders.scimTokenHash), eq(identityProviders.scimTokenHash, sha256(token))));
  return row;
}

interface TokenFacts {
  actorUserId: number;
  appUrl: string;
  now: Date;
  ip: string;
  requestId: string;
}

/** Makes (or replaces: the old one stops at once) the provider's SCIM token, returned this once. */
export async function rotateScimToken(db: Database, providerId: number, facts: TokenFacts): Promise<ScimToken> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(identityProviders).where(eq(identityProviders.id, providerId)).for('update');
    if (!row) throw notFound('Identity provider not found.');
    const token = randomToken(32);
    await tx
      .update(identityProviders)
      .set({ scimTokenHash: sha256(token), scimTokenCreatedAt: facts.now, updatedAt: facts.now })
      .where(eq(identityProviders.id, providerId));
    await recordAudit(tx, {
      action: 'identity_provider.scim_token_rotate',
      actorUserId: facts.actorUserId,
      subjectType: 'identity_provider',
      subjectId: providerId,
      data: { provider: row.slug, replaced: row.scimTokenHash !== null },
      ip: facts.ip,
      requestId: facts.requestId,
      at: facts.now,
    });
    return { token, created_at: facts.now.toISOString(), base_url: scimBaseUrl(facts.appUrl) };
  });
}

/** Revokes the provider's SCIM token: provisioning is off (the people it provisioned stay as they are). */
export async function revokeScimToken(db: Database, providerId: number, facts: TokenFacts): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(identityProviders).where(eq(identityProviders.id, providerId)).for('update');
    if (!row) throw notFound('Identity provider not found.');
    if (row.scimTokenHash === null) return;
    await tx
      .update(identityProviders)
      .set({ scimTokenHash: null, scimTokenCreatedAt: null, updatedAt: facts.now })
      .where(eq(identityProviders.id, providerId));
    await recordAudit(tx, {
      action: 'identity_provider.scim_token_revoke',
      actorUserId: facts.actorUserId,
      subjectType: 'identity_provider',
      subjectId: providerId,
      data: { provider: row.slug },
      ip: facts.ip,
      requestId: facts.requestId,
      at: facts.now,
    });
  });
}

// ------------------------------------------------------------------------------------------------ reading input

/** SCIM attribute names are case-insensitive; the core schema's URN may prefix them. */
const normalizePath = (path: string) =>
  path
    .trim()
    .toLowerCase()
    .replace(/^urn:ietf:params:scim:schemas:core:2\.0:(?:user|group):/, '');

/** A boolean as directories send it: true/false, or Entra ID's "True"/"False". */
function scimBoolean(value: unknown, what: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw invalid(`${what} must be true or false.`);
}

function scimString(value: unknown, what: string, max: number): string {
  if (typeof value !== 'string') throw invalid(`${what} must be a string.`);
  const text = value.trim();
  if (text.length > max) throw invalid(`${what} is at most ${max} characters.`);
  return text;
}

/** The value of an attribute of a body, its name matched case-insensitively. */
function attribute(body: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : body[key];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function bodyObject(body: unknown): Record<string, unknown> {
  if (!isObject(body)) throw new ScimError(400, 'The request body must be a JSON object.', 'invalidSyntax');
  return body;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The primary email of a SCIM `emails` list (else the first, else none). */
function primaryEmail(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw invalid('emails must be a list.');
  const emails = value.filter(isObject);
  const chosen =
    emails.find((e) => attribute(e, 'primary') === true || attribute(e, 'primary') === 'True') ?? emails[0];
  const email = chosen ? attribute(chosen, 'value') : undefined;
  return typeof email === 'string' && email.trim() ? email.trim() : null;
}

function checkedEmail(email: string): string {
  const value = email.trim().toLowerCase();
  if (value.length > 254 || !EMAIL.test(value)) throw invalid(`“${email.slice(0, 100)}” is not an email address.`);
  return value;
}

/** A SCIM id of this server: the digits of a row id (anything else names nothing). */
export function scimId(value: string): number | null {
  if (!/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= INT4_MAX ? id : null;
}

/** `attribute eq "value"`, the one filter supported, on the attributes `allowed` names. */
export function parseFilter<K extends string>(
  filter: string | undefined,
  allowed: Record<string, K>,
): { attribute: K; value: string } | null {
  if (filter === undefined || filter.trim() === '') return null;
  const match = /^\s*([A-Za-z][\w.:]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter);
  const name = match ? allowed[normalizePath(match[1]!)] : undefined;
  if (!match || !name) {
    throw new ScimError(
      400,
      `Only the filters ${Object.keys(allowed)
        .map((a) => `${a} eq "…"`)
        .join(', ')} are supported.`,
      'invalidFilter',
    );
  }
  let value: string;
  try {
    value = JSON.parse(`"${match[2]!}"`) as string;
  } catch {
    throw new ScimError(400, 'The filter’s value is not a valid string.', 'invalidFilter');
  }
  return { attribute: name, value };
}

export interface Page {
  startIndex: number;
  count: number;
}

/** startIndex (1-based, below 1 means 1) and count (0 to SCIM_MAX_RESULTS, default the most). */
export function pageOf(query: { startIndex?: string; count?: string }): Page {
  const start = Number.parseInt(query.startIndex ?? '1', 10);
  const size = Number.parseInt(query.count ?? String(SCIM_MAX_RESULTS), 10);
  return {
    startIndex: Number.isFinite(start) && start >= 1 ? Math.min(start, INT4_MAX) : 1,
    count: Number.isFinite(size) ? Math.min(Math.max(size, 0), SCIM_MAX_RESULTS) : SCIM_MAX_RESULTS,
  };
}

const listResponse = (resources: unknown[], total: number, page: Page) => ({
  schemas: [SCIM_SCHEMAS.list],
  totalResults: total,
  startIndex: page.startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});

/** A PATCH body's operations: op add/replace/remove in any case, a path or none, a value. */
interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string | null;
  value: unknown;
}

function patchOperations(body: unknown): PatchOperation[] {
  const operations = attribute(bodyObject(body), 'Operations');
  if (!Array.isArray(operations) || !operations.length || operations.length > 1000) {
    throw new ScimError(400, 'A PATCH needs Operations: a list of 1 to 1,000 operations.', 'invalidSyntax');
  }
  return operations.map((operation) => {
    if (!isObject(operation)) throw new ScimError(400, 'Each operation must be an object.', 'invalidSyntax');
    const op = attribute(operation, 'op');
    const kind = typeof op === 'string' ? op.toLowerCase() : '';
    if (kind !== 'add' && kind !== 'replace' && kind !== 'remove') {
      throw new ScimError(400, 'An operation’s op must be add, replace or remove.', 'invalidSyntax');
    }
    const path = attribute(operation, 'path');
    if (path !== undefined && (typeof path !== 'string' || path.length > 500)) throw invalid('path must be a string.');
    const value = attribute(operation, 'value');
    if (kind !== 'remove' && value === undefined) throw invalid(`An ${kind} operation needs a value.`);
    if (kind === 'remove' && !path) throw new ScimError(400, 'A remove operation needs a path.', 'noTarget');
    return { op: kind, path: path ? path : null, value };
  });
}

// ------------------------------------------------------------------------------------------------ users

type IdentityRow = typeof userIdentities.$inferSelect;
type UserRow = typeof users.$inferSelect;
interface ScimUserRow {
  identity: IdentityRow;
  user: UserRow;
}

/** What the directory says of a person: the attributes the portal keeps. */
interface UserState {
  userName: string;
  externalId: string | null;
  givenName: string;
  familyName: string;
  email: string;
  active: boolean;
}

const stateOf = ({ identity, user }: ScimUserRow): UserState => ({
  userName: identity.userName ?? '',
  externalId: identity.externalId,
  givenName: user.firstName,
  familyName: user.lastName,
  email: user.email,
  active: identity.active,
});

function location(facts: ScimFacts, type: 'Users' | 'Groups', id: number) {
  return `${facts.appUrl}${SCIM_BASE_PATH}/${type}/${id}`;
}

export function presentUser(facts: ScimFacts, row: ScimUserRow) {
  const { identity, user } = row;
  const formatted = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return {
    schemas: [SCIM_SCHEMAS.user],
    id: String(identity.id),
    ...(identity.externalId === null ? {} : { externalId: identity.externalId }),
    userName: identity.userName ?? '',
    name: { givenName: user.firstName, familyName: user.lastName, formatted },
    displayName: formatted || (identity.userName ?? ''),
    emails: [{ value: user.email, type: 'work', primary: true }],
    active: identity.active,
    meta: {
      resourceType: 'User',
      created: identity.createdAt.toISOString(),
      lastModified: new Date(Math.max(identity.updatedAt.getTime(), user.updatedAt.getTime())).toISOString(),
      location: location(facts, 'Users', identity.id),
    },
  };
}

const scimUserWhere = (providerId: number, ...more: (SQL | undefined)[]) =>
  and(eq(userIdentities.providerId, providerId), isNotNull(userIdentities.userName), ...more);

async function loadUser(tx: DbOrTx, providerId: number, id: number, lock = false): Promise<ScimUserRow | undefined> {
  const query = tx
    .select({ identity: userIdentities, user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(scimUserWhere(providerId, eq(userIdentities.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function getUser(facts: ScimFacts, idText: string) {
  const id = scimId(idText);
  const row = id === null ? undefined : await loadUser(facts.db, facts.provider.id, id);
  if (!row) throw missing('User');
  return presentUser(facts, row);
}

const USER_FILTERS = { username: 'userName', externalid: 'externalId' } as const;

export async function listUsers(facts: ScimFacts, query: { filter?: string; startIndex?: string; count?: string }) {
  const filter = parseFilter(query.filter, USER_FILTERS);
  const page = pageOf(query);
  const where = scimUserWhere(
    facts.provider.id,
    filter?.attribute === 'userName'
      ? sql`lower(${userIdentities.userName}) = ${filter.value.toLowerCase()}`
      : filter?.attribute === 'externalId'
        ? eq(userIdentities.externalId, filter.value)
        : undefined,
  );
  const [{ total } = { total: 0 }] = await facts.db
    .select({ total: count() })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(where);
  const rows = page.count
    ? await facts.db
        .select({ identity: userIdentities, user: users })
        .from(userIdentities)
        .innerJoin(users, eq(users.id, userIdentities.userId))
        .where(where)
        .orderBy(asc(userIdentities.id))
        .limit(page.count)
        .offset(page.startIndex - 1)
    : [];
  return listResponse(
    rows.map((row) => presentUser(facts, row)),
    total,
    page,
  );
}

/** The attributes of a full User resource (POST, PUT). `current` fills what a PUT leaves out of `active`. */
function userStateFromBody(body: unknown, current: UserState | null): UserState {
  const resource = bodyObject(body);
  const userName = attribute(resource, 'userName');
  if (typeof userName !== 'string' || !userName.trim()) {
    throw invalid('userName is required.');
  }
  const state: UserState = {
    userName: scimString(userName, 'userName', 200),
    externalId: null,
    givenName: '',
    familyName: '',
    email: '',
    active: current?.active ?? true,
  };
  const externalId = attribute(resource, 'externalId');
  if (externalId !== undefined && externalId !== null) state.externalId = scimString(externalId, 'externalId', 200);
  const name = attribute(resource, 'name');
  if (name !== undefined && name !== null) applyUserPath(state, 'name', name);
  const active = attribute(resource, 'active');
  if (active !== undefined && active !== null) state.active = scimBoolean(active, 'active');
  const email = primaryEmail(attribute(resource, 'emails')) ?? (EMAIL.test(state.userName) ? state.userName : null);
  if (!email) throw invalid('An email address is needed: send emails, or a userName that is an email address.');
  state.email = checkedEmail(email);
  return state;
}

/** Applies one attribute (by path) of an add or replace; attributes the portal does not keep are ignored. */
function applyUserPath(state: UserState, rawPath: string, value: unknown): void {
  const path = normalizePath(rawPath);
  if (path === 'username') state.userName = scimString(value, 'userName', 200);
  else if (path === 'externalid') state.externalId = value === null ? null : scimString(value, 'externalId', 200);
  else if (path === 'active') state.active = scimBoolean(value, 'active');
  else if (path === 'name') {
    if (!isObject(value)) throw invalid('name must be an object.');
    for (const [key, inner] of Object.entries(value)) applyUserPath(state, `name.${key}`, inner);
  } else if (path === 'name.givenname') state.givenName = value === null ? '' : scimString(value, 'givenName', 100);
  else if (path === 'name.familyname') state.familyName = value === null ? '' : scimString(value, 'familyName', 100);
  else if (path === 'emails') {
    const email = primaryEmail(Array.isArray(value) ? value : [value]);
    if (email) state.email = checkedEmail(email);
  } else if (/^emails(\[[^\]]*\])?\.value$/.test(path)) {
    state.email = checkedEmail(scimString(value, 'email', 254));
  }
  // Anything else (displayName, title, phone numbers, addresses, the enterprise extension…) is not kept here.
}

/** Applies a remove; only what may be empty is removed (externalId, the names). */
function removeUserPath(state: UserState, rawPath: string): void {
  const path = normalizePath(rawPath);
  if (path === 'externalid') state.externalId = null;
  else if (path === 'name.givenname') state.givenName = '';
  else if (path === 'name.familyname') state.familyName = '';
  else if (path === 'name') {
    state.givenName = '';
    state.familyName = '';
  } else if (path === 'username' || path === 'active') {
    throw new ScimError(400, `${rawPath} cannot be removed.`, 'mutability');
  }
}

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

/** Runs a change in one transaction; a refusal that must be recorded is audited after the rollback. */
async function write<T>(facts: ScimFacts, change: (tx: DbOrTx) => Promise<T>): Promise<T> {
  try {
    return await facts.db.transaction(change);
  } catch (error) {
    if (error instanceof ScimError && error.refusal) {
      await recordAudit(facts.db, {
        action: error.refusal.action,
        actorUserId: null,
        subjectType: 'user',
        subjectId: error.refusal.subjectId,
        data: { ...error.refusal.data, by: 'scim', provider: facts.provider.slug },
        ip: facts.ip,
        requestId: facts.requestId,
        at: facts.now,
      });
    }
    if (isUniqueViolation(error)) throw new ScimError(409, 'This resource exists already.', 'uniqueness');
    throw error;
  }
}

const actorOf = (facts: ScimFacts) => ({ userId: null, ip: facts.ip, requestId: facts.requestId });

async function audit(
  tx: DbOrTx,
  facts: ScimFacts,
  action: AuditAction,
  subject: { type: 'user' | 'directory_group'; id: number },
  data: Record<string, unknown>,
) {
  await recordAudit(tx, {
    action,
    actorUserId: null,
    subjectType: subject.type,
    subjectId: subject.id,
    data: { by: 'scim', provider: facts.provider.slug, ...data },
    ip: facts.ip,
    requestId: facts.requestId,
    at: facts.now,
  });
}

async function assertUserNameFree(tx: DbOrTx, providerId: number, userName: string, exceptId: number | null) {
  const [taken] = await tx
    .select({ id: userIdentities.id })
    .from(userIdentities)
    .where(
      scimUserWhere(
        providerId,
        sql`lower(${userIdentities.userName}) = ${userName.toLowerCase()}`,
        exceptId === null ? undefined : sql`${userIdentities.id} <> ${exceptId}`,
      ),
    );
  if (taken) throw new ScimError(409, `The userName “${userName}” is already provisioned.`, 'uniqueness');
}

/**
 * Deprovisioning: the account is disabled and every session of it ends at once (their open streams too), unless it
 * is a superadmin's (refused, and the refusal recorded). The account and its records stay.
 */
async function deprovision(tx: DbOrTx, facts: ScimFacts, user: UserRow, how: 'active_false' | 'delete') {
  if (user.role === 'superadmin') {
    throw new ScimError(
      403,
      'This person is a superadmin of the portal: a superadmin is never disabled through provisioning. Ask another superadmin to change their account.',
      undefined,
      { action: 'scim.refused', subjectId: user.id, data: { reason: 'superadmin', change: how } },
    );
  }
  if (user.status === 'disabled') return;
  const sessionsEnded = await disableAccount(tx, user.id, facts.now);
  await audit(
    tx,
    facts,
    'user.disable',
    { type: 'user', id: user.id },
    {
      sessions_ended: sessionsEnded,
      previous_status: user.status,
      changes: changes({ status: user.status }, { status: 'disabled' }),
    },
  );
}

/** Reactivation: a disabled account signs in again through its provider; the provider's group mappings apply. */
async function reactivate(tx: DbOrTx, facts: ScimFacts, user: UserRow) {
  if (user.status !== 'active') {
    await enableAccount(tx, user.id, facts.now);
    await audit(
      tx,
      facts,
      'user.enable',
      { type: 'user', id: user.id },
      {
        status: 'active',
        changes: changes({ status: user.status }, { status: 'active' }),
      },
    );
  }
  await applyGroupMappings(tx, {
    providerId: facts.provider.id,
    userId: user.id,
    at: facts.now,
    actor: actorOf(facts),
  });
}

/**
 * POST /Users: an account is created (active unless `active` is false), or an existing account with the email is
 * linked when its domain is one the provider claims (or the provider is already linked to it); 409 for a userName
 * already provisioned, or an email whose account the provider may not speak for.
 */
export async function createUser(facts: ScimFacts, body: unknown) {
  const state = userStateFromBody(body, null);
  const { provider } = facts;
  const id = await write(facts, async (tx) => {
    await assertUserNameFree(tx, provider.id, state.userName, null);
    const [existing] = await tx.select().from(users).where(sql`lower(${users.email}) = ${state.email}`).for('update');
    let user: UserRow;
    let identityId: number;
    if (existing) {
      const [link] = await tx
        .select()
        .from(userIdentities)
        .where(and(eq(userIdentities.providerId, provider.id), eq(userIdentities.userId, existing.id)))
        .orderBy(asc(userIdentities.id))
        .limit(1);
      const domain = emailDomain(state.email);
      if (!link && !(domain && provider.domains.includes(domain))) {
        throw new ScimError(
          409,
          'An account with this email address exists, and its domain is not one this provider claims.',
          'uniqueness',
        );
      }
      if (link?.userName) {
        throw new ScimError(409, `This person is already provisioned as “${link.userName}”.`, 'uniqueness');
      }
      const names = {
        firstName: state.givenName || existing.firstName,
        lastName: state.familyName || existing.lastName,
      };
      [user] = (await tx
        .update(users)
        .set({
          ...names,
          // The directory speaks for the address: an invitation waiting for a password is no longer needed.
          ...(existing.status === 'invited' && state.active ? { status: 'active' } : {}),
          updatedAt: facts.now,
        })
        .where(eq(users.id, existing.id))
        .returning()) as [UserRow];
      const values = {
        userName: state.userName,
        externalId: state.externalId,
        email: state.email,
        active: state.active,
        updatedAt: facts.now,
      };
      identityId = link
        ? (await tx.update(userIdentities).set(values).where(eq(userIdentities.id, link.id)).returning())[0]!.id
        : (
            await tx
              .insert(userIdentities)
              .values({
                ...values,
                providerId: provider.id,
                subject: `scim:${randomUUID()}`,
                userId: user.id,
                createdAt: facts.now,
              })
              .returning()
          )[0]!.id;
      await audit(
        tx,
        facts,
        'scim.user_create',
        { type: 'user', id: user.id },
        {
          email: state.email,
          user_name: state.userName,
          linked: true,
        },
      );
      if (!state.active) await deprovision(tx, facts, user, 'active_false');
      else if (user.status === 'disabled') await reactivate(tx, facts, user);
      else
        await applyGroupMappings(tx, {
          providerId: provider.id,
          userId: user.id,
          at: facts.now,
          actor: actorOf(facts),
        });
    } else {
      const local = state.email.slice(0, state.email.indexOf('@'));
      const wanted = state.userName.includes('@')
        ? state.userName.slice(0, state.userName.indexOf('@'))
        : state.userName;
      [user] = (await tx
        .insert(users)
        .values({
          email: state.email,
          username: await uniqueUsername(tx, wanted || local),
          firstName: state.givenName,
          lastName: state.familyName,
          role: 'user',
          status: state.active ? 'active' : 'disabled',
          passwordHash: null,
          createdAt: facts.now,
          updatedAt: facts.now,
        })
        .returning()) as [UserRow];
      const [identity] = await tx
        .insert(userIdentities)
        .values({
          providerId: provider.id,
          subject: `scim:${randomUUID()}`,
          userId: user.id,
          email: state.email,
          userName: state.userName,
          externalId: state.externalId,
          active: state.active,
          createdAt: facts.now,
          updatedAt: facts.now,
        })
        .returning();
      identityId = identity!.id;
      await audit(
        tx,
        facts,
        'scim.user_create',
        { type: 'user', id: user.id },
        {
          email: state.email,
          user_name: state.userName,
          linked: false,
          active: state.active,
        },
      );
      if (state.active) {
        await applyGroupMappings(tx, {
          providerId: provider.id,
          userId: user.id,
          at: facts.now,
          actor: actorOf(facts),
        });
      }
    }
    return identityId;
  });
  return getUser(facts, String(id));
}

/** Persists a user's new state: names, email, userName, externalId, and `active` (deprovision or reactivate). */
async function saveUser(tx: DbOrTx, facts: ScimFacts, row: ScimUserRow, after: UserState) {
  const before = stateOf(row);
  if (after.userName.toLowerCase() !== before.userName.toLowerCase()) {
    await assertUserNameFree(tx, facts.provider.id, after.userName, row.identity.id);
  }
  if (after.email !== before.email.toLowerCase()) {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${after.email}`, sql`${users.id} <> ${row.user.id}`));
    if (taken) throw new ScimError(409, 'Another account uses this email address.', 'uniqueness');
  }
  const changed = changes(before as unknown as Record<string, unknown>, after as unknown as Record<string, unknown>);
  if (!Object.keys(changed).length) return;
  await tx
    .update(users)
    .set({ email: after.email, firstName: after.givenName, lastName: after.familyName, updatedAt: facts.now })
    .where(eq(users.id, row.user.id));
  await tx
    .update(userIdentities)
    .set({
      userName: after.userName,
      externalId: after.externalId,
      email: after.email,
      active: after.active,
      updatedAt: facts.now,
    })
    .where(eq(userIdentities.id, row.identity.id));
  await audit(tx, facts, 'scim.user_update', { type: 'user', id: row.user.id }, { changes: changed });
  if (before.active && !after.active) await deprovision(tx, facts, row.user, 'active_false');
  else if (!before.active && after.active) await reactivate(tx, facts, row.user);
}

/** PUT /Users/{id}: the whole resource; `active` left out keeps the current value. */
export async function replaceUser(facts: ScimFacts, idText: string, body: unknown) {
  const id = scimId(idText);
  if (id === null) throw missing('User');
  await write(facts, async (tx) => {
    const row = await loadUser(tx, facts.provider.id, id, true);
    if (!row) throw missing('User');
    await saveUser(tx, facts, row, userStateFromBody(body, stateOf(row)));
  });
  return getUser(facts, idText);
}

/** PATCH /Users/{id}: add, replace and remove, with a path or a value object (Entra ID's and Okta's forms). */
export async function patchUser(facts: ScimFacts, idText: string, body: unknown) {
  const id = scimId(idText);
  if (id === null) throw missing('User');
  const operations = patchOperations(body);
  await write(facts, async (tx) => {
    const row = await loadUser(tx, facts.provider.id, id, true);
    if (!row) throw missing('User');
    const state = stateOf(row);
    for (const { op, path, value } of operations) {
      if (op === 'remove') removeUserPath(state, path!);
      else if (path) applyUserPath(state, path, value);
      else if (isObject(value)) for (const [key, inner] of Object.entries(value)) applyUserPath(state, key, inner);
      else throw invalid('An operation without a path needs an object as its value.');
    }
    if (!state.userName) throw invalid('userName cannot be empty.');
    await saveUser(tx, facts, row, state);
  });
  return getUser(facts, idText);
}

/**
 * DELETE /Users/{id}: deprovisioned as for active=false, and the person is no longer a SCIM resource of the provider
 * (its link stays, inactive, without userName and externalId); the portal account is never deleted.
 */
export async function deleteUser(facts: ScimFacts, idText: string): Promise<void> {
  const id = scimId(idText);
  if (id === null) throw missing('User');
  await write(facts, async (tx) => {
    const row = await loadUser(tx, facts.provider.id, id, true);
    if (!row) throw missing('User');
    await deprovision(tx, facts, row.user, 'delete');
    await tx
      .update(userIdentities)
      .set({ active: false, userName: null, externalId: null, updatedAt: facts.now })
      .where(eq(userIdentities.id, row.identity.id));
    // Its groups of this provider no longer hold it.
    const groups = await tx
      .select({ id: directoryGroups.id })
      .from(directoryGroups)
      .where(eq(directoryGroups.providerId, facts.provider.id));
    if (groups.length) {
      await tx.delete(directoryGroupMembers).where(
        and(
          eq(directoryGroupMembers.userId, row.user.id),
          inArray(
            directoryGroupMembers.groupId,
            groups.map((g) => g.id),
          ),
        ),
      );
    }
    await audit(
      tx,
      facts,
      'scim.user_delete',
      { type: 'user', id: row.user.id },
      {
        user_name: row.identity.userName,
        email: row.user.email,
      },
    );
    await applyGroupMappings(tx, {
      providerId: facts.provider.id,
      userId: row.user.id,
      at: facts.now,
      actor: actorOf(facts),
    });
  });
}

// ------------------------------------------------------------------------------------------------ groups

type GroupRow = typeof directoryGroups.$inferSelect;

/** The SCIM ids (identity ids of the provider) of portal users, the provisioned link first. */
async function memberIdsOf(tx: DbOrTx, providerId: number, userIds: number[]) {
  if (!userIds.length) return new Map<number, { id: number; display: string }>();
  const rows = await tx
    .select({ id: userIdentities.id, userId: userIdentities.userId, userName: userIdentities.userName })
    .from(userIdentities)
    .where(and(eq(userIdentities.providerId, providerId), inArray(userIdentities.userId, userIds)))
    .orderBy(sql`${userIdentities.userName} is null`, asc(userIdentities.id));
  const found = new Map<number, { id: number; display: string }>();
  for (const row of rows)
    if (!found.has(row.userId)) found.set(row.userId, { id: row.id, display: row.userName ?? '' });
  return found;
}

async function presentGroups(tx: DbOrTx, facts: ScimFacts, groups: GroupRow[], withMembers: boolean) {
  const members =
    withMembers && groups.length
      ? await tx
          .select()
          .from(directoryGroupMembers)
          .where(
            inArray(
              directoryGroupMembers.groupId,
              groups.map((g) => g.id),
            ),
          )
      : [];
  const ids = await memberIdsOf(tx, facts.provider.id, [...new Set(members.map((m) => m.userId))]);
  return groups.map((group) => ({
    schemas: [SCIM_SCHEMAS.group],
    id: String(group.id),
    ...(group.externalId === null ? {} : { externalId: group.externalId }),
    displayName: group.displayName,
    ...(withMembers
      ? {
          members: members
            .filter((m) => m.groupId === group.id && ids.has(m.userId))
            .map((m) => {
              const member = ids.get(m.userId)!;
              return {
                value: String(member.id),
                ...(member.display ? { display: member.display } : {}),
                $ref: location(facts, 'Users', member.id),
                type: 'User',
              };
            }),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: group.createdAt.toISOString(),
      lastModified: group.updatedAt.toISOString(),
      location: location(facts, 'Groups', group.id),
    },
  }));
}

const withoutMembers = (excludedAttributes: string | undefined) =>
  (excludedAttributes ?? '')
    .split(',')
    .map((a) => normalizePath(a))
    .includes('members');

async function loadGroup(tx: DbOrTx, providerId: number, id: number, lock = false) {
  const query = tx
    .select()
    .from(directoryGroups)
    .where(and(eq(directoryGroups.providerId, providerId), eq(directoryGroups.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function getGroup(facts: ScimFacts, idText: string, query: { excludedAttributes?: string } = {}) {
  const id = scimId(idText);
  const group = id === null ? undefined : await loadGroup(facts.db, facts.provider.id, id);
  if (!group) throw missing('Group');
  const [presented] = await presentGroups(facts.db, facts, [group], !withoutMembers(query.excludedAttributes));
  return presented!;
}

const GROUP_FILTERS = { displayname: 'displayName', externalid: 'externalId' } as const;

export async function listGroups(
  facts: ScimFacts,
  query: { filter?: string; startIndex?: string; count?: string; excludedAttributes?: string },
) {
  const filter = parseFilter(query.filter, GROUP_FILTERS);
  const page = pageOf(query);
  const where = and(
    eq(directoryGroups.providerId, facts.provider.id),
    filter?.attribute === 'displayName'
      ? sql`lower(${directoryGroups.displayName}) = ${filter.value.toLowerCase()}`
      : filter?.attribute === 'externalId'
        ? eq(directoryGroups.externalId, filter.value)
        : undefined,
  );
  const [{ total } = { total: 0 }] = await facts.db.select({ total: count() }).from(directoryGroups).where(where);
  const rows = page.count
    ? await facts.db
        .select()
        .from(directoryGroups)
        .where(where)
        .orderBy(asc(directoryGroups.id))
        .limit(page.count)
        .offset(page.startIndex - 1)
    : [];
  return listResponse(
    await presentGroups(facts.db, facts, rows, !withoutMembers(query.excludedAttributes)),
    total,
    page,
  );
}

/** The portal users that SCIM member values (identity ids of this provider) name; unknown ones are listed apart. */
async function usersOfMembers(tx: DbOrTx, providerId: number, values: unknown) {
  const list = values === undefined || values === null ? [] : Array.isArray(values) ? values : [values];
  const ids: number[] = [];
  const unknown: string[] = [];
  for (const member of list) {
    const value = isObject(member) ? attribute(member, 'value') : member;
    const id = typeof value === 'string' || typeof value === 'number' ? scimId(String(value)) : null;
    if (id === null) unknown.push(String(value).slice(0, 100));
    else ids.push(id);
  }
  const rows = ids.length
    ? await tx
        .select({ id: userIdentities.id, userId: userIdentities.userId })
        .from(userIdentities)
        .where(and(eq(userIdentities.providerId, providerId), inArray(userIdentities.id, ids)))
    : [];
  const known = new Set(rows.map((r) => r.id));
  unknown.push(...ids.filter((id) => !known.has(id)).map(String));
  return { userIds: [...new Set(rows.map((r) => r.userId))], unknown };
}

const unknownMembers = (unknown: string[]) =>
  invalid(`No user of this provider has the id ${unknown.map((u) => `“${u}”`).join(', ')}.`);

async function addMembers(tx: DbOrTx, facts: ScimFacts, groupId: number, values: unknown): Promise<number[]> {
  const { userIds, unknown } = await usersOfMembers(tx, facts.provider.id, values);
  if (unknown.length) throw unknownMembers(unknown);
  return insertMembers(tx, facts, groupId, userIds);
}

async function insertMembers(tx: DbOrTx, facts: ScimFacts, groupId: number, userIds: number[]): Promise<number[]> {
  if (!userIds.length) return [];
  const added = await tx
    .insert(directoryGroupMembers)
    .values(userIds.map((userId) => ({ groupId, userId, createdAt: facts.now })))
    .onConflictDoNothing()
    .returning({ userId: directoryGroupMembers.userId });
  return added.map((a) => a.userId);
}

async function removeMembers(tx: DbOrTx, groupId: number, userIds: number[] | 'all'): Promise<number[]> {
  if (userIds !== 'all' && !userIds.length) return [];
  const removed = await tx
    .delete(directoryGroupMembers)
    .where(
      and(
        eq(directoryGroupMembers.groupId, groupId),
        userIds === 'all' ? undefined : inArray(directoryGroupMembers.userId, userIds),
      ),
    )
    .returning({ userId: directoryGroupMembers.userId });
  return removed.map((r) => r.userId);
}

/** The group mappings apply again to each person whose groups changed. */
async function reapply(tx: DbOrTx, facts: ScimFacts, userIds: Iterable<number>) {
  for (const userId of new Set(userIds)) {
    await applyGroupMappings(tx, { providerId: facts.provider.id, userId, at: facts.now, actor: actorOf(facts) });
  }
}

async function membersOf(tx: DbOrTx, groupId: number): Promise<number[]> {
  const rows = await tx
    .select({ userId: directoryGroupMembers.userId })
    .from(directoryGroupMembers)
    .where(eq(directoryGroupMembers.groupId, groupId));
  return rows.map((r) => r.userId);
}

function groupNames(body: Record<string, unknown>, current: GroupRow | null) {
  const displayName = attribute(body, 'displayName');
  const name =
    displayName === undefined && current ? current.displayName : scimString(displayName ?? '', 'displayName', 300);
  if (!name) throw invalid('displayName is required.');
  const externalId = attribute(body, 'externalId');
  return {
    displayName: name,
    externalId: externalId === undefined || externalId === null ? null : scimString(externalId, 'externalId', 200),
  };
}

export async function createGroup(facts: ScimFacts, body: unknown) {
  const resource = bodyObject(body);
  const names = groupNames(resource, null);
  const id = await write(facts, async (tx) => {
    const [group] = await tx
      .insert(directoryGroups)
      .values({ providerId: facts.provider.id, ...names, createdAt: facts.now, updatedAt: facts.now })
      .returning();
    const added = await addMembers(tx, facts, group!.id, attribute(resource, 'members'));
    await audit(
      tx,
      facts,
      'scim.group_create',
      { type: 'directory_group', id: group!.id },
      {
        display_name: names.displayName,
        external_id: names.externalId,
        members_added: added,
      },
    );
    await reapply(tx, facts, added);
    return group!.id;
  });
  return getGroup(facts, String(id));
}

/** PUT /Groups/{id}: the name, external id and the complete member list. */
export async function replaceGroup(facts: ScimFacts, idText: string, body: unknown) {
  const id = scimId(idText);
  if (id === null) throw missing('Group');
  const resource = bodyObject(body);
  await write(facts, async (tx) => {
    const group = await loadGroup(tx, facts.provider.id, id, true);
    if (!group) throw missing('Group');
    const names = groupNames(resource, group);
    const before = await membersOf(tx, id);
    const { userIds, unknown } = await usersOfMembers(tx, facts.provider.id, attribute(resource, 'members'));
    if (unknown.length) throw unknownMembers(unknown);
    const removed = await removeMembers(
      tx,
      id,
      before.filter((u) => !userIds.includes(u)),
    );
    const added = await insertMembers(
      tx,
      facts,
      id,
      userIds.filter((u) => !before.includes(u)),
    );
    await saveGroup(tx, facts, group, names, added, removed);
  });
  return getGroup(facts, idText);
}

async function saveGroup(
  tx: DbOrTx,
  facts: ScimFacts,
  group: GroupRow,
  names: { displayName: string; externalId: string | null },
  added: number[],
  removed: number[],
) {
  const changed = changes(
    { display_name: group.displayName, external_id: group.externalId },
    { display_name: names.displayName, external_id: names.externalId },
  );
  if (Object.keys(changed).length) {
    await tx
      .update(directoryGroups)
      .set({ ...names, updatedAt: facts.now })
      .where(eq(directoryGroups.id, group.id));
  } else if (added.length || removed.length) {
    await tx.update(directoryGroups).set({ updatedAt: facts.now }).where(eq(directoryGroups.id, group.id));
  }
  if (!Object.keys(changed).length && !added.length && !removed.length) return;
  await audit(
    tx,
    facts,
    'scim.group_update',
    { type: 'directory_group', id: group.id },
    {
      display_name: names.displayName,
      changes: changed,
      members_added: added,
      members_removed: removed,
    },
  );
  // A new name can match other mappings: every member's mappings apply again; else those who came or went.
  const everyone = Object.keys(changed).length ? await membersOf(tx, group.id) : [];
  await reapply(tx, facts, [...everyone, ...added, ...removed]);
}

/** `members[value eq "id"]`: the member a remove names. */
const MEMBER_FILTER = /^members\[\s*value\s+eq\s+"([^"]*)"\s*\]$/i;

/** PATCH /Groups/{id}: members added and removed as Entra ID and Okta send them, displayName and externalId replaced. */
export async function patchGroup(facts: ScimFacts, idText: string, body: unknown): Promise<void> {
  const id = scimId(idText);
  if (id === null) throw missing('Group');
  const operations = patchOperations(body);
  await write(facts, async (tx) => {
    const group = await loadGroup(tx, facts.provider.id, id, true);
    if (!group) throw missing('Group');
    const names = { displayName: group.displayName, externalId: group.externalId };
    const added: number[] = [];
    const removed: number[] = [];
    const setNames = (key: string, value: unknown) => {
      const path = normalizePath(key);
      if (path === 'displayname') names.displayName = scimString(value, 'displayName', 300) || names.displayName;
      else if (path === 'externalid') names.externalId = value === null ? null : scimString(value, 'externalId', 200);
    };
    for (const { op, path, value } of operations) {
      const target = path ? normalizePath(path) : null;
      const memberFilter = path ? MEMBER_FILTER.exec(path.trim()) : null;
      if (op === 'remove') {
        if (memberFilter) {
          const { userIds } = await usersOfMembers(tx, facts.provider.id, [memberFilter[1]]);
          removed.push(...(await removeMembers(tx, id, userIds)));
        } else if (target === 'members') {
          if (value === undefined) removed.push(...(await removeMembers(tx, id, 'all')));
          else {
            const { userIds } = await usersOfMembers(tx, facts.provider.id, value);
            removed.push(...(await removeMembers(tx, id, userIds)));
          }
        } else if (target === 'externalid') names.externalId = null;
        else if (target === 'displayname') throw new ScimError(400, 'displayName cannot be removed.', 'mutability');
      } else if (target === 'members') {
        if (op === 'replace') removed.push(...(await removeMembers(tx, id, 'all')));
        added.push(...(await addMembers(tx, facts, id, value)));
      } else if (target) setNames(target, value);
      else if (isObject(value)) {
        for (const [key, inner] of Object.entries(value)) {
          if (normalizePath(key) === 'members') {
            if (op === 'replace') removed.push(...(await removeMembers(tx, id, 'all')));
            added.push(...(await addMembers(tx, facts, id, inner)));
          } else setNames(key, inner);
        }
      } else throw invalid('An operation without a path needs an object as its value.');
    }
    // Someone removed and added back in one request is neither.
    const net = (list: number[], other: number[]) => [...new Set(list)].filter((u) => !other.includes(u));
    await saveGroup(tx, facts, group, names, net(added, removed), net(removed, added));
  });
}

export async function deleteGroup(facts: ScimFacts, idText: string): Promise<void> {
  const id = scimId(idText);
  if (id === null) throw missing('Group');
  await write(facts, async (tx) => {
    const group = await loadGroup(tx, facts.provider.id, id, true);
    if (!group) throw missing('Group');
    const former = await removeMembers(tx, id, 'all');
    await tx.delete(directoryGroups).where(eq(directoryGroups.id, id));
    await audit(
      tx,
      facts,
      'scim.group_delete',
      { type: 'directory_group', id },
      {
        display_name: group.displayName,
        external_id: group.externalId,
        former_members: former,
      },
    );
    await reapply(tx, facts, former);
  });
}

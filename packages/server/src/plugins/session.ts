import { createHmac, randomBytes } from 'node:crypto';
import { INT4_MAX, MESSAGES } from '@portal/shared';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  monRoleMembers,
  permissionRules,
  projectMemberRoles,
  projectMemberships,
  projects,
  type SessionData,
  sessions,
  stdMembers,
  users,
} from '../db/schema/index.js';
import { type Clock, hours, minutes } from '../lib/clock.js';
import { safeEqual, sha256 } from '../lib/crypto.js';
import { AppError } from '../lib/errors.js';
import { deepFreeze, KeptUntilChanged } from './kept-until-changed.js';

/**
 * Cookie sessions and CSRF (DESIGN section 3). The session cookie holds 32 random bytes; PostgreSQL holds their
 * SHA-256, so a database leak yields no usable session. XSRF-TOKEN is a second random value bound to the session:
 * every state-changing request must echo it in X-XSRF-TOKEN, which another site cannot read.
 *
 * A visitor without a stored session (the sign-in and lost-password pages) gets no row: XSRF-TOKEN is then an HMAC,
 * with the app key, of a random value kept in the HttpOnly XSRF_KEY_COOKIE and an expiry, checked the same way. A
 * token from another browser does not fit this one's key, and once a session is stored only its own token counts.
 */
export const SESSION_COOKIE = 'portal_session';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_KEY_COOKIE = 'portal_xsrf_key';
export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// last_seen_at is written at most this often: enough for a 30-minute idle timeout, few writes per request.
const TOUCH_EVERY_MS = 60_000;

export interface SessionUser {
  id: number;
  username: string;
  email: string;
  role: 'superadmin' | 'user';
  firstName: string;
  lastName: string;
  status: string;
  passwordHash: string | null;
  twoFactorSecret: string | null;
  twoFactorConfirmedAt: Date | null;
  createdAt: Date;
  /**
   * The user's roles in any project, read with the session: the two-factor policy (MFA_REQUIRED_ROLES) then needs
   * no query of its own on every request.
   */
  projectRoles?: string[];
  /** What the guards of a read of one project ask, read with the session (see ProjectContext). */
  projectContext?: ProjectContext;
}

/**
 * Read with the session on a GET or HEAD of a project's address (a `:projectId` route parameter), in the same
 * statement, so that the guards of that read ask PostgreSQL nothing more (policies/projects.ts projectAccess,
 * policies/app-access.ts appAccess), and kept with it between reads (KeptUntilChanged, decision record 029). Only reads use
 * it: a request that changes data reads access inside its own work, as before.
 */
export interface ProjectContext {
  projectId: number;
  /** Null when no such project exists. */
  project: typeof projects.$inferSelect | null;
  /** The user's membership role in it, null for none. */
  projectRole: string | null;
  /** The user's main role per app of the project. */
  mainRoles: Partial<Record<string, string>>;
  /** The project's own permission rules per app (the defaults are not included). */
  rules: Partial<Record<string, { path: string; allowed_roles: string[] }[]>>;
  /** The user's stored standards role in it, null for none. */
  standardsRole: string | null;
  /** The monitoring roles (mon_roles) the user is a member of in it. */
  monitoringRoleIds: number[];
}

/** What the session statement reads: the session, its user and their project roles (for the two-factor policy)... */
interface SessionRowOfUser {
  session: typeof sessions.$inferSelect;
  user: typeof users.$inferSelect | null;
  projectRoles: string[] | null;
}

/** ...and, for a read of a project's address, what the project's guards need (ProjectContext). */
interface SessionRowWithProject extends SessionRowOfUser {
  project: typeof projects.$inferSelect | null;
  projectRole: string | null;
  standardsRole: string | null;
  monitoringRoleIds: number[] | null;
  mainRoles: Record<string, string> | null;
  rules: ProjectContext['rules'] | null;
}

type SessionRow = SessionRowOfUser | SessionRowWithProject;

export interface LoadedSession {
  idHash: string;
  publicId: string;
  userId: number | null;
  data: SessionData;
  csrfTokenHash: string;
  lastSeenAt: Date;
  expiresAt: Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What the session statement read, kept between requests (decision record 029). */
    accessCache: KeptUntilChanged<SessionRow>;
  }
  interface FastifyRequest {
    session: LoadedSession | null;
    user: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** Reachable while two-factor setup is overdue (sign-in, sign-out, two-factor setup). */
    mfaExempt?: boolean;
    /**
     * Authenticated by a bearer token its handler checks (SCIM provisioning), with `access.bearerToken`: the session
     * cookie is not read (a session never authenticates it) and no CSRF token is asked (no browser sends it).
     */
    bearerToken?: boolean;
    /**
     * A message an identity provider's page posts from another site (the SAML ACS): signed, used once and checked
     * by its handler, it stands in for the CSRF token, which such a post cannot carry.
     */
    signedMessage?: boolean;
  }
}

export function registerSessions(app: FastifyInstance, clock: Clock): void {
  const { db } = app.database;
  const idleMs = minutes(app.config.SESSION_IDLE_MINUTES);
  app.decorateRequest('session', null);
  app.decorateRequest('user', null);

  const userProjectRoles = sql<
    string[] | null
  >`(select array_agg(distinct ${projectMemberships.projectRole}) from ${projectMemberships} where ${projectMemberships.userId} = ${users.id})`;
  // Every signed-in request runs this: one prepared statement (parsed and planned once per connection) that also
  // reads the project roles the two-factor policy needs (bench/budgets.ts).
  const loadStatement = db
    .select({
      session: sessions,
      user: users,
      projectRoles: userProjectRoles,
    })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.idHash, sql.placeholder('idHash')))
    .prepare('portal_load_session');

  // The same, with the project of a read's address: its row, the membership, the main and standards roles, the rules.
  const membership = alias(projectMemberships, 'membership');
  const loadWithProjectStatement = db
    .select({
      session: sessions,
      user: users,
      projectRoles: userProjectRoles,
      project: projects,
      projectRole: membership.projectRole,
      standardsRole: sql<string | null>`(select ${stdMembers.role} from ${stdMembers} where ${stdMembers.projectId} = ${
        projects.id
      } and ${stdMembers.userId} = ${users.id})`,
      monitoringRoleIds: sql<number[] | null>`(select json_agg(${monRoleMembers.roleId}) from ${monRoleMembers} where ${
        monRoleMembers.projectId
      } = ${projects.id} and ${monRoleMembers.userId} = ${users.id})`,
      mainRoles: sql<Record<string, string> | null>`(select json_object_agg(${projectMemberRoles.app}, ${
        projectMemberRoles.mainRole
      }) from ${projectMemberRoles} where ${projectMemberRoles.projectId} = ${projects.id} and ${
        projectMemberRoles.userId
      } = ${users.id})`,
      rules: sql<ProjectContext['rules'] | null>`(select json_object_agg(r.app, r.rules) from (select ${
        permissionRules.app
      } as app, json_agg(json_build_object('path', ${permissionRules.path}, 'allowed_roles', ${
        permissionRules.allowedRoles
      })) as rules from ${permissionRules} where ${permissionRules.projectId} = ${projects.id} group by ${
        permissionRules.app
      }) r)`,
    })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .leftJoin(projects, eq(projects.id, sql.placeholder('projectId')))
    .leftJoin(membership, and(eq(membership.projectId, projects.id), eq(membership.userId, users.id)))
    .where(eq(sessions.idHash, sql.placeholder('idHash')))
    .prepare('portal_load_session_project');

  const cache = new KeptUntilChanged<SessionRow>({
    pool: app.database.pool,
    log: app.log,
    ttlMs: app.config.ACCESS_CACHE_SECONDS * 1000,
    max: 10_000,
  });
  app.decorate('accessCache', cache);
  app.addHook('onReady', () => cache.start());
  app.addHook('onClose', () => cache.stop());
  // A change made here holds for this instance's next read, before its answer leaves (the others hear it from
  // PostgreSQL). A refused change may have written nothing; forgetting costs one statement per session.
  app.addHook('onSend', async (request) => {
    if (STATE_CHANGING.has(request.method)) cache.clear();
  });

  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.bearerToken) return;
    const token = request.cookies[SESSION_COOKIE];
    if (token) await loadSession(request, reply, token);
    if (!STATE_CHANGING.has(request.method) || !request.routeOptions.url) return;
    if (request.routeOptions.config?.signedMessage) return;
    const header = request.headers['x-xsrf-token'];
    const sent = Array.isArray(header) ? header[0] : header;
    if (!sent || !xsrfTokenValid(request, sent)) throw new AppError('CSRF_MISMATCH', MESSAGES.csrfMismatch);
  });

  function xsrfTokenValid(request: FastifyRequest, sent: string): boolean {
    if (request.session) return safeEqual(sha256(sent), request.session.csrfTokenHash);
    const key = request.cookies[XSRF_KEY_COOKIE];
    return key !== undefined && anonymousXsrfExpiry(app.appKey, key, sent) > clock.now().getTime();
  }

  /** The session's row, with the project's when the read names one: kept (KeptUntilChanged) or read by one statement. */
  async function sessionRow(idHash: string, projectId: number | null): Promise<SessionRow | undefined> {
    if (projectId === null) {
      const [row] = await loadStatement.execute({ idHash });
      return row;
    }
    const [row] = await loadWithProjectStatement.execute({ idHash, projectId });
    return row;
  }

  async function loadSession(request: FastifyRequest, reply: FastifyReply, token: string) {
    const now = clock.now();
    const idHash = sha256(token);
    const projectId = readProjectId(request);
    const key = `${idHash}:${projectId ?? ''}`;
    const due = (row: SessionRow) => {
      const { session, user } = row;
      const expired =
        session.expiresAt <= now ||
        session.lastSeenAt.getTime() + idleMs <= now.getTime() ||
        (session.userId !== null && user?.status !== 'active');
      return { expired, touch: now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS };
    };
    const kept = cache.get(key);
    const keptDue = kept && due(kept);
    // A kept row decides nothing it might be out of date for: an expiry or a touch is judged on a fresh one.
    let row: SessionRow | undefined = keptDue && !keptDue.expired && !keptDue.touch ? kept : undefined;
    const fresh = row === undefined;
    if (!row) {
      const generation = cache.generation;
      row = await sessionRow(idHash, projectId);
      if (!row) return clearSessionCookies(app, reply);
      const { expired, touch } = due(row);
      if (expired) {
        await db.delete(sessions).where(eq(sessions.idHash, idHash));
        return clearSessionCookies(app, reply);
      }
      if (touch) await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, idHash));
      // A touched row's last_seen_at is already old: the next read takes the new one.
      else cache.set(key, deepFreeze(row), generation);
    }
    const { session, user, projectRoles } = row;
    // A kept row is frozen and shared: the request gets its own copy of the data it may change.
    request.session = { ...session, data: fresh ? (session.data ?? {}) : structuredClone(session.data ?? {}) };
    request.user = user ? { ...toSessionUser(user), projectRoles: [...(projectRoles ?? [])] } : null;
    if (request.user && projectId !== null && 'project' in row) request.user.projectContext = contextOf(projectId, row);
  }
}

function contextOf(projectId: number, row: SessionRowWithProject): ProjectContext {
  const { project, projectRole, mainRoles, rules, standardsRole, monitoringRoleIds } = row;
  return {
    projectId,
    project,
    projectRole,
    mainRoles: mainRoles ?? {},
    rules: rules ?? {},
    standardsRole,
    monitoringRoleIds: monitoringRoleIds ?? [],
  };
}

/** The project id of a GET or HEAD route's address, if it has one that can exist (1 to INT4_MAX). */
function readProjectId(request: FastifyRequest): number | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const raw = (request.params as Record<string, unknown> | undefined)?.projectId;
  if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= INT4_MAX ? id : null;
}

function toSessionUser(user: typeof users.$inferSelect): SessionUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    role: user.role as SessionUser['role'],
    firstName: user.firstName,
    lastName: user.lastName,
    status: user.status,
    passwordHash: user.passwordHash,
    twoFactorSecret: user.twoFactorSecret,
    twoFactorConfirmedAt: user.twoFactorConfirmedAt,
    createdAt: user.createdAt,
  };
}

function cookieOptions(app: FastifyInstance, httpOnly: boolean, expires?: Date) {
  return {
    path: '/',
    httpOnly,
    sameSite: 'lax' as const,
    secure: app.config.APP_URL.startsWith('https://'),
    ...(expires ? { expires } : {}),
  };
}

/** The app key's sub-key for anonymous XSRF tokens, so no other HMAC made with the app key can stand in for one. */
const xsrfSecret = (appKey: Buffer) => createHmac('sha256', appKey).update('portal:anonymous-xsrf').digest();
const anonymousXsrfMac = (appKey: Buffer, key: string, expires: string) =>
  createHmac('sha256', xsrfSecret(appKey)).update(`${key}.${expires}`).digest('base64url');

/** An anonymous XSRF token: `<expiry, ms in base 36>.<HMAC of key and expiry>`. */
function anonymousXsrfToken(appKey: Buffer, key: string, expiresAt: Date): string {
  const expires = expiresAt.getTime().toString(36);
  return `${expires}.${anonymousXsrfMac(appKey, key, expires)}`;
}

/** When `token` stops counting (ms since the epoch) if it was made for `key` with this app key; 0 if it was not. */
function anonymousXsrfExpiry(appKey: Buffer, key: string, token: string): number {
  const [expires, mac, ...rest] = token.split('.');
  if (!expires || !mac || rest.length || !/^[0-9a-z]{1,12}$/.test(expires)) return 0;
  return safeEqual(mac, anonymousXsrfMac(appKey, key, expires)) ? Number.parseInt(expires, 36) : 0;
}

/**
 * GET /sanctum/csrf-cookie without a stored session: an XSRF token bound to a random key cookie, nothing written to
 * the database. A pair still good for more than half its life is kept, so tabs that ask at once do not void each
 * other's token.
 */
export function issueAnonymousXsrf(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, now: Date) {
  const lifetime = minutes(app.config.SESSION_IDLE_MINUTES) * 4;
  const key = request.cookies[XSRF_KEY_COOKIE];
  const current = request.cookies[XSRF_COOKIE];
  if (key && current && anonymousXsrfExpiry(app.appKey, key, current) - now.getTime() > lifetime / 2) return;
  const fresh = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + lifetime);
  reply.setCookie(XSRF_KEY_COOKIE, fresh, cookieOptions(app, true, expiresAt));
  reply.setCookie(XSRF_COOKIE, anonymousXsrfToken(app.appKey, fresh, expiresAt), cookieOptions(app, false, expiresAt));
}

function clearSessionCookies(app: FastifyInstance, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(app, true));
  reply.clearCookie(XSRF_COOKIE, cookieOptions(app, false));
}

/**
 * Starts a new session (for `userId`, or anonymous) with fresh ids, replacing the request's current one. Used at
 * login, at two-factor completion and at password change, so an id seen before never carries more rights.
 */
export async function issueSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { userId: number | null; data?: SessionData; now: Date; expiresAt?: Date },
): Promise<LoadedSession> {
  const { db } = app.database;
  const token = randomBytes(32).toString('base64url');
  const csrf = randomBytes(32).toString('base64url');
  const lifetime =
    options.userId === null ? minutes(app.config.SESSION_IDLE_MINUTES) * 4 : hours(app.config.SESSION_ABSOLUTE_HOURS);
  const expiresAt = options.expiresAt ?? new Date(options.now.getTime() + lifetime);
  const [created] = await db.transaction(async (tx) => {
    if (request.session) await tx.delete(sessions).where(eq(sessions.idHash, request.session.idHash));
    return tx
      .insert(sessions)
      .values({
        idHash: sha256(token),
        userId: options.userId,
        csrfTokenHash: sha256(csrf),
        data: options.data ?? {},
        ip: request.ip,
        userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
        createdAt: options.now,
        lastSeenAt: options.now,
        expiresAt,
      })
      .returning();
  });
  app.accessCache.clear();
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(app, true, expiresAt));
  reply.setCookie(XSRF_COOKIE, csrf, cookieOptions(app, false, expiresAt));
  // The session's token takes over from an anonymous one.
  if (request.cookies[XSRF_KEY_COOKIE]) reply.clearCookie(XSRF_KEY_COOKIE, cookieOptions(app, true));
  request.session = { ...created!, data: created!.data ?? {} };
  return request.session;
}

/** Ends the request's session and clears both cookies. */
export async function endSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.session) await app.database.db.delete(sessions).where(eq(sessions.idHash, request.session.idHash));
  app.accessCache.clear();
  request.session = null;
  request.user = null;
  clearSessionCookies(app, reply);
}

export async function updateSessionData(
  app: FastifyInstance,
  request: FastifyRequest,
  data: SessionData,
): Promise<void> {
  if (!request.session) return;
  await app.database.db.update(sessions).set({ data }).where(eq(sessions.idHash, request.session.idHash));
  app.accessCache.clear();
  request.session.data = data;
}

/** The signed-in user, or 401. */
export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated);
  return request.user;
}

/** Removes sessions past their absolute or idle limit (run periodically; loading also refuses them). */
export async function deleteExpiredSessions(app: FastifyInstance, now: Date): Promise<number> {
  const idleCutoff = new Date(now.getTime() - minutes(app.config.SESSION_IDLE_MINUTES));
  const removed = await app.database.db
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, idleCutoff)))
    .returning({ idHash: sessions.idHash });
  return removed.length;
}

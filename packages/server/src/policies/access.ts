import { isAllowed, isPermissionSection, type PermissionApp, type PermissionSection } from '@portal/shared';
import { DEFAULT_RULES } from './permission-defaults.js';

/**
 * Who may call a route, declared in its `config.access` next to the handler that enforces it. The access matrix
 * (src/security/access-matrix.test.ts) enumerates every route of the server, calls it as each of these actors and
 * compares the answer with the declaration; a route without one fails that test.
 * - anonymous: no session;
 * - member: a simple member of the project with the least main role of each app (reader, viewer, viewer) and the
 *   standards role viewer;
 * - noRole: a simple member with no main role in any app;
 * - admin: the project's admin, with the top main role of each app;
 * - outsider: the admin of another project (every app, every top role);
 * - superadmin.
 */
export const ACTORS = ['anonymous', 'member', 'noRole', 'admin', 'outsider', 'superadmin'] as const;
export type Actor = (typeof ACTORS)[number];

/**
 * 'allow': passes the gate (the handler may still answer 400, 404 for a missing record, 409, 422…);
 * 'record': decided by the record itself (a standards element the member leads, the app a link points into): 403
 * for a record the actor may not touch, 404 for one that does not exist.
 */
export type Outcome = 'allow' | 'record' | 401 | 403 | 404;
export type AccessRule = Readonly<Record<Actor, Outcome>>;

/** A rule, or one per value of the route's path parameters where they choose the section (`/bulk/:action`). */
export type AccessDeclaration = AccessRule | ((params: Record<string, string>) => AccessRule);

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessDeclaration;
  }
}

/** The main role the matrix's simple member holds in each app. */
export const MEMBER_ROLES: Record<PermissionApp, string> = {
  policy_management: 'reader',
  monitoring: 'viewer',
  chart_review: 'viewer',
};
export const MEMBER_STANDARDS_ROLE = 'viewer';

const rule = (outcome: Partial<AccessRule> & Pick<AccessRule, 'anonymous'>): AccessRule => ({
  member: 'allow',
  noRole: 'allow',
  admin: 'allow',
  outsider: 'allow',
  superadmin: 'allow',
  ...outcome,
});

export const access = {
  /** Anyone, signed in or not (sign-in, health, the published terms). */
  public: rule({ anonymous: 'allow' }),
  /** Any signed-in user (their own account, sessions, two-factor). */
  signedIn: rule({ anonymous: 401 }),
  /** The superadmin console and the `/super/...` calls. */
  superadmin: rule({ anonymous: 401, member: 403, noRole: 403, admin: 403, outsider: 403 }),
  /** A project's members (and superadmins); anyone else is told the project does not exist. */
  project: (members: { member?: Outcome; noRole?: Outcome } = {}): AccessRule =>
    rule({ anonymous: 401, outsider: 404, ...members }),
  /** Project administration (SPEC "check-admin"). */
  projectAdmin: rule({ anonymous: 401, outsider: 404, member: 403, noRole: 403 }),
  /**
   * A section of an app guarded by main roles and the permission matrix (policies/app-access.ts): members without
   * a main role get 403; the simple member gets what the default rules give its least role. A name that is no
   * section of the app does not compile, and throws when the route is declared (a path cast past the type).
   */
  section: <A extends PermissionApp>(
    app: A,
    section: NoInfer<PermissionSection<A>>,
    override: { member?: Outcome } = {},
  ): AccessRule => {
    if (!isPermissionSection(app, section)) throw new Error(`"${section}" is not a section of ${app}.`);
    return rule({
      anonymous: 401,
      outsider: 404,
      noRole: 403,
      member: isAllowed(DEFAULT_RULES[app], section, MEMBER_ROLES[app]) ? 'allow' : 403,
      ...override,
    });
  },
  /**
   * Authenticated by a bearer token in the handler, never by a session (SCIM provisioning, /scim/v2): every actor of
   * the matrix, the superadmin too, is refused with 401. Such routes also set `config.bearerToken` (plugins/session.ts:
   * no session is read, no CSRF token asked).
   */
  bearerToken: rule({ anonymous: 401, member: 401, noRole: 401, admin: 401, outsider: 401, superadmin: 401 }),
  /** Standards (policies/standards.ts): a standards role is needed; `member` says what the viewer may do. */
  standards: (member: Outcome, noRole: Outcome = 403): AccessRule =>
    rule({ anonymous: 401, outsider: 404, noRole, member }),
  /** A standards call that changes what every project reads (loading a regulation's edition): superadmins only. */
  standardsForEveryProject: rule({ anonymous: 401, outsider: 404, noRole: 403, member: 403, admin: 403 }),
};

import {
  type AuditAction,
  INT4_MAX,
  passwordConfirmSchema,
  superUserCreateSchema,
  superUserDetailSchema,
  superUserListQuerySchema,
  superUserListSchema,
  superUserMembershipsSchema,
  superUserUpdateSchema,
  USER_ACTIONS,
  type UserAction,
} from '@portal/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { sessions, users } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { AppError, notFound } from '../../lib/errors.js';
import { requireRecentPassword } from '../../plugins/password-confirmation.js';
import type { SessionUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { guardSuperadminRoutes, superadminOf } from '../../policies/superadmin.js';
import { clearFailedAttempts } from '../auth/login-attempts.repository.js';
import { actorOf } from '../members/members.service.js';
import { queueNotices } from '../notifications/notices.js';
import { signalSessionsEnded } from '../notifications/notifications.service.js';
import { invitationMail, issuePasswordLink, passwordResetMail } from './invitations.js';
import {
  assertBreakGlassRemains,
  assertUnique,
  listUsers,
  loadUserDetail,
  replaceMemberships,
} from './super-users.service.js';

const errors = errorAnswers(400, 401, 403, 404, 409);

/** The audit action of each POST /super/users/{id}/{action}. */
const USER_ACTION_AUDIT = {
  disable: 'user.disable',
  enable: 'user.enable',
  'reset-two-factor': 'user.reset_two_factor',
  'send-password-reset': 'user.send_password_reset',
  unlock: 'user.unlock',
  'resend-invitation': 'user.resend_invitation',
} as const satisfies Record<UserAction, AuditAction>;

/** `{ project_<id>: project role }` of a list of memberships, for the audit's changes. */
const projectRoles = (memberships: { project_id: number; project_role: string }[]) =>
  Object.fromEntries(memberships.map((m) => [`project_${m.project_id}`, m.project_role]));

const userParams = z.object({
  userId: z
    .string()
    .regex(/^\d{1,10}$/, 'The user id is 1 to 10 digits.')
    .transform(Number),
});

const ownAccount = (what: string) =>
  new AppError('CONFLICT', `You cannot ${what} your own account. Ask another superadmin.`);

/** Superadmin: every account (docs/administration.md). Each change is audited in its own transaction. */
export const superUserRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  guardSuperadminRoutes(app);
  const superadmin = superadminOf;
  const detail = (userId: number) => loadUserDetail(db, userId, app.clock.now());

  async function lockUser(tx: DbOrTx, userId: number) {
    if (userId > INT4_MAX) throw notFound('User not found.');
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw notFound('User not found.');
    return user;
  }

  app.get(
    '/super/users',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Every account, searched, filtered and paged',
        querystring: superUserListQuerySchema,
        response: { 200: superUserListSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      return listUsers(db, request.query, app.clock.now());
    },
  );

  app.post(
    '/super/users',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Create an account and email an invitation with a set-password link',
        body: superUserCreateSchema,
        response: { 201: superUserDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = superadmin(request);
      const body = request.body;
      const now = app.clock.now();
      const user = await db.transaction(async (tx) => {
        await assertUnique(tx, { email: body.email, username: body.username });
        const [created] = await tx
          .insert(users)
          .values({
            email: body.email,
            username: body.username,
            firstName: body.first_name,
            lastName: body.last_name,
            role: body.role,
            status: 'invited',
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        // A new account holds no department roles yet: nothing to prune, no notices.
        await replaceMemberships(tx, created!.id, body.memberships, actorOf(request, actor.id), now);
        const link = await issuePasswordLink(tx, {
          userId: created!.id,
          email: created!.email,
          purpose: 'invitation',
          now,
          appUrl: app.config.APP_URL,
        });
        await recordAudit(tx, {
          action: 'user.create',
          actorUserId: actor.id,
          subjectType: 'user',
          subjectId: created!.id,
          data: { email: body.email, username: body.username, role: body.role, memberships: body.memberships },
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
        await app.mailer.queue(tx, { ...invitationMail(created!, link), at: now });
        return created!;
      });
      return reply.status(201).send(await detail(user.id));
    },
  );

  app.get(
    '/super/users/:userId',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'One account with its memberships',
        params: userParams,
        response: { 200: superUserDetailSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      if (request.params.userId > INT4_MAX) throw notFound('User not found.');
      return detail(request.params.userId);
    },
  );

  app.patch(
    '/super/users/:userId',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Edit the profile and global role of an account',
        params: userParams,
        body: superUserUpdateSchema,
        response: { 200: superUserDetailSchema, ...errors },
      },
    },
    async (request) => {
      const actor = superadmin(request);
      const { userId } = request.params;
      const body = request.body;
      const now = app.clock.now();
      await db.transaction(async (tx) => {
        const before = await lockUser(tx, userId);
        if (userId === actor.id && body.role && body.role !== 'superadmin') throw ownAccount('demote');
        if (body.role && body.role !== 'superadmin') await assertBreakGlassRemains(tx, before);
        await assertUnique(tx, { email: body.email, username: body.username }, userId);
        await tx
          .update(users)
          .set({
            email: body.email,
            username: body.username,
            firstName: body.first_name,
            lastName: body.last_name,
            role: body.role,
            updatedAt: now,
          })
          .where(eq(users.id, userId));
        // A change of privilege starts over: the account signs in again with its new role.
        const roleChanged = body.role !== undefined && body.role !== before.role;
        if (roleChanged) await tx.delete(sessions).where(eq(sessions.userId, userId));
        await recordAudit(tx, {
          action: roleChanged ? 'user.role_change' : 'user.update',
          actorUserId: actor.id,
          subjectType: 'user',
          subjectId: userId,
          data: {
            changes: changes(
              {
                email: before.email,
                username: before.username,
                first_name: before.firstName,
                last_name: before.lastName,
                role: before.role,
              },
              body,
            ),
          },
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
      });
      return detail(userId);
    },
  );

  app.put(
    '/super/users/:userId/memberships',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: "Set an account's project memberships (the complete list)",
        params: userParams,
        body: superUserMembershipsSchema,
        response: { 200: superUserDetailSchema, ...errors },
      },
    },
    async (request) => {
      const actor = superadmin(request);
      const { userId } = request.params;
      const now = app.clock.now();
      await db.transaction(async (tx) => {
        await lockUser(tx, userId);
        const { before, notices } = await replaceMemberships(
          tx,
          userId,
          request.body.memberships,
          actorOf(request, actor.id),
          now,
        );
        await recordAudit(tx, {
          action: 'user.memberships_update',
          actorUserId: actor.id,
          subjectType: 'user',
          subjectId: userId,
          data: {
            before,
            after: request.body.memberships,
            // The project role in each project, `project_<id>`: null where the account was or is no member.
            changes: changes(projectRoles(before), projectRoles(request.body.memberships), {
              fields: [...new Set([...before, ...request.body.memberships].map((m) => `project_${m.project_id}`))],
            }),
          },
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
        for (const project of notices) await queueNotices(tx, app.mailer, project.projectId, project.notices, now);
      });
      return detail(userId);
    },
  );

  const actions: Record<
    UserAction,
    (
      tx: DbOrTx,
      user: typeof users.$inferSelect,
      actor: SessionUser,
      now: Date,
    ) => Promise<{ mail?: ReturnType<typeof invitationMail>; data?: Record<string, unknown> }>
  > = {
    async disable(tx, user, actor, now) {
      if (user.id === actor.id) throw ownAccount('disable');
      if (user.status === 'disabled') throw new AppError('CONFLICT', 'This account is already disabled.');
      await assertBreakGlassRemains(tx, user);
      await tx.update(users).set({ status: 'disabled', updatedAt: now }).where(eq(users.id, user.id));
      // Every session ends at once: the next request of any of its browsers is signed out.
      const ended = await tx.delete(sessions).where(eq(sessions.userId, user.id)).returning({ id: sessions.idHash });
      // Their open notification streams end now too (on every server instance), not at their next heartbeat.
      await signalSessionsEnded(tx, user.id);
      return {
        data: {
          sessions_ended: ended.length,
          previous_status: user.status,
          changes: changes({ status: user.status }, { status: 'disabled' }),
        },
      };
    },
    async enable(tx, user, _actor, now) {
      if (user.status !== 'disabled') throw new AppError('CONFLICT', 'This account is not disabled.');
      const status = user.passwordHash ? 'active' : 'invited';
      await tx.update(users).set({ status, updatedAt: now }).where(eq(users.id, user.id));
      return { data: { status, changes: changes({ status: user.status }, { status }) } };
    },
    async 'reset-two-factor'(tx, user, _actor, now) {
      if (!user.twoFactorSecret && !user.twoFactorConfirmedAt)
        throw new AppError('CONFLICT', 'This account has no two-factor authentication to reset.');
      await tx
        .update(users)
        .set({
          twoFactorSecret: null,
          twoFactorConfirmedAt: null,
          twoFactorRecoveryCodes: null,
          twoFactorLastStep: null,
          updatedAt: now,
        })
        .where(eq(users.id, user.id));
      await tx.delete(sessions).where(eq(sessions.userId, user.id));
      return {
        // The secret is named, never valued.
        data: {
          changes: changes(
            { two_factor_secret: user.twoFactorSecret, two_factor_confirmed_at: user.twoFactorConfirmedAt },
            { two_factor_secret: null, two_factor_confirmed_at: null },
          ),
        },
        mail: {
          to: user.email,
          subject: 'Your two-factor authentication was reset',
          template: 'two_factor_reset',
          text: `Hello ${user.firstName || user.username},\n\nAn administrator reset the two-factor authentication of your Healthcare Quality Portal account. At your next sign-in you will be asked to set it up again.\n\nIf you did not ask for this, contact your administrator at once.\n`,
        },
      };
    },
    async 'send-password-reset'(tx, user, _actor, now) {
      if (user.status !== 'active') throw new AppError('CONFLICT', 'Only an active account can reset its password.');
      const link = await issuePasswordLink(tx, {
        userId: user.id,
        email: user.email,
        purpose: 'reset',
        now,
        appUrl: app.config.APP_URL,
      });
      return { mail: passwordResetMail(user, link) };
    },
    async unlock(tx, user) {
      // The lockout is read from the failed attempts (modules/auth/login-attempts.repository.ts); the audit event
      // keeps the trace.
      return { data: { failed_attempts_cleared: await clearFailedAttempts(tx, user.id) } };
    },
    async 'resend-invitation'(tx, user, _actor, now) {
      if (user.status !== 'invited') throw new AppError('CONFLICT', 'This account has already set its password.');
      const link = await issuePasswordLink(tx, {
        userId: user.id,
        email: user.email,
        purpose: 'invitation',
        now,
        appUrl: app.config.APP_URL,
      });
      return { mail: invitationMail(user, link) };
    },
  };

  app.post(
    '/super/users/:userId/:action',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'disable, enable, reset-two-factor, send-password-reset, unlock or resend-invitation',
        params: userParams.extend({ action: z.enum(USER_ACTIONS) }),
        // reset-two-factor only: the acting superadmin's password when their last sign-in or confirmation is over
        // 10 minutes old (423 otherwise). Most calls send no body at all.
        body: passwordConfirmSchema.nullish(),
        response: { 200: superUserDetailSchema, ...errors, ...errorAnswers(422, 423) },
      },
    },
    async (request) => {
      const actor = superadmin(request);
      const { userId, action } = request.params;
      // Removing someone's second factor is as sensitive as removing one's own: a stolen superadmin session alone
      // must not strip it.
      if (action === 'reset-two-factor') await requireRecentPassword(app, request, request.body?.password);
      const now = app.clock.now();
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, userId);
        const result = await actions[action](tx, user, actor, now);
        await recordAudit(tx, {
          action: USER_ACTION_AUDIT[action],
          actorUserId: actor.id,
          subjectType: 'user',
          subjectId: userId,
          data: result.data ?? {},
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
        if (result.mail) await app.mailer.queue(tx, { ...result.mail, at: now });
      });
      return detail(userId);
    },
  );
};

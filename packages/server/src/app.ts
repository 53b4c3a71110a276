import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import { loadPasswordDictionaries, validationMessage } from '@portal/shared';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import pino from 'pino';
import { z } from 'zod';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { type Clock, systemClock } from './lib/clock.js';
import { createMailer, type Mailer } from './lib/mailer.js';
import { accountRoutes } from './modules/account/account.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { type Captcha, createCaptcha } from './modules/auth/captcha.js';
import { chartReviewDashboardRoutes } from './modules/chart-review/dashboard.routes.js';
import { chartReviewFindingRoutes } from './modules/chart-review/findings.routes.js';
import { chartReviewIrrRoutes } from './modules/chart-review/irr.routes.js';
import { chartReviewPeopleRoutes } from './modules/chart-review/people.routes.js';
import { chartReviewProgramRoutes } from './modules/chart-review/programs.routes.js';
import { chartReviewReviewRoutes } from './modules/chart-review/reviews.routes.js';
import { chartReviewSamplingRoutes } from './modules/chart-review/sampling.routes.js';
import { chartReviewSettingsRoutes } from './modules/chart-review/settings.routes.js';
import { chartReviewToolRoutes } from './modules/chart-review/tools.routes.js';
import { contactRoutes } from './modules/contact/contact.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { groupMappingRoutes } from './modules/identity/group-mappings.routes.js';
import { identityProviderRoutes, publicIdentityProviderRoutes } from './modules/identity/providers.routes.js';
import { scimRoutes, scimTokenRoutes } from './modules/identity/scim.routes.js';
import { ssoRoutes } from './modules/identity/sso.routes.js';
import { monitoringChartRoutes } from './modules/monitoring/charts.routes.js';
import { monitoringDatasetRoutes } from './modules/monitoring/datasets.routes.js';
import { monitoringInsightRoutes } from './modules/monitoring/insights.routes.js';
import { monitoringMeasureRoutes } from './modules/monitoring/measures.routes.js';
import { monitoringPageRoutes } from './modules/monitoring/pages.routes.js';
import { monitoringPeopleRoutes } from './modules/monitoring/people.routes.js';
import { monitoringRequestRoutes } from './modules/monitoring/requests.routes.js';
import { monitoringStructureRoutes } from './modules/monitoring/structure.routes.js';
import { notificationRoutes } from './modules/notifications/notifications.routes.js';
import { passwordResetRoutes } from './modules/password-reset/password-reset.routes.js';
import { MONITORING_PEOPLE, POLICY_PEOPLE } from './modules/people/apps.js';
import { peopleRoutes } from './modules/people/people.routes.js';
import { permissionRoutes } from './modules/permissions/permissions.routes.js';
import { departmentRoleRoutes } from './modules/policies/department-roles.routes.js';
import { fileTextRoutes } from './modules/policies/file-text.routes.js';
import { guestReadingRoutes } from './modules/policies/guest-reading.routes.js';
import { policyRoutes } from './modules/policies/policies.routes.js';
import { policyLinkRoutes } from './modules/policies/policy-links.routes.js';
import { policyPdfRoutes } from './modules/policies/policy-pdf.routes.js';
import { searchSynonymRoutes } from './modules/policies/synonyms.routes.js';
import { workflowRoutes } from './modules/policies/workflow.routes.js';
import { policyGeneratorRoutes } from './modules/policy-generator/policy-generator.routes.js';
import { projectAdminRoutes } from './modules/project-admin/project-admin.routes.js';
import { projectRoutes } from './modules/projects/projects.routes.js';
import { standardsBinderRoutes } from './modules/standards/binder.routes.js';
import { standardsCrosswalkRoutes } from './modules/standards/crosswalk.routes.js';
import { standardsEvidenceRoutes } from './modules/standards/evidence.routes.js';
import { standardsFindingRoutes } from './modules/standards/findings.routes.js';
import { standardsRoutes } from './modules/standards/standards.routes.js';
import { auditLogRoutes } from './modules/superadmin/audit-log.routes.js';
import { superDashboardRoutes } from './modules/superadmin/dashboard.routes.js';
import { emailLogRoutes } from './modules/superadmin/email-logs.routes.js';
import { permissionMatrixRoutes } from './modules/superadmin/permission-matrix.routes.js';
import { superProjectRoutes } from './modules/superadmin/super-projects.routes.js';
import { superTermsRoutes } from './modules/superadmin/super-terms.routes.js';
import { superUserRoutes } from './modules/superadmin/super-users.routes.js';
import { userImportRoutes } from './modules/superadmin/user-import.routes.js';
import { userRequestRoutes } from './modules/superadmin/user-requests.routes.js';
import { termsRoutes } from './modules/terms/terms.routes.js';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes.js';
import { registerNoStoreByDefault } from './plugins/cache-control.js';
import { registerAnswerCompression } from './plugins/compression.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerJsonBodyParser, registerNulGuard } from './plugins/input-guards.js';
import { registerKeptAnswers } from './plugins/kept-answers.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerSessions } from './plugins/session.js';
import { registerTwoFactorPolicy } from './plugins/two-factor-policy.js';
import { registerWeb } from './plugins/web.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    clock: Clock;
    /** 32-byte key for secrets at rest (two-factor secrets) and captcha signatures. */
    appKey: Buffer;
    captcha: Captcha;
    mailer: Mailer;
    /** Set when shutdown starts: /readyz answers 503 so a load balancer stops sending traffic. */
    shuttingDown: boolean;
    /** Every route as registered, with its declared access (src/security/access-matrix.test.ts reads it). */
    routeTable: RouteOptions[];
  }
}

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  /** A pino logger; tests pass none (silent). */
  logger?: pino.Logger;
  appKey: Buffer;
  /** Tests pass a clock they can move. */
  clock?: Clock;
  mailer?: Mailer;
}

export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** A hop count trusts that many proxies in front of the server (what proxy-addr does for a number). */
function trustProxySetting(value: Config['TRUST_PROXY']) {
  return typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;
}

export async function buildApp({
  config,
  database,
  logger,
  appKey,
  clock = systemClock,
  mailer,
}: BuildAppOptions): Promise<FastifyInstance> {
  // Password checks include the common-word rule only once the dictionaries are in memory (about 0.3 s, once).
  await loadPasswordDictionaries();
  // Validation messages in the portal's words wherever a schema gives none of its own (issue 32).
  z.config({ customError: validationMessage });
  const app = Fastify({
    loggerInstance: (logger ?? pino({ level: 'silent' })) as FastifyBaseLogger,
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    genReqId: () => randomUUID(),
    bodyLimit: 1_048_576,
    return503OnClosing: true,
    // One line per request, written when it is answered (below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('shuttingDown', false);
  app.decorate('routeTable', [] as RouteOptions[]);
  app.addHook('onRoute', (route) => {
    app.routeTable.push(route as RouteOptions);
  });
  app.decorate('clock', clock);
  app.decorate('appKey', appKey);
  app.decorate(
    'captcha',
    createCaptcha({ provider: config.CAPTCHA_PROVIDER, cost: config.CAPTCHA_COST, appKey, db: database.db }),
  );
  app.decorate(
    'mailer',
    mailer ??
      createMailer({
        db: database.db,
        clock,
        appKey,
        from: config.MAIL_FROM,
        ...(config.SMTP_URL ? { smtpUrl: config.SMTP_URL } : {}),
        log: (m) => app.log.info(m),
      }),
  );
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { req: request, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
      'request answered',
    );
  });
  // While shutting down, a finished response closes its keep-alive connection, so the drain ends with the last request.
  app.addHook('onSend', async (_request, reply) => {
    if (app.shuttingDown) reply.header('connection', 'close');
  });

  registerErrorHandler(app);
  registerNoStoreByDefault(app);
  registerKeptAnswers(app);
  registerAnswerCompression(app);
  registerJsonBodyParser(app);
  registerNulGuard(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        // Mantine and sonner set inline styles.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'self'"],
        'upgrade-insecure-requests': config.APP_URL.startsWith('https://') ? [] : null,
      },
    },
    strictTransportSecurity: config.APP_URL.startsWith('https://'),
  });
  await app.register(cookie);
  await registerOpenApi(app);
  registerSessions(app, clock);
  registerTwoFactorPolicy(app);

  await app.register(healthRoutes);
  await app.register(termsRoutes);
  await app.register(authRoutes);
  await app.register(publicIdentityProviderRoutes);
  await app.register(ssoRoutes);
  await app.register(scimRoutes);
  await app.register(twoFactorRoutes);
  await app.register(passwordResetRoutes);
  await app.register(projectRoutes);
  await app.register(permissionRoutes);
  await app.register(policyRoutes);
  await app.register(fileTextRoutes);
  await app.register(policyLinkRoutes);
  await app.register(policyPdfRoutes);
  await app.register(peopleRoutes(POLICY_PEOPLE));
  await app.register(departmentRoleRoutes);
  await app.register(guestReadingRoutes);
  await app.register(searchSynonymRoutes);
  await app.register(monitoringPageRoutes);
  await app.register(monitoringStructureRoutes);
  await app.register(peopleRoutes(MONITORING_PEOPLE));
  await app.register(monitoringPeopleRoutes);
  await app.register(monitoringInsightRoutes);
  await app.register(monitoringRequestRoutes);
  await app.register(monitoringDatasetRoutes);
  await app.register(monitoringMeasureRoutes);
  await app.register(monitoringChartRoutes);
  await app.register(chartReviewSettingsRoutes);
  await app.register(chartReviewPeopleRoutes);
  await app.register(chartReviewToolRoutes);
  await app.register(chartReviewProgramRoutes);
  await app.register(chartReviewSamplingRoutes);
  await app.register(chartReviewReviewRoutes);
  await app.register(chartReviewIrrRoutes);
  await app.register(chartReviewFindingRoutes);
  await app.register(chartReviewDashboardRoutes);
  await app.register(standardsRoutes);
  await app.register(standardsFindingRoutes);
  await app.register(standardsEvidenceRoutes);
  await app.register(standardsCrosswalkRoutes);
  await app.register(standardsBinderRoutes);
  await app.register(workflowRoutes);
  await app.register(policyGeneratorRoutes);
  await app.register(notificationRoutes);
  await app.register(accountRoutes);
  await app.register(contactRoutes);
  await app.register(projectAdminRoutes);
  await app.register(superDashboardRoutes);
  await app.register(superProjectRoutes);
  await app.register(superUserRoutes);
  await app.register(userImportRoutes);
  await app.register(identityProviderRoutes);
  await app.register(scimTokenRoutes);
  await app.register(groupMappingRoutes);
  await app.register(userRequestRoutes);
  await app.register(superTermsRoutes);
  await app.register(emailLogRoutes);
  await app.register(permissionMatrixRoutes);
  await app.register(auditLogRoutes);

  await registerWeb(app, config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST);
  return app;
}

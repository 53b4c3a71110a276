import { isAllowed, MAIN_ROLES, PERMISSION_APPS, PERMISSION_SECTIONS, type PermissionSection } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { access, MEMBER_ROLES } from './access.js';
import { appAccess } from './app-access.js';
import { type ChartReviewActor, mayUse } from './chart-review.js';
import { canUse, type MonitoringActor } from './monitoring.js';
import { DEFAULT_RULES } from './permission-defaults.js';
import { can, type PolicyActor } from './policy-management.js';

/**
 * A section without a rule is denied (issue 26), so every section the routes and the web guards name must have a
 * default rule. The names are PermissionSection types (a name outside them does not compile); this proves the data
 * behind the types: each section of the union has its default, and nothing else does.
 */
describe('default permission rules', () => {
  const sections = PERMISSION_APPS.flatMap((app) =>
    PERMISSION_SECTIONS[app].map((section: PermissionSection) => [app, section] as const),
  );

  it.each(sections)('%s: %s has a default rule for some main roles of the app', (app, section) => {
    const rules = DEFAULT_RULES[app].filter((rule) => rule.path === section);
    expect(rules).toHaveLength(1);
    const roles = rules[0]!.allowed_roles;
    expect(roles.length).toBeGreaterThan(0);
    expect(roles.every((role) => (MAIN_ROLES[app] as readonly string[]).includes(role))).toBe(true);
    // The app's administrator may use every section.
    expect(isAllowed(DEFAULT_RULES[app], section, MAIN_ROLES[app][0])).toBe(true);
  });

  it.each(PERMISSION_APPS)('%s: the defaults are exactly the sections, in their order', (app) => {
    expect(DEFAULT_RULES[app].map((rule) => rule.path)).toEqual([...PERMISSION_SECTIONS[app]]);
  });

  it('keeps the roles of the defaults documented in docs/permissions.md', () => {
    const roles = (app: (typeof PERMISSION_APPS)[number], path: string) =>
      DEFAULT_RULES[app].find((rule) => rule.path === path)?.allowed_roles;
    expect(roles('monitoring', 'request-queue')).toEqual(['monitoring_admin', 'data_entry']);
    expect(roles('policy_management', 'attestation-reports')).toEqual(['policy_admin', 'signer']);
    expect(roles('policy_management', 'generator-templates')).toEqual(['policy_admin']);
    expect(roles('chart_review', 'my')).toEqual(['chart_review_admin', 'program_lead', 'reviewer']);
    expect(roles('chart_review', 'settings')).toEqual(['chart_review_admin']);
  });
});

describe('access.section declarations', () => {
  it.each(PERMISSION_APPS)('%s: the simple member gets what the default rule gives its least role', (app) => {
    for (const section of PERMISSION_SECTIONS[app] as readonly PermissionSection[]) {
      const allowed = isAllowed(DEFAULT_RULES[app], section, MEMBER_ROLES[app]);
      expect(access.section(app, section).member, section).toBe(allowed ? 'allow' : 403);
    }
  });

  it('refuses a name that is no section of the app', () => {
    // @ts-expect-error: 'toc' is a policy management section, not a monitoring one.
    expect(() => access.section('monitoring', 'toc')).toThrow('"toc" is not a section of monitoring.');
    // @ts-expect-error: no app has this section.
    expect(() => access.section('chart_review', 'no-such-section')).toThrow(/not a section of chart_review/);
  });
});

describe('section names are checked by the compiler', () => {
  it("takes only the app's own sections (tsc fails on an unused @ts-expect-error)", () => {
    // Never called: the lines only have to compile, or fail to where marked.
    const typeChecks = (policy: PolicyActor, monitoring: MonitoringActor, chartReview: ChartReviewActor) => {
      can(policy, 'edit-documents');
      // @ts-expect-error: a monitoring section.
      can(policy, 'csv-import');
      canUse(monitoring, 'csv-import');
      // @ts-expect-error: a policy management section.
      canUse(monitoring, 'toc');
      mayUse(chartReview, 'settings');
      // @ts-expect-error: no section at all.
      mayUse(chartReview, 'setting');
      const gate = (section: 'toc') =>
        // @ts-expect-error: 'toc' is no chart review section.
        appAccess(null as never, 'chart_review', null as never, null as never, 1, section);
      return gate;
    };
    expect(typeChecks).toBeTypeOf('function');
  });
});

import { randomBytes } from 'node:crypto';
import { questionCompliance } from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.js';
import { createProject } from '../../test/factories.js';
import {
  crActionPlans,
  crAssignments,
  crCaseResults,
  crCases,
  crFindings,
  crIrrPairs,
  monInsights,
  monPages,
  pgFacilityProfiles,
  policySignatures,
  policyWorkflowRequests,
  projectMemberRoles,
  projectMemberships,
  projects,
  stdAssessments,
  stdEvidence,
  stdFindings,
  stdMembers,
  stdReqAssessments,
  traceLinks,
  users,
} from '../db/schema/index.js';
import { decrypt } from '../lib/crypto.js';
import { verifyPassword } from '../lib/passwords.js';
import { listPrograms } from '../modules/chart-review/programs.service.js';
import { getVersion, listTools, questionErrors } from '../modules/chart-review/tools.service.js';
import { loadPageAccess } from '../modules/monitoring/page-access.js';
import { myTasks } from '../modules/policies/tasks.service.js';
import { getPublicTerms } from '../modules/terms/terms.service.js';
import type { MonitoringActor } from '../policies/monitoring.js';
import { countDemoAccounts, DEMO_PASSWORD, isEmptyDatabase, seedDemoData } from './demo.js';

describe('demo data', () => {
  const db = useTestDatabase();

  it('creates Demo Facility as project 1, the demo accounts and published terms', async () => {
    const { db: database } = db.handle;
    expect(await isEmptyDatabase(database)).toBe(true);
    const appKey = randomBytes(32);
    await seedDemoData(database, appKey);
    expect(await isEmptyDatabase(database)).toBe(false);

    const [project] = await database.select().from(projects).where(eq(projects.id, 1));
    expect(project).toMatchObject({ name: 'Demo Facility', isActive: true });

    const accounts = await database.select().from(users).orderBy(users.id);
    expect(accounts.map((u) => [u.email, u.username, u.role])).toEqual([
      ['superadmin@example.com', 'superadmin', 'superadmin'],
      ['admin@example.com', 'admin', 'user'],
      ['member@example.com', 'member', 'user'],
      ['simple@example.com', 'simple', 'user'],
      ['reviewer@example.com', 'reviewer', 'user'],
      ['reader@example.com', 'reader', 'user'],
    ]);
    expect(await verifyPassword(accounts[0]!.passwordHash!, DEMO_PASSWORD)).toBe(true);
    expect(await verifyPassword(accounts[0]!.passwordHash!, 'wrong password')).toBe(false);
    expect(await countDemoAccounts(database)).toBe(6);

    const memberships = await database.select().from(projectMemberships).where(eq(projectMemberships.projectId, 1));
    const roleOf = (email: string) =>
      memberships.find((m) => m.userId === accounts.find((u) => u.email === email)!.id)?.projectRole;
    expect(roleOf('admin@example.com')).toBe('admin');
    expect(roleOf('member@example.com')).toBe('simple');
    expect(roleOf('simple@example.com')).toBe('simple');
    expect(roleOf('superadmin@example.com')).toBeUndefined();

    const mainRoles = await database.select().from(projectMemberRoles).where(eq(projectMemberRoles.projectId, 1));
    const rolesOf = (email: string) =>
      Object.fromEntries(
        mainRoles
          .filter((r) => r.userId === accounts.find((u) => u.email === email)!.id)
          .map((r) => [r.app, r.mainRole]),
      );
    expect(rolesOf('member@example.com')).toEqual({
      policy_management: 'signer',
      monitoring: 'page_owner',
      chart_review: 'program_lead',
    });
    expect(rolesOf('admin@example.com')).toEqual({
      policy_management: 'policy_admin',
      monitoring: 'monitoring_admin',
      chart_review: 'chart_review_admin',
    });
    expect(rolesOf('simple@example.com')).toEqual({});
    expect(rolesOf('reviewer@example.com')).toEqual({
      policy_management: 'reviewer',
      monitoring: 'data_entry',
      chart_review: 'reviewer',
    });
    expect(rolesOf('reader@example.com')).toEqual({
      policy_management: 'reader',
      monitoring: 'viewer',
      chart_review: 'viewer',
    });

    // Policy work waits for each demo account (issue 7).
    const id = (email: string) => accounts.find((u) => u.email === email)!.id;
    const pending = await database
      .select()
      .from(policyWorkflowRequests)
      .where(eq(policyWorkflowRequests.status, 'pending'))
      .orderBy(policyWorkflowRequests.id);
    expect(pending.map((r) => [r.kind, r.userId])).toEqual([
      ['review', id('reviewer@example.com')],
      ['signature', id('member@example.com')],
    ]);
    const signatures = await database.select().from(policySignatures);
    expect(signatures.length).toBeGreaterThan(10);
    const actor = (email: string) => ({
      userId: id(email),
      projectId: 1,
      isSuperadmin: false,
      role: 'reader',
      rules: [],
      ip: '',
      requestId: '',
    });
    expect((await myTasks(database, actor('reader@example.com'), new Date())).to_read.length).toBeGreaterThan(5);
    expect((await myTasks(database, actor('admin@example.com'), new Date())).reviews_due).toHaveLength(2);

    // The monitoring programme (issue 8): a numbered tree whose restricted page the viewer never sees.
    const pages = await database.select().from(monPages).where(eq(monPages.projectId, 1));
    const numbered = Object.fromEntries(pages.map((page) => [page.title, page.number]));
    expect(numbered).toMatchObject({
      'Patient Safety': '1',
      'Falls prevention': '1.1',
      'Falls with injury': '1.1.1',
      'Peer review outcomes': '1.3',
      'Infection Prevention': '2',
      CLABSI: '2.1',
      'Medication Safety': '3',
    });
    const monitoringActor = (email: string, role: string): MonitoringActor => ({
      ...actor(email),
      role,
      rules: [],
      ip: null,
      requestId: null,
    });
    const restricted = pages.find((page) => page.title === 'Peer review outcomes')!.id;
    expect((await loadPageAccess(database, monitoringActor('reader@example.com', 'viewer'))).get(restricted)).toBe(
      'none',
    );
    expect((await loadPageAccess(database, monitoringActor('member@example.com', 'page_owner'))).get(restricted)).toBe(
      'view',
    );
    expect(await database.select().from(monInsights)).toHaveLength(3);

    // Chart review (issue 10): a published tool whose questions pass the server's own checks, used by a programme
    // the programme lead owns.
    const chartReviewActor = { ...actor('admin@example.com'), role: 'chart_review_admin', ip: null, requestId: null };
    const tools = await listTools(database, chartReviewActor);
    expect(tools.tools.map((t) => [t.name, t.published?.version, t.published?.question_count])).toEqual([
      ['Pain reassessment documentation', 1, 5],
    ]);
    const version = await getVersion(database, chartReviewActor, tools.tools[0]!.published!.id);
    expect(questionErrors(version.questions, { partialEnabled: false })).toEqual({});
    const programs = await listPrograms(database, chartReviewActor);
    expect(programs.programs.map((p) => [p.name, p.owner?.id, p.version_in_use?.version])).toEqual([
      ['Pain reassessment documentation', id('member@example.com'), 1],
    ]);

    // Three past months reviewed and scored (reassessment climbing), the current month waiting for the reviewer, one
    // adjudicated second review, one finding with its action plan; references encrypted with the app key.
    const results = await database.select().from(crCaseResults).where(eq(crCaseResults.projectId, 1));
    const periods = [...new Set(results.map((r) => r.periodStart))].sort();
    expect(periods).toHaveLength(3);
    const reassessed = periods.map(
      (period) =>
        questionCompliance(
          results
            .filter((r) => r.periodStart === period && r.counts)
            .map((r) => (r.answers as Record<string, 'yes' | 'no' | 'na'>).reassessed_in_time ?? null),
          { partialEnabled: false },
        ).rate!,
    );
    expect(reassessed).toEqual([5 / 8, 8 / 9, 1]);
    for (const period of periods) expect(results.filter((r) => r.periodStart === period)).toHaveLength(10);
    const waiting = await database
      .select()
      .from(crAssignments)
      .where(and(eq(crAssignments.reviewerId, id('reviewer@example.com')), eq(crAssignments.status, 'assigned')));
    expect(waiting.length).toBeGreaterThan(3);
    expect((await database.select().from(crIrrPairs)).map((p) => p.status).sort()).toEqual([
      'adjudicated',
      'agreed',
      'agreed',
    ]);
    const [finding] = await database.select().from(crFindings);
    expect(finding).toMatchObject({ status: 'action_plan', questionKey: 'reassessed_in_time', target: 0.9 });
    expect((await database.select().from(crActionPlans))[0]!.actions).toHaveLength(3);
    const [someCase] = await database.select().from(crCases).limit(1);
    expect(decrypt(someCase!.encounterRefEnc!, appKey)).toMatch(/^ENC-\d{6}-\d{4}$/);

    // Standards (issue 11): the CMS Conditions of Participation assessed in part, with roles, a gap, links to the
    // demo policies, measures and audit, all resolving to live rows of the demo project.
    const [assessment] = await database.select().from(stdAssessments).where(eq(stdAssessments.projectId, 1));
    expect(assessment?.name).toBe('CMS Conditions of Participation: readiness self-assessment');
    const reqs = await database
      .select()
      .from(stdReqAssessments)
      .where(eq(stdReqAssessments.assessmentId, assessment!.id));
    const byResult = (result: string) => reqs.filter((r) => r.result === result).length;
    expect(byResult('non_compliant')).toBe(1);
    expect(byResult('partially_compliant')).toBe(2);
    expect(byResult('compliant')).toBeGreaterThan(15);
    expect(byResult('not_applicable')).toBeGreaterThan(0);
    expect(byResult('not_assessed')).toBeGreaterThan(50);
    expect((await database.select().from(stdMembers)).map((m) => m.role).sort()).toEqual([
      'chapter_lead',
      'owner',
      'viewer',
    ]);
    const links = await database.select().from(traceLinks).where(eq(traceLinks.projectId, 1));
    expect(links.map((l) => l.targetType).sort()).toEqual([
      'cr_program',
      'measure',
      'measure',
      'measure',
      'policy',
      'policy',
      'policy',
      'policy',
      'policy',
    ]);

    // A few findings (a mock survey's, the self-assessment's, a tracer's) and an evidence note.
    const findings = await database.select().from(stdFindings).where(eq(stdFindings.projectId, 1));
    expect(findings.map((f) => f.source).sort()).toEqual(['mock', 'self', 'tracer']);
    expect(findings.find((f) => f.source === 'tracer')?.tracerId).not.toBeNull();
    expect(await database.select().from(stdEvidence).where(eq(stdEvidence.projectId, 1))).toHaveLength(1);

    // Policy generator (issue 12): the demo facility's profile is filled in.
    const [profile] = await database.select().from(pgFacilityProfiles).where(eq(pgFacilityProfiles.projectId, 1));
    expect(profile).toMatchObject({ legalName: 'Demo Facility General Hospital', state: 'OH', accreditors: ['tjc'] });
    expect(Object.keys(profile!.ownerTitles)).toHaveLength(9);

    const terms = await getPublicTerms(database);
    expect(terms.content).toContain('System use notification');
    expect(terms.lastUpdated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('leaves the next project id free after the explicit id 1', async () => {
    const next = await createProject(db.handle.db);
    expect(next.id).toBe(2);
  });
});

import { APP_CODES } from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import {
  policyUsers,
  projectMemberRoles,
  projectMemberships,
  projects,
  termsVersions,
  users,
} from '../db/schema/index.js';
import { recordAudit } from '../lib/audit.js';
import { hashPassword } from '../lib/passwords.js';
import { sanitizeHtml } from '../lib/sanitize.js';
import { seedDemoChartReview } from './demo-chart-review.js';
import { seedDemoChartReviewCases } from './demo-chart-review-cases.js';
import { seedDemoMonitoring } from './demo-monitoring.js';
import { seedDemoPolicies } from './demo-policies.js';
import { seedDemoPolicyGenerator } from './demo-policy-generator.js';
import { seedDemoStandards } from './demo-standards.js';
import { seedDemoWorkflow } from './demo-workflow.js';

/** The demo accounts of DESIGN.md section 6, listed in the README. All share one password. */
export const DEMO_PASSWORD = 'Kx7#qPv9!mZt2$Lw';
export const DEMO_ACCOUNTS = [
  { email: 'superadmin@example.com', username: 'superadmin', firstName: 'Sam', lastName: 'Super', role: 'superadmin' },
  {
    email: 'admin@example.com',
    username: 'admin',
    firstName: 'Avery',
    lastName: 'Admin',
    projectRole: 'admin',
    mainRoles: {
      policy_management: 'policy_admin',
      monitoring: 'monitoring_admin',
      chart_review: 'chart_review_admin',
    },
  },
  {
    email: 'member@example.com',
    username: 'member',
    firstName: 'Morgan',
    lastName: 'Member',
    projectRole: 'simple',
    mainRoles: { policy_management: 'signer', monitoring: 'page_owner', chart_review: 'program_lead' },
  },
  { email: 'simple@example.com', username: 'simple', firstName: 'Sidney', lastName: 'Simple', projectRole: 'simple' },
  {
    email: 'reviewer@example.com',
    username: 'reviewer',
    firstName: 'Riley',
    lastName: 'Reviewer',
    projectRole: 'simple',
    mainRoles: { policy_management: 'reviewer', monitoring: 'data_entry', chart_review: 'reviewer' },
  },
  {
    email: 'reader@example.com',
    username: 'reader',
    firstName: 'Robin',
    lastName: 'Reader',
    projectRole: 'simple',
    mainRoles: { policy_management: 'reader', monitoring: 'viewer', chart_review: 'viewer' },
  },
] as const;

export const DEMO_PROJECT = { id: 1, name: 'Demo Facility', slug: 'demo-facility' } as const;

const DEMO_TERMS = `
<h2>1. System use notification</h2>
<p>You are accessing a system of <strong>Demo Facility</strong> that holds confidential quality, policy and
compliance records. Use is limited to authorised staff for the purposes of the facility's quality programme.</p>
<h2>2. Monitoring and audit</h2>
<p>Every sign-in and every change is recorded. Records may be reviewed by the facility, its auditors and surveyors.
By signing in you consent to this monitoring.</p>
<h2>3. Your responsibilities</h2>
<ul>
  <li>Keep your password and two-factor device to yourself; never share an account.</li>
  <li>Do not enter patient identifiers where a form does not ask for them.</li>
  <li>Sign out when you leave a shared workstation.</li>
</ul>
<h2>4. Questions</h2>
<p>Contact your quality department at <a href="mailto:quality@example.com">quality@example.com</a>.</p>
`;

/** True when the database holds no user and no project: the only state in which demo data is created. */
export async function isEmptyDatabase(db: Database): Promise<boolean> {
  const { rows } = await db.execute<{ empty: boolean }>(
    sql`select not exists (select 1 from users) and not exists (select 1 from projects) as empty`,
  );
  return rows[0]?.empty === true;
}

/**
 * Creates the demo facility, its four accounts and a published terms version, in one transaction. Everything is
 * dated relative to `now` (the time it runs, unless the caller passes its clock's).
 */
export async function seedDemoData(db: Database, appKey: Buffer, now: Date = new Date()): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    await tx.insert(projects).values({
      id: DEMO_PROJECT.id,
      name: DEMO_PROJECT.name,
      slug: DEMO_PROJECT.slug,
      facilityName: 'Demo Facility General Hospital',
      address: '100 Example Avenue, Springfield',
      phone: '+1 555 0100',
      email: 'quality@example.com',
      activeApps: [...APP_CODES],
    });
    // The id was given explicitly: move the identity past it so the next project gets 2.
    await tx.execute(sql`select setval(pg_get_serial_sequence('projects', 'id'), (select max(id) from projects))`);

    const ids: Record<string, number> = {};
    for (const account of DEMO_ACCOUNTS) {
      const [user] = await tx
        .insert(users)
        .values({
          email: account.email,
          username: account.username,
          firstName: account.firstName,
          lastName: account.lastName,
          role: 'role' in account ? account.role : 'user',
          passwordHash,
          passwordChangedAt: now,
          isDemo: true,
        })
        .returning({ id: users.id });
      ids[account.username] = user!.id;
      if ('projectRole' in account) {
        await tx
          .insert(projectMemberships)
          .values({ projectId: DEMO_PROJECT.id, userId: user!.id, projectRole: account.projectRole });
      }
      if ('mainRoles' in account) {
        for (const [app, mainRole] of Object.entries(account.mainRoles)) {
          await tx.insert(projectMemberRoles).values({ projectId: DEMO_PROJECT.id, userId: user!.id, app, mainRole });
          if (app === 'policy_management') {
            await tx.insert(policyUsers).values({ projectId: DEMO_PROJECT.id, userId: user!.id });
          }
        }
      }
    }

    await seedDemoPolicies(tx, DEMO_PROJECT.id, ids.admin!);
    await seedDemoWorkflow(
      tx,
      DEMO_PROJECT.id,
      { admin: ids.admin!, member: ids.member!, reviewer: ids.reviewer!, reader: ids.reader! },
      now,
    );
    await seedDemoMonitoring(
      tx,
      DEMO_PROJECT.id,
      { admin: ids.admin!, member: ids.member!, reviewer: ids.reviewer!, reader: ids.reader! },
      now,
    );
    await seedDemoChartReview(tx, DEMO_PROJECT.id, { admin: ids.admin!, member: ids.member! }, now);
    await seedDemoChartReviewCases(
      tx,
      DEMO_PROJECT.id,
      { admin: ids.admin!, member: ids.member!, reviewer: ids.reviewer! },
      appKey,
      now,
    );
    await seedDemoStandards(
      tx,
      DEMO_PROJECT.id,
      { admin: ids.admin!, member: ids.member!, reviewer: ids.reviewer!, reader: ids.reader! },
      now,
    );
    await seedDemoPolicyGenerator(tx, DEMO_PROJECT.id, ids.admin!);
    await tx.insert(termsVersions).values({
      content: sanitizeHtml(DEMO_TERMS.trim()),
      status: 'published',
      publishedAt: now,
    });
    await recordAudit(tx, {
      action: 'system.demo_data_created',
      projectId: DEMO_PROJECT.id,
      data: { accounts: DEMO_ACCOUNTS.map((a) => a.username) },
      at: now,
    });
  });
}

export async function countDemoAccounts(db: Database): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from users where is_demo`);
  return rows[0]?.n ?? 0;
}

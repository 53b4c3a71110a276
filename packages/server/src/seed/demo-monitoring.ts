import { DEFAULT_PAGE_LEVELS } from '@portal/shared';
import type { DbOrTx } from '../db/client.js';
import {
  monInsightRevisions,
  monInsights,
  monPageLevels,
  monPagePermissions,
  monPages,
  monRequests,
  monRoleMembers,
  monRoles,
  monSettings,
  monUsers,
} from '../db/schema/index.js';
import { sanitizeHtml } from '../lib/sanitize.js';
import { renumberPages } from '../modules/monitoring/tree.service.js';
import { seedDemoMonitoringData } from './demo-monitoring-data.js';

/**
 * The demo facility's quality programme (issue 8): a tree of domains, programmes and indicators with what each
 * measures and why, key insights, two monitoring roles, a restricted peer-review page only the Patient Safety
 * Committee sees, and data requests waiting for the data steward.
 */
export interface DemoMonitoringPeople {
  /** monitoring_admin */
  admin: number;
  /** page_owner */
  member: number;
  /** data_entry: the data steward */
  reviewer: number;
  /** viewer */
  reader: number;
}

interface DemoPage {
  title: string;
  owner?: keyof DemoMonitoringPeople;
  status?: 'draft' | 'published';
  restricted?: boolean;
  introduction?: string;
  benchmarks?: string;
  parameters?: string;
  children?: DemoPage[];
}

const p = (...paragraphs: string[]) => paragraphs.map((text) => `<p>${text}</p>`).join('');

const TREE: DemoPage[] = [
  {
    title: 'Patient Safety',
    owner: 'admin',
    introduction: p(
      'Harm that reaches patients while they are in our care: falls, pressure injuries and the learning from serious events.',
    ),
    children: [
      {
        title: 'Falls prevention',
        owner: 'member',
        introduction: p(
          'Inpatient falls are the most frequently reported safety incident in hospitals. We monitor all falls and the falls that cause injury, per 1,000 occupied bed days, on every adult inpatient ward.',
        ),
        benchmarks: p(
          'NDNQI reports a median of about 3 falls and 0.7 falls with injury per 1,000 patient days for adult medical-surgical units; our target is below 2.5 and 0.5.',
        ),
        parameters: p(
          '<strong>Numerator:</strong> falls reported in the incident system, reviewed by the ward manager. <strong>Denominator:</strong> occupied bed days from the patient administration system. <strong>Exclusions:</strong> assisted lowering to the floor by staff.',
        ),
        children: [
          {
            title: 'Falls with injury',
            owner: 'member',
            introduction: p('Falls that caused minor, moderate or major injury, or death (NDNQI injury levels).'),
          },
          {
            title: 'Falls risk assessment within 24 hours',
            owner: 'member',
            status: 'draft',
            introduction: p('Share of admissions with a completed falls risk assessment within 24 hours.'),
          },
        ],
      },
      {
        title: 'Pressure injuries',
        owner: 'member',
        introduction: p(
          'Hospital-acquired pressure injuries of stage 2 or worse, found at the monthly prevalence survey.',
        ),
      },
      {
        title: 'Peer review outcomes',
        owner: 'admin',
        restricted: true,
        introduction: p(
          'Outcomes of the professional peer review of serious safety events. Restricted to the Patient Safety Committee.',
        ),
      },
    ],
  },
  {
    title: 'Infection Prevention',
    owner: 'admin',
    introduction: p('Healthcare-associated infections and the practices that prevent them, reported to NHSN.'),
    children: [
      {
        title: 'CLABSI',
        owner: 'member',
        introduction: p('Central line-associated bloodstream infections per 1,000 central line days in the ICUs.'),
        benchmarks: p('NHSN standardized infection ratio (SIR); our goal is an SIR below 1.0.'),
        parameters: p('NHSN surveillance definitions; device days counted daily at 23:59 by the unit.'),
      },
      {
        title: 'Hand hygiene compliance',
        owner: 'member',
        introduction: p('Share of observed opportunities where staff cleaned their hands (WHO five moments).'),
        parameters: p('At least 200 observations a month across all inpatient wards by trained observers.'),
      },
      {
        title: 'CAUTI',
        owner: 'member',
        introduction: p('Catheter-associated urinary tract infections per 1,000 urinary catheter days.'),
      },
    ],
  },
  {
    title: 'Medication Safety',
    owner: 'admin',
    introduction: p('Errors and harm from medicines, from prescribing to administration.'),
    children: [
      {
        title: 'Adverse drug events',
        owner: 'member',
        introduction: p('Adverse drug events found by trigger-tool review of 20 charts a month.'),
      },
      {
        title: 'Medication reconciliation at admission',
        owner: 'member',
        introduction: p('Share of admissions with a completed best possible medication history within 24 hours.'),
      },
    ],
  },
];

const INTRODUCTION = p(
  'The quality programme of Demo Facility General Hospital: what we measure, why, and what we learn from it. Each domain groups programmes, and each programme its indicators, with the benchmarks we compare against and how each measure is defined.',
  'Owners write key insights every month after the data is in; the Quality Committee reviews them quarterly.',
);

export async function seedDemoMonitoring(
  tx: DbOrTx,
  projectId: number,
  people: DemoMonitoringPeople,
  now: Date,
): Promise<void> {
  await tx
    .insert(monSettings)
    .values({ projectId, numberingMode: 'auto', introduction: sanitizeHtml(INTRODUCTION), updatedBy: people.admin });
  await tx.insert(monPageLevels).values(
    DEFAULT_PAGE_LEVELS.map((level) => ({
      projectId,
      depth: level.depth,
      name: level.name,
      icon: level.icon,
      mayHoldMeasures: level.may_hold_measures,
      createdBy: people.admin,
    })),
  );
  await tx
    .insert(monUsers)
    .values(Object.values(people).map((userId) => ({ projectId, userId, createdBy: people.admin })))
    .onConflictDoNothing();

  const ids = new Map<string, number>();
  const insert = async (pages: DemoPage[], parentId: number | null, depth: number) => {
    for (const [position, page] of pages.entries()) {
      const [row] = await tx
        .insert(monPages)
        .values({
          projectId,
          parentId,
          position,
          depth,
          title: page.title,
          status: page.status ?? 'published',
          ownerId: page.owner ? people[page.owner] : null,
          restricted: page.restricted ?? false,
          introduction: sanitizeHtml(page.introduction ?? ''),
          benchmarks: sanitizeHtml(page.benchmarks ?? ''),
          parametersAndMetrics: sanitizeHtml(page.parameters ?? ''),
          createdBy: people.admin,
          updatedBy: people.admin,
        })
        .returning({ id: monPages.id });
      ids.set(page.title, row!.id);
      await insert(page.children ?? [], row!.id, depth + 1);
    }
  };
  await insert(TREE, null, 1);
  await renumberPages(tx, projectId);

  // Monitoring roles: a committee that edits its domain, and one that alone sees the restricted peer-review page.
  const [ipc] = await tx
    .insert(monRoles)
    .values({
      projectId,
      name: 'Infection Prevention Committee',
      description: 'Edits the infection prevention pages and writes their insights.',
      createdBy: people.admin,
    })
    .returning({ id: monRoles.id });
  const [psc] = await tx
    .insert(monRoles)
    .values({
      projectId,
      name: 'Patient Safety Committee',
      description: 'Reviews serious safety events; the only group that sees peer review outcomes.',
      createdBy: people.admin,
    })
    .returning({ id: monRoles.id });
  await tx.insert(monRoleMembers).values([
    { projectId, roleId: ipc!.id, userId: people.member, createdBy: people.admin },
    { projectId, roleId: ipc!.id, userId: people.reviewer, createdBy: people.admin },
    { projectId, roleId: psc!.id, userId: people.member, createdBy: people.admin },
  ]);
  await tx.insert(monPagePermissions).values([
    { projectId, pageId: ids.get('Infection Prevention')!, roleId: ipc!.id, level: 'edit', createdBy: people.admin },
    { projectId, pageId: ids.get('Peer review outcomes')!, roleId: psc!.id, level: 'view', createdBy: people.admin },
  ]);

  const insights: { page: string; title: string; body: string; status: 'draft' | 'published'; daysAgo: number }[] = [
    {
      page: 'Falls prevention',
      title: 'Falls down since hourly rounding started',
      body: p(
        'Since hourly rounding started on the medical wards in March, the falls rate has stayed below the median for eight months in a row: a shift, not chance. Falls with injury have not changed yet; the next step is hip protectors for patients at high risk.',
      ),
      status: 'published',
      daysAgo: 12,
    },
    {
      page: 'CLABSI',
      title: 'Two CLABSIs in the surgical ICU in October',
      body: p(
        'Both infections followed femoral lines placed in the emergency department. The committee reviewed line-placement sites with the ED team; the insertion checklist now asks why the femoral site was chosen.',
      ),
      status: 'published',
      daysAgo: 20,
    },
    {
      page: 'Hand hygiene compliance',
      title: 'Compliance before aseptic tasks lags the other moments',
      body: p('Observers see 94% overall but 81% before aseptic tasks; a targeted campaign is being drafted.'),
      status: 'draft',
      daysAgo: 2,
    },
  ];
  for (const insight of insights) {
    const at = new Date(now.getTime() - insight.daysAgo * 86_400_000);
    const body = sanitizeHtml(insight.body);
    const [row] = await tx
      .insert(monInsights)
      .values({
        projectId,
        pageId: ids.get(insight.page)!,
        title: insight.title,
        body,
        status: insight.status,
        authorId: people.member,
        publishedAt: insight.status === 'published' ? at : null,
        createdAt: at,
        updatedAt: at,
        updatedBy: people.member,
      })
      .returning({ id: monInsights.id });
    await tx.insert(monInsightRevisions).values({
      projectId,
      insightId: row!.id,
      version: 1,
      title: insight.title,
      body,
      status: insight.status,
      editedBy: people.member,
      editedAt: at,
    });
  }

  const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  await tx.insert(monRequests).values([
    {
      projectId,
      requesterId: people.reader,
      title: 'Falls by ward for the nursing board',
      purpose: 'The nursing board compares wards before choosing where to extend hourly rounding.',
      pageIds: [ids.get('Falls prevention')!],
      periodFrom: day(-365),
      periodTo: day(-1),
      format: 'chart',
      neededBy: day(14),
      status: 'submitted',
    },
    {
      projectId,
      requesterId: people.member,
      title: 'CLABSI line days by unit',
      purpose: 'Check the device-day counts behind the October SIR before the committee meeting.',
      pageIds: [ids.get('CLABSI')!],
      periodFrom: day(-90),
      periodTo: day(-1),
      format: 'csv',
      neededBy: day(5),
      status: 'in_progress',
      assigneeId: people.reviewer,
    },
  ]);
  await seedDemoMonitoringData(tx, projectId, ids, { admin: people.admin, reviewer: people.reviewer }, now);
}

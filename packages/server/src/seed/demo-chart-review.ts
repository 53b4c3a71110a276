import { CR_DEFAULT_PRIVILEGE_LABEL, type SamplingPlan } from '@portal/shared';
import type { DbOrTx } from '../db/client.js';
import { crPrograms, crQuestions, crSettings, crTools, crToolVersions } from '../db/schema/index.js';

/**
 * The demo facility's chart review (issue 10): the project's settings, the audit tool "Pain reassessment
 * documentation" (version 1 published, with a conditional question and a critical set) and the monthly programme
 * that uses it on three wards.
 */
export interface DemoChartReviewPeople {
  /** chart_review_admin */
  admin: number;
  /** program_lead: owns the programme */
  member: number;
}

type DemoQuestion = Omit<typeof crQuestions.$inferInsert, 'projectId' | 'toolVersionId' | 'position'>;

const PAIN_QUESTIONS: DemoQuestion[] = [
  {
    key: 'pain_assessed',
    section: 'Assessment',
    text: 'Was pain assessed with a validated scale on admission to the ward?',
    help: 'Numeric rating scale, FLACC or PAINAD in the admission assessment. A score without a scale named counts as No.',
    critical: true,
    naAllowed: false,
  },
  {
    key: 'analgesia_given',
    section: 'Intervention',
    text: 'Was an analgesic given for a pain score of 4 or more?',
    help: 'Answer N/A when no score of 4 or more was recorded during the stay.',
    naReasonRequired: true,
  },
  {
    key: 'reassessed_in_time',
    section: 'Reassessment',
    text: 'Was pain reassessed within 60 minutes of the analgesic?',
    help: 'Look for a documented score in the MAR or flowsheet within 60 minutes of administration (30 for IV).',
    critical: true,
    weight: 2,
    showIf: "analgesia_given == 'yes'",
  },
  {
    key: 'goal_documented',
    section: 'Care plan',
    text: "Is the patient's comfort goal documented in the care plan?",
    help: "The patient's own acceptable pain level or functional goal, in their words where possible.",
  },
  {
    key: 'education_given',
    section: 'Care plan',
    text: 'Was the patient or family taught about pain management and side effects?',
    help: 'Documented teaching on the plan, how to ask for help and the side effects of the medicines given.',
  },
];

export async function seedDemoChartReview(tx: DbOrTx, projectId: number, people: DemoChartReviewPeople, now: Date) {
  await tx
    .insert(crSettings)
    // The demo keeps encounter references (encrypted) so the audited reveal can be tried.
    .values({
      projectId,
      privilegeLabel: CR_DEFAULT_PRIVILEGE_LABEL,
      storeEncounterRef: true,
      updatedBy: people.admin,
    });
  const [tool] = await tx
    .insert(crTools)
    .values({
      projectId,
      name: 'Pain reassessment documentation',
      purpose:
        'Checks that pain is assessed, treated and reassessed on time on the adult inpatient wards, as the pain management policy requires.',
      createdBy: people.admin,
      updatedBy: people.admin,
    })
    .returning({ id: crTools.id });
  const [version] = await tx
    .insert(crToolVersions)
    .values({
      projectId,
      toolId: tool!.id,
      version: 1,
      status: 'published',
      publishedAt: now,
      publishedBy: people.admin,
      createdBy: people.admin,
    })
    .returning({ id: crToolVersions.id });
  await tx
    .insert(crQuestions)
    .values(
      PAIN_QUESTIONS.map((question, i) => ({ ...question, projectId, toolVersionId: version!.id, position: i + 1 })),
    );
  const sampling: SamplingPlan = { method: 'fixed', n: 10, stratify_by_unit: true };
  await tx.insert(crPrograms).values({
    projectId,
    name: 'Pain reassessment documentation',
    toolId: tool!.id,
    units: ['4 West', '5 East', 'Surgical ward'],
    grain: 'month',
    sampling,
    dueDays: 14,
    irrRate: 0.1,
    target: 0.9,
    ownerId: people.member,
    createdBy: people.admin,
    updatedBy: people.admin,
  });
}

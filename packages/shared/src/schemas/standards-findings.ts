import { z } from 'zod';
import { SAFER_LIKELIHOODS, SAFER_SCOPES, STD_FINDING_SOURCES, STD_FINDING_STATUSES } from '../standards/safer.js';
import { STD_RESULTS } from '../standards/vocabulary.js';
import { INT4_MAX, isRealDay, recordId } from './common.js';
import { stdCountsSchema } from './standards.js';

/**
 * Contracts of standards findings, action plans, readiness and the gap report (issue 11; DOMAIN.md 3.2 `std_finding`,
 * `std_action`, 3.3 readiness and gap report). Calls under /api/projects/{id}/standards; docs/standards.md lists
 * them. Days are 'YYYY-MM-DD'.
 */

export const STD_FINDING_LIMITS = {
  text: 4000,
  what: 500,
  rootCause: 4000,
  analysis: 4000,
  note: 1000,
  actions: 30,
} as const;

const id = z.number().int();
const person = z.object({ id, name: z.string() });
const day = (message: string) => z.string().refine(isRealDay, message);
const text = (max: number, label: string) => z.string().trim().max(max, `${label} is at most ${max} characters.`);

// ------------------------------------------------------------------------------------------------ findings

/** POST /req-assessments/{id}/findings and PUT /findings/{id} (with `version`). */
export const stdFindingInputSchema = z
  .object({
    source: z.enum(STD_FINDING_SOURCES, 'Choose where the finding comes from.'),
    text: text(STD_FINDING_LIMITS.text, 'The finding').min(1, 'Describe what was found.'),
    likelihood: z.enum(SAFER_LIKELIHOODS, 'Choose the likelihood to harm.'),
    scope: z.enum(SAFER_SCOPES, 'Choose the scope.'),
    immediate_threat: z.boolean(),
    cited_on: day('Enter the day it was cited, like 2026-11-27.'),
  })
  .strict();
export type StdFindingInput = z.infer<typeof stdFindingInputSchema>;
export const stdFindingUpdateSchema = z
  .object({ ...stdFindingInputSchema.shape, version: id.nonnegative().max(INT4_MAX, 'No such version.') })
  .strict();

export const stdFindingSummarySchema = z.object({
  id,
  req_id: id,
  /** The tracer the finding came from, if any. */
  tracer_id: id.nullable(),
  ref_id: z.string(),
  title: z.string(),
  source: z.enum(STD_FINDING_SOURCES),
  text: z.string(),
  likelihood: z.enum(SAFER_LIKELIHOODS),
  scope: z.enum(SAFER_SCOPES),
  immediate_threat: z.boolean(),
  cited_on: z.string(),
  due_date: z.string(),
  overdue: z.boolean(),
  status: z.enum(STD_FINDING_STATUSES),
  /** Upper right of the matrix or an immediate threat: the plan needs leadership and a preventive analysis. */
  high_risk: z.boolean(),
});
export type StdFindingSummary = z.infer<typeof stdFindingSummarySchema>;

/** GET /assessments/{id}/findings?status= */
export const stdFindingListQuerySchema = z.object({ status: z.enum(STD_FINDING_STATUSES).optional() });
export const stdFindingListSchema = z.object({ findings: z.array(stdFindingSummarySchema) });

export const stdActionSchema = z
  .object({
    what: text(STD_FINDING_LIMITS.what, 'An action').min(1, 'Say what will be done.'),
    owner_id: recordId.nullable(),
    due: day('Enter a date like 2027-01-15.').nullable(),
    done: z.boolean(),
  })
  .strict();

/** PUT /findings/{id}/plan: the plan of correction and how it is sustained. */
export const stdPlanInputSchema = z
  .object({
    root_cause: text(STD_FINDING_LIMITS.rootCause, 'The root cause'),
    actions: z
      .array(stdActionSchema)
      .max(STD_FINDING_LIMITS.actions, `A plan has at most ${STD_FINDING_LIMITS.actions} actions.`),
    leadership_involvement: text(STD_FINDING_LIMITS.analysis, 'Leadership involvement'),
    preventive_analysis: text(STD_FINDING_LIMITS.analysis, 'The preventive analysis'),
    /** How the correction is sustained: a monitoring measure at target for `success_periods` periods in a row. */
    measure_id: recordId.nullable(),
    success_periods: z.number().int().min(1, 'At least 1 period.').max(24, 'At most 24 periods.'),
  })
  .strict();
export type StdPlanInput = z.infer<typeof stdPlanInputSchema>;

/** POST /findings/{id}/close and /reopen */
export const stdFindingNoteSchema = z
  .object({ note: text(STD_FINDING_LIMITS.note, 'The note').min(1, 'Write a note.') })
  .strict();

export const stdSustainSchema = z.object({
  measure: z.object({ id, name: z.string(), page_id: id }).nullable(),
  target: z.number().nullable(),
  required: z.number().int(),
  /** The latest complete periods after the finding was cited, oldest first. */
  latest: z.array(z.object({ period: z.string(), value: z.number().nullable(), met: z.boolean() })),
  met: z.boolean(),
});

/** GET /findings/{id} */
export const stdFindingSchema = stdFindingSummarySchema.extend({
  assessment_id: id,
  version: z.number().int(),
  created_by: z.string(),
  created_at: z.string(),
  closed_note: z.string(),
  plan: z.object({
    root_cause: z.string(),
    actions: z.array(
      z.object({
        what: z.string(),
        owner: person.nullable(),
        due: z.string().nullable(),
        done: z.boolean(),
        overdue: z.boolean(),
      }),
    ),
    leadership_involvement: z.string(),
    preventive_analysis: z.string(),
    measure_id: id.nullable(),
    success_periods: z.number().int(),
  }),
  sustain: stdSustainSchema,
  abilities: z.object({ edit: z.boolean(), plan: z.boolean(), close: z.boolean() }),
});
export type StdFinding = z.infer<typeof stdFindingSchema>;

// ------------------------------------------------------------------------------------------------ readiness

/** GET /assessments/{id}/readiness */
export const stdReadinessSchema = z.object({
  assessment_id: id,
  applicable: z.number().int(),
  /** Applicable elements assessed (result set) within the last 12 months. */
  assessed_12m: z.number().int(),
  counts: stdCountsSchema,
  score: z.number().nullable(),
  chapters: z.array(
    z.object({
      node_id: id,
      ref_id: z.string(),
      title: z.string(),
      counts: stdCountsSchema,
      score: z.number().nullable(),
    }),
  ),
  /** Open findings (not closed) by likelihood x scope; immediate threats counted apart. */
  safer: z.array(
    z.object({ likelihood: z.enum(SAFER_LIKELIHOODS), scope: z.enum(SAFER_SCOPES), count: z.number().int() }),
  ),
  immediate_threats: z.number().int(),
  due_corrections: z.array(stdFindingSummarySchema),
  /** Linked policies whose review is due in 60 days or past, or that are not approved: evidence expiring or expired. */
  policy_evidence: z.array(
    z.object({
      policy_id: id,
      number: z.string().nullable(),
      title: z.string(),
      next_review_on: z.string().nullable(),
      state: z.enum(['expired', 'expiring']),
      elements: z.array(z.object({ req_id: id.nullable(), ref_id: z.string() })),
    }),
  ),
  /** Evidence items (links, files, notes; not rejected ones) expired or expiring within 60 days, expired first. */
  evidence_items: z.array(
    z.object({
      id,
      req_id: id,
      ref_id: z.string(),
      title: z.string(),
      expires_on: z.string(),
      state: z.enum(['expired', 'expiring']),
    }),
  ),
  overdue_elements: z.number().int(),
});
export type StdReadiness = z.infer<typeof stdReadinessSchema>;

/** Gap report rows (CSV): every non-compliant, partially compliant or not assessed element. */
export const STD_GAP_RESULTS = STD_RESULTS.filter((r) => r !== 'compliant' && r !== 'not_applicable');

// ------------------------------------------------------------------------------------------------ tracers

export const STD_TRACER_KINDS = ['individual', 'system', 'program'] as const;
export type StdTracerKind = (typeof STD_TRACER_KINDS)[number];
export const STD_TRACER_KIND_LABELS: Record<StdTracerKind, string> = {
  individual: 'Individual tracer',
  system: 'System tracer',
  program: 'Program tracer',
};
export const STD_TRACER_KIND_HELP: Record<StdTracerKind, string> = {
  individual: "Follows one patient's care through the facility (a case code only, never a name or record number).",
  system: 'Follows one process across units, such as medication management or infection control.',
  program: 'Follows one service or program, such as the emergency department or dialysis.',
};

/** POST /assessments/{id}/tracers and PUT /tracers/{id} */
export const stdTracerInputSchema = z
  .object({
    kind: z.enum(STD_TRACER_KINDS, 'Choose the kind of tracer.'),
    title: text(200, 'The title').min(1, 'Say what was traced.'),
    traced_on: day('Enter the day of the tracer, like 2026-11-27.'),
    unit: text(120, 'The unit'),
    lead_id: recordId.nullable(),
    /** A case code, never a patient's name or record number. */
    case_code: text(40, 'The case code').regex(
      /^[A-Za-z0-9._-]*$/,
      'A case code uses letters, digits, dots and dashes only: never a name or medical record number.',
    ),
    summary: text(STD_FINDING_LIMITS.text, 'The summary'),
  })
  .strict();
export type StdTracerInput = z.infer<typeof stdTracerInputSchema>;

export const stdTracerSummarySchema = z.object({
  id,
  kind: z.enum(STD_TRACER_KINDS),
  title: z.string(),
  traced_on: z.string(),
  unit: z.string(),
  lead: person.nullable(),
  case_code: z.string(),
  findings: z.number().int(),
  open_findings: z.number().int(),
});
export type StdTracerSummary = z.infer<typeof stdTracerSummarySchema>;
export const stdTracerListSchema = z.object({
  tracers: z.array(stdTracerSummarySchema),
  abilities: z.object({ create: z.boolean() }),
});

/** GET /tracers/{id} */
export const stdTracerSchema = stdTracerSummarySchema.extend({
  assessment_id: id,
  summary: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  finding_list: z.array(stdFindingSummarySchema),
  abilities: z.object({ edit: z.boolean() }),
});
export type StdTracer = z.infer<typeof stdTracerSchema>;

/** POST /tracers/{id}/findings: a finding on an element of the tracer's assessment (source "tracer"). */
export const stdTracerFindingInputSchema = z
  .object({
    req_id: id.positive('Choose the element the finding concerns.').max(INT4_MAX, 'No such record.'),
    text: stdFindingInputSchema.shape.text,
    likelihood: stdFindingInputSchema.shape.likelihood,
    scope: stdFindingInputSchema.shape.scope,
    immediate_threat: z.boolean(),
    cited_on: stdFindingInputSchema.shape.cited_on,
  })
  .strict();
export type StdTracerFindingInput = z.infer<typeof stdTracerFindingInputSchema>;

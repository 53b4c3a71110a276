import { z } from 'zod';
import { SAFER_LIKELIHOODS, SAFER_SCOPES, STD_FINDING_SOURCES, STD_FINDING_STATUSES } from '../standards/safer.js';
import {
  STD_ASSESSMENT_KINDS,
  STD_LINK_TARGETS,
  STD_NODE_TYPES,
  STD_RESULTS,
  STD_ROLES,
  STD_STATUSES,
  STD_TEXT_POLICIES,
} from '../standards/vocabulary.js';
import { INT4_MAX, isRealDay, recordId } from './common.js';
import { stdEvidenceItemSchema } from './standards-evidence.js';

/**
 * Contracts of standards, part 1 (issue 11; DOMAIN.md 3.2-3.4): frameworks and their trees, assessments (what
 * /create makes), the compliance tree with roll-ups, element assessments with comments and history, standards
 * roles, owners by chapter, and the links from elements to policies, measures and chart review programmes. Calls
 * under /api/projects/{id}/standards; docs/standards.md lists them. Days are 'YYYY-MM-DD'; times ISO strings.
 */

export const STD_LIMITS = {
  name: 200,
  code: 40,
  edition: 40,
  publisher: 120,
  url: 500,
  scopeNote: 2000,
  justification: 2000,
  observation: 4000,
  wording: 8000,
  guidance: 4000,
  comment: 4000,
  linkNote: 500,
  csvBytes: 2_000_000,
  ecfrXmlBytes: 10_000_000,
  csvRows: 5000,
  bulk: 1000,
  search: 100,
} as const;

const id = z.number().int();
const person = z.object({ id, name: z.string() });
export type StdPerson = z.infer<typeof person>;

const day = (message: string) => z.string().refine(isRealDay, message);
const text = (max: number, label: string) => z.string().trim().max(max, `${label} is at most ${max} characters.`);
const httpUrl = z
  .string()
  .trim()
  .max(STD_LIMITS.url, `The link is at most ${STD_LIMITS.url} characters.`)
  .refine(
    (value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value),
    'Enter a link starting with https:// or http://.',
  );

export const stdResultSchema = z.enum(STD_RESULTS);
export const stdStatusSchema = z.enum(STD_STATUSES);
export const stdRollupSchema = z.enum([...STD_RESULTS, 'incomplete']);
export const stdCountsSchema = z.object({
  compliant: z.number().int(),
  partially_compliant: z.number().int(),
  non_compliant: z.number().int(),
  not_applicable: z.number().int(),
  not_assessed: z.number().int(),
});

// ------------------------------------------------------------------------------------------------ me

/** GET /me: my standards role and what the screens may offer me. */
export const stdMeSchema = z.object({
  role: z.enum(STD_ROLES).nullable(),
  abilities: z.object({
    create: z.boolean(),
    manage_users: z.boolean(),
    assign: z.boolean(),
    import_frameworks: z.boolean(),
    /** Load an edition of a regulation from the eCFR XML: superadmins (every project reads it). */
    load_editions: z.boolean(),
  }),
});
export type StdMe = z.infer<typeof stdMeSchema>;

// ------------------------------------------------------------------------------------------------ frameworks

export const stdFrameworkSchema = z.object({
  id,
  code: z.string(),
  name: z.string(),
  publisher: z.string(),
  edition: z.string(),
  text_policy: z.enum(STD_TEXT_POLICIES),
  licence_note: z.string(),
  public_url: z.string().nullable(),
  /** Shipped with the product (every project sees it) rather than imported by this project. */
  built_in: z.boolean(),
  node_count: z.number().int(),
  assessable_count: z.number().int(),
  /** The top of the tree: what the wizard offers to mark not applicable and to give owners. */
  chapters: z.array(
    z.object({
      id,
      ref_id: z.string(),
      title: z.string(),
      assessable_count: z.number().int(),
      /** A part that applies only where the facility offers it: the wizard starts it as not applicable. */
      optional: z.boolean(),
    }),
  ),
  /** The day the publisher's text was taken (an eCFR edition), else null. */
  as_of: z.string().nullable(),
});
export type StdFramework = z.infer<typeof stdFrameworkSchema>;
export const stdFrameworkListSchema = z.object({ frameworks: z.array(stdFrameworkSchema) });

/**
 * POST /frameworks/import: a framework from CSV (header `ref_id,parent_ref_id,type,title` and, for a facility's own
 * framework only, `text`). Copyrighted publishers' frameworks keep identifiers and titles only.
 */
export const stdFrameworkImportSchema = z
  .object({
    code: z
      .string()
      .trim()
      .min(1, 'Enter a code, like TJC-HAP or STATE-NY.')
      .max(STD_LIMITS.code, `The code is at most ${STD_LIMITS.code} characters.`)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'The code uses letters, digits, dots, dashes and underscores.'),
    name: text(STD_LIMITS.name, 'The name').min(1, 'Enter the framework name.'),
    publisher: text(STD_LIMITS.publisher, 'The publisher').min(1, 'Enter the publisher.'),
    edition: text(STD_LIMITS.edition, 'The edition').min(1, 'Enter the edition, like 2026.'),
    text_policy: z.enum(['identifiers_only', 'tenant_text'], 'Choose what the framework may store.'),
    public_url: httpUrl,
    csv: z.string().min(1, 'Choose a CSV file.').max(STD_LIMITS.csvBytes, 'The file is larger than 2 MB.'),
  })
  .strict();
export type StdFrameworkImport = z.infer<typeof stdFrameworkImportSchema>;

/** POST /frameworks/ecfr: a superadmin loads an edition of 42 CFR 482 from the official eCFR XML. */
export const stdEcfrImportSchema = z
  .object({
    xml: z
      .string()
      .min(1, 'Choose the eCFR XML file.')
      .max(STD_LIMITS.ecfrXmlBytes, 'The file is larger than 10 MB: download one part, not the whole title.'),
    as_of: z
      .string()
      .trim()
      .regex(/^(\d{4}-\d{2}-\d{2})?$/, 'Give the date as YYYY-MM-DD.')
      .optional(),
  })
  .strict();
export type StdEcfrImport = z.infer<typeof stdEcfrImportSchema>;

export const stdEcfrImportedSchema = z.object({
  framework_id: id,
  code: z.string(),
  edition: z.string(),
  as_of: z.string(),
  sections: z.number().int(),
  paragraphs: z.number().int(),
  /** Paragraphs with an effective date after today: shown "in force from", not counted in readiness before. */
  in_force_later: z.number().int(),
  previous_edition: z.string().nullable(),
  /** The crosswalk derived from the edition before, which upgrades assessments. */
  mappings: z.number().int(),
});
export type StdEcfrImported = z.infer<typeof stdEcfrImportedSchema>;

// ------------------------------------------------------------------------------------------------ assessments

export const stdAssessmentSchema = z.object({
  id,
  name: z.string(),
  kind: z.enum(STD_ASSESSMENT_KINDS),
  framework: z.object({
    id,
    code: z.string(),
    name: z.string(),
    edition: z.string(),
    text_policy: z.enum(STD_TEXT_POLICIES),
  }),
  survey_window_start: z.string().nullable(),
  survey_window_end: z.string().nullable(),
  scope_note: z.string(),
  created_at: z.string(),
  counts: stdCountsSchema,
  /** Compliant over applicable assessed elements (0 to 1), null when none is assessed. */
  score: z.number().nullable(),
  overdue: z.number().int(),
  /** The assessment of an earlier edition this one was upgraded from (POST /assessments/{id}/upgrade). */
  upgraded_from: z.object({ id, name: z.string() }).nullable(),
});
export type StdAssessment = z.infer<typeof stdAssessmentSchema>;
export const stdAssessmentListSchema = z.object({ assessments: z.array(stdAssessmentSchema) });

/** POST /assessments: the /create wizard. */
export const stdAssessmentCreateSchema = z
  .object({
    framework_id: id.positive('Choose a framework.').max(INT4_MAX, 'No such record.'),
    name: text(STD_LIMITS.name, 'The name').min(1, 'Enter a name for the assessment.'),
    kind: z.enum(STD_ASSESSMENT_KINDS, 'Choose the kind of assessment.'),
    scope_note: text(STD_LIMITS.scopeNote, 'The scope'),
    survey_window_start: day('Enter a date like 2027-03-01.').nullable(),
    survey_window_end: day('Enter a date like 2027-06-30.').nullable(),
    /** Top-level nodes (chapters, conditions) that do not apply, each with its reason. */
    not_applicable: z
      .array(
        z
          .object({
            node_id: recordId,
            reason: text(STD_LIMITS.justification, 'The reason').min(1, 'Say why this part does not apply.'),
          })
          .strict(),
      )
      .max(500),
    /** Owners by chapter: every element below the node gets the owner; the owner is recorded as the chapter's lead. */
    owners: z.array(z.object({ node_id: recordId, user_id: recordId }).strict()).max(500),
  })
  .strict()
  .refine((v) => !v.survey_window_start || !v.survey_window_end || v.survey_window_start <= v.survey_window_end, {
    message: 'The window ends before it starts.',
    path: ['survey_window_end'],
  });
export type StdAssessmentCreate = z.infer<typeof stdAssessmentCreateSchema>;
export const stdCreatedSchema = z.object({ id });

// ------------------------------------------------------------------------------------------------ tree

export const STD_TREE_FILTERS = ['all', 'mine', 'gaps', 'unassessed', 'no_evidence', 'expiring', 'overdue'] as const;
export type StdTreeFilter = (typeof STD_TREE_FILTERS)[number];
export const STD_TREE_FILTER_LABELS: Record<StdTreeFilter, string> = {
  all: 'All',
  mine: 'Mine',
  gaps: 'Gaps',
  unassessed: 'Not assessed',
  no_evidence: 'No evidence',
  expiring: 'Evidence expiring',
  overdue: 'Overdue',
};

/** GET /assessments/{id}/tree?filter=&search= */
export const stdTreeQuerySchema = z.object({
  filter: z.enum(STD_TREE_FILTERS).default('all'),
  search: z.string().trim().max(STD_LIMITS.search, 'Search for at most 100 characters.').default(''),
});

/**
 * One row of the compliance tree. Assessable elements carry `req` (their assessment); every row carries the
 * roll-up of the elements below it (an element's roll-up is its own result). Filtered trees keep the ancestors of
 * the rows that match.
 */
export const stdTreeRowSchema = z.object({
  node_id: id,
  parent_id: id.nullable(),
  depth: z.number().int(),
  ref_id: z.string(),
  title: z.string(),
  node_type: z.enum(STD_NODE_TYPES),
  /** A paragraph with a later effective date: the day it comes into force (not counted before); else null. */
  in_force_from: z.string().nullable(),
  rollup: stdRollupSchema,
  counts: stdCountsSchema,
  score: z.number().nullable(),
  req: z
    .object({
      id,
      result: stdResultSchema,
      status: stdStatusSchema,
      owner: person.nullable(),
      due_date: z.string().nullable(),
      overdue: z.boolean(),
      links: z.object({ policy: z.number().int(), measure: z.number().int(), cr_program: z.number().int() }),
      comments: z.number().int(),
    })
    .nullable(),
});
export type StdTreeRow = z.infer<typeof stdTreeRowSchema>;
export const stdTreeSchema = z.object({
  assessment: stdAssessmentSchema,
  rows: z.array(stdTreeRowSchema),
  /** How many elements match the filter (the rows also hold their ancestors). */
  matches: z.number().int(),
  abilities: z.object({ bulk: z.boolean() }),
});
export type StdTree = z.infer<typeof stdTreeSchema>;

// ------------------------------------------------------------------------------------------------ element detail

/** The live state of a linked policy: approved, signed, read, and its review date. */
export const stdLinkedPolicySchema = z.object({
  link_id: id,
  note: z.string(),
  id,
  number: z.string().nullable(),
  title: z.string(),
  status: z.string(),
  /** A published version exists and is current. */
  approved: z.boolean(),
  version: z.number().int().nullable(),
  effective_on: z.string().nullable(),
  signatures: z.number().int(),
  /** Readers who attested the current version over readers asked to (null when nobody is asked to read it). */
  attestation_rate: z.number().nullable(),
  next_review_on: z.string().nullable(),
  review_overdue: z.boolean(),
  /** Archived, never published, or past its review date: the evidence it gives is expired. */
  evidence_expired: z.boolean(),
});
export const stdLinkedMeasureSchema = z.object({
  link_id: id,
  note: z.string(),
  id,
  name: z.string(),
  page_id: id,
  page_title: z.string(),
  unit_label: z.string(),
  latest: z.object({ period: z.string(), value: z.number().nullable() }).nullable(),
  target: z.number().nullable(),
  /** At or beyond the target in the measure's direction; null without a target or a value. */
  meets_target: z.boolean().nullable(),
  variation: z.enum(['improvement', 'concern', 'common', 'neutral']).nullable(),
  empty_reason: z.string().nullable(),
});
export const stdLinkedProgramSchema = z.object({
  link_id: id,
  note: z.string(),
  id,
  name: z.string(),
  target: z.number().nullable(),
  /** The newest period with counted reviews: its overall compliance with n. */
  latest: z.object({ period: z.string(), rate: z.number().nullable(), n: z.number().int() }).nullable(),
});
/** A linked audit question: its compliance in each programme that audits with its tool, latest counted period. */
export const stdLinkedQuestionSchema = z.object({
  link_id: id,
  note: z.string(),
  id,
  key: z.string(),
  text: z.string(),
  tool: z.string(),
  tool_id: id,
  programs: z.array(
    z.object({
      id,
      name: z.string(),
      target: z.number(),
      latest: z.object({ period: z.string(), rate: z.number().nullable(), n: z.number().int() }).nullable(),
    }),
  ),
});
export type StdLinkedQuestion = z.infer<typeof stdLinkedQuestionSchema>;
export type StdLinkedPolicy = z.infer<typeof stdLinkedPolicySchema>;
export type StdLinkedMeasure = z.infer<typeof stdLinkedMeasureSchema>;
export type StdLinkedProgram = z.infer<typeof stdLinkedProgramSchema>;

export const stdCommentSchema = z.object({ id, author: person, body: z.string(), created_at: z.string() });
export const stdHistorySchema = z.object({
  id,
  action: z.string(),
  actor: z.string(),
  at: z.string(),
  /** What changed, in words ("Result: Not assessed -> Compliant"). */
  summary: z.string(),
});

/** GET /req-assessments/{id}: the side panel. */
export const stdElementSchema = z.object({
  id,
  assessment_id: id,
  version: z.number().int(),
  node: z.object({
    id,
    ref_id: z.string(),
    title: z.string(),
    node_type: z.enum(STD_NODE_TYPES),
    /** The regulation's text: public-domain frameworks only. */
    official_text: z.string().nullable(),
    /** The regulation's own heading as printed ("Standard: Organization and staffing."), apart from the title. */
    heading: z.string().nullable(),
    /** The day a paragraph with a later effective date comes into force; null when it has none. */
    in_force_from: z.string().nullable(),
    /** The Federal Register citations of its section ("[51 FR 22042, June 17, 1986, as amended at ...]"). */
    source_note: z.string().nullable(),
    public_url: z.string().nullable(),
    /** The parents from the top, for the breadcrumb. */
    path: z.array(z.object({ ref_id: z.string(), title: z.string() })),
  }),
  framework: z.object({ id, name: z.string(), edition: z.string(), text_policy: z.enum(STD_TEXT_POLICIES) }),
  local: z.object({ wording: z.string(), guidance: z.string(), public_url: z.string() }),
  result: stdResultSchema,
  status: stdStatusSchema,
  na_justification: z.string(),
  owner: person.nullable(),
  due_date: z.string().nullable(),
  overdue: z.boolean(),
  observation: z.string(),
  last_reviewed_at: z.string().nullable(),
  last_reviewed_by: z.string().nullable(),
  /** Where an edition upgrade carried the result from ("GOV.1.1 (2025): Compliant, equal"); '' otherwise. */
  carried_from: z.string(),
  crosswalk: z.array(
    z.object({ framework: z.string(), ref_id: z.string(), title: z.string(), relationship: z.string() }),
  ),
  policies: z.array(stdLinkedPolicySchema),
  measures: z.array(stdLinkedMeasureSchema),
  programs: z.array(stdLinkedProgramSchema),
  questions: z.array(stdLinkedQuestionSchema),
  /** Links, files and notes attached to the element, with their status and expiry (oldest first). */
  evidence: z.array(stdEvidenceItemSchema),
  comments: z.array(stdCommentSchema),
  history: z.array(stdHistorySchema),
  /** Findings recorded on the element (SAFER cell, due date, status). */
  findings: z.array(
    z.object({
      id,
      source: z.enum(STD_FINDING_SOURCES),
      text: z.string(),
      likelihood: z.enum(SAFER_LIKELIHOODS),
      scope: z.enum(SAFER_SCOPES),
      immediate_threat: z.boolean(),
      due_date: z.string(),
      overdue: z.boolean(),
      status: z.enum(STD_FINDING_STATUSES),
      high_risk: z.boolean(),
    }),
  ),
  abilities: z.object({
    edit: z.boolean(),
    comment: z.boolean(),
    link: z.boolean(),
    edit_wording: z.boolean(),
    /** May record a finding (whoever may change the element, and mock assessors). */
    finding: z.boolean(),
  }),
});
export type StdElement = z.infer<typeof stdElementSchema>;

/** PUT /req-assessments/{id}: the assessment of one element (optimistic `version`). */
export const stdElementUpdateSchema = z
  .object({
    version: id.nonnegative().max(INT4_MAX, 'No such version.'),
    result: stdResultSchema,
    status: stdStatusSchema,
    na_justification: text(STD_LIMITS.justification, 'The justification'),
    owner_id: recordId.nullable(),
    due_date: day('Enter a date like 2027-03-01.').nullable(),
    observation: text(STD_LIMITS.observation, 'The observation'),
  })
  .strict()
  .refine((v) => v.result !== 'not_applicable' || v.na_justification.length > 0, {
    message: 'Say why this element does not apply.',
    path: ['na_justification'],
  });
export type StdElementUpdate = z.infer<typeof stdElementUpdateSchema>;

/** PUT /req-assessments/{id}/wording: the facility's own words for the element (kept per project, per node). */
export const stdWordingSchema = z
  .object({
    wording: text(STD_LIMITS.wording, 'The wording'),
    guidance: text(STD_LIMITS.guidance, 'The guidance'),
    public_url: httpUrl,
  })
  .strict();

/** POST /req-assessments/{id}/comments */
export const stdCommentInputSchema = z
  .object({ body: text(STD_LIMITS.comment, 'The comment').min(1, 'Write a comment.') })
  .strict();

/** POST /req-assessments/bulk: owner and/or due date for many elements; leave a field out to keep it. */
export const stdBulkSchema = z
  .object({
    ids: z
      .array(recordId)
      .min(1, 'Choose at least one element.')
      .max(STD_LIMITS.bulk, `Choose at most ${STD_LIMITS.bulk} elements at once.`),
    owner_id: recordId.nullable().optional(),
    due_date: day('Enter a date like 2027-03-01.').nullable().optional(),
  })
  .strict()
  .refine((v) => v.owner_id !== undefined || v.due_date !== undefined, {
    message: 'Choose an owner or a due date.',
    path: ['owner_id'],
  });
export type StdBulk = z.infer<typeof stdBulkSchema>;
export const stdBulkResultSchema = z.object({ updated: z.number().int() });

// ------------------------------------------------------------------------------------------------ people

/** GET /members: every member of the project with their standards role. */
export const stdMemberSchema = z.object({
  user_id: id,
  name: z.string(),
  email: z.string(),
  project_role: z.enum(['admin', 'simple']),
  /** Their standards role; project admins act as standards admins whatever is stored. */
  role: z.enum(STD_ROLES).nullable(),
  effective_role: z.enum(STD_ROLES).nullable(),
});
export type StdMember = z.infer<typeof stdMemberSchema>;
export const stdMemberListSchema = z.object({ members: z.array(stdMemberSchema) });
/** PUT /members/{userId}: null takes the standards role away. */
export const stdMemberRoleSchema = z
  .object({ role: z.enum(STD_ROLES, 'Choose a standards role.').nullable() })
  .strict();

/** GET /assessments/{id}/assignments: the chapters and standards with their lead and owners. */
export const stdAssignmentRowSchema = z.object({
  node_id: id,
  parent_id: id.nullable(),
  depth: z.number().int(),
  ref_id: z.string(),
  title: z.string(),
  lead: person.nullable(),
  /** Owners of the elements below (distinct people) and how many elements have none. */
  owners: z.array(person),
  unowned: z.number().int(),
  elements: z.number().int(),
});
export const stdAssignmentsSchema = z.object({
  assessment_id: id,
  rows: z.array(stdAssignmentRowSchema),
  people: z.array(person.extend({ role: z.enum(STD_ROLES) })),
});
export type StdAssignments = z.infer<typeof stdAssignmentsSchema>;
/** PUT /assessments/{id}/assignments: a lead for a node, and/or an owner for every element below it (inherits down). */
export const stdAssignmentInputSchema = z
  .object({
    node_id: recordId,
    lead_id: recordId.nullable().optional(),
    owner_id: recordId.nullable().optional(),
  })
  .strict()
  .refine((v) => v.lead_id !== undefined || v.owner_id !== undefined, {
    message: 'Choose a lead or an owner.',
    path: ['owner_id'],
  });

// ------------------------------------------------------------------------------------------------ links

/** GET /elements?search=&for=: elements of the project's assessments to link to (the add-standards picker). */
export const stdElementSearchQuerySchema = z.object({
  search: z.string().trim().max(STD_LIMITS.search, 'Search for at most 100 characters.').default(''),
  for: z.enum(STD_LINK_TARGETS),
});
export const stdElementHitSchema = z.object({
  node_id: id,
  ref_id: z.string(),
  title: z.string(),
  wording: z.string(),
  framework: z.string(),
  path: z.string(),
});
export const stdElementHitsSchema = z.object({ elements: z.array(stdElementHitSchema), more: z.boolean() });
export type StdElementHit = z.infer<typeof stdElementHitSchema>;

/** GET /links?target_type=&target_id=: the standards a policy, measure or programme supports. */
export const stdLinksQuerySchema = z.object({
  target_type: z.enum(STD_LINK_TARGETS),
  target_id: z
    .string()
    .regex(/^\d{1,10}$/, 'The id is 1 to 10 digits.')
    .transform(Number)
    .pipe(recordId),
});
export const stdLinkSchema = z.object({
  id,
  node_id: id,
  ref_id: z.string(),
  title: z.string(),
  framework: z.string(),
  target_type: z.enum(STD_LINK_TARGETS),
  target_id: id,
  note: z.string(),
  created_at: z.string(),
  created_by: z.string(),
});
export type StdLink = z.infer<typeof stdLinkSchema>;
export const stdLinkListSchema = z.object({ links: z.array(stdLinkSchema) });
/** POST /links */
export const stdLinkInputSchema = z
  .object({
    node_id: id.positive('Choose a standard element.').max(INT4_MAX, 'No such record.'),
    target_type: z.enum(STD_LINK_TARGETS, 'Choose what to link.'),
    target_id: id.positive('Choose what to link.').max(INT4_MAX, 'No such record.'),
    note: text(STD_LIMITS.linkNote, 'The note'),
  })
  .strict();
export type StdLinkInput = z.infer<typeof stdLinkInputSchema>;

/** GET /link-targets?type=&search=: policies, measures or programmes of the project to link from an element. */
export const stdLinkTargetsQuerySchema = z.object({
  type: z.enum(STD_LINK_TARGETS),
  search: z.string().trim().max(STD_LIMITS.search, 'Search for at most 100 characters.').default(''),
});
export const stdLinkTargetsSchema = z.object({
  targets: z.array(z.object({ id, label: z.string(), detail: z.string() })),
});

// ------------------------------------------------------------------------------------------------ mine

/** GET /my: the elements I own across the project's assessments, overdue first (/{projectId}/standards). */
export const stdMySchema = z.object({
  role: z.enum(STD_ROLES).nullable(),
  elements: z.array(
    z.object({
      req_id: id,
      assessment: z.object({ id, name: z.string() }),
      ref_id: z.string(),
      title: z.string(),
      result: stdResultSchema,
      status: stdStatusSchema,
      due_date: z.string().nullable(),
      overdue: z.boolean(),
    }),
  ),
  counts: z.object({
    owned: z.number().int(),
    overdue: z.number().int(),
    due_30: z.number().int(),
    open: z.number().int(),
  }),
});
export type StdMy = z.infer<typeof stdMySchema>;

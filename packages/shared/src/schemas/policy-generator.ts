import { z } from 'zod';
import { checkTemplate, TEMPLATE_NAME_PATTERN } from '../policy-generator/render.js';
import {
  ACCREDITORS,
  OWNER_TITLES,
  PROFILE_FLAGS,
  PROFILE_NAMES,
  SERVICE_LINES,
  TEMPLATE_SECTIONS,
  US_STATES,
  VARIABLE_TYPES,
} from '../policy-generator/vocabulary.js';
import { recordId } from './common.js';

/**
 * Contracts of the policy generator (issue 12; DOMAIN.md 4): the facility profile, templates with their versions,
 * preview, generate, regenerate and the optional writing assistant. Calls under
 * /api/projects/{id}/policy-generator; docs/policy-generator.md lists them. Times are ISO strings.
 */

export const PG_LIMITS = {
  name: 200,
  shortName: 60,
  address: 300,
  title: 200,
  category: 80,
  description: 1000,
  sectionHtml: 60_000,
  variables: 40,
  options: 30,
  label: 120,
  help: 300,
  standards: 60,
  note: 500,
  ownerTitle: 120,
} as const;

const trimmed = (max: number, label: string) => z.string().trim().max(max, `${label} is at most ${max} characters.`);

// ------------------------------------------------------------------ facility profile

export const facilityProfileInputSchema = z.object({
  legal_name: trimmed(PG_LIMITS.name, 'The legal name').min(1, 'Enter the legal name of the facility.'),
  short_name: trimmed(PG_LIMITS.shortName, 'The short name'),
  address: trimmed(PG_LIMITS.address, 'The address'),
  state: z.union([z.enum(US_STATES, { error: 'Choose a state.' }), z.literal('')]),
  bed_count: z
    .number({ error: 'Enter the number of licensed beds.' })
    .int('Beds are a whole number.')
    .min(0, 'Beds cannot be negative.')
    .max(5000, 'At most 5,000 beds.')
    .nullable(),
  service_lines: z.array(z.enum(SERVICE_LINES, { error: 'Unknown service line.' })).max(SERVICE_LINES.length),
  accreditors: z.array(z.enum(ACCREDITORS, { error: 'Unknown accreditor.' })).max(ACCREDITORS.length),
  owner_titles: z.partialRecord(z.enum(OWNER_TITLES), trimmed(PG_LIMITS.ownerTitle, 'A title')),
  default_review_interval_months: z
    .number({ error: 'Enter the review interval in months.' })
    .int('Months are a whole number.')
    .min(1, 'At least 1 month.')
    .max(60, 'At most 60 months.'),
});
export type FacilityProfileInput = z.infer<typeof facilityProfileInputSchema>;

export const facilityProfileSchema = facilityProfileInputSchema.extend({
  /** Saved at least once by a project admin (until then the fields are suggestions from the project). */
  saved: z.boolean(),
  /** Profile fields that are still empty and that templates use. */
  missing: z.array(z.string()),
  can_edit: z.boolean(),
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable(),
});
export type FacilityProfile = z.infer<typeof facilityProfileSchema>;

// ------------------------------------------------------------------ templates

export const templateVariableSchema = z
  .object({
    key: z
      .string()
      .regex(TEMPLATE_NAME_PATTERN, 'A key is lower-case letters, digits and _ (starting with a letter), 40 at most.')
      .refine((k) => !PROFILE_NAMES.has(k), 'This key belongs to the facility profile; choose another.'),
    label: z.string().trim().min(1, 'Enter a label.').max(PG_LIMITS.label),
    type: z.enum(VARIABLE_TYPES, { error: 'Choose a type.' }),
    required: z.boolean(),
    default: z.union([z.string().max(500), z.number(), z.boolean()]).nullable(),
    help: z.string().trim().max(PG_LIMITS.help),
    options: z.array(z.string().trim().min(1).max(PG_LIMITS.label)).max(PG_LIMITS.options),
  })
  .superRefine((v, ctx) => {
    if (v.type === 'select' && v.options.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'A choice needs at least one option.' });
    }
    if (new Set(v.options).size !== v.options.length) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'Options must differ.' });
    }
    if (v.default === null || v.default === '') return;
    const ok =
      v.type === 'boolean'
        ? typeof v.default === 'boolean'
        : v.type === 'number'
          ? typeof v.default === 'number'
          : v.type === 'select'
            ? typeof v.default === 'string' && v.options.includes(v.default)
            : v.type === 'text' || v.type === 'date'
              ? typeof v.default === 'string'
              : false; // departments and people have no default: they differ per project
    if (!ok) ctx.addIssue({ code: 'custom', path: ['default'], message: 'The default does not fit the type.' });
  });
export type TemplateVariable = z.infer<typeof templateVariableSchema>;

export const standardRefSchema = z.object({
  framework: z.string().trim().min(1, 'Enter the framework code.').max(40),
  ref_id: z.string().trim().min(1, 'Enter the element reference.').max(80),
});
export type StandardRef = z.infer<typeof standardRefSchema>;

export const templateSectionSchema = z.object({
  key: z.enum(TEMPLATE_SECTIONS),
  html: z.string().max(PG_LIMITS.sectionHtml, `A section is at most ${PG_LIMITS.sectionHtml} characters.`),
});

/** A template version's content: what the editor saves and what a generation pins. */
export const templateBodySchema = z
  .object({
    title: z.string().trim().min(1, 'Enter a title.').max(PG_LIMITS.title),
    category: z.string().trim().max(PG_LIMITS.category),
    description: z.string().trim().max(PG_LIMITS.description),
    requires_flags: z.array(z.enum(PROFILE_FLAGS)).max(PROFILE_FLAGS.length),
    sections: z.array(templateSectionSchema).min(1, 'A template has at least one section.').max(7),
    variables: z.array(templateVariableSchema).max(PG_LIMITS.variables),
    standards: z.array(standardRefSchema).max(PG_LIMITS.standards),
  })
  .superRefine((body, ctx) => {
    const keys = body.variables.map((v) => v.key);
    keys.forEach((key, i) => {
      if (keys.indexOf(key) !== i) {
        ctx.addIssue({ code: 'custom', path: ['variables', i, 'key'], message: 'Each variable needs its own key.' });
      }
    });
    const sections = body.sections.map((s) => s.key);
    sections.forEach((key, i) => {
      if (sections.indexOf(key) !== i) {
        ctx.addIssue({ code: 'custom', path: ['sections', i, 'key'], message: 'Each section appears once.' });
      }
    });
    const known = new Set<string>([...PROFILE_NAMES, ...keys]);
    body.sections.forEach((s, i) => {
      const problems = checkTemplate(s.html, known);
      if (problems.length) ctx.addIssue({ code: 'custom', path: ['sections', i, 'html'], message: problems[0]! });
    });
  });
export type TemplateBody = z.infer<typeof templateBodySchema>;

export const TEMPLATE_VERSION_STATUSES = ['draft', 'published', 'retired'] as const;

const personAt = z.object({ at: z.string(), by: z.string().nullable() });

export const templateSummarySchema = z.object({
  id: z.number(),
  code: z.string(),
  title: z.string(),
  category: z.string(),
  description: z.string(),
  /** global: the library shipped with the product (read-only to projects); project: this project's own. */
  scope: z.enum(['global', 'project']),
  derived_from: z.object({ id: z.number(), title: z.string() }).nullable(),
  requires_flags: z.array(z.string()),
  fits_profile: z.boolean(),
  standards: z.array(standardRefSchema),
  published: z.object({ id: z.number(), version: z.number(), published_at: z.string() }).nullable(),
  draft: z.object({ id: z.number(), version: z.number() }).nullable(),
  updated_at: z.string(),
});
export type TemplateSummary = z.infer<typeof templateSummarySchema>;

export const templateListSchema = z.object({
  templates: z.array(templateSummarySchema),
  can_edit: z.boolean(),
});

export const templateVersionSchema = z.object({
  id: z.number(),
  template_id: z.number(),
  version: z.number(),
  status: z.enum(TEMPLATE_VERSION_STATUSES),
  note: z.string(),
  published: personAt.nullable(),
  body: z.object({
    title: z.string(),
    category: z.string(),
    description: z.string(),
    requires_flags: z.array(z.string()),
    sections: z.array(templateSectionSchema),
    variables: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        type: z.enum(VARIABLE_TYPES),
        required: z.boolean(),
        default: z.union([z.string(), z.number(), z.boolean()]).nullable(),
        help: z.string(),
        options: z.array(z.string()),
      }),
    ),
    standards: z.array(standardRefSchema),
  }),
});
export type TemplateVersion = z.infer<typeof templateVersionSchema>;

/**
 * A standard the template lists, as this draft would meet it: its title where a framework the project can see has
 * it, whether the project assesses it (the draft is then linked to it) and whether the draft's text still cites it
 * (a section the profile leaves out may take the citation with it).
 */
export const standardCoverageSchema = standardRefSchema.extend({
  title: z.string().nullable(),
  assessed: z.boolean(),
  cited: z.boolean(),
});
export type StandardCoverage = z.infer<typeof standardCoverageSchema>;

export const templateDetailSchema = templateSummarySchema.extend({
  versions: z.array(
    z.object({
      id: z.number(),
      version: z.number(),
      status: z.enum(TEMPLATE_VERSION_STATUSES),
      note: z.string(),
      published: personAt.nullable(),
    }),
  ),
  /** The version the wizard uses (the published one), and the draft for editors. */
  current: templateVersionSchema.nullable(),
  working: templateVersionSchema.nullable(),
  /** The current version's standards as this project knows them: their titles and whether it assesses them. */
  current_standards: z.array(standardCoverageSchema.omit({ cited: true })),
  can_edit: z.boolean(),
});
export type TemplateDetail = z.infer<typeof templateDetailSchema>;

/** A new project template: a copy of a template (global or the project's), or a blank one with a title. */
export const templateCreateSchema = z.union([
  z.object({ copy_of: recordId }),
  z.object({ title: z.string().trim().min(1, 'Enter a title.').max(PG_LIMITS.title) }),
]);

export const templatePublishSchema = z.object({
  note: z.string().trim().max(PG_LIMITS.note, `A note is at most ${PG_LIMITS.note} characters.`),
});

// ------------------------------------------------------------------ preview, generate, regenerate

export const answersSchema = z
  .record(
    z.string().regex(TEMPLATE_NAME_PATTERN),
    z.union([z.string().max(2000, 'An answer is at most 2000 characters.'), z.number(), z.boolean(), z.null()]),
  )
  .refine((a) => Object.keys(a).length <= PG_LIMITS.variables, 'Too many answers.');
export type AnswersInput = z.infer<typeof answersSchema>;

export const sectionOverridesSchema = z.partialRecord(
  z.enum(TEMPLATE_SECTIONS),
  z.string().max(PG_LIMITS.sectionHtml, 'A section is at most 60000 characters.'),
);

export const previewInputSchema = z.object({
  template_version_id: recordId,
  answers: answersSchema,
  overrides: sectionOverridesSchema.optional(),
});

export const renderedSectionSchema = z.object({ key: z.enum(TEMPLATE_SECTIONS), title: z.string(), html: z.string() });

export const previewResultSchema = z.object({
  sections: z.array(renderedSectionSchema),
  html: z.string(),
  unresolved: z.array(z.string()),
  missing_required: z.array(z.string()),
  errors: z.record(z.string(), z.string()),
  standards: z.array(standardCoverageSchema),
});
export type PreviewResult = z.infer<typeof previewResultSchema>;

export const generateInputSchema = previewInputSchema.extend({
  title: z.string().trim().min(1, 'Enter a title.').max(PG_LIMITS.title),
  department_id: recordId.nullable(),
  number: z.string().trim().max(40).nullable(),
  owner_id: recordId.nullable(),
});
export type GenerateInput = z.infer<typeof generateInputSchema>;

export const generateResultSchema = z.object({
  document_id: z.number(),
  generation_id: z.number(),
  unresolved: z.array(z.string()),
  /** Standards elements the template lists that this project has, linked to the draft as suggestions. */
  links_added: z.number(),
  links_unmatched: z.array(z.string()),
});

export const generationSchema = z.object({
  id: z.number(),
  document: z.object({ id: z.number(), number: z.string().nullable(), title: z.string(), status: z.string() }),
  template: z.object({ id: z.number(), title: z.string() }),
  version: z.number(),
  latest_version: z.number().nullable(),
  update_available: z.boolean(),
  kind: z.enum(['generate', 'regenerate']),
  unresolved: z.array(z.string()),
  assisted: z.boolean(),
  created: personAt,
});
export type Generation = z.infer<typeof generationSchema>;
export const generationListSchema = z.object({ generations: z.array(generationSchema) });

export const generationDetailSchema = generationSchema.extend({
  answers: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  template_version_id: z.number(),
});

export const regenerateInputSchema = z.object({
  /** A newer published version of the same template (default: the latest). */
  template_version_id: recordId.optional(),
  /** Changed answers; unchanged ones are taken from the last generation. */
  answers: answersSchema.optional(),
});

export const regenerateResultSchema = z.object({
  document_id: z.number(),
  generation_id: z.number(),
  version: z.number(),
  unresolved: z.array(z.string()),
  redline: z.object({ html: z.string(), insertions: z.number(), deletions: z.number() }),
});

// ------------------------------------------------------------------ writing assistant (optional)

/** What the assistant does to one section: four rewrites of it as it is, or an addition for a standard. */
export const ASSIST_ACTIONS = ['clearer', 'shorter', 'formal', 'plain', 'address_standard'] as const;
export type AssistAction = (typeof ASSIST_ACTIONS)[number];
export const ASSIST_REWRITES = ['clearer', 'shorter', 'formal', 'plain'] as const satisfies readonly AssistAction[];
export const ASSIST_ACTION_LABELS: Record<AssistAction, string> = {
  clearer: 'Make it clearer',
  shorter: 'Make it shorter',
  formal: 'More formal',
  plain: 'Plain language',
  address_standard: 'Address a standard',
};

/**
 * GET /assist: whether the operator configured a writing assistant, its model and what it offers. Off, it answers
 * `enabled: false` (not a 404 a browser logs as an error on every wizard); its calls still answer 404.
 */
export const assistStatusSchema = z.object({
  enabled: z.boolean(),
  model: z.string().nullable(),
  actions: z.array(z.enum(ASSIST_ACTIONS)),
});

export const refineInputSchema = z
  .object({
    template_version_id: recordId,
    section_key: z.enum(TEMPLATE_SECTIONS),
    /** The section as the author sees it now (rendered, or an earlier accepted suggestion). */
    html: z.string().min(1, 'The section is empty.').max(PG_LIMITS.sectionHtml),
    action: z.enum(ASSIST_ACTIONS),
    /** For address_standard: one of the standards the template version lists (DOMAIN.md 4.2 "suggest missing"). */
    standard: standardRefSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.action === 'address_standard' && !input.standard)
      ctx.addIssue({ code: 'custom', path: ['standard'], message: 'Choose the standard to address.' });
    if (input.action !== 'address_standard' && input.standard)
      ctx.addIssue({ code: 'custom', path: ['standard'], message: 'Only "Address a standard" takes a standard.' });
  });
export type RefineInput = z.infer<typeof refineInputSchema>;

export const refineResultSchema = z.object({
  call_id: z.number(),
  html: z.string(),
  redline: z.object({ html: z.string(), insertions: z.number(), deletions: z.number() }),
});

export const assistDecisionSchema = z.object({ accepted: z.boolean() });

/** What the wizard's destination step and its department and person fields choose from. */
export const generatorLookupsSchema = z.object({
  departments: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      code: z.string(),
      /** The number a new policy of this department would get next under the numbering rules. */
      next_number: z.string().nullable(),
      reviewers: z.array(z.string()),
      signers: z.array(z.string()),
    }),
  ),
  /** The next number of a policy without a department. */
  next_number: z.string().nullable(),
  used_numbers: z.array(z.string()),
  /** Policy users (owners and people a template names). */
  people: z.array(z.object({ id: z.number(), name: z.string() })),
  /** Whether the caller may send a draft for review (authors and policy administrators). */
  can_generate: z.boolean(),
  can_edit_templates: z.boolean(),
});
export type GeneratorLookups = z.infer<typeof generatorLookupsSchema>;

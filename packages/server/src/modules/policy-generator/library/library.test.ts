import {
  ACCREDITORS,
  type Answers,
  assemblePolicy,
  citesStandard,
  defaultAnswers,
  OWNER_TITLES,
  type ProfileValues,
  profileValues,
  resolveAnswers,
  SERVICE_LINES,
  TEMPLATE_SECTIONS,
  type TemplateBody,
  templateBodySchema,
  VARIABLE_TYPES,
} from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { builtInRows, CMS_HOSPITAL_COP } from '../../standards/frameworks.service.js';
import { LIBRARY, LIBRARY_EDITION } from './index.js';

const CMS_CODE = CMS_HOSPITAL_COP.code;
const cmsRefs = new Set(builtInRows(CMS_HOSPITAL_COP).map((row) => row.refId));

const FULL_PROFILE: ProfileValues = {
  legal_name: 'Riverside Community Hospital, Inc.',
  short_name: 'Riverside',
  address: '100 River Road, Springfield, IL 62701',
  state: 'IL',
  bed_count: 180,
  service_lines: [...SERVICE_LINES],
  accreditors: [...ACCREDITORS],
  owner_titles: Object.fromEntries(OWNER_TITLES.map((t) => [t, `Title for ${t}`])),
  default_review_interval_months: 36,
};

const EMPTY_PROFILE: ProfileValues = {
  legal_name: '',
  short_name: '',
  address: '',
  state: '',
  bed_count: null,
  service_lines: [],
  accreditors: [],
  owner_titles: {},
  default_review_interval_months: 36,
};

const LOOKUP = {
  departments: new Map([[7, 'Quality and Patient Safety']]),
  users: new Map([[11, 'Jordan Lee, RN']]),
};

/** A sample answer of each type, as the wizard would send it. */
function sampleAnswer(variable: TemplateBody['variables'][number], flags: boolean): Answers[string] {
  switch (variable.type) {
    case 'text':
      return 'Sample answer';
    case 'date':
      return '2026-03-05';
    case 'select':
      return variable.options.at(-1)!;
    case 'number':
      return 12;
    case 'boolean':
      return flags;
    case 'department':
      return 7;
    case 'user':
      return 11;
  }
}

/** The defaults, with every required variable answered (optional ones too when `all`); booleans set to `flags`. */
function answersFor(body: TemplateBody, { all, flags }: { all: boolean; flags: boolean }): Answers {
  const answers: Record<string, Answers[string]> = { ...defaultAnswers(body.variables) };
  for (const v of body.variables) {
    if (v.type === 'boolean') answers[v.key] = flags;
    else if (all || (v.required && (answers[v.key] === null || answers[v.key] === ''))) {
      answers[v.key] = sampleAnswer(v, flags);
    }
  }
  return answers;
}

function render(body: TemplateBody, profile: ProfileValues, answers: Answers) {
  const resolved = resolveAnswers(body.variables, answers, LOOKUP);
  const policy = assemblePolicy(body.sections, { ...profileValues(profile), ...resolved.values });
  return { resolved, policy };
}

const allText = (body: TemplateBody) =>
  [body.title, body.description, ...body.sections.map((s) => s.html), ...body.variables.map((v) => v.help)].join('\n');

const wordCount = (body: TemplateBody) =>
  body.sections
    .map((s) => s.html.replace(/<[^>]*>/g, ' ').replace(/\{\{[^}]*\}\}/g, ' x '))
    .join(' ')
    .split(/\s+/)
    .filter(Boolean).length;

describe('built-in policy template library', () => {
  it('has an edition, at least 12 templates and unique codes', () => {
    expect(LIBRARY_EDITION).toBeGreaterThanOrEqual(1);
    expect(LIBRARY.length).toBeGreaterThanOrEqual(12);
    const codes = LIBRARY.map((t) => t.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[a-z][a-z0-9-]*$/);
    const titles = LIBRARY.map((t) => t.body.title);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('uses every variable type somewhere in the library', () => {
    const used = new Set(LIBRARY.flatMap((t) => t.body.variables.map((v) => v.type)));
    expect([...used].sort()).toEqual([...VARIABLE_TYPES].sort());
  });

  describe.each(LIBRARY.map((t) => [t.code, t] as const))('%s', (_code, template) => {
    const { body } = template;

    it('is a valid template body', () => {
      const result = templateBodySchema.safeParse(body);
      if (!result.success) console.error(template.code, JSON.stringify(result.error.issues, null, 2));
      expect(result.success).toBe(true);
    });

    it('has all seven sections, in order, none empty', () => {
      expect(body.sections.map((s) => s.key)).toEqual([...TEMPLATE_SECTIONS]);
      for (const section of body.sections) expect(section.html.replace(/<[^>]*>/g, '').trim()).not.toBe('');
    });

    it('writes only the HTML the policy editor produces', () => {
      for (const section of body.sections) {
        const tags = [...section.html.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*)>/g)];
        for (const [raw, name, rest] of tags) {
          expect(['p', 'h3', 'ul', 'ol', 'li', 'strong', 'em'], `${template.code}: ${raw}`).toContain(name);
          expect(rest!.trim(), `${template.code}: ${raw}`).toBe('');
        }
        expect(section.html).not.toMatch(/<li>(?!<p>)/);
      }
    });

    it('has 2 to 6 own variables, each with help, each used; people and departments without a default', () => {
      expect(body.variables.length).toBeGreaterThanOrEqual(2);
      expect(body.variables.length).toBeLessThanOrEqual(6);
      const html = body.sections.map((s) => s.html).join('\n');
      for (const v of body.variables) {
        expect(v.help.trim(), v.key).not.toBe('');
        expect(html, `${v.key} is never used`).toMatch(new RegExp(`\\{\\{(#if |#unless )?${v.key}(\\|date)?\\}\\}`));
        if (v.type === 'department' || v.type === 'user') expect(v.default, v.key).toBeNull();
      }
    });

    it('is a policy of useful length', () => {
      const words = wordCount(body);
      expect(words, `${template.code} has ${words} words`).toBeGreaterThanOrEqual(380);
      expect(words, `${template.code} has ${words} words`).toBeLessThanOrEqual(1100);
      expect(body.description.length).toBeGreaterThan(20);
      expect(body.category).not.toBe('');
    });

    it('resolves completely with a full profile and the required answers', () => {
      for (const flags of [true, false]) {
        const { resolved, policy } = render(body, FULL_PROFILE, answersFor(body, { all: false, flags }));
        expect(resolved.errors).toEqual({});
        expect(resolved.missing).toEqual([]);
        expect(policy.unresolved).toEqual([]);
        expect(policy.sections.map((s) => s.key)).toEqual([...TEMPLATE_SECTIONS]);
        expect(policy.html).not.toMatch(/<script/i);
        expect(policy.html).not.toContain('{{');
      }
      const { policy } = render(body, FULL_PROFILE, answersFor(body, { all: true, flags: true }));
      expect(policy.unresolved).toEqual([]);
      expect(policy.html).not.toMatch(/<script/i);
    });

    it('leaves the facility name unresolved with an empty profile and no answers', () => {
      const { policy } = render(body, EMPTY_PROFILE, {});
      expect(policy.unresolved).toContain('facility_name');
      expect(policy.html).not.toMatch(/<script/i);
    });

    it('lists CMS standards that exist in the built-in framework', () => {
      expect(body.standards.length).toBeGreaterThanOrEqual(1);
      for (const ref of body.standards) {
        expect(ref.framework).toBe(CMS_CODE);
        expect(cmsRefs.has(ref.ref_id), `${ref.ref_id} is not in cms-482.csv`).toBe(true);
      }
      expect(new Set(body.standards.map((s) => s.ref_id)).size).toBe(body.standards.length);
    });

    it('cites in its text every standard it lists, so the wizard shows each one as cited', () => {
      const { policy } = render(body, FULL_PROFILE, answersFor(body, { all: true, flags: true }));
      const notCited = body.standards.filter((ref) => !citesStandard(policy.html, ref.ref_id)).map((r) => r.ref_id);
      expect(notCited, `${template.code} lists but does not cite these`).toEqual([]);
    });

    it('names accreditors without quoting their standards', () => {
      const text = allText(body);
      expect(text).not.toMatch(/\bEP\s*\d/);
      expect(text).not.toMatch(/Element of Performance/i);
    });
  });
});

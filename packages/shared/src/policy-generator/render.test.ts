import { describe, expect, it } from 'vitest';
import { templateBodySchema } from '../schemas/policy-generator.js';
import { assemblePolicy, defaultAnswers, resolveAnswers, type VariableDef } from './generate.js';
import { checkTemplate, formatTemplateDate, renderTemplate, templateNames, unresolvedIn } from './render.js';
import { PROFILE_NAMES, profileValues } from './vocabulary.js';

describe('template renderer: variables', () => {
  it('inserts values, dates and numbers as text', () => {
    const { html, unresolved } = renderTemplate(
      '<p>{{facility_name}} reviews this every {{months}} months from {{effective_date|date}}.</p>',
      { facility_name: 'Riverside General', months: 24, effective_date: '2026-03-05' },
    );
    expect(html).toBe('<p>Riverside General reviews this every 24 months from March 5, 2026.</p>');
    expect(unresolved).toEqual([]);
  });

  it('keeps a variable holding HTML as text, never as markup', () => {
    const { html } = renderTemplate('<p>Owner: {{owner}}</p>', {
      owner: '<img src=x onerror="alert(1)"><script>alert(2)</script> & "friends"',
    });
    expect(html).toBe(
      '<p>Owner: &lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt; &amp; &quot;friends&quot;</p>',
    );
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
  });

  it('leaves an absent value as a visible placeholder, marked in the preview, and lists it once', () => {
    const template = '<p>{{facility_name}} and {{facility_name}} and {{dept}}</p>';
    const plain = renderTemplate(template, { dept: 'Nursing' });
    expect(plain.html).toBe('<p>{{facility_name}} and {{facility_name}} and Nursing</p>');
    expect(plain.unresolved).toEqual(['facility_name']);
    const marked = renderTemplate(template, {}, { markUnresolved: true });
    expect(marked.html).toContain('<mark class="pg-unresolved"><code>{{facility_name}}</code></mark>');
    expect(marked.unresolved).toEqual(['facility_name', 'dept']);
    expect(unresolvedIn(plain.html)).toEqual(['facility_name']);
  });

  it('renders null and empty text as nothing (an optional answer left out)', () => {
    expect(renderTemplate('<p>a{{x}}b{{y}}c</p>', { x: null, y: '' }).html).toBe('<p>abc</p>');
  });

  it('writes booleans as Yes / No and leaves a malformed date as typed', () => {
    expect(renderTemplate('<p>{{a}} {{b}} {{c|date}}</p>', { a: true, b: false, c: 'soon' }).html).toBe(
      '<p>Yes No soon</p>',
    );
    expect(formatTemplateDate('2026-12-31')).toBe('December 31, 2026');
    expect(formatTemplateDate('2026-13-01')).toBe('2026-13-01');
  });

  it('never reads placeholders inside markup', () => {
    const { html, unresolved } = renderTemplate('<p><a href="{{url}}">link</a></p>', {});
    expect(html).toBe('<p><a href="{{url}}">link</a></p>');
    expect(unresolved).toEqual([]);
    expect(checkTemplate('<p><a href="{{url}}">link</a></p>')).toEqual([
      'Placeholders go in the text, not inside links or other markup.',
    ]);
  });

  it('copes with ">" inside an attribute value', () => {
    expect(renderTemplate('<p title="a > b">{{x}}</p>', { x: 'y' }).html).toBe('<p title="a > b">y</p>');
  });
});

describe('template renderer: conditions', () => {
  const template =
    '<p>All units.</p><p>{{#if has_ob}}</p><p>Newborns get two bands.</p><p>{{/if}}</p>' +
    '<p>{{#unless has_ed}}</p><p>No emergency department.</p><p>{{/unless}}</p>';

  it('keeps or drops whole paragraphs by flag', () => {
    expect(renderTemplate(template, { has_ob: true, has_ed: true }).html).toBe(
      '<p>All units.</p><p>Newborns get two bands.</p>',
    );
    expect(renderTemplate(template, { has_ob: false, has_ed: false }).html).toBe(
      '<p>All units.</p><p>No emergency department.</p>',
    );
  });

  it('works inside a paragraph and treats a missing flag as off', () => {
    const inline = '<p>Wash hands{{#if gloves}} and change gloves{{/if}}.</p>';
    expect(renderTemplate(inline, { gloves: true }).html).toBe('<p>Wash hands and change gloves.</p>');
    expect(renderTemplate(inline, {}).html).toBe('<p>Wash hands.</p>');
  });

  it('nests, and does not report placeholders of a dropped branch', () => {
    const nested = '<p>{{#if a}}A{{#unless b}} not B {{x}}{{/unless}}{{/if}}</p>';
    expect(renderTemplate(nested, { a: true, b: false, x: 'X' }).html).toBe('<p>A not B X</p>');
    expect(renderTemplate(nested, { a: true, b: true }).html).toBe('<p>A</p>');
    expect(renderTemplate(nested, { a: false }).unresolved).toEqual([]);
  });

  it('removes list items and lists a dropped branch leaves empty', () => {
    const list = '<ul><li><p>{{#if icu}}ICU{{/if}}</p></li></ul><p>Rest</p>';
    expect(renderTemplate(list, { icu: false }).html).toBe('<p>Rest</p>');
    expect(renderTemplate(list, { icu: true }).html).toBe('<ul><li><p>ICU</p></li></ul><p>Rest</p>');
  });

  it('treats a non-empty text and a non-zero number as set', () => {
    const t = '<p>{{#if v}}yes{{/if}}</p>';
    expect(renderTemplate(t, { v: 'x' }).html).toBe('<p>yes</p>');
    expect(renderTemplate(t, { v: ' ' }).html).toBe('');
    expect(renderTemplate(t, { v: 0 }).html).toBe('');
    expect(renderTemplate(t, { v: 3 }).html).toBe('<p>yes</p>');
  });
});

describe('checkTemplate', () => {
  it('accepts a balanced template and names its variables and conditions', () => {
    const t = '<p>{{#if has_ob}}</p><p>{{facility_name}} {{start|date}}</p><p>{{/if}}</p>';
    expect(checkTemplate(t, new Set(['has_ob', 'facility_name', 'start']))).toEqual([]);
    expect(templateNames(t)).toEqual({ variables: ['facility_name', 'start'], conditions: ['has_ob'] });
  });

  it.each([
    ['<p>{{#if a}}x</p>', '{{#if a}} is never closed: add {{/if}}.'],
    ['<p>x{{/if}}</p>', '{{/if}} has no {{#if …}} to close.'],
    ['<p>{{#if a}}x{{/unless}}</p>', '{{#if a}} is closed by {{/unless}}; close it with {{/if}}.'],
    ['<p>{{#if a}}x</p><p>y{{/if}}</p>', '{{#if a}} must close inside the same paragraph or list item it opens in.'],
    [
      '<p>{{ foo bar }}</p>',
      '{{ foo bar }} is not a placeholder: write {{name}}, {{name|date}}, {{#if name}}, {{#unless name}}, {{/if}} or {{/unless}}.',
    ],
    ['<p>{{x|upper}}</p>', '{{x|upper}}: the only filter is |date.'],
    ['<p>{{#if Bad-Name}}x{{/if}}</p>', '{{#if Bad-Name}}: "Bad-Name" is not a name.'],
    [
      '<p>{{> partial}}</p>',
      '{{> partial}} is not a placeholder: write {{name}}, {{name|date}}, {{#if name}}, {{#unless name}}, {{/if}} or {{/unless}}.',
    ],
  ])('reports %s', (template, problem) => {
    expect(checkTemplate(template)).toContain(problem);
  });

  it('leaves a stray closing tag outside any condition to the sanitiser (it failed with a TypeError)', () => {
    expect(checkTemplate('</p><p>{{x}}</p></div>', new Set(['x']))).toEqual([]);
  });

  it('reports names that are neither variables nor profile names', () => {
    expect(checkTemplate('<p>{{nobody}} {{#if nothing}}x{{/if}}</p>', new Set(['somebody']))).toEqual([
      '{{nobody}} is not a variable of this template.',
      '{{#if nothing}}: "nothing" is not a flag or variable of this template.',
    ]);
  });
});

describe('answers and assembly', () => {
  const variables: VariableDef[] = [
    { key: 'lead', label: 'Program lead', type: 'user', required: true, default: null, help: '', options: [] },
    { key: 'unit', label: 'Department', type: 'department', required: false, default: null, help: '', options: [] },
    { key: 'target', label: 'Target', type: 'number', required: true, default: 90, help: '', options: [] },
    { key: 'start', label: 'Start', type: 'date', required: false, default: null, help: '', options: [] },
    {
      key: 'mode',
      label: 'Mode',
      type: 'select',
      required: false,
      default: 'audit',
      help: '',
      options: ['audit', 'observe'],
    },
    { key: 'gloves', label: 'Gloves', type: 'boolean', required: false, default: false, help: '', options: [] },
  ];
  const lookup = { departments: new Map([[3, 'Nursing']]), users: new Map([[7, 'Ada Lovelace']]) };

  it('turns ids into names and checks each type', () => {
    const r = resolveAnswers(variables, { lead: 7, unit: 3, target: 95, start: '2026-02-30', mode: 'guess' }, lookup);
    expect(r.values).toMatchObject({ lead: 'Ada Lovelace', unit: 'Nursing', target: 95, gloves: false });
    expect(r.errors).toEqual({ start: 'Start is a date (YYYY-MM-DD).', mode: 'Choose one of the options of Mode.' });
    expect(r.missing).toEqual([]);
  });

  it('lists missing required answers and refuses another project’s ids', () => {
    const r = resolveAnswers(variables, { lead: 99, target: null }, lookup);
    expect(r.errors.lead).toBe('Choose a member of this project.');
    expect(r.missing).toEqual(['lead', 'target']);
    expect(r.values.unit).toBe('');
    expect(r.values.lead).toBeUndefined();
  });

  it('starts from the defaults', () => {
    expect(defaultAnswers(variables)).toEqual({
      lead: null,
      unit: null,
      target: 90,
      start: null,
      mode: 'audit',
      gloves: false,
    });
  });

  it('assembles sections in their order under headings, leaving out empty ones, with overrides', () => {
    const policy = assemblePolicy(
      [
        { key: 'scope', html: '<p>{{#if has_icu}}ICU{{/if}}</p>' },
        { key: 'purpose', html: '<p>For {{facility_name}}.</p>' },
        { key: 'procedure', html: '<ol><li><p>Step</p></li></ol>' },
      ],
      {
        ...profileValues({
          legal_name: 'Riverside',
          short_name: '',
          address: '',
          state: '',
          bed_count: null,
          service_lines: [],
          accreditors: [],
          owner_titles: {},
          default_review_interval_months: 24,
        }),
      },
      { overrides: { procedure: '<p>Rewritten {{missing_one}}</p>' } },
    );
    expect(policy.html).toBe('<h2>Purpose</h2><p>For Riverside.</p><h2>Procedure</h2><p>Rewritten {{missing_one}}</p>');
    expect(policy.sections.map((s) => s.key)).toEqual(['purpose', 'procedure']);
    expect(policy.unresolved).toEqual(['missing_one']);
  });

  it('lends the profile: empty texts stay unresolved, flags are true or false', () => {
    const values = profileValues({
      legal_name: 'Riverside General Hospital',
      short_name: '',
      address: ' ',
      state: 'OH',
      bed_count: 120,
      service_lines: ['ob'],
      accreditors: ['tjc'],
      owner_titles: { cno: 'Chief Nursing Officer' },
      default_review_interval_months: 36,
    });
    expect(values).toMatchObject({
      facility_name: 'Riverside General Hospital',
      facility_short_name: 'Riverside General Hospital',
      facility_state: 'OH',
      bed_count: 120,
      has_ob: true,
      has_ed: false,
      accreditor_tjc: true,
      title_cno: 'Chief Nursing Officer',
    });
    expect(values.facility_address).toBeUndefined();
    expect(values.title_ceo).toBeUndefined();
    expect(Object.keys(values).every((k) => PROFILE_NAMES.has(k))).toBe(true);
  });
});

describe('templateBodySchema', () => {
  const body = {
    title: 'Hand hygiene',
    category: 'Infection Prevention',
    description: '',
    requires_flags: [],
    sections: [{ key: 'purpose', html: '<p>{{facility_name}} {{target}}</p>' }],
    variables: [{ key: 'target', label: 'Target', type: 'number', required: true, default: 90, help: '', options: [] }],
    standards: [{ framework: 'CMS-482', ref_id: '§482.42(a)' }],
  };

  it('accepts a valid body', () => {
    expect(templateBodySchema.safeParse(body).success).toBe(true);
  });

  it('refuses a variable that reuses a profile name, duplicate keys, unknown names and a bad default', () => {
    const bad = templateBodySchema.safeParse({
      ...body,
      sections: [{ key: 'purpose', html: '<p>{{unknown}}</p>' }],
      variables: [
        { ...body.variables[0], key: 'facility_name' },
        { ...body.variables[0], key: 'x', type: 'select', options: ['a'], default: 'b' },
        { ...body.variables[0], key: 'x' },
      ],
    });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(
      expect.arrayContaining(['variables.0.key', 'variables.1.default', 'variables.2.key', 'sections.0.html']),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  BASE,
  chooseFile,
  errorAt,
  field,
  framework,
  MEMBERS,
  me,
  openApp,
  optionsOf,
  pick,
  STD_API,
  seriousViolations,
  sessionRoutes,
  toasts,
} from './std-test-fixtures';

const CMS = framework({
  id: 3,
  name: 'CMS Conditions of Participation',
  chapters: [
    { id: 100, ref_id: '§482.23', title: 'Nursing services', assessable_count: 4, optional: false },
    { id: 200, ref_id: '§482.24', title: 'Medical record services', assessable_count: 2, optional: false },
    { id: 300, ref_id: '§482.42', title: 'Infection prevention', assessable_count: 3, optional: false },
  ],
});
const TJC = framework({
  id: 4,
  name: 'Joint Commission Hospital',
  code: 'TJC-HAP',
  publisher: 'The Joint Commission',
  edition: '2026',
  text_policy: 'identifiers_only',
  assessable_count: 10,
  chapters: [{ id: 400, ref_id: 'PC', title: 'Provision of care', assessable_count: 10, optional: false }],
});

function server(extra: Record<string, unknown> = {}, ability = me()) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${STD_API}/me`]: jsonResponse(ability),
    [`GET ${STD_API}/frameworks`]: jsonResponse({ frameworks: [CMS, TJC] }),
    [`GET ${STD_API}/members`]: jsonResponse(MEMBERS),
    [`GET ${STD_API}/assessments`]: jsonResponse({ assessments: [] }),
    ...(extra as Record<string, never>),
  });
}

/** The control a label points at (a file picker's is a button). */
function control(label: string): HTMLElement {
  const found = [...document.querySelectorAll('label')].find(
    (item) => item.textContent?.replace(/\s*\*\s*$/, '').trim() === label,
  );
  const target = found?.htmlFor ? document.getElementById(found.htmlFor) : null;
  if (!target) throw new Error(`no control ${label}`);
  return target;
}

const open = () => openApp(`${BASE}/create`);
const card = (id: number) => document.querySelector<HTMLElement>(`[data-framework-id="${id}"]`)!;

describe('CreateAssessmentPage', () => {
  it('checks each step before the next and posts the assessment', async () => {
    const api = server({ [`POST ${STD_API}/assessments`]: jsonResponse({ id: 42 }, 201) });
    const router = await open();
    await waitFor(() => expect(card(3)).not.toBeNull());
    expect(document.title).toContain('Create an assessment');
    expect(card(3).textContent).toContain('Public domain text included');
    expect(card(4).textContent).toContain('Identifiers only; the facility writes its own wording');
    expect(card(4).textContent).toContain('The Joint Commission · edition 2026 · TJC-HAP');
    expect(card(4).textContent).toContain('10 elements to assess in 1 chapter');

    // 1. Framework
    await click(getControl('Next'));
    expect(text()).toContain('Choose a framework.');
    await click(card(3));
    await click(getControl('Next'));

    // 2. Name and kind
    await waitFor(() => expect(field('Name')).toBeDefined());
    await click(getControl('Next'));
    expect(errorAt(field('Name'))).toBe('Enter a name for the assessment.');
    await typeInto(field('Name'), 'Mock survey spring 2027');
    await click(field('Mock survey'));
    await typeInto(field('Scope'), 'Main campus');
    await click(getControl('Next'));

    // 3. Not applicable chapters, each with its reason
    await waitFor(() => expect(field('§482.24 Medical record services')).toBeDefined());
    await click(field('§482.24 Medical record services'));
    await click(getControl('Next'));
    expect(errorAt(field('Why §482.24 does not apply'))).toBe('Say why this part does not apply.');
    await typeInto(field('Why §482.24 does not apply'), 'Records are kept by the parent system.');
    await click(getControl('Next'));

    // 4. Survey window
    await waitFor(() => expect(field('Window opens')).toBeDefined());
    await typeInto(field('Window opens'), '2027-06-30');
    await typeInto(field('Window closes'), '2027-03-01');
    await click(getControl('Next'));
    expect(errorAt(field('Window closes'))).toBe('The window ends before it starts.');
    await typeInto(field('Window closes'), '2027-07-31');
    await click(getControl('Next'));

    // 5. Owners by chapter: only people with a standards role, only chapters that apply
    await waitFor(() => expect(field('Owner of §482.23')).toBeDefined());
    expect(() => field('Owner of §482.24')).toThrow();
    expect(await optionsOf('Owner of §482.23')).toEqual(['Ada Admin', 'Ben Owner']);
    await pick('Owner of §482.23', 'Ben Owner');
    await click(getControl('Create assessment'));

    await waitFor(() => expect(api.calls(`POST ${STD_API}/assessments`)).toHaveLength(1));
    expect(api.calls(`POST ${STD_API}/assessments`)[0]!.body).toEqual({
      framework_id: 3,
      name: 'Mock survey spring 2027',
      kind: 'mock',
      scope_note: 'Main campus',
      survey_window_start: '2027-06-30',
      survey_window_end: '2027-07-31',
      not_applicable: [{ node_id: 200, reason: 'Records are kept by the parent system.' }],
      owners: [{ node_id: 100, user_id: 22 }],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/compilence`));
    expect(router.state.location.search).toBe('?assessment=42');
    await waitFor(() => expect(toasts()).toContain('Created Mock survey spring 2027.'));
  });

  it('starts an optional part (42 CFR 482 subpart E) as not applicable, with the reason', async () => {
    const ecfr = framework({
      id: 5,
      name: 'CMS Conditions of Participation',
      edition: 'eCFR as of 2025-01-01',
      as_of: '2025-01-01',
      chapters: [
        { id: 500, ref_id: 'Subpart C', title: 'Basic Hospital Functions', assessable_count: 40, optional: false },
        {
          id: 600,
          ref_id: 'Subpart E',
          title: 'Requirements for Specialty Hospitals',
          assessable_count: 9,
          optional: true,
        },
      ],
    });
    const api = server({
      [`GET ${STD_API}/frameworks`]: jsonResponse({ frameworks: [ecfr] }),
      [`POST ${STD_API}/assessments`]: jsonResponse({ id: 43 }, 201),
    });
    await open();
    await waitFor(() => expect(card(5)).not.toBeNull());
    await click(card(5));
    await click(getControl('Next'));
    await typeInto(field('Name'), 'Self-assessment 2027');
    await click(getControl('Next'));
    await waitFor(() => expect(field('Why Subpart E does not apply')).toBeDefined());
    expect((field('Subpart E Requirements for Specialty Hospitals') as HTMLInputElement).checked).toBe(true);
    expect((field('Subpart C Basic Hospital Functions') as HTMLInputElement).checked).toBe(false);
    expect((field('Why Subpart E does not apply') as HTMLInputElement).value).toMatch(
      /^An optional part: it applies only to the facilities it names/,
    );
    for (let step = 0; step < 2; step += 1) await click(getControl('Next'));
    await waitFor(() => expect(getControl('Create assessment')).toBeDefined());
    await click(getControl('Create assessment'));
    await waitFor(() => expect(api.calls(`POST ${STD_API}/assessments`)).toHaveLength(1));
    expect((api.calls(`POST ${STD_API}/assessments`)[0]!.body as { not_applicable: unknown[] }).not_applicable).toEqual(
      [{ node_id: 600, reason: expect.stringMatching(/^An optional part/) }],
    );
  });

  it('shows the server field errors on their step', async () => {
    server({
      [`POST ${STD_API}/assessments`]: jsonResponse(
        {
          message: 'An assessment with this name exists.',
          errors: { name: ['An assessment with this name exists.'] },
        },
        400,
      ),
    });
    await open();
    await waitFor(() => expect(card(4)).not.toBeNull());
    await click(card(4));
    await click(getControl('Next'));
    await typeInto(field('Name'), 'Self-assessment 2026');
    for (let step = 0; step < 3; step += 1) await click(getControl('Next'));
    await waitFor(() => expect(getControl('Create assessment')).toBeDefined());
    await click(getControl('Create assessment'));
    await waitFor(() => expect(errorAt(field('Name'))).toBe('An assessment with this name exists.'));
    expect(text()).toContain('The assessment was not created. See the messages at the fields.');
  });

  it('imports a framework from CSV and chooses it', async () => {
    const imported = framework({ id: 9, name: 'State of New York hospital rules', code: 'STATE-NY', built_in: false });
    const api = server({
      [`GET ${STD_API}/frameworks`]: [
        jsonResponse({ frameworks: [CMS] }),
        jsonResponse({ frameworks: [CMS, imported] }),
      ],
      [`POST ${STD_API}/frameworks/import`]: (request: StubRequest) => {
        const body = request.body as { csv: string };
        return body.csv.includes('ref_id')
          ? jsonResponse({ id: 9 }, 201)
          : jsonResponse(
              { message: 'The file has problems.', errors: { csv: ['Row 2: no title.', 'Row 3: no type.'] } },
              400,
            );
      },
    });
    await open();
    await waitFor(() => expect(card(3)).not.toBeNull());
    expect(text()).toContain(
      'Copyrighted standards (Joint Commission, DNV) are stored as identifiers and titles only; write your facility’s own wording per element.',
    );
    expect(text()).toContain('ref_id,parent_ref_id,type,title');

    await click(getControl('Import framework'));
    expect(errorAt(field('Code'))).toBe('Enter a code, like TJC-HAP or STATE-NY.');
    expect(errorAt(control('CSV file'))).toBe('Choose a CSV file.');
    expect(api.calls(`POST ${STD_API}/frameworks/import`)).toHaveLength(0);

    await typeInto(field('Code'), 'STATE-NY');
    await typeInto(field('Name'), 'State of New York hospital rules');
    await typeInto(field('Publisher'), 'New York State DOH');
    await typeInto(field('Edition'), '2026');
    await click(field('Our facility’s own framework, with its text'));
    await chooseFile(new File(['x,y\n1,2\n'], 'bad.csv', { type: 'text/csv' }));
    await click(getControl('Import framework'));
    await waitFor(() => expect(text()).toContain('Row 3: no type.'));
    expect(text()).toContain('Row 2: no title.');

    const csv =
      'ref_id,parent_ref_id,type,title,text\n405,,chapter,Hospitals,\n405.2,405,element,Governing body,Text\n';
    await chooseFile(new File([csv], 'ny.csv', { type: 'text/csv' }));
    await click(getControl('Import framework'));
    await waitFor(() => expect(toasts()).toContain('Imported State of New York hospital rules.'));
    expect(api.calls(`POST ${STD_API}/frameworks/import`)[1]!.body).toEqual({
      code: 'STATE-NY',
      name: 'State of New York hospital rules',
      publisher: 'New York State DOH',
      edition: '2026',
      text_policy: 'tenant_text',
      public_url: '',
      csv,
    });
    await waitFor(() => expect(card(9)).not.toBeNull());
    expect(card(9).getAttribute('aria-checked')).toBe('true');
    expect(card(9).textContent).toContain('Imported by this project');
  });

  it('has no serious accessibility problem on its first steps', async () => {
    server();
    await open();
    await waitFor(() => expect(card(3)).not.toBeNull());
    expect(await seriousViolations()).toEqual([]);
    await click(card(3));
    await click(getControl('Next'));
    await waitFor(() => expect(field('Name')).toBeDefined());
    expect(await seriousViolations()).toEqual([]);
  });

  it('tells someone who may not create assessments, and hides the import', async () => {
    const api = server({}, me('owner', false));
    await open();
    await waitFor(() => expect(text()).toContain('Only a standards admin can create assessments.'));
    expect(api.calls(`GET ${STD_API}/frameworks`)).toHaveLength(0);
    expect(() => getControl('Import framework')).toThrow();
    expect(() => getControl('Next')).toThrow();
  });
});

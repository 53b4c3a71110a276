import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { errorOf, field, pick, rows, seriousViolations } from '../../../test/ui';
import {
  BASE,
  detail,
  generatorRoutes,
  lookups,
  openGenerator,
  PG_API,
  version,
  WIZARD_BODY,
} from './pg-test-fixtures';
import { DEPARTMENT_REQUIRED, departmentFor, NO_PUBLISHED_VERSION, NUMBER_USED } from './WizardPage';

afterEach(() => localStorage.clear());

const PATH = `${BASE}/templates/7/generate`;
const XSS = '<img src=x onerror=alert(1)>';

const preview = () => document.querySelector<HTMLElement>('[data-testid="preview"]')!;
const marks = () => [...preview().querySelectorAll('mark.pg-unresolved')].map((el) => el.textContent);
const section = (key: string) => document.querySelector<HTMLElement>(`[data-section="${key}"]`);
const warning = () => document.querySelector('[data-testid="missing-warning"]')?.textContent ?? null;
const activeStep = () => document.querySelector('[data-progress]')?.textContent ?? '';

function server(extra: Parameters<typeof generatorRoutes>[0] = {}) {
  return stubApi(generatorRoutes({ [`GET ${PG_API}/templates/7`]: jsonResponse(detail()), ...extra }));
}

/** The items of the menu a button opens. */
const menuItems = (target: HTMLElement) => [
  ...(document
    .getElementById(target.getAttribute('aria-controls') ?? '')
    ?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []),
];
const menuTexts = (target: HTMLElement) => menuItems(target).map((el) => el.textContent);

/** Opens the "Suggest a rewrite" menu of a section and picks `action` in it. */
async function suggest(key: string, action: string) {
  const target = getControl('Suggest a rewrite', section(key)!);
  await click(target);
  let item: HTMLElement | undefined;
  await waitFor(() => {
    item = menuItems(target).find((el) => el.textContent === action);
    expect(item).toBeDefined();
  });
  await click(item!);
}

async function toStep(name: string) {
  await click(getControl('Next'));
  await waitFor(() => expect(activeStep()).toContain(name));
}

/** Answers the template's two required questions. */
async function answerRequired(owner = 'Dana') {
  await typeInto(field('Program owner'), owner);
  await typeInto(field('Start date'), '2026-04-01');
}

/** From the profile check to the destination, answering what is required and choosing Nursing. */
async function toDestination() {
  await waitFor(() => expect(document.querySelector('[data-testid="profile-check"]')).not.toBeNull());
  await toStep('Answers');
  await answerRequired();
  await toStep('Preview');
  await toStep('Destination');
  await pick('Department', 'Nursing (NUR)');
}

describe('WizardPage', () => {
  it('checks the profile, takes the answers, previews safely and generates the draft', async () => {
    const api = server({
      [`POST ${PG_API}/generate`]: jsonResponse(
        {
          document_id: 88,
          generation_id: 3,
          unresolved: ['title_cno'],
          links_added: 2,
          links_unmatched: ['482.13(f)'],
        },
        201,
      ),
    });
    await openGenerator(PATH);

    // 1. The profile values the template uses, the missing one flagged.
    await waitFor(() => expect(document.querySelector('[data-testid="profile-check"]')).not.toBeNull());
    expect(rows('[data-testid="profile-check"]')).toEqual([
      ['Legal name', 'Lakeside Hospital Inc.'],
      ['Title: Chief nursing executive', 'Missing'],
      ['Offers: Obstetrics and newborn care', 'Yes'],
      ['Offers: Inpatient psychiatry', 'No'],
    ]);
    expect(getControl('Edit the facility profile').getAttribute('href')).toBe(`${BASE}/profile`);
    expect(document.title).toContain('Generate: Infant security');

    // 2. Answers: defaults filled; Next will not go on while a required one is empty, and says so under each.
    await toStep('Answers');
    expect(field('Drills per year').value).toBe('4');
    expect(field('Notify security').checked).toBe(false);
    expect(errorOf('Program owner')).toBeNull();
    await click(getControl('Next'));
    expect(activeStep()).toContain('Answers');
    expect(errorOf('Program owner')).toBe('Fill this in to go on.');
    expect(errorOf('Start date')).toBe('Choose a date to go on.');
    expect(errorOf('Drills per year')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(field('Program owner')));
    await typeInto(field('Program owner'), XSS);
    expect(errorOf('Program owner')).toBeNull();
    await click(getControl('Next'));
    expect(activeStep()).toContain('Answers');
    await waitFor(() => expect(document.activeElement).toBe(field('Start date')));
    expect(await seriousViolations()).toEqual([]);
    await typeInto(field('Start date'), '2026-04-01');
    expect(errorOf('Start date')).toBeNull();

    // 3. Preview: the answer is text, the profile value still missing is marked, the section of a service not
    // offered is left out.
    await toStep('Preview');
    expect(warning()).toBeNull();
    expect(preview().querySelector('img')).toBeNull();
    expect(text(preview())).toContain(`runs this program under ${XSS} from April 1, 2026.`);
    expect(marks()).toEqual(['{{title_cno}}']);
    expect(text(preview())).toContain('Newborn care follows the OB protocol.');
    expect(text(preview())).not.toContain('Psychiatric unit');
    expect(section('procedure')).toBeNull();
    expect(text(document.querySelector('[data-testid="left-out"]')!)).toContain('Procedure');
    expect(text(document.querySelector('[data-testid="unresolved-list"]')!)).toContain(
      'Title: Chief nursing executive',
    );
    // The standards the template lists: not cited in this text, linked (the project assesses them).
    expect(text(document.querySelector('[data-testid="coverage"]')!)).toBe(
      'CMS482.13(e)Restraint or seclusionNot citedLinked to the draft',
    );
    expect(text()).toContain('1 standard the template lists is not cited in this text');
    // No writing assistant configured (GET /assist answers enabled: false): nothing about it shows.
    expect(api.calls(`GET ${PG_API}/assist`).length).toBeGreaterThan(0);
    expect(() => getControl('Suggest a rewrite')).toThrow();
    expect(text()).not.toContain('Suggest');

    // 4. Destination: no department fits the template's category, and the draft must go into one's chapter.
    await toStep('Destination');
    expect(field('Title').value).toBe('Infant security');
    expect(field('Number').value).toBe('1.9');
    await click(getControl('Generate draft'));
    expect(errorOf('Department')).toBe(DEPARTMENT_REQUIRED);
    await waitFor(() => expect(document.activeElement).toBe(field('Department')));
    expect(api.calls(`POST ${PG_API}/generate`)).toHaveLength(0);
    // The department's number, reviewers and signers; a used number is flagged and stops the wizard.
    await pick('Department', 'Pharmacy (PHA)');
    expect(errorOf('Department')).toBeNull();
    expect(field('Number').value).toBe('PHA-001');
    expect(text()).toContain(
      'Pharmacy has no reviewers yet: the draft can be generated, and a policy administrator assigns reviewers before it goes to review.',
    );
    await pick('Department', 'Nursing (NUR)');
    expect(field('Number').value).toBe('NUR-004');
    expect(text()).toContain('Reviewers: Rita Reviewer; Signers: Sam Signer');
    await typeInto(field('Number'), 'NUR-003');
    expect(document.querySelector('[data-testid="number-used"]')).not.toBeNull();
    expect(errorOf('Number')).toBe(NUMBER_USED);
    await click(getControl('Generate draft'));
    await waitFor(() => expect(document.activeElement).toBe(field('Number')));
    expect(api.calls(`POST ${PG_API}/generate`)).toHaveLength(0);
    await typeInto(field('Number'), 'NUR-004');
    expect(document.querySelector('[data-testid="number-used"]')).toBeNull();
    await pick('Owner', 'Olive Owner');
    await click(getControl('Generate draft'));

    await waitFor(() => expect(api.calls(`POST ${PG_API}/generate`)).toHaveLength(1));
    expect(api.calls(`POST ${PG_API}/generate`)[0]!.body).toEqual({
      template_version_id: 70,
      answers: { owner_name: XSS, start_date: '2026-04-01', drills: 4, lead: null, notify: false },
      title: 'Infant security',
      department_id: 11,
      number: 'NUR-004',
      owner_id: 21,
    });

    await waitFor(() => expect(text()).toContain('Draft created'));
    expect(getControl('Open the draft in Policy management').getAttribute('href')).toBe(
      '/app/policy_management/4/documents/88',
    );
    const result = document.querySelector<HTMLElement>('[data-testid="generate-result"]')!;
    expect(text(result)).toContain('Fill these in before sending it for review');
    expect(text(result)).toContain('Title: Chief nursing executive');
    expect(text(result)).toContain('2 standards links suggested');
    expect(text(result)).toContain('482.13(f)');
  });

  it('shows the server’s field errors at their fields', async () => {
    server({
      [`POST ${PG_API}/generate`]: jsonResponse(
        {
          message: 'The answers have errors.',
          errors: { 'answers.owner_name': ['Enter the program owner.'], number: ['This number is taken.'] },
        },
        422,
      ),
    });
    await openGenerator(PATH);
    await waitFor(() => expect(document.querySelector('[data-testid="profile-check"]')).not.toBeNull());
    await toStep('Answers');
    await answerRequired('Dan');
    await toStep('Preview');
    expect(await seriousViolations()).toEqual([]);
    await toStep('Destination');
    await pick('Department', 'Nursing (NUR)');
    expect(await seriousViolations()).toEqual([]);
    await click(getControl('Generate draft'));
    await waitFor(() => expect(activeStep()).toContain('Answers'));
    expect(errorOf('Program owner')).toBe('Enter the program owner.');
    await typeInto(field('Program owner'), 'Dana');
    expect(errorOf('Program owner')).toBeNull();
    await toStep('Preview');
    await toStep('Destination');
    expect(errorOf('Number')).toBe('This number is taken.');
  });

  it('says so when the template has no published version', async () => {
    server({ [`GET ${PG_API}/templates/7`]: jsonResponse(detail({ current: null })) });
    await openGenerator(PATH);
    await waitFor(() => expect(text()).toContain(NO_PUBLISHED_VERSION));
    expect(() => getControl('Next')).toThrow();
  });

  it('will not skip ahead past a step with an empty required field: the step tells and focuses it', async () => {
    server();
    await openGenerator(PATH);
    await waitFor(() => expect(document.querySelector('[data-testid="profile-check"]')).not.toBeNull());
    // Clicking the last step of the stepper checks each step on the way and stops at the answers.
    const destinationStep = [...document.querySelectorAll<HTMLElement>('.mantine-Stepper-step')].at(-1)!;
    await click(destinationStep);
    await waitFor(() => expect(activeStep()).toContain('Answers'));
    expect(errorOf('Program owner')).toBe('Fill this in to go on.');
    await waitFor(() => expect(document.activeElement).toBe(field('Program owner')));
    await answerRequired();
    await click(destinationStep);
    await waitFor(() => expect(activeStep()).toContain('Destination'));
    // Back to the answers, a required field emptied again stops the wizard there.
    await click(getControl('Back'));
    await click(getControl('Back'));
    await waitFor(() => expect(activeStep()).toContain('Answers'));
    await typeInto(field('Program owner'), '');
    await click(getControl('Next'));
    expect(activeStep()).toContain('Answers');
    expect(errorOf('Program owner')).toBe('Fill this in to go on.');
  });

  it('generates into the chosen department and sends its number', async () => {
    const api = server({
      [`POST ${PG_API}/generate`]: jsonResponse(
        { document_id: 88, generation_id: 3, unresolved: [], links_added: 0, links_unmatched: [] },
        201,
      ),
    });
    await openGenerator(PATH);
    await toDestination();
    expect(field('Number').value).toBe('NUR-004');
    expect(text()).toContain("The next free number in Nursing's chapter; left empty, the draft takes it.");
    await click(getControl('Generate draft'));
    await waitFor(() => expect(api.calls(`POST ${PG_API}/generate`)).toHaveLength(1));
    expect(api.calls(`POST ${PG_API}/generate`)[0]!.body).toMatchObject({ department_id: 11, number: 'NUR-004' });
  });

  it('lets a project without departments generate without one, and says what that means', async () => {
    const api = server({
      [`GET ${PG_API}/lookups`]: jsonResponse(lookups({ departments: [] })),
      [`POST ${PG_API}/generate`]: jsonResponse(
        { document_id: 88, generation_id: 3, unresolved: [], links_added: 0, links_unmatched: [] },
        201,
      ),
    });
    await openGenerator(PATH);
    await waitFor(() => expect(document.querySelector('[data-testid="profile-check"]')).not.toBeNull());
    await toStep('Answers');
    await answerRequired();
    await toStep('Preview');
    await toStep('Destination');
    expect(text()).toContain('This project has no departments yet: the draft takes the next top-level number');
    await click(getControl('Generate draft'));
    await waitFor(() => expect(api.calls(`POST ${PG_API}/generate`)).toHaveLength(1));
    expect(api.calls(`POST ${PG_API}/generate`)[0]!.body).toMatchObject({ department_id: null, number: '1.9' });
  });

  it('lets the author ask the assistant for a rewrite, and accept or reject it', async () => {
    const api = server({
      [`GET ${PG_API}/assist`]: jsonResponse({ enabled: true, model: 'local-llm', actions: ['clearer', 'shorter'] }),
      [`POST ${PG_API}/assist/refine`]: [
        jsonResponse({
          call_id: 5,
          html: '<p>Lakeside Hospital Inc. runs this program.</p>',
          redline: {
            html: '<p>Lakeside Hospital Inc. runs this program<del> under Dana from April 1, 2026</del>.</p>',
            insertions: 0,
            deletions: 1,
          },
        }),
        jsonResponse({
          call_id: 6,
          html: '<p>The CNO oversees it.</p>',
          redline: {
            html: '<p><ins>The CNO</ins><del>{{title_cno}}</del> oversees it.</p>',
            insertions: 1,
            deletions: 1,
          },
        }),
      ],
      [`POST ${PG_API}/assist/calls/5/decision`]: jsonResponse({ ok: true }),
      [`POST ${PG_API}/assist/calls/6/decision`]: jsonResponse({ ok: true }),
      [`POST ${PG_API}/generate`]: jsonResponse(
        { document_id: 88, generation_id: 3, unresolved: [], links_added: 0, links_unmatched: [] },
        201,
      ),
    });
    await openGenerator(PATH);
    await waitFor(() => expect(document.querySelector('[data-testid="profile-check"]')).not.toBeNull());
    await toStep('Answers');
    await answerRequired();
    await toStep('Preview');

    const target = getControl('Suggest a rewrite', section('purpose')!);
    await click(target);
    await waitFor(() => expect(menuTexts(target)).toEqual(['Make it clearer', 'Make it shorter']));
    await click(target);
    await suggest('purpose', 'Make it clearer');
    await waitFor(() => expect(section('purpose')!.querySelector('[data-testid="suggestion"]')).not.toBeNull());
    expect(api.calls(`POST ${PG_API}/assist/refine`)[0]!.body).toEqual({
      template_version_id: 70,
      section_key: 'purpose',
      html: '<p>Lakeside Hospital Inc. runs this program under Dana from April 1, 2026.</p>',
      action: 'clearer',
    });
    const suggestion = section('purpose')!.querySelector<HTMLElement>('[data-testid="suggestion"]')!;
    expect(text(suggestion)).toContain('0 insertions');
    expect(text(suggestion)).toContain('1 deletion');
    expect(suggestion.querySelector('.policy-content del')?.textContent).toContain('under Dana');
    await click(getControl('Accept', suggestion));
    await waitFor(() => expect(api.calls(`POST ${PG_API}/assist/calls/5/decision`)).toHaveLength(1));
    expect(api.calls(`POST ${PG_API}/assist/calls/5/decision`)[0]!.body).toEqual({ accepted: true });
    expect(text(section('purpose')!)).toContain('Suggestion accepted');
    expect(text(section('purpose')!)).toContain('Lakeside Hospital Inc. runs this program.');
    expect(section('purpose')!.querySelector('[data-testid="suggestion"]')).toBeNull();

    await suggest('scope', 'Make it shorter');
    await waitFor(() => expect(section('scope')!.querySelector('[data-testid="suggestion"]')).not.toBeNull());
    await click(getControl('Reject', section('scope')!));
    await waitFor(() => expect(api.calls(`POST ${PG_API}/assist/calls/6/decision`)).toHaveLength(1));
    expect(api.calls(`POST ${PG_API}/assist/calls/6/decision`)[0]!.body).toEqual({ accepted: false });
    expect(text(section('scope')!)).toContain('{{title_cno}} oversees it.');

    await toStep('Destination');
    await pick('Department', 'Nursing (NUR)');
    await click(getControl('Generate draft'));
    await waitFor(() => expect(api.calls(`POST ${PG_API}/generate`)).toHaveLength(1));
    expect(api.calls(`POST ${PG_API}/generate`)[0]!.body).toMatchObject({
      overrides: { purpose: '<p>Lakeside Hospital Inc. runs this program.</p>' },
    });
  });

  it('proposes the department the template’s category names, with its number', async () => {
    server({
      [`GET ${PG_API}/templates/7`]: jsonResponse(
        detail({ current: version({ body: { ...WIZARD_BODY, category: 'nursing' } }) }),
      ),
    });
    await openGenerator(PATH);
    await waitFor(() => expect(document.querySelector('[data-testid="profile-check"]')).not.toBeNull());
    await toStep('Answers');
    await answerRequired();
    await toStep('Preview');
    await toStep('Destination');
    expect(field('Department').value).toBe('Nursing (NUR)');
    expect(field('Number').value).toBe('NUR-004');
    expect(text()).toContain('Reviewers: Rita Reviewer; Signers: Sam Signer');
  });
});

describe('WizardPage standards coverage', () => {
  const coverageServer = (extra: Parameters<typeof generatorRoutes>[0] = {}) =>
    server({
      ...extra,
      [`GET ${PG_API}/templates/7`]: jsonResponse(
        detail({
          current: version({
            body: {
              ...WIZARD_BODY,
              sections: [
                { key: 'purpose', html: '<p>Meets 42 CFR 482.13(e).</p>' },
                { key: 'scope', html: '<p>{{#if has_psych}}Also 482.13(f).{{/if}}</p>' },
              ],
              standards: [
                { framework: 'CMS', ref_id: '§482.13(e)' },
                { framework: 'CMS', ref_id: '482.13(f)' },
              ],
            },
          }),
          current_standards: [
            { framework: 'CMS', ref_id: '§482.13(e)', title: 'Restraint or seclusion', assessed: true },
            { framework: 'CMS', ref_id: '482.13(f)', title: null, assessed: false },
          ],
        }),
      ),
    });

  it('says which standards the draft cites, following the sections the profile keeps', async () => {
    coverageServer();
    await openGenerator(PATH);
    await waitFor(() => expect(document.querySelector('[data-testid="profile-check"]')).not.toBeNull());
    await toStep('Answers');
    await answerRequired();
    await toStep('Preview');
    const items = [...document.querySelectorAll('[data-testid="coverage"] li')].map((li) => text(li as HTMLElement));
    expect(items).toEqual([
      'CMS§482.13(e)Restraint or seclusionCitedLinked to the draft',
      'CMS482.13(f)Not citedNot assessed in this project',
    ]);
  });

  it('asks the assistant for text addressing a standard the draft does not cite, in the section chosen', async () => {
    const api = coverageServer({
      [`GET ${PG_API}/assist`]: jsonResponse({
        enabled: true,
        model: 'local-llm',
        actions: ['clearer', 'address_standard'],
      }),
      [`POST ${PG_API}/assist/refine`]: jsonResponse({
        call_id: 9,
        html: '<p>Meets 42 CFR 482.13(e).</p><p>Seclusion follows 482.13(f).</p>',
        redline: {
          html: '<p>Meets 42 CFR 482.13(e).</p><p><ins>Seclusion follows 482.13(f).</ins></p>',
          insertions: 1,
          deletions: 0,
        },
      }),
      [`POST ${PG_API}/assist/calls/9/decision`]: jsonResponse({ ok: true }),
    });
    await openGenerator(PATH);
    await waitFor(() => expect(document.querySelector('[data-testid="profile-check"]')).not.toBeNull());
    await toStep('Answers');
    await answerRequired();
    await toStep('Preview');
    // Only the standard not cited is offered; the cited one is not.
    const target = getControl('Suggest a rewrite', section('purpose')!);
    await click(target);
    await waitFor(() => expect(menuTexts(target)).toEqual(['Make it clearer', 'CMS 482.13(f)']));
    expect(document.getElementById(target.getAttribute('aria-controls')!)!.textContent).toContain(
      'Add text for a standard the draft does not cite',
    );
    await click(target);
    await suggest('purpose', 'CMS 482.13(f)');
    await waitFor(() => expect(section('purpose')!.querySelector('[data-testid="suggestion"]')).not.toBeNull());
    expect(api.calls(`POST ${PG_API}/assist/refine`)[0]!.body).toEqual({
      template_version_id: 70,
      section_key: 'purpose',
      html: '<p>Meets 42 CFR 482.13(e).</p>',
      action: 'address_standard',
      standard: { framework: 'CMS', ref_id: '482.13(f)' },
    });
    const suggestion = section('purpose')!.querySelector<HTMLElement>('[data-testid="suggestion"]')!;
    expect(text(suggestion)).toContain('Suggested text for CMS 482.13(f)');
    await click(getControl('Accept', suggestion));
    // Accepted, the text cites it: the coverage says so and the menu no longer offers it.
    await waitFor(() =>
      expect(text(document.querySelector<HTMLElement>('[data-testid="coverage"]')!)).not.toContain('Not cited'),
    );
    const again = getControl('Suggest a rewrite', section('purpose')!);
    await click(again);
    await waitFor(() => expect(menuTexts(again)).toEqual(['Make it clearer']));
  });
});

describe('departmentFor', () => {
  const departments = [
    { id: 1, name: 'Infection Prevention and Control' },
    { id: 2, name: 'Nursing' },
    { id: 3, name: 'Nursing Education' },
    { id: 4, name: 'Patient Safety' },
    { id: 5, name: 'Patient Safety Office' },
  ];
  it('takes the same name first, then the one department whose name begins with the category', () => {
    expect(departmentFor('Nursing', departments)?.id).toBe(2);
    expect(departmentFor(' infection prevention ', departments)?.id).toBe(1);
    expect(departmentFor('Patient Safety', departments)?.id).toBe(4);
  });
  it('proposes none when nothing or more than one department fits', () => {
    expect(departmentFor('Pharmacy', departments)).toBeNull();
    expect(departmentFor('', departments)).toBeNull();
    expect(departmentFor('Patient', departments)).toBeNull();
    expect(departmentFor('Infection', [...departments, { id: 6, name: 'Infection Control Lab' }])).toBeNull();
  });
});

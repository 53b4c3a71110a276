import type { CrQuestionInput, CrToolVersion } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  API,
  BASE,
  dialog,
  errorOf,
  field,
  labelled,
  openScreen,
  optionsOf,
  question,
  sessionRoutes,
  settingsBody,
  toasts,
  toolBody,
  versionBody,
  versionSummary,
} from './cr-test-fixtures';
import { ToolPage } from './ToolPage';

const open = (search = '') => openScreen(`${BASE}/tools/3${search}`, ['tools/:toolId'], <ToolPage />);
const card = (n: number) => labelled(`Question ${n}`);
const cardTexts = () =>
  [...document.querySelectorAll<HTMLElement>('[role="group"][aria-label^="Question "]')].map(
    (element) => `${element.getAttribute('aria-label')}: ${field('Question', element).value}`,
  );

const ICU = question({ key: 'icu_patient', text: 'Was the patient in the ICU?', section: 'Admission', position: 0 });
const PAIN = question({ key: 'pain_score', text: 'Was pain scored on admission?', section: 'Admission', position: 1 });
const SEDATION = question({
  key: 'sedation_scale',
  text: 'Was sedation scored every 4 hours?',
  section: 'ICU care',
  position: 2,
  show_if: "icu_patient == 'yes'",
});

/** The version a PUT of questions leaves on the server. */
function savedVersion(base: CrToolVersion) {
  return (request: StubRequest) => {
    const sent = (request.body as { questions: CrQuestionInput[] }).questions;
    return jsonResponse({
      ...base,
      question_count: sent.length,
      questions: sent.map((item, position) => ({ ...item, id: 900 + position, position })),
    });
  };
}

describe('ToolPage, the draft editor', () => {
  const draft = versionBody({ id: 30, version: 1, questions: [ICU, PAIN] });
  const tool = toolBody({
    id: 3,
    name: 'Falls audit',
    versions: [versionSummary({ id: 30, version: 1, question_count: 2 })],
  });

  it('edits questions by section, checks them, shows the server errors at the exact field, and saves in order', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/tools/3`]: jsonResponse(tool),
      [`GET ${API}/settings`]: jsonResponse(settingsBody({ partial_enabled: false })),
      [`GET ${API}/tool-versions/30`]: jsonResponse(draft),
      [`PUT ${API}/tool-versions/30/questions`]: [
        jsonResponse(
          {
            message: 'The given data was invalid.',
            code: 'VALIDATION_FAILED',
            errors: { 'questions.1.key': ['Another question has this key.'] },
          },
          400,
        ),
        savedVersion(draft),
      ],
    });
    await open();
    await waitFor(() => expect(cardTexts()).toHaveLength(2));
    expect(document.title).toContain('Falls audit');
    expect(labelled('Admission').querySelectorAll('[role="group"][aria-label^="Question "]')).toHaveLength(2);
    // Partial answers are off in the settings: not offered.
    expect(await optionsOf('Answers', card(1))).toEqual(['Yes / No / N/A']);

    await click(getControl('Add a question to Admission'));
    expect(cardTexts()).toEqual([
      'Question 1: Was the patient in the ICU?',
      'Question 2: Was pain scored on admission?',
      'Question 3: ',
    ]);
    expect(field('Key', card(3)).value).toBe('question_3');
    expect(text(card(3))).toContain("Earlier keys: icu_patient, pain_score. Example: icu_patient == 'yes'");

    await click(getControl('Save draft'));
    expect(errorOf('Question', card(3))).toBe('Enter the question.');
    expect(api.calls(`PUT ${API}/tool-versions/30/questions`)).toHaveLength(0);

    await typeInto(field('Question', card(3)), 'Was a falls risk assessment done?');
    await typeInto(field('Show only if', card(3)), "icu == 'yes'");
    await click(getControl('Save draft'));
    expect(errorOf('Show only if', card(3))).toMatch(/icu/);
    expect(api.calls(`PUT ${API}/tool-versions/30/questions`)).toHaveLength(0);

    await typeInto(field('Show only if', card(3)), "icu_patient == 'yes'");
    expect(errorOf('Show only if', card(3))).toBeNull();
    await click(labelled('Move question 3 up'));
    expect(cardTexts()).toEqual([
      'Question 1: Was the patient in the ICU?',
      'Question 2: Was a falls risk assessment done?',
      'Question 3: Was pain scored on admission?',
    ]);
    expect(document.activeElement).toBe(labelled('Move question 2 up'));

    await click(getControl('Save draft'));
    await waitFor(() => expect(errorOf('Key', card(2))).toBe('Another question has this key.'));
    expect(errorOf('Key', card(3))).toBeNull();
    expect(document.querySelector('[role="alert"]')?.textContent).toBe(
      'Some questions need attention. See the messages at the fields.',
    );

    await typeInto(field('Key', card(2)), 'falls_risk');
    await click(getControl('Save draft'));
    await waitFor(() => expect(toasts()).toContain('Draft saved.'));
    const sent = api.calls(`PUT ${API}/tool-versions/30/questions`)[1]!.body as { questions: CrQuestionInput[] };
    expect(sent.questions.map((item) => [item.key, item.section, item.show_if])).toEqual([
      ['icu_patient', 'Admission', ''],
      ['falls_risk', 'Admission', "icu_patient == 'yes'"],
      ['pain_score', 'Admission', ''],
    ]);
    expect(sent.questions[1]).toEqual({
      key: 'falls_risk',
      section: 'Admission',
      text: 'Was a falls risk assessment done?',
      help: '',
      answer_type: 'yes_no_na',
      weight: 1,
      critical: false,
      na_allowed: true,
      na_reason_required: false,
      show_if: "icu_patient == 'yes'",
    });
    expect(text()).toContain('3 questions · saved');
  });

  it('removes a question only after confirming', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/tools/3`]: jsonResponse(tool),
      [`GET ${API}/settings`]: jsonResponse(settingsBody()),
      [`GET ${API}/tool-versions/30`]: jsonResponse(draft),
    });
    await open();
    await waitFor(() => expect(cardTexts()).toHaveLength(2));
    await click(labelled('Remove question 1'));
    await waitFor(() => expect(text(dialog())).toContain('"Was the patient in the ICU?" will be removed'));
    await click(getControl('Cancel', dialog()));
    expect(cardTexts()).toHaveLength(2);

    await click(labelled('Remove question 1'));
    await waitFor(() => expect(dialog()).toBeDefined());
    await click(getControl('Remove question', dialog()));
    expect(cardTexts()).toEqual(['Question 1: Was pain scored on admission?']);
    expect(text()).toContain('1 question · unsaved changes');
  });

  it('offers Partial answers only when the settings allow them', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/tools/3`]: jsonResponse(tool),
      [`GET ${API}/settings`]: jsonResponse(settingsBody({ partial_enabled: true })),
      [`GET ${API}/tool-versions/30`]: jsonResponse(draft),
    });
    await open();
    await waitFor(() => expect(cardTexts()).toHaveLength(2));
    expect(await optionsOf('Answers', card(1))).toEqual(['Yes / No / N/A', 'Yes / Partial / No / N/A']);
  });

  it('publishes the first version without a note', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/tools/3`]: jsonResponse(tool),
      [`GET ${API}/settings`]: jsonResponse(settingsBody()),
      [`GET ${API}/tool-versions/30`]: jsonResponse(draft),
      [`POST ${API}/tool-versions/30/publish`]: jsonResponse({
        ...draft,
        status: 'published',
        published_at: '2026-03-02T15:00:00Z',
        abilities: { edit: false, publish: false, discard: false },
      }),
    });
    await open();
    await waitFor(() => expect(cardTexts()).toHaveLength(2));
    await click(getControl('Publish'));
    await waitFor(() => expect(text(dialog())).toContain('Optional for the first version.'));
    await click(getControl('Publish version 1', dialog()));
    await waitFor(() => expect(api.calls(`POST ${API}/tool-versions/30/publish`)).toHaveLength(1));
    expect(api.calls(`POST ${API}/tool-versions/30/publish`)[0]!.body).toEqual({ note: '' });
    await waitFor(() => expect(toasts()).toContain('Version 1 published. New reviews use it from now on.'));
  });
});

describe('ToolPage, later versions', () => {
  const published = versionSummary({
    id: 31,
    version: 1,
    status: 'published',
    published_at: '2026-03-02T15:00:00Z',
    published_by: { id: 21, name: 'Ada Lead' },
    question_count: 3,
  });
  const draftSummary = versionSummary({ id: 32, version: 2, question_count: 3 });
  const draft = versionBody({ id: 32, version: 2, questions: [ICU, PAIN, SEDATION] });

  it('asks for a note before publishing a version after the first, and saves unsaved changes first', async () => {
    const afterPublish = toolBody({
      id: 3,
      name: 'Falls audit',
      versions: [
        { ...draftSummary, status: 'published', note: 'Sedation is scored in the ICU only.' },
        { ...published, status: 'retired' },
      ],
    });
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/tools/3`]: [
        jsonResponse(toolBody({ id: 3, name: 'Falls audit', versions: [draftSummary, published] })),
        jsonResponse(afterPublish),
      ],
      [`GET ${API}/settings`]: jsonResponse(settingsBody()),
      [`GET ${API}/tool-versions/32`]: [
        jsonResponse(draft),
        jsonResponse({
          ...draft,
          status: 'published',
          note: 'Sedation is scored in the ICU only.',
          published_at: '2026-03-09T15:00:00Z',
          abilities: { edit: false, publish: false, discard: false },
        }),
      ],
      [`PUT ${API}/tool-versions/32/questions`]: savedVersion(draft),
      [`POST ${API}/tool-versions/32/publish`]: (request: StubRequest) =>
        jsonResponse({
          ...draft,
          status: 'published',
          note: (request.body as { note: string }).note,
          published_at: '2026-03-09T15:00:00Z',
          abilities: { edit: false, publish: false, discard: false },
        }),
    });
    await open();
    await waitFor(() => expect(cardTexts()).toHaveLength(3));
    await typeInto(field('Help for reviewers', card(3)), 'See the ICU flowsheet.');

    await click(getControl('Publish'));
    await waitFor(() => expect(text(dialog())).toContain('Your unsaved changes are saved first.'));
    await click(getControl('Publish version 2', dialog()));
    expect(errorOf('What changed', dialog())).toBe('Say what changed in this version.');
    expect(api.calls(`PUT ${API}/tool-versions/32/questions`)).toHaveLength(0);
    expect(api.calls(`POST ${API}/tool-versions/32/publish`)).toHaveLength(0);

    await typeInto(field('What changed', dialog()), 'Sedation is scored in the ICU only.');
    await click(getControl('Publish version 2', dialog()));
    await waitFor(() => expect(api.calls(`POST ${API}/tool-versions/32/publish`)).toHaveLength(1));
    expect(api.calls(`POST ${API}/tool-versions/32/publish`)[0]!.body).toEqual({
      note: 'Sedation is scored in the ICU only.',
    });
    const saved = api.calls(`PUT ${API}/tool-versions/32/questions`)[0]!.body as { questions: CrQuestionInput[] };
    expect(saved.questions[2]!.help).toBe('See the ICU flowsheet.');
    // The published version is read-only, with the way to change it.
    await waitFor(() => expect(getControl('Start a new version')).toBeDefined());
    expect(document.querySelector('[role="group"][aria-label^="Question "]')).toBeNull();
    expect(text()).toContain('v2 · published Mar 9, 2026.');
    expect(text()).toContain('What changed: Sedation is scored in the ICU only.');
  });

  it('shows a published version read-only, and starts a new version from it', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/tools/3`]: [
        jsonResponse(toolBody({ id: 3, name: 'Falls audit', versions: [published] })),
        jsonResponse(toolBody({ id: 3, name: 'Falls audit', versions: [draftSummary, published] })),
      ],
      [`GET ${API}/settings`]: jsonResponse(settingsBody()),
      [`GET ${API}/tool-versions/31`]: jsonResponse(
        versionBody({ ...published, questions: [ICU, PAIN, SEDATION], status: 'published' }),
      ),
      [`POST ${API}/tools/3/versions`]: jsonResponse(draft, 201),
      [`GET ${API}/tool-versions/32`]: jsonResponse(draft),
    });
    const router = await open();
    await waitFor(() => expect(text()).toContain('Was sedation scored every 4 hours?'));
    expect(document.querySelector('[role="group"][aria-label^="Question "]')).toBeNull();
    const versionRows = [...document.querySelectorAll('table[aria-label="Versions"] tbody tr')].map((row) =>
      [...row.querySelectorAll('td')].slice(0, 5).map((cell) => cell.textContent),
    );
    expect(versionRows).toEqual([['v1', 'Published', 'Mar 2, 2026 by Ada Lead', '—', '3 questions']]);
    expect(text()).toContain("Shown when icu_patient == 'yes'");
    // The key, for the tool's editors only: secondary, small, as code.
    const keys = [...document.querySelectorAll('[data-question-key] code[data-key]')].map((node) => node.textContent);
    expect(keys).toEqual(['icu_patient', 'pain_score', 'sedation_scale']);

    await click(getControl('Start a new version'));
    await waitFor(() => expect(router.state.location.search).toBe('?version=32'));
    expect(api.calls(`POST ${API}/tools/3/versions`)).toHaveLength(1);
    await waitFor(() => expect(cardTexts()).toHaveLength(3));
    expect(toasts()).toContain('Version 2 started with the questions of the latest version.');
  });

  it('discards a draft after confirming and goes back to the published version', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/tools/3`]: [
        jsonResponse(toolBody({ id: 3, name: 'Falls audit', versions: [draftSummary, published] })),
        jsonResponse(toolBody({ id: 3, name: 'Falls audit', versions: [published] })),
      ],
      [`GET ${API}/settings`]: jsonResponse(settingsBody()),
      [`GET ${API}/tool-versions/32`]: jsonResponse(draft),
      [`GET ${API}/tool-versions/31`]: jsonResponse(
        versionBody({ ...published, questions: [ICU, PAIN], status: 'published' }),
      ),
      [`DELETE ${API}/tool-versions/32`]: new Response(null, { status: 204 }),
    });
    await open();
    await waitFor(() => expect(cardTexts()).toHaveLength(3));
    await typeInto(field('Question', card(1)), 'Changed wording');
    await click(getControl('Discard draft'));
    await waitFor(() => expect(text(dialog())).toContain('The published version stays in use.'));
    await click(getControl('Discard draft', dialog()));
    await waitFor(() => expect(api.calls(`DELETE ${API}/tool-versions/32`)).toHaveLength(1));
    await waitFor(() => expect(getControl('Start a new version')).toBeDefined());
    expect(toasts()).toContain('The draft of version 2 was discarded.');
    expect(text()).not.toContain('Leave without saving?');
  });
});

describe('ToolPage, the preview', () => {
  it('shows a conditional question only while its condition holds', async () => {
    const partial = question({
      key: 'care_plan',
      text: 'Is there a care plan?',
      section: 'ICU care',
      answer_type: 'yes_partial_no_na',
      na_allowed: false,
      position: 3,
    });
    const version = versionSummary({ id: 31, version: 1, status: 'published', published_at: '2026-03-02T15:00:00Z' });
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/tools/3`]: jsonResponse(toolBody({ id: 3, name: 'Falls audit', versions: [version] })),
      [`GET ${API}/settings`]: jsonResponse(settingsBody({ partial_enabled: true })),
      [`GET ${API}/tool-versions/31`]: jsonResponse(
        versionBody({ ...version, status: 'published', questions: [ICU, PAIN, SEDATION, partial] }),
      ),
    });
    await open();
    await waitFor(() => expect(getControl('Preview')).toBeDefined());
    await click(getControl('Preview'));
    const shown = () =>
      [...document.querySelectorAll('[data-preview-key]')].map((element) => element.getAttribute('data-preview-key'));
    const choose = async (key: string, value: string) =>
      click(document.querySelector<HTMLInputElement>(`[data-preview-key="${key}"] input[value="${value}"]`)!);
    const choices = (key: string) =>
      [...document.querySelectorAll(`[data-preview-key="${key}"] label`)].map((label) => label.textContent);

    await waitFor(() => expect(shown()).toEqual(['icu_patient', 'pain_score', 'care_plan']));
    expect(text()).toContain('3 of 4 questions shown.');
    expect(text()).toContain('Privileged and confidential: quality improvement work product.');
    expect(choices('icu_patient')).toEqual(['Yes', 'No', 'N/A']);
    expect(choices('care_plan')).toEqual(['Yes', 'Partial', 'No']);

    await choose('icu_patient', 'yes');
    expect(shown()).toEqual(['icu_patient', 'pain_score', 'sedation_scale', 'care_plan']);
    expect(text()).toContain('ICU care');
    await choose('icu_patient', 'no');
    expect(shown()).toEqual(['icu_patient', 'pain_score', 'care_plan']);
    await choose('icu_patient', 'yes');
    await click(getControl('Clear answers'));
    expect(shown()).toEqual(['icu_patient', 'pain_score', 'care_plan']);
  });
});

describe('ToolPage, the tool itself', () => {
  it('retires the tool after confirming', async () => {
    const version = versionSummary({ id: 31, version: 1, status: 'published', published_at: '2026-03-02T15:00:00Z' });
    const base = toolBody({
      id: 3,
      name: 'Falls audit',
      purpose: 'Falls risk.',
      program_count: 2,
      versions: [version],
    });
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/tools/3`]: [jsonResponse(base), jsonResponse({ ...base, retired: true })],
      [`PUT ${API}/tools/3`]: (request: StubRequest) => jsonResponse({ ...base, ...(request.body as object) }),
      [`GET ${API}/settings`]: jsonResponse(settingsBody()),
      [`GET ${API}/tool-versions/31`]: jsonResponse(versionBody({ ...version, status: 'published', questions: [ICU] })),
    });
    await open();
    await waitFor(() => expect(getControl('Retire tool')).toBeDefined());
    await click(getControl('Retire tool'));
    await waitFor(() => expect(text(dialog())).toContain('(2 use it now)'));
    await click(getControl('Retire tool', dialog()));
    await waitFor(() => expect(toasts()).toContain('"Falls audit" is retired.'));
    expect(api.calls(`PUT ${API}/tools/3`)[0]!.body).toEqual({
      name: 'Falls audit',
      purpose: 'Falls risk.',
      retired: true,
    });
    await waitFor(() => expect(getControl('Bring back')).toBeDefined());
  });
});

import type { CrReviewForm } from '@portal/shared';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { API, BASE, dialog, field, openScreen, PEOPLE, question, sessionRoutes, toasts } from './cr-test-fixtures';
import { ReviewFormPage } from './ReviewFormPage';

const open = () => openScreen(`${BASE}/review/31`, ['review/:assignmentId'], <ReviewFormPage />);

const QUESTIONS = [
  question({ id: 1, key: 'icu', text: 'Was the patient in ICU?', na_allowed: false }),
  question({ id: 2, key: 'icu_score', text: 'Is the ICU pain score charted?', show_if: "icu == 'yes'" }),
  question({ id: 3, key: 'reassessed', text: 'Was pain reassessed?', na_reason_required: true, section: 'Follow-up' }),
];

function formBody(overrides: Partial<CrReviewForm> = {}): CrReviewForm {
  return {
    id: 31,
    case: {
      case_id: 77,
      case_code: 'CR-2026-03-0142',
      unit: 'Ward 4',
      discharge_month: '2026-03-01',
      has_encounter_ref: true,
      may_reveal: true,
    },
    program: { id: 4, name: 'Pain reassessment' },
    period_start: '2026-03-01',
    privilege_label: 'Privileged and confidential: quality improvement work product.',
    partial_enabled: false,
    questions: QUESTIONS,
    answers: [],
    version: 0,
    status: 'assigned',
    reviewer: { id: 23, name: 'Cy Reviewer' },
    mine: true,
    due_at: '2026-03-20',
    overdue: false,
    submitted_at: null,
    return_reason: null,
    abilities: { edit: true, submit: true, return: false, reassign: false },
    ...overrides,
  };
}

const card = (key: string) => document.querySelector<HTMLElement>(`[data-question-key="${key}"]`);
const option = (key: string, value: string) =>
  card(key)!.querySelector<HTMLInputElement>(`input[type="radio"][value="${value}"]`)!;
/** Clicks a button that opens a modal and waits for the modal. */
async function opening(name: string) {
  await click(getControl(name));
  await waitFor(() => expect(dialog()).toBeTruthy());
}
const saveStatus = () => document.querySelector('[aria-label="Save status"]')?.textContent ?? '';

function savedAnswer(request: StubRequest, version: number) {
  return jsonResponse({
    version: (request.body as { version: number }).version + 1 || version,
    status: 'in_progress',
    warnings: [],
  });
}

describe('ReviewFormPage', () => {
  it('shows the case, answers with large buttons, reveals conditional questions and autosaves after a pause', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/assignments/31`]: jsonResponse(formBody()),
      [`PUT ${API}/assignments/31/answers`]: (request) => savedAnswer(request, 1),
    });
    await open();
    await waitFor(() => expect(card('icu')).not.toBeNull());
    expect(text()).toContain('Privileged and confidential: quality improvement work product.');
    expect(text()).toContain('CR-2026-03-0142');
    expect(text()).toContain('Ward 4');
    expect(text()).toContain('Mar 2026');
    // N/A is not offered where it is not allowed; the conditional question waits for its condition.
    expect(option('icu', 'na')).toBeNull();
    expect(card('icu_score')).toBeNull();
    // The progress counts the conditional question from the start (the rule My reviews and the server use), so the
    // total does not grow when it shows.
    const progress = () =>
      [...document.querySelectorAll('[aria-live="polite"]')]
        .map((node) => node.textContent)
        .find((words) => words?.includes('questions answered'));
    expect(progress()).toBe('0 of 3 questions answered. 1 of them depends on your answers.');

    await click(option('icu', 'yes'));
    await waitFor(() => expect(card('icu_score')).not.toBeNull());
    expect(progress()).toBe('1 of 3 questions answered.');
    await waitFor(() => expect(api.calls(`PUT ${API}/assignments/31/answers`)).toHaveLength(1));
    expect(api.calls(`PUT ${API}/assignments/31/answers`)[0]!.body).toEqual({
      version: 0,
      answers: [{ question_id: 1, value: 'yes', na_reason: '', note: '', evidence_location: '' }],
    });
    await waitFor(() => expect(saveStatus()).toBe('Saved'));

    // Typing a note saves once, after the pause, on the new version.
    await typeInto(field('Note', card('icu')!), 'Seen ');
    await typeInto(field('Note', card('icu')!), 'Seen at 10:00');
    await waitFor(() =>
      expect(api.calls(`PUT ${API}/assignments/31/answers`).at(-1)!.body).toMatchObject({
        answers: [{ question_id: 1, value: 'yes', note: 'Seen at 10:00' }],
      }),
    );
    expect(api.calls(`PUT ${API}/assignments/31/answers`)[1]!.body).toMatchObject({ version: 1 });

    // N/A asks for its reason.
    await click(option('reassessed', 'na'));
    expect(field('Reason for N/A', card('reassessed')!)).toBeTruthy();
  });

  it('answers the current question with the keyboard and moves with J/K', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/assignments/31`]: jsonResponse(formBody()),
      [`PUT ${API}/assignments/31/answers`]: (request) => savedAnswer(request, 1),
    });
    await open();
    await waitFor(() => expect(card('icu')).not.toBeNull());
    const press = async (key: string) => {
      await act(async () => {
        (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      });
    };
    await act(async () => card('icu')!.focus());
    await press('n');
    expect(option('icu', 'no').checked).toBe(true);
    await press('j');
    await waitFor(() => expect(document.activeElement).toBe(card('reassessed')));
    await press('y');
    expect(option('reassessed', 'yes').checked).toBe(true);
    await press('k');
    expect(document.activeElement).toBe(card('icu'));
    // Saved after the pause (in one or two saves on a slow machine).
    const saved = () =>
      api
        .calls(`PUT ${API}/assignments/31/answers`)
        .flatMap((call) => (call.body as { answers: { question_id: number; value: string }[] }).answers)
        .map((a) => [a.question_id, a.value]);
    await waitFor(() =>
      expect(saved()).toEqual(
        expect.arrayContaining([
          [1, 'no'],
          [3, 'yes'],
        ]),
      ),
    );
  });

  it('says so when the answers changed in another window, and reloads them', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/assignments/31`]: [
        jsonResponse(formBody()),
        jsonResponse(formBody({ version: 4, answers: [answer(1, 'no')] })),
      ],
      [`PUT ${API}/assignments/31/answers`]: jsonResponse(
        { message: 'These answers were changed in another window. Reload to see them.' },
        409,
      ),
    });
    await open();
    await waitFor(() => expect(card('icu')).not.toBeNull());
    await click(option('icu', 'yes'));
    await waitFor(() => expect(text()).toContain('These answers were changed in another window. Reload to see them.'));
    await click(getControl('Reload'));
    await waitFor(() => expect(option('icu', 'no').checked).toBe(true));
    expect(api.calls(`GET ${API}/assignments/31`)).toHaveLength(2);
    expect(text()).not.toContain('changed in another window');
  });

  it('submits after confirmation and shows the questions the server says are unanswered', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/assignments/31`]: [
        jsonResponse(formBody({ answers: [answer(1, 'no')], version: 2 })),
        jsonResponse(
          formBody({
            answers: [answer(1, 'no')],
            version: 3,
            status: 'submitted',
            abilities: { edit: false, submit: false, return: false, reassign: false },
          }),
        ),
      ],
      [`POST ${API}/assignments/31/submit`]: [
        jsonResponse(
          {
            message: 'Answer every question before submitting.',
            errors: { 'answers.3': ['Answer this question.'] },
          },
          400,
        ),
        jsonResponse(
          formBody({ status: 'submitted', abilities: { edit: false, submit: false, return: false, reassign: false } }),
        ),
      ],
    });
    await open();
    await waitFor(() => expect(card('icu')).not.toBeNull());
    await opening('Submit review');
    await click(getControl('Submit', dialog()));
    await waitFor(() => expect(text()).toContain('Answer every question before submitting.'));
    expect(card('reassessed')!.textContent).toContain('Answer this question.');
    await waitFor(() => expect(document.activeElement).toBe(card('reassessed')));

    await opening('Submit review');
    await click(getControl('Submit', dialog()));
    await waitFor(() => expect(toasts()).toContain('Review submitted.'));
    expect(api.calls(`POST ${API}/assignments/31/submit`)).toHaveLength(2);
    await waitFor(() => expect(option('icu', 'yes').disabled).toBe(true));
  });

  it('reveals the encounter reference with a reason, and shows a refusal', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/assignments/31`]: jsonResponse(formBody()),
      [`POST ${API}/cases/77/reveal`]: [
        jsonResponse({ message: 'Your role may not reveal encounter references.' }, 403),
        jsonResponse({ encounter_ref: 'ENC-99812' }),
      ],
    });
    await open();
    await waitFor(() => expect(card('icu')).not.toBeNull());
    expect(text()).not.toContain('ENC-99812');
    await opening('Reveal');
    await click(getControl('Reveal', dialog()));
    expect(text()).toContain('Say why you need to see the encounter reference.');
    await typeInto(field('Reason', dialog()), 'Chart pulled for a second look');
    await click(getControl('Reveal', dialog()));
    await waitFor(() => expect(text()).toContain('Your role may not reveal encounter references.'));
    await click(getControl('Reveal', dialog()));
    await waitFor(() => expect(text()).toContain('ENC-99812'));
    expect(api.calls(`POST ${API}/cases/77/reveal`)[1]!.body).toEqual({ reason: 'Chart pulled for a second look' });
  });

  it('is read-only for a lead, who may return a submitted review with a reason', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/people`]: jsonResponse(PEOPLE),
      [`GET ${API}/assignments/31`]: [
        jsonResponse(
          formBody({
            mine: false,
            status: 'submitted',
            answers: [answer(1, 'no')],
            abilities: { edit: false, submit: false, return: true, reassign: false },
          }),
        ),
        jsonResponse(formBody({ mine: false, status: 'returned', return_reason: 'Pain score is on the MAR.' })),
      ],
      [`POST ${API}/assignments/31/return`]: (request) =>
        jsonResponse(
          formBody({ mine: false, status: 'returned', return_reason: (request.body as { reason: string }).reason }),
        ),
    });
    await open();
    await waitFor(() => expect(card('icu')).not.toBeNull());
    expect(text()).toContain('This review belongs to Cy Reviewer.');
    expect(option('icu', 'no').disabled).toBe(true);
    expect(() => getControl('Submit review')).toThrow();
    await opening('Return to reviewer');
    await typeInto(field('Reason', dialog()), 'Pain score is on the MAR.');
    await click(getControl('Return review', dialog()));

    await waitFor(() => expect(toasts()).toContain('Review returned to its reviewer.'));
    expect(api.calls(`POST ${API}/assignments/31/return`)[0]!.body).toEqual({ reason: 'Pain score is on the MAR.' });
    await waitFor(() => expect(text()).toContain('Returned to the reviewerPain score is on the MAR.'));
  });
});

function answer(questionId: number, value: 'yes' | 'no' | 'na') {
  return {
    question_id: questionId,
    value,
    na_reason: '',
    note: '',
    evidence_location: '',
    updated_at: '2026-03-02T10:00:00Z',
  };
}

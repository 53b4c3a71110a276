import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, render, text, typeInto, waitFor } from '../../../test/render';
import { CarriedFrom } from './CarriedFrom';
import {
  assessment,
  BASE,
  dialog,
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
  tree,
} from './std-test-fixtures';

/** Crosswalk import on the Create page, the edition upgrade on the Compliance page, and the carried-from line. */

const OLD = framework({ id: 3, name: 'State quality standards', code: 'STATE-QS', edition: '2025', built_in: false });
const NEW = framework({ id: 5, name: 'State quality standards', code: 'STATE-QS', edition: '2026', built_in: false });
const CMS = framework({ id: 9, name: 'CMS Conditions of Participation', code: 'CMS-482', edition: '2024' });
const label = (f: typeof OLD) => `${f.name}, edition ${f.edition} (${f.code})`;
const SET = {
  source: { id: 3, code: 'STATE-QS', name: 'State quality standards', edition: '2025' },
  target: { id: 5, code: 'STATE-QS', name: 'State quality standards', edition: '2026' },
  mappings: 9,
  built_in: false,
};

/** The control a label points at (a file picker's is a button). */
function control(name: string): HTMLElement {
  const found = [...document.querySelectorAll('label')].find(
    (item) => item.textContent?.replace(/\s*\*\s*$/, '').trim() === name,
  );
  const target = found?.htmlFor ? document.getElementById(found.htmlFor) : null;
  if (!target) throw new Error(`no control ${name}`);
  return target;
}

/** Picks a file in the crosswalk form's file input. */
async function chooseCrosswalkFile(file: File) {
  const input = document.querySelector<HTMLInputElement>('form[aria-label="Import a crosswalk"] input[type="file"]');
  if (!input) throw new Error('no crosswalk file input');
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('CrosswalkImport', () => {
  function server(extra: Record<string, unknown> = {}, ability = me()) {
    return stubApi({
      ...sessionRoutes(),
      [`GET ${STD_API}/me`]: jsonResponse(ability),
      [`GET ${STD_API}/frameworks`]: jsonResponse({ frameworks: [OLD, NEW, CMS] }),
      [`GET ${STD_API}/members`]: jsonResponse(MEMBERS),
      [`GET ${STD_API}/assessments`]: jsonResponse({ assessments: [] }),
      [`GET ${STD_API}/crosswalks`]: [jsonResponse({ sets: [] }), jsonResponse({ sets: [SET] })],
      ...(extra as Record<string, never>),
    });
  }
  const form = () => document.querySelector<HTMLElement>('form[aria-label="Import a crosswalk"]');

  it('explains the columns, checks the form, shows the rows the server refused and posts the crosswalk', async () => {
    const rowError = 'A source_ref_id is not in STATE-QS 2025 (rows 3).';
    const api = server({
      [`POST ${STD_API}/crosswalks/import`]: (request: StubRequest) =>
        (request.body as { csv: string }).csv.includes('GOV.9')
          ? jsonResponse({ message: rowError, errors: { csv: [rowError] } }, 400)
          : jsonResponse({ mappings: 9 }),
    });
    await openApp(`${BASE}/create`);
    await waitFor(() => expect(form()).not.toBeNull());
    expect(form()!.textContent).toContain('source_ref_id,target_ref_id,relationship');
    for (const word of ['equal', 'subset', 'superset', 'intersect', 'not_related'])
      expect(form()!.textContent).toContain(word);

    await click(getControl('Import crosswalk'));
    expect(errorAt(field('Maps from'))).toBe('Choose the framework the crosswalk maps from.');
    expect(errorAt(field('Maps to'))).toBe('Choose the framework the crosswalk maps to.');
    expect(errorAt(control('Crosswalk CSV file'))).toBe('Choose a CSV file.');
    expect(api.calls(`POST ${STD_API}/crosswalks/import`)).toHaveLength(0);

    expect(await optionsOf('Maps from')).toEqual([label(OLD), label(NEW), label(CMS)]);
    await pick('Maps from', label(OLD));
    await pick('Maps to', label(NEW));
    await chooseCrosswalkFile(
      new File(['source_ref_id,target_ref_id,relationship\nGOV.1.1,GOV.1.1,equal\nGOV.9,GOV.1.1,equal\n'], 'bad.csv'),
    );
    await click(getControl('Import crosswalk'));
    await waitFor(() => expect(errorAt(control('Crosswalk CSV file'))).toBe(rowError));
    expect(text()).toContain('The crosswalk was not imported. See the messages at the fields.');

    const csv = 'source_ref_id,target_ref_id,relationship,rationale\nGOV.1.1,GOV.1.1,equal,Unchanged\n';
    await chooseCrosswalkFile(new File([csv], 'crosswalk.csv', { type: 'text/csv' }));
    await click(getControl('Import crosswalk'));
    await waitFor(() => expect(toasts()).toContain('Imported a crosswalk of 9 mappings.'));
    const posts = api.calls(`POST ${STD_API}/crosswalks/import`);
    expect(posts).toHaveLength(2);
    expect(posts[1]!.body).toEqual({ source_framework_id: 3, target_framework_id: 5, csv });
    // The list of crosswalks is read again.
    await waitFor(() =>
      expect(document.querySelector('[aria-label="Crosswalks this project uses"]')?.textContent).toBe(
        'STATE-QS 2025 to STATE-QS 2026: 9 mappings',
      ),
    );
    expect(await seriousViolations()).toEqual([]);
  });

  it('refuses the same framework on both sides before posting', async () => {
    const api = server();
    await openApp(`${BASE}/create`);
    await waitFor(() => expect(form()).not.toBeNull());
    await pick('Maps from', label(OLD));
    await pick('Maps to', label(OLD));
    await chooseCrosswalkFile(new File(['source_ref_id,target_ref_id,relationship\nA,A,equal\n'], 'same.csv'));
    await click(getControl('Import crosswalk'));
    // The file is read first (a promise), then the form is checked.
    await waitFor(() => expect(errorAt(field('Maps to'))).toBe('Choose two different frameworks or editions.'));
    expect(api.calls(`POST ${STD_API}/crosswalks/import`)).toHaveLength(0);
  });
});

describe('UpgradeAssessment', () => {
  const CURRENT = assessment({
    id: 8,
    name: 'Self-assessment',
    framework: {
      id: 3,
      code: 'STATE-QS',
      name: 'State quality standards',
      edition: '2025',
      text_policy: 'tenant_text',
    },
  });
  const UPGRADED = assessment({
    id: 42,
    name: 'Self-assessment (2026)',
    created_at: '2026-04-01T10:00:00Z',
    framework: {
      id: 5,
      code: 'STATE-QS',
      name: 'State quality standards',
      edition: '2026',
      text_policy: 'tenant_text',
    },
    upgraded_from: { id: 8, name: 'Self-assessment' },
  });

  function server(extra: Record<string, unknown> = {}, ability = me()) {
    return stubApi({
      ...sessionRoutes(),
      [`GET ${STD_API}/me`]: jsonResponse(ability),
      [`GET ${STD_API}/assessments`]: [
        jsonResponse({ assessments: [CURRENT] }),
        jsonResponse({ assessments: [CURRENT, UPGRADED] }),
      ],
      [`GET ${STD_API}/assessments/8/tree`]: jsonResponse(tree(CURRENT)),
      [`GET ${STD_API}/assessments/42/tree`]: jsonResponse(tree(UPGRADED)),
      [`GET ${STD_API}/members`]: jsonResponse(MEMBERS),
      [`GET ${STD_API}/frameworks`]: jsonResponse({ frameworks: [OLD, NEW, CMS] }),
      [`GET ${STD_API}/crosswalks`]: jsonResponse({ sets: [SET] }),
      ...(extra as Record<string, never>),
    });
  }
  const openUpgrade = async () => {
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(getControl('Upgrade to another edition')).toBeDefined());
    await click(getControl('Upgrade to another edition'));
    await waitFor(() => expect(dialog().textContent).toContain('Upgrade to another edition'));
  };

  it('offers the other frameworks, explains what carries over, posts the upgrade and opens the new assessment', async () => {
    const api = server({ [`POST ${STD_API}/assessments/8/upgrade`]: jsonResponse({ id: 42 }, 201) });
    const router = await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(getControl('Upgrade to another edition')).toBeDefined());
    await click(getControl('Upgrade to another edition'));
    await waitFor(() => expect(dialog().textContent).toContain('Mapped elements carry their result'));
    expect(dialog().textContent).toContain(
      'Mapped elements carry their result, owner and due date and go to In review for someone to confirm; new elements start Not assessed.',
    );
    await waitFor(() => expect(api.calls(`GET ${STD_API}/frameworks`)).toHaveLength(1));
    expect(await optionsOf('Upgrade to', dialog())).toEqual([label(NEW), label(CMS)]);

    await click(getControl('Upgrade', dialog()));
    expect(errorAt(field('Upgrade to', dialog()))).toBe('Choose the edition to upgrade to.');
    expect(api.calls(`POST ${STD_API}/assessments/8/upgrade`)).toHaveLength(0);

    await pick('Upgrade to', label(NEW), dialog());
    expect(field('Name of the new assessment', dialog()).value).toBe('Self-assessment (2026)');
    expect(dialog().textContent).not.toContain('No crosswalk links these editions yet');
    await click(getControl('Upgrade', dialog()));

    await waitFor(() => expect(api.calls(`POST ${STD_API}/assessments/8/upgrade`)).toHaveLength(1));
    expect(api.calls(`POST ${STD_API}/assessments/8/upgrade`)[0]!.body).toEqual({
      framework_id: 5,
      name: 'Self-assessment (2026)',
    });
    await waitFor(() => expect(router.state.location.search).toBe('?assessment=42'));
    expect(router.state.location.pathname).toBe(`${BASE}/compilence`);
    await waitFor(() => expect(toasts()).toContain('Created Self-assessment (2026): mapped elements are in review.'));
    await waitFor(() => expect(field('Assessment').value).toBe('Self-assessment (2026) (STATE-QS 2026)'));
  });

  it('keeps a name typed by hand and shows the server’s refusal', async () => {
    const refusal = 'No crosswalk links these editions: import one first.';
    const api = server({
      [`POST ${STD_API}/assessments/8/upgrade`]: jsonResponse(
        { message: refusal, errors: { framework_id: [refusal] } },
        400,
      ),
    });
    await openUpgrade();
    await typeInto(field('Name of the new assessment', dialog()), 'CMS readiness');
    await pick('Upgrade to', label(CMS), dialog());
    expect(field('Name of the new assessment', dialog()).value).toBe('CMS readiness');
    await waitFor(() => expect(dialog().textContent).toContain('No crosswalk links these editions yet.'));
    await click(getControl('Upgrade', dialog()));
    await waitFor(() => expect(errorAt(field('Upgrade to', dialog()))).toBe(refusal));
    expect(api.calls(`POST ${STD_API}/assessments/8/upgrade`)[0]!.body).toEqual({
      framework_id: 9,
      name: 'CMS readiness',
    });
    expect(await seriousViolations()).toEqual([]);
  });

  it('is not offered to someone who may not create assessments', async () => {
    server({}, me('chapter_lead', false));
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(document.querySelector('[data-testid="compliance-tree"]')).not.toBeNull());
    expect(() => getControl('Upgrade to another edition')).toThrow();
  });
});

describe('CarriedFrom', () => {
  it('says where an upgrade carried the result from, and nothing otherwise', async () => {
    const { container } = await render(
      <>
        <CarriedFrom element={{ carried_from: 'GOV.1.1 (2025): Compliant, equal' }} />
        <CarriedFrom element={{ carried_from: '' }} />
      </>,
    );
    const lines = container.querySelectorAll('[data-testid="carried-from"]');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.textContent).toBe('Carried from GOV.1.1 (2025): Compliant, equal');
  });
});

import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  API,
  BASE,
  errorOf,
  field,
  openScreen,
  optionsOf,
  PEOPLE,
  pick,
  programBody,
  sessionRoutes,
  toasts,
  toolBody,
  toolSummary,
  versionSummary,
} from './cr-test-fixtures';
import { ProgramFormPage } from './ProgramFormPage';

const open = (path: string) =>
  openScreen(path, ['programs', 'programs/new', 'programs/:programId/edit'], <ProgramFormPage />);

const V1 = versionSummary({ id: 30, version: 1, status: 'retired', published_at: '2026-01-05T15:00:00Z' });
const V2 = versionSummary({ id: 31, version: 2, status: 'published', published_at: '2026-03-02T15:00:00Z' });
const TOOLS = {
  abilities: { create: true },
  tools: [
    toolSummary({ id: 3, name: 'Falls audit', published: V2 }),
    toolSummary({ id: 4, name: 'Pain audit', draft: versionSummary({ id: 40, version: 1 }) }),
    toolSummary({ id: 5, name: 'Old audit', retired: true, published: versionSummary({ id: 50, version: 1 }) }),
  ],
};
const FALLS = toolBody({ id: 3, name: 'Falls audit', versions: [versionSummary({ id: 32, version: 3 }), V2, V1] });

const preview = () => document.querySelector('[data-sample-preview]')?.textContent;

/** Types a tag into a TagsInput and presses Enter (it reads typing only while it has the focus). */
async function addTag(label: string, tag: string) {
  const input = field(label);
  await act(async () => input.focus());
  await typeInto(input, tag);
  await act(async () => {
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  });
}

describe('ProgramFormPage', () => {
  it('starts from sensible defaults, checks the form, and sends percentages as shares', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/tools`]: jsonResponse(TOOLS),
      [`GET ${API}/tools/3`]: jsonResponse(FALLS),
      [`GET ${API}/people`]: jsonResponse(PEOPLE),
      [`POST ${API}/programs`]: (request: StubRequest) =>
        jsonResponse(programBody({ id: 8, ...(request.body as object), name: 'Falls, medical wards' }), 201),
    });
    const router = await open(`${BASE}/programs/new`);
    await waitFor(() => expect(field('Name')).toBeDefined());
    expect(document.title).toContain('New programme');
    expect(field('Sampling method').value).toBe('Joint Commission table');
    expect(preview()).toBe('100 eligible cases → 51 reviewed. 600 eligible cases → 102 reviewed.');
    expect(field('Days to complete a review').value).toBe('14');
    expect(field('Second-review share (%)').value).toBe('5');
    expect(field('Target compliance (%)').value).toBe('90');
    expect(field('Status').value).toBe('Active');
    expect(document.querySelector<HTMLInputElement>('input[value="month"]')!.checked).toBe(true);
    // Only published tools in use; owners are programme leads and chart review admins.
    expect(await optionsOf('Audit tool')).toEqual(['Falls audit']);
    expect(await optionsOf('Owner')).toEqual(['Ada Lead (Programme lead)', 'Ben Admin (Chart review admin)']);

    await click(getControl('Create programme'));
    expect(errorOf('Name')).toBe('Enter a name.');
    expect(errorOf('Audit tool')).toBe('Choose the audit tool this programme uses.');
    expect(api.calls(`POST ${API}/programs`)).toHaveLength(0);

    await typeInto(field('Name'), 'Falls, medical wards');
    await pick('Audit tool', 'Falls audit');
    await waitFor(() => expect(api.calls(`GET ${API}/tools/3`)).toHaveLength(1));
    await waitFor(() => expect(field('Version').value).toBe('Latest published version (now v2)'));
    expect(await optionsOf('Version')).toEqual([
      'Latest published version (now v2)',
      'Always v2',
      'Always v1 (retired)',
    ]);
    await pick('Version', 'Always v1 (retired)');
    await addTag('Units', 'Ward 4');
    await click(document.querySelector<HTMLInputElement>('input[value="quarter"]')!);
    await pick('Sampling method', 'Fixed number');
    await typeInto(field('Cases per period'), '');
    await click(getControl('Create programme'));
    expect(errorOf('Cases per period')).toBe('The sample size is a whole number from 1 to 10,000.');
    expect(preview()).toBe('Complete the sampling fields to see how many cases are reviewed.');

    await typeInto(field('Cases per period'), '25');
    expect(preview()).toBe('100 eligible cases → 25 reviewed. 600 eligible cases → 25 reviewed.');
    await typeInto(field('Second-review share (%)'), '10');
    await typeInto(field('Target compliance (%)'), '95');
    await pick('Owner', 'Ada Lead (Programme lead)');
    await click(getControl('Create programme'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/programs`));
    expect(api.calls(`POST ${API}/programs`)[0]!.body).toEqual({
      name: 'Falls, medical wards',
      tool_id: 3,
      pinned_version_id: 30,
      units: ['Ward 4'],
      grain: 'quarter',
      sampling: { method: 'fixed', n: 25, stratify_by_unit: false },
      due_days: 14,
      irr_rate: 0.1,
      target: 0.95,
      owner_id: 21,
      status: 'active',
      mon_measure_id: null,
    });
    expect(toasts()).toContain('Programme "Falls, medical wards" created.');
  });

  it('edits a programme: shows its values, the server errors at their fields, and keeps its linked measure', async () => {
    const program = programBody({
      id: 7,
      name: 'Sepsis',
      sampling: { method: 'percent', pct: 20, min: 10, max: 50, stratify_by_unit: true },
      irr_rate: 0.05,
      target: 0.85,
      owner_id: 22,
      owner: { id: 22, name: 'Ben Admin' },
      mon_measure_id: 12,
      measure: { id: 12, name: 'Sepsis bundle compliance' },
    });
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs/7`]: jsonResponse(program),
      [`GET ${API}/tools`]: jsonResponse(TOOLS),
      [`GET ${API}/tools/3`]: jsonResponse(FALLS),
      [`GET ${API}/people`]: jsonResponse(PEOPLE),
      [`PUT ${API}/programs/7`]: [
        jsonResponse(
          {
            message: 'The given data was invalid.',
            code: 'VALIDATION_FAILED',
            errors: {
              'sampling.max': ['The minimum sample size cannot be larger than the maximum.'],
              owner_id: ['The owner must be a programme lead or chart review admin.'],
            },
          },
          400,
        ),
        (request: StubRequest) => jsonResponse({ ...program, ...(request.body as object) }),
      ],
    });
    const router = await open(`${BASE}/programs/7/edit`);
    await waitFor(() => expect(field('Name').value).toBe('Sepsis'));
    expect(field('Sampling method').value).toBe('Percentage');
    expect(field('Share of eligible cases (%)').value).toBe('20');
    expect(field('At least').value).toBe('10');
    expect(field('At most').value).toBe('50');
    expect(field('Sample each unit separately').checked).toBe(true);
    expect(field('Target compliance (%)').value).toBe('85');
    expect(field('Owner').value).toBe('Ben Admin (Chart review admin)');
    expect(preview()).toBe(
      '100 eligible cases → 20 reviewed. 600 eligible cases → 50 reviewed. (Per unit, when each unit is sampled separately.)',
    );

    await typeInto(field('At most'), '40');
    await click(getControl('Save programme'));
    await waitFor(() => expect(errorOf('At most')).toBe('The minimum sample size cannot be larger than the maximum.'));
    expect(errorOf('Owner')).toBe('The owner must be a programme lead or chart review admin.');
    expect(text()).toContain('Some fields need attention. See the messages at the fields.');

    await click(getControl('Save programme'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/programs`));
    expect(api.calls(`PUT ${API}/programs/7`)[1]!.body).toMatchObject({
      name: 'Sepsis',
      sampling: { method: 'percent', pct: 20, min: 10, max: 40, stratify_by_unit: true },
      irr_rate: 0.05,
      target: 0.85,
      owner_id: 22,
      mon_measure_id: 12,
    });
    expect(toasts()).toContain('Programme "Sepsis" saved.');
  });
});

import type { CrSample, CrSampleList } from '@portal/shared';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { FakeXhr } from '../../../test/fake-xhr';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  API,
  BASE,
  dialog,
  errorOf,
  field,
  openScreen,
  PEOPLE,
  programBody,
  rows,
  sessionRoutes,
  settingsBody,
  toasts,
} from './cr-test-fixtures';
import { fileProblem, SamplingProgramPage } from './SamplingProgramPage';

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const counts = { eligible: 12, selected: 2, excluded: 0, assigned: 0, submitted: 0 };

function sampleBody(overrides: Partial<CrSample> = {}): CrSample {
  return {
    id: 70,
    program_id: 5,
    period_start: '2026-03-01',
    status: 'drawn',
    file_name: 'march.csv',
    row_count: 12,
    size: 2,
    counts,
    uploaded_at: '2026-04-02T10:00:00Z',
    drawn_at: '2026-04-02T10:05:00Z',
    locked_at: null,
    program: { id: 5, name: 'Falls audit', grain: 'month', units: ['Ward 4', 'Ward 5'] },
    file_sha256: 'ab'.repeat(32),
    plan: { method: 'fixed', n: 2, stratify_by_unit: true },
    seed: '3f2a9c',
    algorithm: 'sfc32-cyrb128-fisher-yates-v1',
    by_stratum: [
      { stratum: 'Ward 4', population: 7, size: 1 },
      { stratum: 'Ward 5', population: 5, size: 1 },
    ],
    tool_version: null,
    uploaded_by: { id: 21, name: 'Ada Lead' },
    drawn_by: { id: 21, name: 'Ada Lead' },
    locked_by: null,
    keeps_refs: false,
    refs_stored: true,
    cases: [
      {
        id: 801,
        case_code: 'CR-2026-03-0142',
        unit: 'Ward 4',
        discharge_month: '2026-03',
        stratum: 'Ward 4',
        rank: 1,
        status: 'selected',
        exclusion_reason: null,
        replacement_case_code: null,
        ref_stored: true,
        assignments: [],
      },
      {
        id: 802,
        case_code: 'CR-2026-03-7730',
        unit: 'Ward 5',
        discharge_month: '2026-03',
        stratum: 'Ward 5',
        rank: 1,
        status: 'selected',
        exclusion_reason: null,
        replacement_case_code: null,
        ref_stored: true,
        assignments: [],
      },
    ],
    abilities: { upload: true, draw: true, exclude: true, lock: true, pull_list: true },
    ...overrides,
  };
}

function listBody(samples: CrSample[], upload = true): CrSampleList {
  return {
    samples: samples.map(({ id, program_id, period_start, status, file_name, row_count, size, counts: c }) => ({
      id,
      program_id,
      period_start,
      status,
      file_name,
      row_count,
      size,
      counts: c,
      uploaded_at: '2026-04-02T10:00:00Z',
      drawn_at: null,
      locked_at: null,
    })),
    abilities: { upload },
  };
}

function server(sample: CrSample, extra: Record<string, unknown> = {}) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/programs/5`]: jsonResponse(
      programBody({
        id: 5,
        name: 'Falls audit',
        units: ['Ward 4', 'Ward 5'],
        sampling: { method: 'fixed', n: 2, stratify_by_unit: true },
      }),
    ),
    [`GET ${API}/programs/5/samples`]: jsonResponse(listBody([sample])),
    [`GET ${API}/samples/${sample.id}`]: jsonResponse(sample),
    [`GET ${API}/settings`]: jsonResponse(settingsBody()),
    [`GET ${API}/people`]: jsonResponse(PEOPLE),
    ...(extra as Record<string, never>),
  });
}

const open = () => openScreen(`${BASE}/sampling/5`, ['sampling/:programId'], <SamplingProgramPage />);

async function chooseFile(file: File) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('SamplingProgramPage', () => {
  it('shows the periods, the privilege label, the provenance, the units and the cases without any reference', async () => {
    server(sampleBody());
    await open();
    await waitFor(() => expect(text()).toContain('Provenance'));
    expect(document.title).toContain('Sampling · Falls audit');
    expect(text()).toContain('Privileged and confidential: quality improvement work product.');
    expect(rows('table[aria-label="Samples by period"]')).toEqual([['Mar 2026', 'Drawn', '12', '2', '0', '0', '0']]);
    expect(text()).toContain('abababab');
    expect(text()).toContain('3f2a9c');
    expect(text()).toContain('Fixed 2 per month, each unit separately');
    expect(rows('table[aria-label="Sample by unit"]')).toEqual([
      ['Ward 4', '7', '1'],
      ['Ward 5', '5', '1'],
    ]);
    expect(rows('table[aria-label="Cases of the sample"]')[0]!.slice(0, 5)).toEqual([
      'CR-2026-03-0142',
      'Ward 4',
      'Mar 2026',
      '1 in Ward 4',
      'Selected',
    ]);
    expect(getControl('Download ranked list').getAttribute('href')).toBe(`${API}/samples/70/ranked.csv`);
  });

  it('uploads a list with its period and progress, and shows the server refusal at the file field', async () => {
    server(sampleBody({ period_start: '2025-01-01' }));
    await open();
    await waitFor(() => expect(text()).toContain('Upload an eligible-case list'));
    await click(getControl('Upload list'));
    expect(text()).toContain('Choose the eligible-case list (a CSV file).');
    expect(FakeXhr.sent).toHaveLength(0);

    await chooseFile(new File(['encounter,unit\nE1,Ward 4\n'], 'april.csv', { type: 'text/csv' }));
    await click(getControl('Upload list'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0]!;
    expect(xhr.url).toBe(`${API}/programs/5/samples`);
    expect(xhr.body?.get('period_start')).toMatch(/^\d{4}-\d{2}-01$/);
    expect((xhr.body!.get('file') as File).name).toBe('april.csv');
    await xhr.progress(40, 100);
    expect(document.querySelector('[aria-label="Upload progress"]')).not.toBeNull();
    const message = "Remove the column 'Patient name': chart review never stores names or birth dates.";
    await xhr.respond(400, { message, code: 'VALIDATION_FAILED', errors: { file: [message] } });
    await waitFor(() => expect(text()).toContain(message));
    // At the field, not as a general failure.
    expect(document.querySelector('[role="alert"]')).toBeNull();
  });

  it('refuses files the browser can already tell are wrong', () => {
    expect(fileProblem(new File(['x'], 'list.xlsx'))).toBe('Choose a CSV file (.csv).');
    expect(fileProblem(new File([], 'list.csv'))).toBe('The file is empty.');
    const big = new File(['x'], 'big.csv');
    Object.defineProperty(big, 'size', { value: 11 * 1024 * 1024 });
    expect(fileProblem(big)).toBe('The file is larger than 10 MB.');
    expect(fileProblem(new File(['x'], 'ok.csv'))).toBeNull();
  });

  it('asks before drawing again, then draws with the given seed', async () => {
    const api = server(sampleBody(), {
      [`POST ${API}/samples/70/draw`]: jsonResponse(sampleBody({ seed: 'my-seed' })),
    });
    await open();
    await waitFor(() => expect(text()).toContain('Draw again'));
    await click(field('Use another plan or seed for this draw'));
    await typeInto(field('Seed'), 'my-seed');
    await click(getControl('Draw again'));
    await waitFor(() => expect(dialog().textContent).toContain('clears every exclusion'));
    expect(api.calls(`POST ${API}/samples/70/draw`)).toHaveLength(0);
    await click(getControl('Draw again', dialog()));
    await waitFor(() => expect(api.calls(`POST ${API}/samples/70/draw`)).toHaveLength(1));
    expect(api.calls(`POST ${API}/samples/70/draw`)[0]!.body).toEqual({
      plan: { method: 'jc_table', stratify_by_unit: false },
      seed: 'my-seed',
    });
    await waitFor(() => expect(toasts()).toContain('Sample drawn: 2 of 12 cases selected.'));
  });

  it('excludes a case with a reason and says which case replaced it', async () => {
    const after = sampleBody();
    after.cases[0] = {
      ...after.cases[0]!,
      status: 'excluded',
      exclusion_reason: 'Transferred out',
      replacement_case_code: 'CR-2026-03-5521',
    };
    let current = sampleBody();
    const api = server(current, {
      [`GET ${API}/samples/70`]: () => jsonResponse(current),
      [`POST ${API}/cases/801/exclude`]: () => {
        current = after;
        return jsonResponse({ sample: after, replacement_case_code: 'CR-2026-03-5521' });
      },
    });
    await open();
    await waitFor(() => expect(text()).toContain('CR-2026-03-0142'));
    await click(document.querySelector<HTMLElement>('[aria-label="Exclude CR-2026-03-0142"]')!);
    await waitFor(() => expect(dialog()).toBeDefined());
    await click(getControl('Exclude case', dialog()));
    expect(errorOf('Reason', dialog())).toBe('Give a reason of at least 3 characters.');
    await typeInto(field('Reason', dialog()), 'Transferred out');
    await click(getControl('Exclude case', dialog()));
    await waitFor(() => expect(toasts()).toContain('CR-2026-03-0142 excluded; CR-2026-03-5521 takes its place.'));
    expect(api.calls(`POST ${API}/cases/801/exclude`)[0]!.body).toEqual({ reason: 'Transferred out' });
    await waitFor(() => expect(text()).toContain('Transferred out · replaced by CR-2026-03-5521'));
  });

  it('downloads the pull list only with a reason', async () => {
    server(sampleBody());
    await open();
    await waitFor(() => expect(text()).toContain('Download pull list'));
    await click(getControl('Download pull list'));
    await waitFor(() => expect(dialog()).toBeDefined());
    const download = () => getControl('Download', dialog());
    expect(download().getAttribute('href')).toBeNull();
    await typeInto(field('Reason', dialog()), 'Records team pull');
    expect(download().getAttribute('href')).toBe(`${API}/samples/70/pull-list.csv?reason=Records%20team%20pull`);
  });

  it('locks and assigns after confirmation, warning that references are purged, with server errors shown', async () => {
    const locked = sampleBody({ status: 'locked', abilities: { ...sampleBody().abilities, lock: false } });
    locked.cases = locked.cases.map((c) => ({
      ...c,
      assignments: [
        {
          id: 1,
          reviewer: { id: 23, name: 'Cy Reviewer' },
          role: 'primary',
          blind: false,
          status: 'assigned',
          due_at: '2026-04-16',
        },
      ],
    }));
    let current = sampleBody();
    let tries = 0;
    const api = server(current, {
      [`GET ${API}/samples/70`]: () => jsonResponse(current),
      [`POST ${API}/samples/70/lock`]: () => {
        tries += 1;
        if (tries === 1) {
          const message = 'A second review needs at least two reviewers.';
          return jsonResponse({ message, code: 'VALIDATION_FAILED', errors: { reviewer_ids: [message] } }, 400);
        }
        current = locked;
        return jsonResponse(locked);
      },
    });
    await open();
    await waitFor(() => expect(text()).toContain('Lock and assign'));
    await click(getControl('Lock and assign'));
    await waitFor(() => expect(dialog().textContent).toContain('Encounter references are purged'));
    // Viewers are not offered.
    await click(field('Reviewers', dialog()));
    await waitFor(() => expect(document.body.textContent).toContain('Cy Reviewer'));
    expect([...document.querySelectorAll('[role="option"]')].map((o) => o.textContent)).not.toContain('Di Viewer');
    const cy = [...document.querySelectorAll<HTMLElement>('[role="option"]')].find(
      (o) => o.textContent === 'Cy Reviewer',
    )!;
    await click(cy);
    await click(getControl('Lock and assign', dialog()));
    expect(dialog().textContent).toContain('Confirm that the selection is final.');
    expect(api.calls(`POST ${API}/samples/70/lock`)).toHaveLength(0);
    await click(field('The selection is final: lock it and notify the reviewers', dialog()));
    await click(getControl('Lock and assign', dialog()));
    await waitFor(() => expect(errorOf('Reviewers', dialog())).toBe('A second review needs at least two reviewers.'));
    await click(getControl('Lock and assign', dialog()));
    await waitFor(() =>
      expect(toasts()).toContain('Sample locked and reviews assigned. The reviewers have been notified.'),
    );
    expect(api.calls(`POST ${API}/samples/70/lock`)[1]!.body).toEqual({ mode: 'round_robin', reviewer_ids: [23] });
    await waitFor(() => expect(text()).toContain('Cy Reviewer (primary): Assigned, due Apr 16, 2026'));
  });

  it('offers no upload, draw, exclusion or lock without the sampling section', async () => {
    const sample = sampleBody({
      abilities: { upload: false, draw: false, exclude: false, lock: false, pull_list: false },
    });
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs/5`]: jsonResponse(programBody({ id: 5, name: 'Falls audit' })),
      [`GET ${API}/programs/5/samples`]: jsonResponse(listBody([sample], false)),
      [`GET ${API}/samples/70`]: (_request: StubRequest) => jsonResponse(sample),
      [`GET ${API}/settings`]: jsonResponse(settingsBody()),
    });
    await open();
    await waitFor(() => expect(text()).toContain('Provenance'));
    for (const name of ['Upload list', 'Draw again', 'Lock and assign', 'Download pull list', 'Exclude']) {
      expect(() => getControl(name)).toThrow();
    }
    // Why there is no pull list, before anyone looks for it.
    expect(text()).toContain('only the roles the chart review settings allow to read them may download it');
  });

  it('says nothing about reading references to those who may download the pull list', async () => {
    const sample = sampleBody();
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs/5`]: jsonResponse(programBody({ id: 5, name: 'Falls audit' })),
      [`GET ${API}/programs/5/samples`]: jsonResponse(listBody([sample], false)),
      [`GET ${API}/samples/70`]: (_request: StubRequest) => jsonResponse(sample),
      [`GET ${API}/settings`]: jsonResponse(settingsBody()),
    });
    await open();
    await waitFor(() => expect(text()).toContain('Provenance'));
    expect(getControl('Download pull list')).toBeTruthy();
    expect(text()).not.toContain('allow to read them');
  });
});

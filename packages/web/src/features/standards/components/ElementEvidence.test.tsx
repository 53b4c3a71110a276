import type { StdEvidenceItem, StdReadiness } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  appRoutes,
  assessment,
  BASE,
  chooseFile,
  ELEMENT_API,
  element,
  errorAt,
  field,
  openApp,
  pick,
  STD_API,
  seriousViolations,
  toasts,
  ZERO,
} from './std-test-fixtures';

const CURRENT = assessment({ id: 8, name: 'Self-assessment 2026' });

function item(overrides: Partial<StdEvidenceItem> & Pick<StdEvidenceItem, 'id' | 'kind' | 'title'>): StdEvidenceItem {
  return {
    url: null,
    file: null,
    note: '',
    status: 'approved',
    expires_on: null,
    expired: false,
    expiring: false,
    created_by: { id: 21, name: 'Ada Admin' },
    created_at: '2026-11-20T10:00:00Z',
    ...overrides,
  };
}

const EVIDENCE: StdEvidenceItem[] = [
  item({
    id: 61,
    kind: 'link',
    title: 'Night rota, March',
    url: 'https://intranet.example.org/rota/march',
    expires_on: '2027-03-02',
  }),
  item({
    id: 62,
    kind: 'file',
    title: 'Signed staffing plan',
    file: { id: 900, name: 'staffing plan.pdf', size: 245_760, content_type: 'application/pdf' },
    status: 'in_review',
    expires_on: '2026-11-01',
    expired: true,
    created_by: { id: 22, name: 'Ben Owner' },
  }),
  item({
    id: 63,
    kind: 'note',
    title: 'Charge nurse on nights',
    note: 'Checked the March nights: an RN in charge every night.',
    status: 'draft',
    expires_on: '2026-12-15',
    expiring: true,
  }),
];

function server(extra: Record<string, unknown> = {}) {
  return stubApi({
    ...appRoutes(CURRENT),
    [`GET ${STD_API}/link-targets`]: jsonResponse({ targets: [] }),
    [`GET ${ELEMENT_API}`]: jsonResponse(element({ evidence: EVIDENCE })),
    ...(extra as Record<string, never>),
  });
}

const open = () => openApp(`${BASE}/compilence?element=502`);
const panel = () => document.querySelector<HTMLElement>('[role="dialog"]')!;
const evidence = () => panel().querySelector<HTMLElement>('section[aria-label="Evidence"]')!;
const form = () => panel().querySelector<HTMLElement>('form[aria-label="Add evidence"]')!;
const ready = () => waitFor(() => expect(evidence()?.textContent ?? '').toContain('Add evidence'));

describe('element evidence', () => {
  it('lists evidence with its kind, status and expiry, linking to the page or the file', async () => {
    server();
    await open();
    await ready();
    const items = [...evidence().querySelectorAll('li')];
    expect(items).toHaveLength(3);

    const link = items[0]!.querySelector('a')!;
    expect(link.textContent).toBe('Night rota, March');
    expect(link.getAttribute('href')).toBe('https://intranet.example.org/rota/march');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(items[0]!.textContent).toContain('Approved');
    expect(items[0]!.textContent).toContain('Expires Mar 2, 2027');
    expect(items[0]!.textContent).not.toContain('Expiring');

    const file = items[1]!.querySelector('a')!;
    expect(file.getAttribute('href')).toBe(`${STD_API}/evidence/62/file`);
    expect(file.getAttribute('aria-label')).toBe('Signed staffing plan (download staffing plan.pdf)');
    for (const words of ['File · 240 KB', 'In review', 'Expired', 'Expired on Nov 1, 2026', 'Added by Ben Owner'])
      expect(items[1]!.textContent).toContain(words);

    expect(items[2]!.querySelector('a')).toBeNull();
    for (const words of ['Note', 'Draft', 'Expiring', 'Expires Dec 15, 2026', 'an RN in charge every night'])
      expect(items[2]!.textContent).toContain(words);

    // Editors approve or reject what waits in review (only that); whoever may link removes.
    expect(items[1]!.querySelector('[aria-label="Approve Signed staffing plan"]')).not.toBeNull();
    expect(items[0]!.querySelector('[aria-label^="Approve"]')).toBeNull();
    expect(items[2]!.querySelector('[aria-label^="Approve"]')).toBeNull();
    expect(evidence().querySelectorAll('[aria-label^="Remove "]')).toHaveLength(3);
    expect(await seriousViolations()).toEqual([]);
  });

  it('adds a link, checking the address first, and posts the right body', async () => {
    const api = server({
      [`POST ${ELEMENT_API}/evidence`]: (request: StubRequest) =>
        jsonResponse(
          element({
            evidence: [...EVIDENCE, item({ id: 64, ...(request.body as { kind: 'link'; title: string }) })],
          }),
          201,
        ),
    });
    await open();
    await ready();
    await click(getControl('Add evidence', form()));
    expect(errorAt(field('Title', form()))).toBe('Give the evidence a title.');
    expect(api.calls(`POST ${ELEMENT_API}/evidence`)).toHaveLength(0);

    await typeInto(field('Title', form()), 'Nurse staffing dashboard');
    await typeInto(field('Web address', form()), 'javascript:alert(1)');
    await click(getControl('Add evidence', form()));
    expect(errorAt(field('Web address', form()))).toBe('Enter a link starting with https:// or http://.');
    expect(api.calls(`POST ${ELEMENT_API}/evidence`)).toHaveLength(0);

    await typeInto(field('Web address', form()), 'https://bi.example.org/staffing');
    await typeInto(field('Expires on', form()), '2027-03-02');
    await pick('Evidence status', 'In review', form());
    await click(getControl('Add evidence', form()));
    await waitFor(() => expect(toasts()).toContain('Evidence added.'));
    expect(api.calls(`POST ${ELEMENT_API}/evidence`)[0]!.body).toEqual({
      kind: 'link',
      title: 'Nurse staffing dashboard',
      url: 'https://bi.example.org/staffing',
      note: '',
      status: 'in_review',
      expires_on: '2027-03-02',
    });
    // The form is empty again for the next one.
    expect(field('Title', form()).value).toBe('');
  });

  it('uploads a file with its fields, refusing one that is too large', async () => {
    const api = server({ [`POST ${ELEMENT_API}/evidence/file`]: jsonResponse(element({ evidence: EVIDENCE }), 201) });
    await open();
    await ready();
    await click(field('File', form()));
    await waitFor(() => expect(form().querySelector('input[type="file"]')).not.toBeNull());
    expect(form().querySelector('input[type="file"]')!.getAttribute('accept')).toContain('.pdf');

    const huge = new File(['x'], 'scan.pdf', { type: 'application/pdf' });
    Object.defineProperty(huge, 'size', { value: 11 * 1024 * 1024 });
    await chooseFile(huge);
    await click(getControl('Add evidence', form()));
    expect(form().textContent).toContain('The file is larger than 10 MB. Compress it or split it.');
    expect(api.calls(`POST ${ELEMENT_API}/evidence/file`)).toHaveLength(0);

    const pdf = new File(['%PDF-1.7 minutes'], 'board minutes.pdf', { type: 'application/pdf' });
    await chooseFile(pdf);
    await typeInto(field('Title', form()), 'Board minutes, March');
    await typeInto(field('Note text', form()), 'Signed by the chair.');
    await click(getControl('Add evidence', form()));
    await waitFor(() => expect(toasts()).toContain('Evidence added.'));
    const calls = api.mock.mock.calls.filter(([url]) => String(url) === `${ELEMENT_API}/evidence/file`);
    expect(calls).toHaveLength(1);
    const init = calls[0]![1]!;
    expect(init.method).toBe('POST');
    const body = init.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('title')).toBe('Board minutes, March');
    expect(body.get('note')).toBe('Signed by the chair.');
    expect(body.get('status')).toBe('approved');
    expect(body.get('expires_on')).toBeNull();
    expect((body.get('file') as File).name).toBe('board minutes.pdf');
    // Fields before the file: the server reads them first.
    expect([...body.keys()].at(-1)).toBe('file');
  });

  it('approves evidence in review, and removes evidence after a confirmation', async () => {
    const api = server({
      [`PUT ${STD_API}/evidence/62`]: jsonResponse(
        element({ evidence: EVIDENCE.map((e) => (e.id === 62 ? { ...e, status: 'approved' as const } : e)) }),
      ),
      [`DELETE ${STD_API}/evidence/61`]: () => new Response(null, { status: 204 }),
    });
    await open();
    await ready();
    await click(evidence().querySelector<HTMLElement>('[aria-label="Approve Signed staffing plan"]')!);
    await waitFor(() => expect(toasts()).toContain('Evidence approved.'));
    expect(api.calls(`PUT ${STD_API}/evidence/62`)[0]!.body).toEqual({ status: 'approved' });
    await waitFor(() => expect(evidence().querySelector('[aria-label^="Approve"]')).toBeNull());

    await click(evidence().querySelector<HTMLElement>('[aria-label="Remove Night rota, March"]')!);
    await waitFor(() => expect(document.querySelectorAll('[role="dialog"]').length).toBe(2));
    const confirm = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].find((d) =>
      d.textContent?.includes('Remove this evidence?'),
    )!;
    expect(confirm.textContent).toContain('“Night rota, March” will no longer be evidence of A-0395.');
    await click(getControl('Remove', confirm));
    await waitFor(() => expect(api.calls(`DELETE ${STD_API}/evidence/61`)).toHaveLength(1));
    await waitFor(() => expect(toasts()).toContain('Evidence removed.'));
  });

  it('lets a contributor add a note that waits in review, without approving anything', async () => {
    const api = server({
      [`GET ${ELEMENT_API}`]: jsonResponse(
        element({
          evidence: EVIDENCE,
          abilities: { edit: false, comment: true, link: true, edit_wording: false, finding: false },
        }),
      ),
      [`POST ${ELEMENT_API}/evidence`]: jsonResponse(element({ evidence: EVIDENCE }), 201),
    });
    await open();
    await ready();
    expect(evidence().querySelector('[aria-label^="Approve"]')).toBeNull();
    expect(() => field('Evidence status', form())).toThrow();
    expect(form().textContent).toContain('Your evidence waits in review');
    await click(field('Note', form()));
    await typeInto(field('Title', form()), 'Night checks');
    await click(getControl('Add evidence', form()));
    expect(errorAt(field('Note text', form()))).toBe('Write the note.');
    await typeInto(field('Note text', form()), 'Walked the wards at 2 am.');
    await click(getControl('Add evidence', form()));
    await waitFor(() => expect(api.calls(`POST ${ELEMENT_API}/evidence`)).toHaveLength(1));
    expect(api.calls(`POST ${ELEMENT_API}/evidence`)[0]!.body).toEqual({
      kind: 'note',
      title: 'Night checks',
      note: 'Walked the wards at 2 am.',
      expires_on: null,
    });
  });

  it('offers the "Evidence expiring" filter on the compliance tree', async () => {
    const api = server();
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(api.calls(`GET ${STD_API}/assessments/8/tree`).length).toBeGreaterThan(0));
    const show = document.querySelector<HTMLElement>('[aria-label="Show"]')!;
    await waitFor(() => expect(show).not.toBeNull());
    expect([...show.querySelectorAll('label')].map((l) => l.textContent)).toEqual([
      'All',
      'Mine',
      'Gaps',
      'Not assessed',
      'No evidence',
      'Evidence expiring',
      'Overdue',
    ]);
    await click(field('Evidence expiring'));
    await waitFor(() =>
      expect(api.calls(`GET ${STD_API}/assessments/8/tree`).at(-1)!.query.get('filter')).toBe('expiring'),
    );
  });

  it('lists expired and expiring evidence items in readiness, linking to their elements', async () => {
    const readiness: StdReadiness = {
      assessment_id: 8,
      applicable: 4,
      assessed_12m: 2,
      counts: { ...ZERO, compliant: 2, not_assessed: 2 },
      score: 1,
      chapters: [],
      safer: [],
      immediate_threats: 0,
      due_corrections: [],
      policy_evidence: [
        {
          policy_id: 5,
          number: '2.4',
          title: 'Nurse staffing plan',
          next_review_on: '2026-12-01',
          state: 'expiring',
          elements: [{ req_id: 502, ref_id: 'A-0395' }],
        },
      ],
      evidence_items: [
        {
          id: 62,
          req_id: 502,
          ref_id: 'A-0395',
          title: 'Signed staffing plan',
          expires_on: '2026-11-01',
          state: 'expired',
        },
        { id: 63, req_id: 504, ref_id: 'A-0431', title: 'Records audit', expires_on: '2026-12-15', state: 'expiring' },
      ],
      overdue_elements: 0,
    };
    server({ [`GET ${STD_API}/assessments/8/readiness`]: jsonResponse(readiness) });
    await openApp(`${BASE}/readiness`);
    await waitFor(() => expect(text()).toContain('Evidence expired or expiring'));
    expect(text()).not.toContain('Policy evidence expired');
    const section = [...document.querySelectorAll('h2')].find((h) => h.textContent === 'Evidence expired or expiring')!
      .parentElement!;
    const plan = getControl('Signed staffing plan', section);
    expect(plan.getAttribute('href')).toBe(`${BASE}/compilence?assessment=8&element=502`);
    expect(getControl('Records audit', section).getAttribute('href')).toBe(
      `${BASE}/compilence?assessment=8&element=504`,
    );
    expect(section.textContent).toContain('expired on Nov 1, 2026 · evidence of A-0395');
    expect(section.textContent).toContain('expires Dec 15, 2026 · evidence of A-0431');
    expect(section.textContent).toContain('2.4 Nurse staffing plan');
    expect(await seriousViolations()).toEqual([]);
  });
});

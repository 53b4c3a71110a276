import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../test/api-stub';
import { jsonResponse } from '../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../test/render';
import { AddStandardsPanel, NO_ELEMENTS, NOT_LINKED } from './AddStandardsPanel';
import {
  dialog,
  field,
  hit,
  labelled,
  link,
  openAt,
  rows,
  STD_API,
  seriousViolations,
  sessionRoutes,
  toasts,
} from './links-test-helpers';

const open = (canEdit = true) =>
  openAt(
    '/policy/12',
    '/policy/:projectId',
    <AddStandardsPanel
      projectId="12"
      targetType="policy"
      targetId={5}
      targetLabel="4.2 Hand hygiene"
      canEdit={canEdit}
    />,
  );
const table = 'table[aria-label="Linked standards"]';

const HITS = [
  hit({
    node_id: 31,
    ref_id: '§482.42(a)',
    title: 'Infection prevention program',
    wording: 'The hospital must have an active program for the prevention, control, and investigation of infections.',
  }),
  hit({ node_id: 32, ref_id: 'IC.04.01.01', title: 'Hand hygiene guidelines', framework: 'TJC HAP 2026', path: 'IC' }),
];

describe('AddStandardsPanel', () => {
  it('lists the linked elements and unlinks one only after confirming', async () => {
    let links = [
      link({ id: 7, node_id: 31, ref_id: '§482.42(a)', title: 'Infection prevention program', note: 'Section 3' }),
      link({ id: 8, node_id: 40, ref_id: 'IC.02.01.01', title: 'Implements the IC plan', framework: 'TJC HAP 2026' }),
    ];
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${STD_API}/links`]: () => jsonResponse({ links }),
      [`GET ${STD_API}/elements`]: jsonResponse({ elements: [], more: false }),
      [`DELETE ${STD_API}/links/8`]: () => {
        links = links.filter((item) => item.id !== 8);
        return new Response(null, { status: 204 });
      },
    });
    await open();
    await waitFor(() => expect(rows(table)).toHaveLength(2));
    const query = api.calls(`GET ${STD_API}/links`)[0]!.query;
    expect(query.get('target_type')).toBe('policy');
    expect(query.get('target_id')).toBe('5');
    expect(rows(table)[0]).toEqual([
      '§482.42(a)',
      'Infection prevention program',
      'CMS CoP 2025',
      'Section 3',
      'Ada AdminMar 2, 2026',
      '',
    ]);
    expect(rows(table)[1]![3]).toBe('—');
    expect(await seriousViolations()).toEqual([]);

    await click(labelled('Unlink IC.02.01.01'));
    await waitFor(() =>
      expect(text(dialog())).toContain('Unlink IC.02.01.01 Implements the IC plan from "4.2 Hand hygiene"?'),
    );
    await click(getControl('Cancel', dialog()));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(api.calls(`DELETE ${STD_API}/links/8`)).toHaveLength(0);

    await click(labelled('Unlink IC.02.01.01'));
    await waitFor(() => expect(dialog()).toBeTruthy());
    await click(getControl('Unlink', dialog()));
    await waitFor(() => expect(api.calls(`DELETE ${STD_API}/links/8`)).toHaveLength(1));
    await waitFor(() => expect(rows(table)).toHaveLength(1));
    await waitFor(() => expect(toasts()).toContain('Unlinked IC.02.01.01.'));
  });

  it('searches the elements by reference or words and links the chosen one with a note', async () => {
    let links: ReturnType<typeof link>[] = [];
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${STD_API}/links`]: () => jsonResponse({ links }),
      [`GET ${STD_API}/elements`]: (request: StubRequest) => {
        const search = request.query.get('search') ?? '';
        return jsonResponse({
          elements: HITS.filter((item) => search === '' || item.title.toLowerCase().includes(search.toLowerCase())),
          more: false,
        });
      },
      [`POST ${STD_API}/links`]: (request: StubRequest) => {
        const body = request.body as { node_id: number; note: string };
        const created = link({ id: 9, node_id: body.node_id, ref_id: 'IC.04.01.01', note: body.note });
        links = [created];
        return jsonResponse(created, 201);
      },
    });
    await open();
    await waitFor(() => expect(text()).toContain(NOT_LINKED));
    await waitFor(() => expect(document.querySelectorAll('[data-node-id]')).toHaveLength(2));
    expect(api.calls(`GET ${STD_API}/elements`)[0]!.query.get('for')).toBe('policy');
    expect(text()).toContain('The hospital must have an active program');
    expect(text()).toContain('TJC HAP 2026 · IC');
    expect(await seriousViolations()).toEqual([]);

    await typeInto(field('Search standard elements'), 'hand');
    await waitFor(() =>
      expect(api.calls(`GET ${STD_API}/elements`).map((call) => call.query.get('search'))).toContain('hand'),
    );
    await waitFor(() => expect(document.querySelectorAll('[data-node-id]')).toHaveLength(1));
    // Typing is debounced: not one request per keystroke.
    expect(api.calls(`GET ${STD_API}/elements`)).toHaveLength(2);

    expect(() => getControl('Link')).toThrow();
    await click(labelled('IC.04.01.01 Hand hygiene guidelines'));
    await waitFor(() => expect(getControl('Link')).toBeTruthy());
    await typeInto(field('Note (optional)'), '  Section 2 covers the moments of hand hygiene. ');
    await click(getControl('Link'));
    await waitFor(() => expect(api.calls(`POST ${STD_API}/links`)).toHaveLength(1));
    expect(api.calls(`POST ${STD_API}/links`)[0]!.body).toEqual({
      node_id: 32,
      target_type: 'policy',
      target_id: 5,
      note: 'Section 2 covers the moments of hand hygiene.',
    });
    await waitFor(() => expect(toasts()).toContain('Linked "4.2 Hand hygiene" to IC.04.01.01.'));
    await waitFor(() => expect(rows(table)).toHaveLength(1));
    // The linked element cannot be chosen twice.
    await waitFor(() => expect(text(document.querySelector('[data-node-id="32"]')!)).toContain('Already linked'));
    expect(() => getControl('Link')).toThrow();
  });

  it("shows the server's message for the note and keeps the choice", async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${STD_API}/links`]: jsonResponse({ links: [] }),
      [`GET ${STD_API}/elements`]: jsonResponse({ elements: HITS, more: true }),
      [`POST ${STD_API}/links`]: jsonResponse(
        { message: 'The given data was invalid.', errors: { note: ['The note is at most 500 characters.'] } },
        400,
      ),
    });
    await open();
    await waitFor(() => expect(document.querySelectorAll('[data-node-id]')).toHaveLength(2));
    expect(text()).toContain('Only the first matches are shown');
    await click(labelled('§482.42(a) Infection prevention program'));
    await waitFor(() => expect(getControl('Link')).toBeTruthy());
    await click(getControl('Link'));
    await waitFor(() => expect(text()).toContain('The note is at most 500 characters.'));
    expect(getControl('Link')).toBeTruthy();
  });

  it('says when no element matches (or there is no assessment yet)', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${STD_API}/links`]: jsonResponse({ links: [] }),
      [`GET ${STD_API}/elements`]: jsonResponse({ elements: [], more: false }),
    });
    await open();
    await waitFor(() => expect(text()).toContain(NO_ELEMENTS));
    expect(text()).toContain(NOT_LINKED);
    expect(getControl('Open the Standards app').getAttribute('href')).toBe('/app/standards/12/create');
  });

  it('offers neither the picker nor unlink to readers', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${STD_API}/links`]: jsonResponse({ links: [link({ id: 7, node_id: 31, ref_id: '§482.42(a)' })] }),
      [`GET ${STD_API}/elements`]: jsonResponse({ elements: [], more: false }),
    });
    await open(false);
    await waitFor(() => expect(rows(table)).toHaveLength(1));
    expect(document.querySelector('[aria-label="Unlink §482.42(a)"]')).toBeNull();
    expect(() => field('Search standard elements')).toThrow();
    expect(api.calls(`GET ${STD_API}/elements`)).toHaveLength(0);
  });
});

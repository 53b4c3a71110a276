import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  API,
  BASE,
  dialog,
  errorOf,
  field,
  openScreen,
  rows,
  sessionRoutes,
  toasts,
  toolBody,
  toolSummary,
  versionSummary,
} from './cr-test-fixtures';
import { ToolsPage } from './ToolsPage';

const open = () => openScreen(`${BASE}/tools`, ['tools'], <ToolsPage />);

const TOOLS = {
  abilities: { create: true },
  tools: [
    toolSummary({
      id: 3,
      name: 'Falls audit',
      purpose: 'Fall risk documented on admission.',
      published: versionSummary({
        id: 31,
        version: 2,
        status: 'published',
        published_at: '2026-03-02T15:00:00Z',
        question_count: 8,
      }),
      draft: versionSummary({ id: 32, version: 3 }),
      program_count: 2,
    }),
    toolSummary({ id: 4, name: 'Pain audit', draft: versionSummary({ id: 41, version: 1 }) }),
    toolSummary({
      id: 5,
      name: 'Old consent audit',
      retired: true,
      published: versionSummary({ id: 51, version: 1, status: 'published', published_at: '2025-01-10T15:00:00Z' }),
    }),
  ],
};

describe('ToolsPage', () => {
  it('lists the tools with their published version, draft, programmes and status', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/tools`]: jsonResponse(TOOLS) });
    await open();
    await waitFor(() => expect(rows('table[aria-label="Audit tools"]')).toHaveLength(3));
    expect(rows('table[aria-label="Audit tools"]')).toEqual([
      ['Falls audit', 'Fall risk documented on admission.', 'v2 · published Mar 2, 2026', '2', 'Draft v3'],
      ['Pain audit', '—', 'Not published', '0', 'Draft v1'],
      ['Old consent audit', '—', 'v1 · published Jan 10, 2025', '0', 'Retired'],
    ]);
    expect(getControl('Falls audit').getAttribute('href')).toBe(`${BASE}/tools/3`);
    expect(getControl('New tool')).toBeDefined();
    expect(document.title).toContain('Audit tools');
  });

  it('explains what a tool is when there is none, with "New tool" for those who may create one', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/tools`]: jsonResponse({ abilities: { create: true }, tools: [] }) });
    await open();
    await waitFor(() => expect(text()).toContain('No audit tools yet.'));
    expect(text()).toContain('An audit tool is the set of questions a reviewer answers for each chart');
    expect(getControl('New tool')).toBeDefined();
  });

  it('offers no "New tool" to those who may not create one', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/tools`]: jsonResponse({ abilities: { create: false }, tools: [] }) });
    await open();
    await waitFor(() => expect(text()).toContain('No audit tools yet.'));
    expect(() => getControl('New tool')).toThrow();
  });

  it('creates a tool after checking its name, shows the server refusal at the field, and opens it', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/tools`]: jsonResponse({ abilities: { create: true }, tools: [] }),
      [`POST ${API}/tools`]: [
        jsonResponse(
          {
            message: 'A tool with this name exists.',
            code: 'CONFLICT',
            errors: { name: ['A tool with this name exists.'] },
          },
          409,
        ),
        jsonResponse(
          toolBody({ id: 9, name: 'Sepsis bundle', versions: [versionSummary({ id: 90, version: 1 })] }),
          201,
        ),
      ],
    });
    const router = await open();
    await waitFor(() => expect(text()).toContain('No audit tools yet.'));
    await click(getControl('New tool'));
    await waitFor(() => expect(dialog()).toBeDefined());
    await click(getControl('Create tool', dialog()));
    expect(errorOf('Name', dialog())).toBe('Enter a name.');
    expect(api.calls(`POST ${API}/tools`)).toHaveLength(0);

    await typeInto(field('Name', dialog()), 'Falls audit');
    await click(getControl('Create tool', dialog()));
    await waitFor(() => expect(errorOf('Name', dialog())).toBe('A tool with this name exists.'));

    await typeInto(field('Name', dialog()), 'Sepsis bundle');
    await typeInto(field('Purpose', dialog()), 'Sepsis six within an hour.');
    await click(getControl('Create tool', dialog()));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/tools/9`));
    expect(api.calls(`POST ${API}/tools`)[1]!.body).toEqual({
      name: 'Sepsis bundle',
      purpose: 'Sepsis six within an hour.',
    });
    expect(toasts()).toContain('Tool "Sepsis bundle" created. Add its questions, then publish it.');
  });

  it('shows a loading state, then the reason of a failed load with a retry', async () => {
    let answer: (response: Response) => void = () => {};
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/tools`]: () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    await open();
    await waitFor(() =>
      expect(document.querySelector('[role="status"][aria-label="Loading the audit tools"]')).not.toBeNull(),
    );
    answer(jsonResponse({ message: 'Chart review is not switched on for this project.' }, 404));
    await waitFor(() =>
      expect(document.querySelector('[role="alert"]')?.textContent).toBe(
        'Chart review is not switched on for this project.',
      ),
    );
    expect(getControl('Try again')).toBeDefined();
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { installEditorLayoutStubs } from '../../../components/RichTextEditor.testing';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, typeInto, waitFor } from '../../../test/render';
import { PageFormPage } from './PageFormPage';
import { API, BASE, detail, node, openMonitoringScreen, sessionRoutes } from './pages-test-fixtures';

const SAFETY = node({ id: 1, title: 'Safety', number: '1', child_count: 1 });
const FALLS = node({ id: 2, title: 'Falls', number: '1.1', parent_id: 1, depth: 2 });
const HARM = node({ id: 3, title: 'Harm', number: '1.1.1', parent_id: 2, depth: 3 });

function server(routes: Record<string, StubHandler | StubHandler[]> = {}, mode: 'auto' | 'manual' = 'auto') {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/pages`]: () => jsonResponse({ pages: [SAFETY, FALLS, HARM], numbering_mode: mode, max_depth: 3 }),
    [`GET ${API}/pages/owner-candidates`]: jsonResponse({ people: [{ id: 30, name: 'Owen Owner' }] }),
    [`GET ${API}/pages/used-numbers`]: jsonResponse({ numbers: ['1', '1.1', '1.1.1'] }),
    ...routes,
  });
}

const openCreate = (query = '?parent=1') =>
  openMonitoringScreen(`${BASE}/create-page${query}`, ['create-page'], <PageFormPage mode="create" />);
const openEdit = () => openMonitoringScreen(`${BASE}/edit-page/2`, ['edit-page/:pageId'], <PageFormPage mode="edit" />);
const heading = () => document.querySelector('h1')?.textContent ?? '';

describe('PageFormPage', () => {
  beforeAll(() => installEditorLayoutStubs());

  it('creates a page under the chosen parent and opens it', async () => {
    const api = server({
      [`POST ${API}/pages`]: jsonResponse(detail({ id: 10, title: 'Pressure injuries', parent_id: 1 }), 201),
    });
    await openCreate();
    await waitFor(() => expect(heading()).toBe('New page'));
    expect(getField('Parent page').value).toBe('1 Safety');
    // Only pages above the deepest level can take a sub-page.
    expect(() => getField('Number')).toThrow();
    await typeInto(getField('Title'), 'Pressure injuries');
    await click(getControl('Save'));
    await waitFor(() => expect(api.calls(`POST ${API}/pages`)).toHaveLength(1));
    expect(api.calls(`POST ${API}/pages`)[0]!.body).toEqual({
      title: 'Pressure injuries',
      parent_id: 1,
      status: 'draft',
      owner_id: null,
      introduction: '',
      benchmarks: '',
      parameters_and_metrics: '',
      restricted: false,
    });
    await waitFor(() => expect(heading()).toBe(`At ${BASE}/pages/page/10`));
  });

  it('checks a manual number as it is typed and shows the server field errors', async () => {
    const api = server(
      {
        [`POST ${API}/pages`]: jsonResponse(
          { message: 'Choose a page you may edit.', errors: { parent_id: ['Choose a page you may edit.'] } },
          400,
        ),
      },
      'manual',
    );
    await openCreate();
    await waitFor(() => expect(heading()).toBe('New page'));
    await click(getControl('Save'));
    expect(text()).toContain('Enter a title.');
    expect(api.calls(`POST ${API}/pages`)).toHaveLength(0);
    await typeInto(getField('Title'), 'Pressure injuries');
    await waitFor(() => expect(api.calls(`GET ${API}/pages/used-numbers`)).toHaveLength(1));
    await typeInto(getField('Number'), '1.1');
    await waitFor(() => expect(text()).toContain('Number 1.1 is already used.'));
    await typeInto(getField('Number'), '1.2');
    expect(text()).not.toContain('is already used');
    await click(getControl('Save'));
    await waitFor(() => expect(text()).toContain('Choose a page you may edit.'));
    expect(api.calls(`POST ${API}/pages`)[0]!.body).toMatchObject({ number: '1.2', parent_id: 1 });
    expect(heading()).toBe('New page');
  });

  it('on a stale save keeps the text, says so, and reloads the latest version', async () => {
    const mine = detail({ id: 2, title: 'Falls', number: '1.1', parent_id: 1, depth: 2, version: 3 });
    const theirs = { ...mine, title: 'Falls (their title)', version: 4 };
    const api = server({
      [`GET ${API}/pages/2`]: [jsonResponse(mine), jsonResponse(theirs)],
      [`PUT ${API}/pages/2`]: jsonResponse(
        {
          message: 'This page was changed by someone else. Reload it to see their changes.',
          errors: { version: ['4'] },
        },
        409,
      ),
    });
    await openEdit();
    await waitFor(() => expect(getField('Title').value).toBe('Falls'));
    await typeInto(getField('Title'), 'Falls in wards');
    await click(getControl('Save'));
    await waitFor(() =>
      expect(text()).toContain('This page was changed by someone else. Reload it to see their changes.'),
    );
    expect(api.calls(`PUT ${API}/pages/2`)[0]!.body).toMatchObject({ version: 3, title: 'Falls in wards' });
    expect(getField('Title').value).toBe('Falls in wards');
    await click(getControl('Reload'));
    await waitFor(() => expect(getField('Title').value).toBe('Falls (their title)'));
    expect(text()).not.toContain('This page was changed by someone else');
  });
});

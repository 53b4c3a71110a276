import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { link, STD_API } from '../../../components/standards-links/links-test-helpers';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { getControl, render, text, waitFor } from '../../../test/render';
import { AddStandardsPage } from './AddStandardsPage';
import { NOT_FOUND } from './DocumentPage';
import { detail, pick } from './document-test-helpers';
import { API, BASE, doc, input, ProjectReady, sessionRoutes } from './policy-test-fixtures';

const DOCUMENTS = [
  doc({ id: 5, number: '4.2', title: 'Hand hygiene' }),
  doc({ id: 6, number: '4.3', title: 'Isolation precautions' }),
  doc({ id: 9, title: 'Visitor screening', status: 'draft' }),
];

function routes(extra: Record<string, Response> = {}) {
  return {
    ...sessionRoutes(),
    [`GET ${API}/documents`]: jsonResponse(DOCUMENTS),
    [`GET ${API}/documents/5`]: jsonResponse(detail()),
    [`GET ${STD_API}/links`]: jsonResponse({
      links: [link({ id: 7, node_id: 31, ref_id: 'IC.04.01.01', title: 'Hand hygiene guidelines' })],
    }),
    [`GET ${STD_API}/elements`]: jsonResponse({ elements: [], more: false }),
    ...extra,
  };
}

async function open(search = '') {
  const router = createMemoryRouter(
    [
      {
        path: '/app/policy_management/:projectId/add-standards',
        element: (
          <ProjectReady>
            <AddStandardsPage />
          </ProjectReady>
        ),
      },
    ],
    { initialEntries: [`${BASE}/add-standards${search}`] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Add standards'));
  return router;
}

describe('policy AddStandardsPage', () => {
  it('picks a policy, then shows it with the standards it is linked to', async () => {
    const api = stubApi(routes());
    const router = await open();
    await waitFor(() => expect(input('Policy')).toBeTruthy());
    expect(document.querySelector('[data-testid="chosen-policy"]')).toBeNull();
    expect(api.calls(`GET ${STD_API}/links`)).toHaveLength(0);

    await pick('Policy', '4.2 Hand hygiene');
    await waitFor(() => expect(router.state.location.search).toBe('?document=5'));
    await waitFor(() => expect(document.querySelector('[data-testid="chosen-policy"]')).not.toBeNull());
    const chosen = text(document.querySelector('[data-testid="chosen-policy"]')!);
    expect(chosen).toContain('4.2');
    expect(chosen).toContain('Hand hygiene');
    expect(getControl('Open the policy').getAttribute('href')).toBe(`${BASE}/documents/5`);
    await waitFor(() => expect(text()).toContain('IC.04.01.01'));
    const query = api.calls(`GET ${STD_API}/links`)[0]!.query;
    expect([query.get('target_type'), query.get('target_id')]).toEqual(['policy', '5']);
    // Policy admins may link: the picker searches elements for policies.
    expect(input('Search standard elements')).toBeTruthy();
    await waitFor(() => expect(api.calls(`GET ${STD_API}/elements`)[0]!.query.get('for')).toBe('policy'));
  });

  it('opens the policy of ?document= directly', async () => {
    stubApi(routes());
    await open('?document=5');
    await waitFor(() => expect(input('Policy').value).toBe('4.2 Hand hygiene'));
    await waitFor(() => expect(text()).toContain('IC.04.01.01'));
  });

  it('says when the policy of ?document= does not exist', async () => {
    const api = stubApi(routes({ [`GET ${API}/documents/77`]: jsonResponse({ message: 'Not found.' }, 404) }));
    await open('?document=77');
    await waitFor(() => expect(text()).toContain(NOT_FOUND));
    expect(input('Policy').value).toBe('');
    expect(api.calls(`GET ${STD_API}/links`)).toHaveLength(0);
  });
});

import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, typeInto, waitFor } from '../../../test/render';
import { API, BASE, department, dialog, input, openPolicy, sessionRoutes, stubLayout } from './browse-test-helpers';
import { detail } from './document-test-helpers';

const PERMISSIONS = '/api/me/permissions';
const routes = (canEdit: boolean) => ({
  ...sessionRoutes(),
  [`GET ${API}/documents`]: jsonResponse([]),
  [`GET ${API}/departments`]: jsonResponse({ departments: [department({ id: 5, name: 'Nursing', code: 'NUR' })] }),
  [`GET ${API}/numbering`]: jsonResponse({
    scheme: { levels: 2, department_prefixes: false, prefix_separator: '-' },
    used_count: 0,
    unassigned_count: 0,
  }),
  [`GET ${PERMISSIONS}`]: jsonResponse({
    permissions: { 'policy_management:toc': true, 'policy_management:edit-documents': canEdit },
  }),
});

const created = detail({ id: 77, title: 'Sharps disposal', number: null });

describe('NewPolicyButton', () => {
  it('is not offered to a role that may not write drafts', async () => {
    stubLayout();
    const api = stubApi(routes(false));
    await openPolicy(`${BASE}/toc`);
    await waitFor(() => expect(api.calls(`GET ${PERMISSIONS}`)).toHaveLength(1));
    await waitFor(() => expect(document.body.textContent).toContain('No policies found.'));
    expect([...document.querySelectorAll('button')].some((b) => b.textContent === 'New policy')).toBe(false);
  });

  it('creates a draft and opens it in the editor; checks the number first and shows the server field errors', async () => {
    stubLayout();
    const api = stubApi({
      ...routes(true),
      [`POST ${API}/documents`]: [
        jsonResponse(
          { message: 'Number 1.2 is already used by "X".', errors: { number: ['Number 1.2 is already used by "X".'] } },
          409,
        ),
        jsonResponse(created, 201),
      ],
    });
    const router = await openPolicy(`${BASE}/toc`);
    await waitFor(() => expect(getControl('New policy')).toBeTruthy());
    await click(getControl('New policy'));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).not.toBeNull());
    const form = dialog();
    await click(getControl('Create and edit', form));
    expect(form.textContent).toContain('Enter the title.');
    expect(api.calls(`POST ${API}/documents`)).toHaveLength(0);

    await typeInto(input('Title', form), 'Sharps disposal');
    await typeInto(input('Number', form), '1.2.3');
    await click(getControl('Create and edit', form));
    expect(form.textContent).toContain('Numbers have at most 2 levels in this project.');
    expect(api.calls(`POST ${API}/documents`)).toHaveLength(0);

    await typeInto(input('Number', form), '1.2');
    await click(getControl('Create and edit', form));
    await waitFor(() => expect(dialog().textContent).toContain('Number 1.2 is already used by "X".'));
    expect(api.calls(`POST ${API}/documents`)[0]!.body).toEqual({
      title: 'Sharps disposal',
      number: '1.2',
      department_id: null,
    });

    await click(getControl('Create and edit', dialog()));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/documents/77/edit`));
  });

  it('keeps a title longer than 200 characters whole and says by how much it is over, instead of cutting it', async () => {
    stubLayout();
    const api = stubApi({ ...routes(true), [`POST ${API}/documents`]: jsonResponse(created, 201) });
    await openPolicy(`${BASE}/toc`);
    await waitFor(() => expect(getControl('New policy')).toBeTruthy());
    await click(getControl('New policy'));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).not.toBeNull());
    const form = dialog();
    const long = 'Sharps '.repeat(1_500).trim();
    await typeInto(input('Title', form), long);
    expect((input('Title', form) as HTMLInputElement).value).toBe(long);
    expect(form.textContent).toContain('Shorten this to 200 characters or fewer (it has 10,499).');
    await click(getControl('Create and edit', form));
    expect(api.calls(`POST ${API}/documents`)).toHaveLength(0);

    await typeInto(input('Title', form), 'Sharps disposal and the handling of needles in every ward of the hospital');
    expect(form.textContent).not.toContain('Shorten this');
  });
});

import type { Department } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  API,
  BASE,
  department,
  dialog,
  fieldError,
  input,
  openPolicyAdmin,
  pick,
  sessionRoutes,
  toasts,
} from './admin-test-helpers';

const NURSING = department({ id: 3, name: 'Nursing', code: 'NUR', document_count: 4 });
const WOUND = department({ id: 4, name: 'Wound care', code: 'WND', parent_id: 3, document_count: 1 });
const PHARMACY = department({ id: 5, name: 'Pharmacy', code: 'PHA' });

/** A tiny server keeping the departments. */
function server(routes: Record<string, StubHandler | StubHandler[]> = {}) {
  let departments: Department[] = [PHARMACY, WOUND, NURSING];
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/departments`]: () => jsonResponse({ departments }),
    [`POST ${API}/departments`]: (request: StubRequest) => {
      const created = { id: 9, document_count: 0, ...(request.body as Omit<Department, 'id' | 'document_count'>) };
      departments = [...departments, created];
      return jsonResponse(created, 201);
    },
    [`PATCH ${API}/departments/4`]: (request: StubRequest) => {
      const updated = { ...WOUND, ...(request.body as Partial<Department>) };
      departments = departments.map((item) => (item.id === 4 ? updated : item));
      return jsonResponse(updated);
    },
    [`DELETE ${API}/departments/3`]: jsonResponse(
      { message: 'Nursing still has 4 documents and 1 sub-department; move them first.' },
      409,
    ),
    [`DELETE ${API}/departments/5`]: () => {
      departments = departments.filter((item) => item.id !== 5);
      return new Response(null, { status: 204 });
    },
    ...routes,
  });
}

function tableRows(): string[][] {
  return [...document.querySelectorAll('tr[data-department-id]')].map((tr) =>
    [...tr.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent ?? ''),
  );
}

function rowButton(name: string, action: 'Edit' | 'Delete'): HTMLElement {
  const button = document.querySelector<HTMLElement>(`button[aria-label="${action} ${name}"]`);
  if (!button) throw new Error(`no ${action} button for ${name}`);
  return button;
}

describe('DepartmentsPage on insert-department', () => {
  it('lists the departments as a tree and adds one', async () => {
    const api = server();
    await openPolicyAdmin(`${BASE}/insert-department`);
    await waitFor(() => expect(tableRows()).toHaveLength(3));
    expect(document.querySelector('h1')!.textContent).toBe('Add a department');
    expect(tableRows()).toEqual([
      ['Nursing', 'NUR', '—', '4'],
      ['Wound care', 'WND', 'Nursing', '1'],
      ['Pharmacy', 'PHA', '—', '0'],
    ]);

    await typeInto(input('Name'), 'Infection control');
    await typeInto(input('Code'), 'ic2');
    expect(input('Code').value).toBe('IC2');
    await pick('Parent', 'Nursing (NUR)');
    await click(getControl('Add department'));
    await waitFor(() => expect(toasts()).toContain('Department "Infection control" added.'));
    expect(api.calls(`POST ${API}/departments`)[0]!.body).toEqual({
      name: 'Infection control',
      code: 'IC2',
      parent_id: 3,
    });
    expect(input('Name').value).toBe('');
    await waitFor(() => expect(tableRows()).toHaveLength(4));
    expect(tableRows()[1]).toEqual(['Infection control', 'IC2', 'Nursing', '0']);
  });

  it('checks the fields, then shows the server field errors on them', async () => {
    const api = server({
      [`POST ${API}/departments`]: jsonResponse(
        { message: 'The department could not be added.', errors: { code: ['The code NUR is already used.'] } },
        409,
      ),
    });
    await openPolicyAdmin(`${BASE}/insert-department`);
    await waitFor(() => getControl('Add department'));
    await typeInto(input('Code'), '1AB');
    await click(getControl('Add department'));
    expect(fieldError('Name')).toBe('Enter the name.');
    expect(fieldError('Code')).toBe('Use 1 to 10 capital letters or digits, starting with a letter (e.g. NUR).');
    expect(api.calls(`POST ${API}/departments`)).toHaveLength(0);

    await typeInto(input('Name'), 'Night nursing');
    await typeInto(input('Code'), 'NUR');
    await click(getControl('Add department'));
    await waitFor(() => expect(fieldError('Code')).toBe('The code NUR is already used.'));
    expect(fieldError('Name')).toBeNull();
  });
});

describe('DepartmentsPage on edit-department', () => {
  it('opens the department named by the path and saves only what changed', async () => {
    const api = server();
    await openPolicyAdmin(`${BASE}/edit-department/4`);
    await waitFor(() => expect(text(dialog())).toContain('Edit Wound care'));
    expect(document.querySelector('h1')!.textContent).toBe('Edit departments');
    expect(input('Name', dialog()).value).toBe('Wound care');
    expect(input('Parent', dialog()).value).toBe('Nursing (NUR)');
    const people = dialog().querySelector('nav[aria-label="People of Wound care"]')!;
    expect([...people.querySelectorAll('a')].map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Reviewers', `${BASE}/department-reviewers/4`],
      ['Signers', `${BASE}/department-signers/4`],
      ['Readers', `${BASE}/department-readers/4`],
    ]);

    await typeInto(input('Name', dialog()), 'Wound and skin care');
    await click(getControl('Save department', dialog()));
    await waitFor(() => expect(toasts()).toContain('Department saved.'));
    expect(api.calls(`PATCH ${API}/departments/4`)[0]!.body).toEqual({ name: 'Wound and skin care' });
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    await waitFor(() => expect(tableRows()[1]![0]).toBe('Wound and skin care'));
  });

  it('does not offer a department, or one below it, as its own parent', async () => {
    server();
    await openPolicyAdmin(`${BASE}/edit-department`);
    await waitFor(() => rowButton('Nursing', 'Edit'));
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    await click(rowButton('Nursing', 'Edit'));
    await waitFor(() => dialog());
    const select = input('Parent', dialog());
    await click(select);
    await waitFor(() => {
      const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '');
      const options = [...(listbox?.querySelectorAll('[role="option"]') ?? [])].map((option) => option.textContent);
      expect(options).toEqual(['Pharmacy (PHA)']);
    });
  });

  it('asks before deleting and shows why the server refuses', async () => {
    const api = server();
    await openPolicyAdmin(`${BASE}/edit-department`);
    await waitFor(() => rowButton('Nursing', 'Delete'));

    await click(rowButton('Nursing', 'Delete'));
    await waitFor(() => expect(text(dialog())).toContain('Delete department "Nursing"?'));
    await click(getControl('Cancel', dialog()));
    expect(api.calls(`DELETE ${API}/departments/3`)).toHaveLength(0);

    await click(rowButton('Nursing', 'Delete'));
    await waitFor(() => dialog());
    await click(getControl('Delete department', dialog()));
    await waitFor(() =>
      expect(document.querySelector('[role="alert"]')?.textContent).toBe(
        'Nursing still has 4 documents and 1 sub-department; move them first.',
      ),
    );
    expect(tableRows()).toHaveLength(3);

    await click(rowButton('Pharmacy', 'Delete'));
    await waitFor(() => expect(text(dialog())).toContain('Delete department "Pharmacy"?'));
    await click(getControl('Delete department', dialog()));
    await waitFor(() => expect(toasts()).toContain('Department "Pharmacy" deleted.'));
    await waitFor(() => expect(tableRows()).toHaveLength(2));
    const alerts = [...document.querySelectorAll('[role="alert"]')].map((element) => element.textContent);
    expect(alerts.join(' ')).not.toContain('move them first');
  });

  it('says when the department in the path does not exist', async () => {
    server();
    await openPolicyAdmin(`${BASE}/edit-department/99`);
    await waitFor(() => expect(text()).toContain('This department does not exist (it may have been deleted).'));
    expect(document.querySelector('[role="dialog"]')).toBeNull();
  });

  it('shows the server message when the departments cannot be loaded', async () => {
    server({
      [`GET ${API}/departments`]: [
        jsonResponse({ message: 'Your role may not manage departments.' }, 403),
        jsonResponse({ departments: [] }),
      ],
    });
    await openPolicyAdmin(`${BASE}/edit-department`);
    await waitFor(() => expect(text()).toContain('Your role may not manage departments.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(text()).toContain('No departments yet.'));
  });
});

import type { UserImportPreview, UserImportRow } from '@portal/shared';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, render, text, waitFor } from '../../../test/render';
import { dialog, rows, seriousViolations } from '../../../test/ui';
import { ImportUsersPage } from './ImportUsersPage';

const row = (line: number, extra: Partial<UserImportRow> = {}): UserImportRow => ({
  line,
  email: `person${line}@lakeside.org`,
  first_name: 'Ana',
  last_name: `Ruiz ${line}`,
  username: `person${line}`,
  project: 'Lakeside',
  project_role: 'simple',
  main_roles: { policy_management: 'reader', monitoring: null, chart_review: null },
  reader_departments: ['ICU'],
  problems: [],
  ...extra,
});
const preview = (list: UserImportRow[]): UserImportPreview => ({
  rows: list,
  file_problems: [],
  ready: list.filter((r) => r.problems.length === 0).length,
  with_problems: list.filter((r) => r.problems.length > 0).length,
});

async function open() {
  const router = createMemoryRouter(
    [
      { path: '/superadmin/users/import', element: <ImportUsersPage /> },
      { path: '/superadmin/users', element: <p>Users</p> },
    ],
    { initialEntries: ['/superadmin/users/import'] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Import people'));
  return router;
}

async function chooseFile(content: string, name = 'people.csv') {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  Object.defineProperty(input, 'files', {
    value: [new File([content], name, { type: 'text/csv' })],
    configurable: true,
  });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const importButton = () =>
  [...document.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.startsWith('Import'))!;

describe('ImportUsersPage', () => {
  it('explains the columns, then shows each row’s problems and imports nothing while there are some', async () => {
    const api = stubApi({
      'POST /super/users/import/preview': [
        jsonResponse(preview([row(2), row(3, { problems: ['An account with this email address already exists.'] })])),
      ],
    });
    await open();
    expect(text()).toContain('reader_departments');
    expect(document.querySelector('a[download="people-template.csv"]')).toBeTruthy();
    expect(await seriousViolations()).toEqual([]);

    await chooseFile('email,first_name,last_name\n…');
    await waitFor(() => expect(text()).toContain('Checked: 1 person ready, 1 with problems'));
    expect(api.calls('POST /super/users/import/preview')[0]!.body).toEqual({ csv: 'email,first_name,last_name\n…' });
    // Rows with problems first; every row on demand.
    expect(rows('[data-testid="import-rows"]')).toEqual([
      [
        '3',
        'Ana Ruiz 3person3@lakeside.org · person3',
        'Lakeside · memberPolicy: reader · reads ICU',
        'An account with this email address already exists.',
      ],
    ]);
    await click([...document.querySelectorAll('label')].find((label) => label.textContent === 'All rows')!);
    expect(rows('[data-testid="import-rows"]')).toHaveLength(2);
    expect(importButton().disabled).toBe(true);
    expect(text()).toContain('Nothing is imported while a row has a problem');
  });

  it('says what is wrong with the file itself', async () => {
    stubApi({
      'POST /super/users/import/preview': jsonResponse({
        ...preview([]),
        file_problems: ['The header lacks the required column email.'],
      }),
    });
    await open();
    await chooseFile('mail\nx');
    await waitFor(() => expect(text()).toContain('The header lacks the required column email.'));
    expect(importButton().disabled).toBe(true);
    expect(text()).toContain('The file itself must be corrected first');
  });

  it('imports after confirmation and follows the invitations until all are sent', async () => {
    const api = stubApi({
      'POST /super/users/import/preview': jsonResponse(preview([row(2), row(3)])),
      'POST /super/users/import': jsonResponse(
        { id: 7, total: 2, sent: 0, failed: 0, finished: false, created_at: '2026-12-02T09:00:00Z' },
        201,
      ),
      'GET /super/users/imports/7': [
        jsonResponse({ id: 7, total: 2, sent: 1, failed: 0, finished: false, created_at: '2026-12-02T09:00:00Z' }),
        jsonResponse({ id: 7, total: 2, sent: 1, failed: 1, finished: true, created_at: '2026-12-02T09:00:00Z' }),
      ],
    });
    await open();
    await chooseFile('email,first_name,last_name\na@b.org,A,B\nc@d.org,C,D\n');
    await waitFor(() => expect(importButton().disabled).toBe(false));
    expect(importButton().textContent).toBe('Import 2 people');
    await click(importButton());
    await waitFor(() => expect(text(dialog())).toContain('2 people get an account'));
    // Cancel changes nothing.
    await click(getControl('Cancel', dialog()));
    expect(api.calls('POST /super/users/import')).toHaveLength(0);
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    await click(importButton());
    await waitFor(() => getControl('Import and send invitations', dialog()));
    await click(getControl('Import and send invitations', dialog()));
    await waitFor(() => expect(api.calls('POST /super/users/import')).toHaveLength(1));
    await waitFor(() => expect(text()).toContain('2 people imported; 1 of 2 invitations sent.'));
    await waitFor(() => expect(text()).toContain('1 of 2 invitations sent, 1 failed.'), 4000);
    expect(text()).toContain('Failed invitations are in the email log');
    expect(getControl('Back to users').getAttribute('href')).toBe('/superadmin/users');
  });
});

import { type DataRequestDetail, JUSTIFICATION_REQUIRED_MESSAGE } from '@portal/shared';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, typeInto, waitFor } from '../../../test/render';
import { API, BASE, node, openMonitoringScreen, sessionRoutes, toasts } from './pages-test-fixtures';
import { RequestFormPage } from './RequestFormPage';

const TREE = {
  pages: [node({ id: 5, title: 'Falls with injury', number: '1' }), node({ id: 6, title: 'CLABSI', number: '2' })],
  numbering_mode: 'auto',
  max_depth: 3,
};

function request(overrides: Partial<DataRequestDetail> = {}): DataRequestDetail {
  return {
    id: 31,
    title: 'Falls by ward',
    status: 'submitted',
    requester: { id: 7, name: 'Vera Viewer' },
    assignee: null,
    pages: [{ id: 5, number: '1', title: 'Falls with injury' }],
    other_page_count: 1,
    period_from: '2026-01-01',
    period_to: '2026-03-31',
    format: 'csv',
    patient_level: false,
    needed_by: '2099-06-01',
    overdue: false,
    comment_count: 0,
    delivered_file: null,
    created_at: '2026-04-01T10:00:00Z',
    updated_at: '2026-04-01T10:00:00Z',
    purpose: 'Quarterly review.',
    justification: null,
    response: null,
    delivered_at: null,
    comments: [],
    transitions: ['triaged', 'in_progress', 'rejected'],
    abilities: { steward: true, cancel: false, comment: true, upload: true },
    ...overrides,
  };
}

function routes(steward: boolean) {
  return {
    ...sessionRoutes(),
    'GET /api/me/permissions': jsonResponse({
      permissions: { 'monitoring:request-form': true, 'monitoring:request-queue': steward },
    }),
    [`GET ${API}/pages`]: jsonResponse(TREE),
  };
}

const open = (path = `${BASE}/request-form`) => openMonitoringScreen(path, ['request-form'], <RequestFormPage />);

/** Opens a Mantine Select or MultiSelect by its label and clicks the option named `option`. */
async function pick(label: string, option: string) {
  const field = getField(label);
  await act(async () => {
    field.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    field.focus();
  });
  let choice: HTMLElement | undefined;
  await waitFor(() => {
    choice = [...document.querySelectorAll<HTMLElement>('[role="option"]')].find(
      (element) => element.textContent?.trim() === option,
    );
    expect(choice).toBeDefined();
  });
  await act(async () => {
    choice!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    choice!.click();
  });
}

describe('RequestFormPage', () => {
  it('needs a justification for patient-level data before anything is sent, then posts the request', async () => {
    const api = stubApi({
      ...routes(false),
      [`GET ${API}/requests`]: jsonResponse({ requests: [] }),
      [`POST ${API}/requests`]: (call: StubRequest) =>
        jsonResponse(
          request({
            ...(call.body as object),
            abilities: { steward: false, cancel: true, comment: true, upload: false },
          }),
          201,
        ),
    });
    await open();
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Request Data'));
    expect(() => getControl('Queue')).toThrow();

    await click(getControl('Send request'));
    expect(text()).toContain('Enter a title.');
    expect(api.calls(`POST ${API}/requests`)).toHaveLength(0);

    await typeInto(getField('Title'), 'Falls by ward');
    await typeInto(getField('Purpose'), 'Quarterly review.');
    await pick('Pages', '1 Falls with injury');
    await typeInto(getField('Period from'), '2026-01-01');
    await typeInto(getField('Period to'), '2026-03-31');
    await pick('Format', 'CSV file');
    await typeInto(getField('Needed by'), '2099-06-01');
    await click(document.querySelector<HTMLInputElement>('input[type="checkbox"]')!);
    await waitFor(() => expect(text()).toContain('minimum necessary'));
    await click(getControl('Send request'));
    await waitFor(() => expect(text()).toContain(JUSTIFICATION_REQUIRED_MESSAGE));
    expect(api.calls(`POST ${API}/requests`)).toHaveLength(0);

    await typeInto(getField('Justification'), 'Root-cause review of each fall.');
    await click(getControl('Send request'));
    await waitFor(() => expect(api.calls(`POST ${API}/requests`)).toHaveLength(1));
    expect(api.calls(`POST ${API}/requests`)[0]!.body).toEqual({
      title: 'Falls by ward',
      purpose: 'Quarterly review.',
      page_ids: [5],
      period_from: '2026-01-01',
      period_to: '2026-03-31',
      format: 'csv',
      patient_level: true,
      justification: 'Root-cause review of each fall.',
      needed_by: '2099-06-01',
    });
    await waitFor(() => expect(toasts()).toContain('Your data request was sent to the data stewards.'));
  });

  it('shows the server field messages', async () => {
    stubApi({
      ...routes(false),
      [`POST ${API}/requests`]: jsonResponse(
        { message: 'Choose pages you can see.', errors: { 'page_ids.0': ['Choose pages you can see.'] } },
        400,
      ),
    });
    await open();
    await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
    await typeInto(getField('Title'), 'Falls');
    await typeInto(getField('Purpose'), 'Review.');
    await pick('Pages', '2 CLABSI');
    await typeInto(getField('Period from'), '2026-01-01');
    await typeInto(getField('Period to'), '2026-01-31');
    await pick('Format', 'Table');
    await click(getControl('Send request'));
    await waitFor(() => expect(text()).toContain('Choose pages you can see.'));
  });

  it('gives stewards the queue; the drawer offers only the allowed transitions and sends the PATCH', async () => {
    const api = stubApi({
      ...routes(true),
      [`GET ${API}/requests`]: (call: StubRequest) =>
        jsonResponse({
          requests:
            call.query.get('scope') === 'queue'
              ? [
                  request({ overdue: true, needed_by: '2026-01-01' }),
                  request({ id: 32, title: 'Old one', status: 'closed', transitions: [] }),
                ]
              : [],
        }),
      [`GET ${API}/requests/stewards`]: jsonResponse({ people: [{ id: 3, name: 'Dana Entry' }] }),
      [`GET ${API}/requests/31`]: jsonResponse(request({ overdue: true })),
      [`PATCH ${API}/requests/31`]: (call: StubRequest) =>
        jsonResponse(request({ ...(call.body as object), transitions: ['in_progress', 'rejected'] })),
    });
    await open();
    await waitFor(() => getControl('Queue'));
    await click(getControl('Queue'));
    // Open requests only by default: the closed one is filtered out; the overdue one stands out.
    await waitFor(() => expect(document.querySelectorAll('tr[data-request-id]')).toHaveLength(1));
    expect(document.querySelector('tr[data-request-id="31"]')!.getAttribute('data-overdue')).toBe('true');
    expect(text(document.querySelector('tr[data-request-id="31"]')!)).toContain('Overdue');

    await click(document.querySelector<HTMLElement>('button[aria-label="Open Falls by ward"]')!);
    await waitFor(() => getControl('Mark triaged'));
    expect(getControl('Start work')).toBeTruthy();
    expect(getControl('Reject')).toBeTruthy();
    expect(() => getControl('Mark delivered')).toThrow();
    expect(() => getControl('Close')).toThrow();
    expect(() => getControl('Cancel request')).toThrow();

    // Rejecting needs a response before any call.
    await click(getControl('Reject'));
    await waitFor(() => expect(text()).toContain('Say why the request is rejected.'));
    expect(api.calls(`PATCH ${API}/requests/31`)).toHaveLength(0);

    await click(getControl('Mark triaged'));
    await waitFor(() => expect(api.calls(`PATCH ${API}/requests/31`)).toHaveLength(1));
    expect(api.calls(`PATCH ${API}/requests/31`)[0]!.body).toEqual({ status: 'triaged' });
    await waitFor(() => expect(toasts()).toContain('The request is now triaged.'));
  });

  it('opens the request named in the address (links from notifications)', async () => {
    stubApi({
      ...routes(false),
      [`GET ${API}/requests`]: jsonResponse({ requests: [] }),
      [`GET ${API}/requests/31`]: jsonResponse(
        request({
          status: 'in_progress',
          abilities: { steward: false, cancel: true, comment: true, upload: false },
          transitions: ['cancelled'],
          delivered_file: { name: 'falls.csv', size: 2048 },
          comments: [
            {
              id: 1,
              author: { id: 3, name: 'Dana Entry' },
              body: 'Working on it.',
              created_at: '2026-04-02T10:00:00Z',
            },
          ],
        }),
      ),
    });
    await open(`${BASE}/request-form?request=31`);
    await waitFor(() => expect(text()).toContain('Working on it.'));
    expect(text()).toContain('Quarterly review.');
    expect(text()).toContain('1 Falls with injury, 1 other page');
    expect(getControl('Cancel request')).toBeTruthy();
    expect(() => getControl('Mark triaged')).toThrow();
    const download = getControl('Download falls.csv (2 KB)');
    expect(download.getAttribute('href')).toBe(`${API}/requests/31/file`);
  });
});

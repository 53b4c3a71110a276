import type { emailLogDetailSchema } from '@portal/shared';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, typeInto, waitFor } from '../../../test/render';
import { EmailLogsPage } from './EmailLogsPage';
import { choose, dialog, openPage, rows, toasts } from './test-utils';

type Email = z.infer<typeof emailLogDetailSchema>;

const SENT: Email = {
  id: 1,
  to: 'sam@example.org',
  subject: 'Your invitation',
  template: 'invitation',
  status: 'sent',
  error: null,
  attempts: 1,
  project: { id: 12, name: 'North Clinic' },
  created_at: '2026-03-04T18:00:00Z',
  sent_at: '2026-03-04T18:00:05Z',
  next_attempt_at: null,
  body: 'Hello Sam,\n\nChoose a password: [set-password link removed]\n\n<b>Not bold</b>',
  link: { state: 'used', at: '2026-03-05T09:00:00Z' },
};
const FAILED: Email = {
  ...SENT,
  id: 2,
  to: 'ana@example.org',
  subject: 'Reset your password',
  template: 'password-reset',
  status: 'failed',
  error: 'SMTP 550: mailbox unavailable',
  attempts: 3,
  project: null,
  sent_at: null,
};

const PROJECTS = {
  projects: [
    { id: 12, name: 'North Clinic', slug: 'north', active_apps: [] },
    { id: 13, name: 'South Clinic', slug: 'south', active_apps: [] },
  ],
};

/** A tiny server filtering a fixed log, so a resent email shows its new status. */
function server(initial: Email[], total?: number) {
  let emails = initial.map((email) => ({ ...email }));
  const row = ({ body: _body, ...rest }: Email) => rest;
  return stubApi({
    'GET /api/member/projects': jsonResponse(PROJECTS),
    'GET /super/email-logs': (request: StubRequest) => {
      const status = request.query.get('status');
      const shown = emails.filter((email) => !status || email.status === status);
      return jsonResponse({
        emails: shown.map(row),
        total: total ?? shown.length,
        page: Number(request.query.get('page') ?? 1),
        page_size: Number(request.query.get('page_size') ?? 25),
      });
    },
    'GET /super/email-logs/1': () => jsonResponse(emails[0]),
    'GET /super/email-logs/2': () => jsonResponse(emails.find((email) => email.id === 2)),
    'POST /super/email-logs/2/resend': () => {
      emails = emails.map((email) =>
        email.id === 2 ? { ...email, status: 'queued', error: null, next_attempt_at: '2026-03-05T10:00:00Z' } : email,
      );
      return jsonResponse(emails.find((email) => email.id === 2));
    },
  });
}

const open = (path = '/superadmin/email-logs') => openPage('/superadmin/email-logs', <EmailLogsPage />, path);

describe('EmailLogsPage', () => {
  it('lists the emails with time, recipient, subject, project, status and attempts', async () => {
    const api = server([SENT, FAILED]);
    await open();
    expect(document.querySelector('h1')?.textContent).toBe('Email Logs');
    await waitFor(() => expect(rows()).toHaveLength(2));
    const [sent, failed] = rows();
    expect(text(sent!)).toContain('Mar 4, 2026');
    expect(text(sent!)).toContain('sam@example.org');
    expect(text(sent!)).toContain('Your invitation');
    expect(text(sent!)).toContain('North Clinic');
    expect(text(sent!)).toContain('Sent');
    expect(text(failed!)).toContain('Failed');
    expect(text(failed!)).toContain('SMTP 550: mailbox unavailable');
    expect(text(failed!)).toContain('3');
    expect(sent!.querySelector('button[aria-label^="Resend"]')).toBeNull();
    expect(failed!.querySelector('button[aria-label^="Resend"]')).not.toBeNull();
    const query = api.calls('GET /super/email-logs')[0]!.query;
    expect(query.get('page')).toBe('1');
    expect(query.get('page_size')).toBe('25');
    expect(query.has('status')).toBe(false);
    expect(text()).toContain('Showing 1–2 of 2 emails');
  });

  it('opens the failed emails from a deep link and keeps the filters in the URL', async () => {
    const api = server([SENT, FAILED]);
    const router = await open('/superadmin/email-logs?status=failed');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.calls('GET /super/email-logs')[0]!.query.get('status')).toBe('failed');
    expect(getField('Status').value).toBe('Failed');

    await choose(getField('Project'), 'South Clinic');
    await waitFor(() => expect(router.state.location.search).toBe('?status=failed&project=13'));
    await waitFor(() => expect(api.calls('GET /super/email-logs').at(-1)!.query.get('project')).toBe('13'));

    await typeInto(getField('Search'), 'ana@');
    await waitFor(() => expect(api.calls('GET /super/email-logs').at(-1)!.query.get('q')).toBe('ana@'), 3000);
    expect(router.state.location.search).toContain('q=ana%40');

    await choose(getField('Status'), 'All statuses');
    await waitFor(() => expect(router.state.location.search).not.toContain('status='));
  });

  it('the search box follows Back and Forward', async () => {
    server([SENT, FAILED]);
    const router = await open('/superadmin/email-logs?q=alpha');
    expect(getField('Search').value).toBe('alpha');
    await act(async () => {
      await router.navigate('/superadmin/email-logs?q=beta');
    });
    await waitFor(() => expect(getField('Search').value).toBe('beta'));
    await act(async () => {
      await router.navigate(-1);
    });
    await waitFor(() => expect(getField('Search').value).toBe('alpha'));
  });

  it('shows an email in a drawer, its body as plain text', async () => {
    const api = server([SENT]);
    await open();
    await waitFor(() => expect(rows()).toHaveLength(1));
    // A click anywhere on the row opens it.
    await click(rows()[0]!.querySelector('td')!);
    await waitFor(() => expect(text(dialog())).toContain('Choose a password'));
    expect(api.calls('GET /super/email-logs/1')).toHaveLength(1);
    const body = dialog().querySelector<HTMLElement>('[data-testid="email-body"]')!;
    expect(body.tagName).toBe('PRE');
    expect(body.textContent).toContain('<b>Not bold</b>');
    expect(body.querySelector('b')).toBeNull();
    expect(text(dialog())).toContain('invitation');
    expect(text(dialog())).toContain('sam@example.org');
    expect(dialog().querySelector('button')?.textContent).not.toBe('Resend');
  });

  it('queues a failed email again, says so and shows its new status', async () => {
    const api = server([SENT, FAILED]);
    await open();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await click(rows()[1]!.querySelector<HTMLElement>('button[aria-label^="Resend"]')!);
    await waitFor(() =>
      expect(toasts()).toContain('The email is queued to be sent again. Its status here shows when it is sent.'),
    );
    expect(api.calls('POST /super/email-logs/2/resend')).toHaveLength(1);
    await waitFor(() => expect(rows()[1]!.querySelector('button[aria-label^="Resend"]')).toBeNull());
    expect(text(rows()[1]!)).toContain('Queued');
  });

  it('says what became of a set-password link the log no longer keeps', async () => {
    server([SENT]);
    await open();
    await waitFor(() => expect(rows()).toHaveLength(1));
    await click(getControl('View', rows()[0]!));
    await waitFor(() => expect(text(dialog())).toContain('Set-password link'));
    expect(text(dialog())).toContain('Removed from the log. It was used on');
    expect(text(dialog())).toContain('[set-password link removed]');
  });

  it('resends from the drawer and reports a refusal', async () => {
    const api = stubApi({
      'GET /api/member/projects': jsonResponse(PROJECTS),
      'GET /super/email-logs': jsonResponse({ emails: [FAILED], total: 1, page: 1, page_size: 25 }),
      'GET /super/email-logs/2': jsonResponse(FAILED),
      'POST /super/email-logs/2/resend': jsonResponse(
        {
          message:
            'Its set-password link is no longer kept, so it cannot be sent again. Send the person a new invitation or password reset instead.',
        },
        409,
      ),
    });
    await open();
    await waitFor(() => expect(rows()).toHaveLength(1));
    await click(getControl('View', rows()[0]!));
    await waitFor(() => expect(dialog().querySelector('[data-testid="email-error"]')).not.toBeNull());
    await click(getControl('Resend', dialog()));
    await waitFor(() =>
      expect(toasts()).toContain(
        'Its set-password link is no longer kept, so it cannot be sent again. Send the person a new invitation or password reset instead.',
      ),
    );
    expect(api.calls('POST /super/email-logs/2/resend')).toHaveLength(1);
  });

  it('shows empty states, with a way out of the filters', async () => {
    server([SENT]);
    const router = await open('/superadmin/email-logs?status=failed');
    await waitFor(() => expect(text()).toContain('No emails match these filters.'));
    await click(getControl('Clear filters'));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(router.state.location.search).toBe('');
  });

  it('says when nothing was ever sent', async () => {
    server([]);
    await open();
    await waitFor(() => expect(text()).toContain('No emails have been sent yet.'));
  });

  it('pages through a long log', async () => {
    const api = server([SENT], 60);
    const router = await open();
    await waitFor(() => expect(text()).toContain('Showing 1–25 of 60 emails'));
    await click(document.querySelector<HTMLElement>('button[aria-label="Page 3"]')!);
    await waitFor(() => expect(api.calls('GET /super/email-logs').at(-1)!.query.get('page')).toBe('3'));
    expect(router.state.location.search).toBe('?page=3');
    await waitFor(() => expect(text()).toContain('Showing 51–60 of 60 emails'));
  });

  it('shows a load error with Retry', async () => {
    const api = stubApi({
      'GET /api/member/projects': jsonResponse(PROJECTS),
      'GET /super/email-logs': [
        jsonResponse({ message: 'Server error' }, 500),
        jsonResponse({ emails: [], total: 0, page: 1, page_size: 25 }),
      ],
    });
    await open();
    await waitFor(() => expect(text()).toContain('Server error'));
    await click(getControl('Retry'));
    await waitFor(() => expect(text()).toContain('No emails have been sent yet.'));
    expect(api.calls('GET /super/email-logs')).toHaveLength(2);
  });
});

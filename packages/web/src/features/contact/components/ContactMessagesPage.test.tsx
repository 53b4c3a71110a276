import type { ContactMessage } from '@portal/shared';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, render, text, typeInto, waitFor } from '../../../test/render';
import { dialog, toasts } from '../../../test/ui';
import { ContactMessagesPage } from './ContactMessagesPage';

const BASE = '/api/projects/12/contact-us-messages';

const UNREAD: ContactMessage = {
  id: 1,
  subject: 'Cannot sign the policy',
  message: 'The Sign button does nothing.\nPlease help.',
  status: 'unread',
  created_at: '2026-03-04T18:00:00Z',
  sender: { id: 40, name: 'Sam Lee', email: 'sam@example.org' },
  replied_at: null,
};
const READ: ContactMessage = {
  id: 2,
  subject: 'Training dates',
  message: 'When is the next training?',
  status: 'read',
  created_at: '2026-03-02T18:00:00Z',
  sender: { id: 41, name: 'Ana Ruiz', email: 'ana@example.org' },
  replied_at: null,
};

/** A tiny server keeping the messages, so lists reloaded after a change show the change. */
function server(initial: ContactMessage[], routes: Record<string, StubHandler | StubHandler[]> = {}) {
  let messages = initial.map((message) => ({ ...message }));
  const list = (request: StubRequest) => {
    const box = request.query.get('box') === 'archive' ? 'archive' : 'inbox';
    const shown = messages.filter((message) => (box === 'archive') === (message.status === 'archived'));
    const unread = messages.filter((message) => message.status === 'unread').length;
    return jsonResponse({ messages: shown, unread });
  };
  const patch = (id: number) => (request: StubRequest) => {
    const { status } = request.body as { status: ContactMessage['status'] };
    messages = messages.map((message) => (message.id === id ? { ...message, status } : message));
    return jsonResponse(messages.find((message) => message.id === id));
  };
  const reply = (id: number) => () => {
    messages = messages.map((message) =>
      message.id === id ? { ...message, replied_at: '2026-03-05T17:30:00Z' } : message,
    );
    return jsonResponse(messages.find((message) => message.id === id));
  };
  return stubApi({
    [`GET ${BASE}`]: list,
    [`POST ${BASE}/2/reply`]: reply(2),
    [`PATCH ${BASE}/1`]: patch(1),
    [`PATCH ${BASE}/2`]: patch(2),
    ...routes,
  });
}

async function open(path = '/member/projects/12/contact-us-messages') {
  const router = createMemoryRouter(
    [{ path: '/member/projects/:projectId/contact-us-messages', element: <ContactMessagesPage /> }],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Contact Messages'));
  return router;
}

function tab(name: string): HTMLElement {
  const element = [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((el) =>
    el.textContent?.startsWith(name),
  );
  if (!element) throw new Error(`no tab ${name}`);
  return element;
}

function row(id: number): HTMLElement {
  const element = document.querySelector<HTMLElement>(`li[data-message-id="${id}"]`);
  if (!element) throw new Error(`no row ${id}`);
  return element;
}

function detail(): HTMLElement {
  const element = document.querySelector<HTMLElement>('article');
  if (!element) throw new Error('no message open');
  return element;
}

describe('ContactMessagesPage: inbox', () => {
  it('lists the messages with sender, subject, date and the unread count; opening one marks it read', async () => {
    const api = server([UNREAD, READ]);
    await open();
    await waitFor(() => row(1));
    expect(tab('Inbox').getAttribute('aria-selected')).toBe('true');
    expect(text(tab('Inbox'))).toContain('1 unread');
    expect(text(row(1))).toContain('Sam Lee');
    expect(text(row(1))).toContain('Cannot sign the policy');
    expect(text(row(1))).toContain('Mar 4, 2026');
    expect(text(row(1))).toContain('Unread:');
    expect(row(1).dataset.status).toBe('unread');
    expect(row(2).dataset.status).toBe('read');
    expect(text(row(2))).not.toContain('Unread:');
    expect(api.calls(`GET ${BASE}`)[0]!.query.get('box')).toBe('inbox');

    await click(row(1).querySelector('button')!);
    expect(text(detail())).toContain('The Sign button does nothing.');
    expect(text(detail())).toContain('From Sam Lee <sam@example.org>');
    expect(document.activeElement?.textContent).toBe('Cannot sign the policy');
    await waitFor(() => expect(api.calls(`PATCH ${BASE}/1`)).toHaveLength(1));
    expect(api.calls(`PATCH ${BASE}/1`)[0]!.body).toEqual({ status: 'read' });
    await waitFor(() => expect(text(row(1))).not.toContain('Unread:'));
    expect(text(tab('Inbox'))).not.toContain('unread');

    // Opening a message already read changes nothing.
    await click(row(2).querySelector('button')!);
    expect(text(detail())).toContain('When is the next training?');
    expect(api.calls(`PATCH ${BASE}/2`)).toHaveLength(0);
  });

  it('marks an opened message unread again', async () => {
    const api = server([READ]);
    await open();
    await waitFor(() => row(2));
    await click(row(2).querySelector('button')!);
    await click(getControl('Mark unread', detail()));
    await waitFor(() => expect(text(row(2))).toContain('Unread:'));
    expect(api.calls(`PATCH ${BASE}/2`)[0]!.body).toEqual({ status: 'unread' });
    expect(document.querySelector('article')).toBeNull();
    await waitFor(() => expect(text(tab('Inbox'))).toContain('1 unread'));
  });

  it('archives a message, shows it under Archive and restores it to the inbox', async () => {
    const api = server([READ]);
    const router = await open();
    await waitFor(() => row(2));
    await click(row(2).querySelector('button')!);
    await click(getControl('Archive', detail()));
    await waitFor(() => expect(text()).toContain('No messages.'));
    expect(api.calls(`PATCH ${BASE}/2`)[0]!.body).toEqual({ status: 'archived' });
    expect(toasts()).toContain('Message archived.');

    await click(tab('Archive'));
    await waitFor(() => row(2));
    expect(router.state.location.search).toBe('?box=archive');
    expect(api.calls(`GET ${BASE}`).some((call) => call.query.get('box') === 'archive')).toBe(true);
    await click(row(2).querySelector('button')!);
    // An archived message opened is not marked read (that would take it out of the archive).
    expect(api.calls(`PATCH ${BASE}/2`)).toHaveLength(1);
    await click(getControl('Restore', detail()));
    await waitFor(() => expect(text()).toContain('No archived messages.'));
    expect(api.calls(`PATCH ${BASE}/2`)[1]!.body).toEqual({ status: 'unread' });

    await click(tab('Inbox'));
    await waitFor(() => expect(text(row(2))).toContain('Unread:'));
  });

  it('shows the empty states of both boxes', async () => {
    server([]);
    await open('/member/projects/12/contact-us-messages?box=archive');
    await waitFor(() => expect(text()).toContain('No archived messages.'));
    expect(tab('Archive').getAttribute('aria-selected')).toBe('true');
    await click(tab('Inbox'));
    await waitFor(() => expect(text()).toContain('No messages.'));
  });
});

describe('ContactMessagesPage: reply', () => {
  it('sends a reply from a modal, says so and shows when it was replied', async () => {
    const api = server([READ]);
    await open();
    await waitFor(() => row(2));
    await click(row(2).querySelector('button')!);
    expect(detail().querySelector('[data-testid="replied-at"]')).toBeNull();
    await click(getControl('Reply', detail()));
    await waitFor(() => expect(text(dialog())).toContain('To Ana Ruiz <ana@example.org>'));

    await click(getControl('Send reply', dialog()));
    expect(text(dialog())).toContain('Enter your reply.');
    expect(api.calls(`POST ${BASE}/2/reply`)).toHaveLength(0);

    await typeInto(getField('Reply', dialog()) as unknown as HTMLTextAreaElement, '  Next Tuesday at 10.  ');
    expect(text(dialog())).toContain('19 / 5,000 characters');
    await click(getControl('Send reply', dialog()));
    await waitFor(() => expect(toasts()).toContain('Reply sent.'));
    expect(api.calls(`POST ${BASE}/2/reply`)[0]!.body).toEqual({ message: 'Next Tuesday at 10.' });
    await waitFor(() => expect(text(detail())).toContain('Replied Mar 5, 2026'));
    expect(text(row(2))).toContain('Replied');
  });

  it("keeps the modal open with the server's message when the reply fails", async () => {
    server([READ], { [`POST ${BASE}/2/reply`]: jsonResponse({ message: 'The mail server is unavailable.' }, 503) });
    await open();
    await waitFor(() => row(2));
    await click(row(2).querySelector('button')!);
    await click(getControl('Reply', detail()));
    await waitFor(() => dialog());
    await typeInto(getField('Reply', dialog()) as unknown as HTMLTextAreaElement, 'Hello');
    await click(getControl('Send reply', dialog()));
    await waitFor(() => expect(text(dialog())).toContain('The mail server is unavailable.'));
    // Still open, with the reply kept.
    expect(getField('Reply', dialog()).value).toBe('Hello');
  });
});

describe('ContactMessagesPage: access', () => {
  it('says only project administrators can read contact messages on 403', async () => {
    stubApi({ [`GET ${BASE}`]: jsonResponse({ message: 'This action is unauthorized.' }, 403) });
    await open();
    await waitFor(() => expect(text()).toContain('Only project administrators can read contact messages.'));
    expect(document.querySelector('[role="tab"]')).toBeNull();
  });
});

import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, render, text, typeInto, waitFor } from '../../../test/render';
import { ContactUsPage } from './ContactUsPage';

async function open(path = '/member/projects/12/contact-us', routes: Record<string, StubHandler | StubHandler[]> = {}) {
  const api = stubApi(routes);
  const router = createMemoryRouter([{ path: '/member/projects/:projectId/contact-us', element: <ContactUsPage /> }], {
    initialEntries: [path],
  });
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
  return api;
}

describe('ContactUsPage', () => {
  it('counts characters against the schema limits and refuses empty or too long fields', async () => {
    const api = await open();
    expect(document.querySelector('h1')?.textContent).toBe('Contact Us');
    expect(text()).toContain('0 / 200 characters');
    expect(text()).toContain('0 / 5,000 characters');

    await click(getControl('Send'));
    expect(text()).toContain('Enter a subject.');
    expect(text()).toContain('Enter your message.');
    expect(getField('Subject').getAttribute('aria-invalid')).toBe('true');

    await typeInto(getField('Subject'), 'x'.repeat(201));
    await typeInto(getField('Message'), 'Hello');
    expect(text()).toContain('201 / 200 characters');
    expect(text()).toContain('5 / 5,000 characters');
    await click(getControl('Send'));
    expect(text()).toContain('Keep the subject under 200 characters.');
    expect(text()).not.toContain('Enter your message.');
    expect(api.calls('POST /api/projects/12/contact-us')).toHaveLength(0);
  });

  it('sends the trimmed message, shows the success state and lets the member write another', async () => {
    const api = await open(undefined, {
      'POST /api/projects/12/contact-us': jsonResponse({ id: 31 }, 201),
    });
    await typeInto(getField('Subject'), '  Login trouble ');
    await typeInto(getField('Message'), 'I cannot open the policy app.\n');
    await click(getControl('Send'));
    await waitFor(() => expect(text()).toContain('Your message was sent to the project administrators.'));
    const [call] = api.calls('POST /api/projects/12/contact-us');
    expect(call!.body).toEqual({ subject: 'Login trouble', message: 'I cannot open the policy app.' });
    expect(call!.headers.get('X-XSRF-TOKEN')).toBe('test-token');
    expect(document.querySelector('form')).toBeNull();

    await click(getControl('Write another'));
    expect(getField('Subject').value).toBe('');
    expect(getField('Message').value).toBe('');
    expect(text()).not.toContain('Your message was sent');
  });

  it("shows the server's field error and keeps what was written", async () => {
    await open(undefined, {
      'POST /api/projects/12/contact-us': jsonResponse(
        { message: 'The given data was invalid.', errors: { subject: ['The subject contains invalid characters.'] } },
        422,
      ),
    });
    await typeInto(getField('Subject'), 'Hi');
    await typeInto(getField('Message'), 'Body');
    await click(getControl('Send'));
    await waitFor(() => expect(text()).toContain('The subject contains invalid characters.'));
    expect(getField('Message').value).toBe('Body');
    expect(text()).not.toContain('Your message was sent');
  });

  it("shows the server's message when sending fails", async () => {
    await open(undefined, {
      'POST /api/projects/12/contact-us': jsonResponse({ message: 'You are not a member of this project.' }, 404),
    });
    await typeInto(getField('Subject'), 'Hi');
    await typeInto(getField('Message'), 'Body');
    await click(getControl('Send'));
    await waitFor(() => expect(text()).toContain('You are not a member of this project.'));
  });

  it('says there is no project for an invalid id', async () => {
    await open('/member/projects/not-a-number/contact-us');
    expect(text()).toContain('No project context.');
    expect(document.querySelector('form')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '../../../test/fetch';
import { click, getControl, renderRoute, text, waitFor } from '../../../test/render';

const ERROR_TEXT = 'The terms and conditions could not be loaded at this time. Please try again later.';
const EMPTY_TEXT = 'No terms and conditions have been published yet.';

function scrollBox(): HTMLElement | null {
  return document.querySelector('[role="region"][aria-label="Terms and conditions text"]');
}

describe('TermsPage', () => {
  it('requests the public terms with credentials and shows an accessible loading state', async () => {
    const fetchMock = stubFetch(new Promise<Response>(() => {}));
    await renderRoute('/terms-and-conditions');

    expect(document.querySelector('h1')?.textContent).toBe('Terms and Conditions (System Use Notification)');
    expect(document.querySelector('[role="status"]')?.getAttribute('aria-label')).toBe(
      'Loading the terms and conditions',
    );
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/public/terms-and-conditions');
    expect(init?.credentials).toBe('include');
    expect(document.title).toBe('Terms and Conditions | Healthcare Quality Portal');
  });

  it('shows the published terms sanitised, with the long US date, in a focusable scrolling box', async () => {
    stubFetch(
      jsonResponse({
        content:
          '<h2>System use</h2><p>Use is <strong>monitored</strong>.</p><img src="x.png" alt="seal" onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">bad link</a>',
        lastUpdated: '2026-11-21',
      }),
    );
    await renderRoute('/terms-and-conditions');

    await waitFor(() => expect(text()).toContain('Use is monitored.'));
    expect(text()).toContain('Last Updated: November 21, 2026');
    expect(document.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-21');

    const box = scrollBox();
    expect(box?.tabIndex).toBe(0);
    expect(box?.querySelector('strong')?.textContent).toBe('monitored');
    expect(box?.querySelector('img')?.getAttribute('alt')).toBe('seal');
    expect(box?.querySelector('script')).toBeNull();
    expect(box?.querySelector('[onerror]')).toBeNull();
    expect(box?.innerHTML).not.toContain('alert(');
    expect(box?.querySelector('a')?.hasAttribute('href')).toBe(false);
    expect(document.querySelector('[role="status"]')).toBeNull();
  });

  it('shows the load error verbatim and loads the terms again on "Try again"', async () => {
    const fetchMock = stubFetch(
      jsonResponse({ message: 'Internal server error' }, 500),
      jsonResponse({ content: '<p>Second attempt text</p>', lastUpdated: '2026-01-05' }),
    );
    await renderRoute('/terms-and-conditions');

    await waitFor(() => expect(text()).toContain(ERROR_TEXT));
    expect(text()).not.toContain('Internal server error');
    expect(scrollBox()).toBeNull();

    await click(getControl('Try again'));
    await waitFor(() => expect(text()).toContain('Second attempt text'));
    expect(text()).toContain('Last Updated: January 5, 2026');
    expect(text()).not.toContain(ERROR_TEXT);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('treats a response that breaks the contract as a load error', async () => {
    stubFetch(jsonResponse({ content: 42 }));
    await renderRoute('/terms-and-conditions');
    await waitFor(() => expect(text()).toContain(ERROR_TEXT));
  });

  it.each([
    ['null content', { content: null, lastUpdated: null }],
    ['blank content', { content: '  \n ', lastUpdated: '2026-11-21' }],
    ['content that sanitises to nothing', { content: '<script>alert(1)</script>', lastUpdated: '2026-11-21' }],
  ])('shows the empty text verbatim for %s', async (_case, body) => {
    stubFetch(jsonResponse(body));
    await renderRoute('/terms-and-conditions');

    await waitFor(() => expect(text()).toContain(EMPTY_TEXT));
    expect(text()).not.toContain('Last Updated');
    expect(scrollBox()).toBeNull();
  });

  it('links back to the login page in every state', async () => {
    stubFetch(jsonResponse({ content: null, lastUpdated: null }));
    await renderRoute('/terms-and-conditions');
    expect(getControl('Back to Login').getAttribute('href')).toBe('/member-login');
    await waitFor(() => expect(text()).toContain(EMPTY_TEXT));
    expect(getControl('Back to Login').getAttribute('href')).toBe('/member-login');
  });
});

import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { ChartReviewApp } from './ChartReviewApp';
import { API, BASE, openScreen, sessionRoutes } from './cr-test-fixtures';

const open = (path: string) =>
  openScreen(path, ['*'], <ChartReviewApp fallback={<h1>The chart review entry page</h1>} />);

const navLinks = () =>
  [...document.querySelectorAll('nav[aria-label="Chart review"] a')].map(
    (link) => `${link.textContent}${link.getAttribute('aria-current') ? ' (current)' : ''}`,
  );

describe('ChartReviewApp', () => {
  it('leaves paths of later parts to the fallback, and links only the sections the role may open', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      'GET /api/me/permissions': jsonResponse({
        permissions: {
          'chart_review:my': true,
          'chart_review:tools': true,
          'chart_review:programs': true,
          'chart_review:settings': false,
        },
      }),
      [`GET ${API}/tools`]: jsonResponse({ abilities: { create: false }, tools: [] }),
    });
    await open(`${BASE}/not-built-yet`);
    await waitFor(() => expect(text()).toContain('The chart review entry page'));
    await waitFor(() => expect(navLinks()).toEqual(['My reviews', 'Tools', 'Programmes']));
    expect(api.calls('GET /api/me/permissions')[0]!.query.get('app')).toBe('chart_review');

    await click(getControl('Tools'));
    await waitFor(() => expect(text()).toContain('No audit tools yet.'));
    expect(navLinks()).toEqual(['My reviews', 'Tools (current)', 'Programmes']);
    expect(text()).not.toContain('The chart review entry page');
  });
});

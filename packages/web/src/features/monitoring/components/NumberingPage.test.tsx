import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { NumberingPage } from './NumberingPage';
import { PageNumberingPage } from './PageNumberingPage';
import { API, BASE, dialog, openMonitoringScreen, sessionRoutes, toasts } from './pages-test-fixtures';

describe('NumberingPage', () => {
  it('explains the mode and switches only after confirmation, showing how many pages were renumbered', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/numbering`]: [jsonResponse({ mode: 'manual', pages: 5 }), jsonResponse({ mode: 'auto', pages: 5 })],
      [`POST ${API}/numbering`]: jsonResponse({
        mode: 'auto',
        changed: 2,
        changes: [
          { id: 1, title: 'Safety', from: '7', to: '1' },
          { id: 2, title: 'Falls', from: '7.1', to: '1.1' },
        ],
      }),
    });
    await openMonitoringScreen(`${BASE}/numbering`, ['numbering'], <NumberingPage />);
    await waitFor(() => expect(document.querySelector('[data-testid="numbering-mode"]')?.textContent).toBe('Manual'));
    expect(text()).toContain('People type each page’s number');
    expect(text()).toContain('5 pages in the tree.');

    await click(getControl('Switch to automatic numbering'));
    await waitFor(() => expect(dialog().textContent).toContain('Numbers typed by hand are replaced.'));
    await click(getControl('Cancel', dialog()));
    expect(api.calls(`POST ${API}/numbering`)).toHaveLength(0);

    await click(getControl('Switch to automatic numbering'));
    await waitFor(() => expect(dialog()).toBeDefined());
    await click(getControl('Switch and renumber', dialog()));
    await waitFor(() => expect(api.calls(`POST ${API}/numbering`)).toHaveLength(1));
    expect(api.calls(`POST ${API}/numbering`)[0]!.body).toEqual({ mode: 'auto' });
    await waitFor(() => expect(text()).toContain('Automatic numbering is on. 2 pages were renumbered.'));
    await waitFor(() => expect(toasts()).toContain('Automatic numbering is on: 2 pages renumbered.'));
    const table = document.querySelector('table[aria-label="Renumbered pages"]')!;
    expect(table.textContent).toContain('Falls7.11.1');
    await waitFor(() =>
      expect(document.querySelector('[data-testid="numbering-mode"]')?.textContent).toBe('Automatic'),
    );
  });
});

describe('PageNumberingPage', () => {
  it('previews the changes and applies them after confirmation', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/numbering`]: jsonResponse({ mode: 'auto', pages: 3 }),
      [`GET ${API}/numbering/preview`]: [
        jsonResponse([
          { id: 3, title: 'Hand hygiene', from: '1.9', to: '1.10' },
          { id: 4, title: 'Isolation', from: null, to: '1.11' },
        ]),
        jsonResponse([]),
      ],
      [`POST ${API}/numbering/apply`]: jsonResponse({ mode: 'auto', changed: 2, changes: [] }),
    });
    await openMonitoringScreen(`${BASE}/page-numbering`, ['page-numbering'], <PageNumberingPage />);
    await waitFor(() => expect(document.querySelectorAll('[data-testid="renumber-preview"] tbody tr')).toHaveLength(2));
    expect(text()).toContain('2 pages get a new number.');
    const cells = [...document.querySelectorAll('[data-testid="renumber-preview"] tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent).join(' | '),
    );
    expect(cells).toEqual(['Hand hygiene | 1.9 | 1.10', 'Isolation | — | 1.11']);

    await click(getControl('Apply renumbering'));
    await waitFor(() => expect(dialog().textContent).toContain('2 pages get a new number.'));
    await click(getControl('Apply renumbering', dialog()));
    await waitFor(() => expect(api.calls(`POST ${API}/numbering/apply`)).toHaveLength(1));
    await waitFor(() => expect(toasts()).toContain('Renumbering applied: 2 pages renumbered.'));
    await waitFor(() =>
      expect(text()).toContain('Every page already has the number its place in the tree gives it. Nothing to change.'),
    );
    expect(document.querySelector('[data-testid="renumber-preview"]')).toBeNull();
  });
});

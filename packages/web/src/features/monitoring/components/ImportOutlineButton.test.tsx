import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { ImportOutlineButton } from './ImportOutlineButton';
import { API, BASE, dialog, node, openMonitoringScreen, sessionRoutes, toasts } from './pages-test-fixtures';
import { chooseFile, pick } from './structure-test-helpers';

const SAFETY = node({ id: 1, title: 'Safety', number: '1' });

function Screen() {
  return (
    <>
      <h1>Pages</h1>
      <ImportOutlineButton />
    </>
  );
}

const open = () => openMonitoringScreen(`${BASE}/pages`, ['pages'], <Screen />);

describe('ImportOutlineButton', () => {
  it('is not offered without the create-page section', async () => {
    stubApi({ ...sessionRoutes(['create-page']) });
    await open();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(text()).not.toContain('Import outline');
  });

  it('previews the outline as an indented list, then creates the pages under the chosen parent', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/pages`]: jsonResponse({ pages: [SAFETY], numbering_mode: 'auto', max_depth: 3 }),
      [`POST ${API}/pages/convert`]: [
        jsonResponse(
          {
            message: 'Upload a Word (.docx) or text outline.',
            code: 'VALIDATION_FAILED',
            errors: { file: ['Upload a Word (.docx) or text outline.'] },
          },
          400,
        ),
        jsonResponse({
          pages: [
            { title: 'Falls', depth: 1, number: null },
            { title: 'Falls with harm', depth: 2, number: '1.1' },
          ],
        }),
        jsonResponse({ created: 2 }, 201),
      ],
    });
    await open();
    await waitFor(() => expect(getControl('Import outline')).toBeDefined());
    await click(getControl('Import outline'));
    await waitFor(() => expect(dialog().textContent).toContain('Outline file'));
    expect(getControl('Preview', dialog()).hasAttribute('disabled')).toBe(true);

    await chooseFile(new File(['%PDF-1.4'], 'scan.pdf', { type: 'application/pdf' }));
    await click(getControl('Preview', dialog()));
    await waitFor(() => expect(dialog().textContent).toContain('Upload a Word (.docx) or text outline.'));
    expect(getControl('Create pages', dialog()).hasAttribute('disabled')).toBe(true);

    await chooseFile(new File(['Falls\n  Falls with harm\n'], 'outline.txt', { type: 'text/plain' }));
    await pick('Create the pages under', '1 Safety');
    await click(getControl('Preview', dialog()));
    await waitFor(() => expect(document.querySelectorAll('[data-testid="outline-preview"] li')).toHaveLength(2));
    const items = [...document.querySelectorAll<HTMLElement>('[data-testid="outline-preview"] li')].map(
      (li) => `${li.dataset.depth}: ${li.textContent}`,
    );
    expect(items).toEqual(['1: Level 1 Falls', '2: Level 2 1.1 Falls with harm']);
    const calls = api.calls(`POST ${API}/pages/convert`);
    expect(calls[1]!.query.get('preview')).toBe('true');

    await click(getControl('Create pages', dialog()));
    await waitFor(() => expect(toasts()).toContain('2 draft pages created.'));
    const create = api.calls(`POST ${API}/pages/convert`)[2]!;
    expect(create.query.get('preview')).toBeNull();
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
  });
});

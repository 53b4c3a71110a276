import { describe, expect, it } from 'vitest';
import { editorContent, installEditorLayoutStubs, typeInEditor } from '../../../components/RichTextEditor.testing';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { DevEditorPage } from './DevEditorPage';
import { openPage, toasts } from './test-utils';

installEditorLayoutStubs();

const block = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const open = () => openPage('/dev/editor', <DevEditorPage />);

describe('DevEditorPage', () => {
  it("shows the editor's HTML and what the server's sanitiser keeps, with a sanitised preview", async () => {
    const api = stubApi({
      // The server answers something a browser must still not run: the preview sanitises it again.
      'POST /super/sanitize': (request: StubRequest) =>
        jsonResponse({
          html: `${(request.body as { html: string }).html}<img src="x" onerror="alert(1)"><script>alert(2)</script>`,
        }),
    });
    await open();
    expect(document.querySelector('h1')?.textContent).toBe('Editor');
    expect(document.title).toBe('Editor | Healthcare Quality Portal');
    await waitFor(() => expect(text(editorContent('Content'))).toContain('Sample heading'));

    await typeInEditor(editorContent('Content'), 'Plain words');
    await waitFor(() => expect(block('editor-html')?.textContent).toContain('<h2>Plain words</h2>'));
    expect(block('server-html')).toBeNull();

    await click(getControl('Sanitise on the server'));
    await waitFor(() => expect(block('server-html')).not.toBeNull());
    const sent = (api.calls('POST /super/sanitize')[0]!.body as { html: string }).html;
    expect(sent).toBe(block('editor-html')?.textContent);
    expect(sent).toContain('<h2>Plain words</h2>');
    // Shown as code, not as markup.
    expect(block('server-html')?.textContent).toContain('<script>alert(2)</script>');
    expect(block('server-html')?.querySelector('script')).toBeNull();
    expect(text()).toContain('Changed by the sanitiser');

    const preview = document.querySelector<HTMLElement>('[role="region"][aria-label="Preview of the sanitised HTML"]')!;
    expect(preview.querySelector('h2')?.textContent).toBe('Plain words');
    expect(preview.querySelector('script')).toBeNull();
    expect(preview.querySelector('[onerror]')).toBeNull();

    // Editing afterwards says the server's answer is out of date.
    await typeInEditor(editorContent('Content'), 'Other words');
    await waitFor(() => expect(text()).toContain('The editor changed since'));
  });

  it('says when the sanitiser changed nothing', async () => {
    stubApi({
      'POST /super/sanitize': (request: StubRequest) => jsonResponse({ html: (request.body as { html: string }).html }),
    });
    await open();
    await waitFor(() => editorContent('Content'));
    await click(getControl('Sanitise on the server'));
    await waitFor(() => expect(text()).toContain('Unchanged by the sanitiser'));
  });

  it("shows the server's field error on the editor", async () => {
    stubApi({
      'POST /super/sanitize': jsonResponse(
        { message: 'Invalid', errors: { html: ['The HTML must be at most 200,000 characters.'] } },
        422,
      ),
    });
    await open();
    await waitFor(() => editorContent('Content'));
    await click(getControl('Sanitise on the server'));
    await waitFor(() => expect(editorContent('Content').getAttribute('aria-invalid')).toBe('true'));
    const errorId = editorContent('Content').getAttribute('aria-describedby')!;
    expect(document.getElementById(errorId)?.textContent).toBe('The HTML must be at most 200,000 characters.');
    // The toast mounts through the notifications portal, a render after the field error.
    await waitFor(() => expect(toasts().length).toBeGreaterThan(0));
    expect(block('server-html')).toBeNull();
  });
});

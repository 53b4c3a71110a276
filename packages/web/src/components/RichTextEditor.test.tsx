import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { click, flush, render, text, waitFor } from '../test/render';
import { isAllowedLink, RichTextEditor } from './RichTextEditor';
import { editorContent as content, installEditorLayoutStubs, typeInEditor } from './RichTextEditor.testing';

installEditorLayoutStubs();

function control(label: string): HTMLButtonElement {
  const element = document.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`);
  if (!element) throw new Error(`no control ${label}`);
  return element;
}

function Harness({ initial, onChange }: { initial: string; onChange: (html: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <RichTextEditor
        label="Terms text"
        value={value}
        onChange={(html) => {
          setValue(html);
          onChange(html);
        }}
        error={value === '' ? 'Write the terms before saving.' : undefined}
      />
      <button type="button" onClick={() => setValue('<h2>Replaced</h2>')}>
        Replace
      </button>
    </>
  );
}

describe('RichTextEditor', () => {
  it('shows the value, names the editable area by its label and offers the toolbar', async () => {
    await render(<RichTextEditor label="Terms text" value="<p>Hello <strong>world</strong></p>" onChange={() => {}} />);
    await waitFor(() => expect(content().querySelector('strong')?.textContent).toBe('world'));

    const labelId = content().getAttribute('aria-labelledby');
    expect(labelId).toBeTruthy();
    expect(document.getElementById(labelId!)?.textContent).toBe('Terms text');
    expect(content().getAttribute('role')).toBe('textbox');
    expect(content().getAttribute('aria-multiline')).toBe('true');

    for (const label of [
      'Bold',
      'Italic',
      'Underline',
      'Strikethrough',
      'Heading 2',
      'Heading 3',
      'Bullet list',
      'Ordered list',
      'Blockquote',
      'Link',
      'Remove link',
      'Undo',
      'Redo',
    ]) {
      expect(control(label)).toBeTruthy();
    }
    expect(document.querySelector('[role="toolbar"]')?.getAttribute('aria-label')).toBe('Terms text formatting');
  });

  it('reports edits as HTML, applies formatting and takes a new value from outside', async () => {
    const onChange = vi.fn();
    await render(<Harness initial="<p>First draft</p>" onChange={onChange} />);
    await waitFor(() => expect(text(content())).toContain('First draft'));

    await typeInEditor(content(), 'Second draft');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p>Second draft</p>'));

    // The cursor sits in the paragraph: Heading 2 turns it into a heading.
    await click(control('Heading 2'));
    await waitFor(() => expect(onChange.mock.lastCall?.[0]).toMatch(/^<h2>Second draft<\/h2>/));
    await click(control('Undo'));
    await waitFor(() => expect(onChange.mock.lastCall?.[0]).toMatch(/^<p>[^<]+<\/p>$/));

    const calls = onChange.mock.calls.length;
    await click(document.querySelector<HTMLButtonElement>('button:not([aria-label])')!);
    await waitFor(() => expect(content().querySelector('h2')?.textContent).toBe('Replaced'));
    await flush();
    // A value set from outside is not echoed back as an edit.
    expect(onChange.mock.calls.length).toBe(calls);
  });

  it('reports an empty document as "" and shows the error linked to the content', async () => {
    const onChange = vi.fn();
    await render(<Harness initial="<p>x</p>" onChange={onChange} />);
    await waitFor(() => expect(text(content())).toContain('x'));
    await typeInEditor(content(), '');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(''));
    await waitFor(() => expect(content().getAttribute('aria-invalid')).toBe('true'));
    const errorId = content().getAttribute('aria-describedby');
    expect(document.getElementById(errorId!)?.textContent).toBe('Write the terms before saving.');
  });

  it('keeps only the links the sanitiser would keep', async () => {
    await render(
      <RichTextEditor
        label="Terms text"
        value={'<p><a href="javascript:alert(1)">bad</a> and <a href="https://example.org/terms">good</a></p>'}
        onChange={() => {}}
      />,
    );
    await waitFor(() => expect(text(content())).toContain('good'));
    const links = [...content().querySelectorAll('a')];
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['https://example.org/terms']);
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(content().innerHTML).not.toContain('javascript:');

    expect(isAllowedLink('https://example.org')).toBe(true);
    expect(isAllowedLink('mailto:help@example.org')).toBe(true);
    expect(isAllowedLink('/terms-and-conditions')).toBe(true);
    expect(isAllowedLink(' javascript:alert(1)')).toBe(false);
    expect(isAllowedLink('data:text/html,x')).toBe(false);
  });

  it('focuses the writing area when its label is clicked', async () => {
    await render(<RichTextEditor label="Terms text" value="<p>x</p>" onChange={() => {}} />);
    await waitFor(() => content());
    const label = document.getElementById(content().getAttribute('aria-labelledby')!)!;
    await click(label);
    await waitFor(() => expect(document.activeElement).toBe(content()));
  });
});

/** The editor with tables, holding its own value. */
function Tables({ onChange, tables = true }: { onChange: (html: string) => void; tables?: boolean }) {
  const [value, setValue] = useState('<p>Intro</p>');
  return (
    <RichTextEditor
      label="Policy text"
      tables={tables}
      value={value}
      onChange={(html) => {
        setValue(html);
        onChange(html);
      }}
    />
  );
}

describe('RichTextEditor with tables', () => {
  const TABLE_CONTROLS = [
    'Insert table',
    'Add row before',
    'Add row after',
    'Delete row',
    'Add column before',
    'Add column after',
    'Delete column',
    'Toggle header row',
    'Delete table',
  ];

  const rows = () => content().querySelectorAll('tr').length;
  const columns = () => content().querySelector('tr')?.children.length ?? 0;

  it('offers no table controls unless asked, but always the three heading levels', async () => {
    await render(<Tables onChange={() => {}} tables={false} />);
    await waitFor(() => expect(text(content())).toContain('Intro'));
    for (const label of TABLE_CONTROLS) {
      expect(document.querySelector(`button[aria-label="${label}"]`)).toBeNull();
    }
    for (const label of ['Heading 1', 'Heading 2', 'Heading 3']) expect(control(label)).toBeTruthy();
  });

  it('turns a paragraph into a level 1 heading', async () => {
    const onChange = vi.fn();
    await render(<Tables onChange={onChange} />);
    await waitFor(() => expect(text(content())).toContain('Intro'));
    await click(control('Heading 1'));
    await waitFor(() => expect(onChange.mock.lastCall?.[0]).toMatch(/^<h1>Intro<\/h1>/));
  });

  it('inserts a 3 × 3 table, adds and deletes rows and columns, and deletes the table', async () => {
    const onChange = vi.fn();
    await render(<Tables onChange={onChange} />);
    await waitFor(() => expect(text(content())).toContain('Intro'));
    for (const label of TABLE_CONTROLS) expect(control(label)).toBeTruthy();
    // Outside a table only inserting makes sense.
    await waitFor(() => expect(control('Delete table').disabled).toBe(true));
    expect(control('Add row after').disabled).toBe(true);
    expect(control('Insert table').disabled).toBe(false);

    await click(control('Insert table'));
    await waitFor(() => expect(rows()).toBe(3));
    expect(columns()).toBe(3);
    expect(content().querySelectorAll('th')).toHaveLength(3);
    expect(onChange.mock.lastCall?.[0]).toContain('<table');
    expect(onChange.mock.lastCall?.[0]).toContain('<th');

    // The cursor is in the first cell now: the row and column controls work on it.
    await waitFor(() => expect(control('Add row after').disabled).toBe(false));
    await click(control('Add row after'));
    await waitFor(() => expect(rows()).toBe(4));
    await click(control('Add column after'));
    await waitFor(() => expect(columns()).toBe(4));
    await click(control('Delete column'));
    await waitFor(() => expect(columns()).toBe(3));
    await click(control('Delete row'));
    await waitFor(() => expect(rows()).toBe(3));
    await click(control('Delete table'));
    await waitFor(() => expect(content().querySelector('table')).toBeNull());
    expect(onChange.mock.lastCall?.[0]).not.toContain('<table');
  });

  it('shows a table it is given', async () => {
    await render(
      <RichTextEditor
        label="Policy text"
        tables
        value="<table><tbody><tr><th><p>Role</p></th></tr><tr><td><p>Nurse</p></td></tr></tbody></table>"
        onChange={() => {}}
      />,
    );
    await waitFor(() => expect(content().querySelector('td')?.textContent).toBe('Nurse'));
    expect(content().querySelector('th')?.textContent).toBe('Role');
  });
});

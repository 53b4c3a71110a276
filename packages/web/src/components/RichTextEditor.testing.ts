import { act } from 'react';

/**
 * Helpers for tests of screens holding a RichTextEditor (jsdom has no layout; ProseMirror measures the selection
 * to scroll it into view). Not a test file itself: imported by tests only.
 */

const EMPTY_RECT = { x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) };

/** Gives jsdom's Range and elements the measuring methods ProseMirror calls. Call once per test file. */
export function installEditorLayoutStubs(): void {
  const rectList = () => Object.assign([] as DOMRect[], { item: () => null }) as unknown as DOMRectList;
  for (const proto of [Range.prototype, Element.prototype] as unknown as Array<Record<string, unknown>>) {
    if (typeof proto.getClientRects !== 'function') proto.getClientRects = rectList;
    if (typeof proto.getBoundingClientRect !== 'function') proto.getBoundingClientRect = () => EMPTY_RECT;
  }
  if (typeof document.elementFromPoint !== 'function') document.elementFromPoint = () => null;
}

/** The visible label of an editable area, without the required-field asterisk. */
function labelOf(element: HTMLElement): string | undefined {
  const labelElement = document.getElementById(element.getAttribute('aria-labelledby') ?? '');
  return labelElement?.textContent?.replace(/\s*\*\s*$/, '').trim();
}

/** The editable area of the editor labelled `label` (or the only one). */
export function editorContent(label?: string): HTMLElement {
  const all = [...document.querySelectorAll<HTMLElement>('[contenteditable="true"][role="textbox"]')];
  const match = label ? all.find((element) => labelOf(element) === label) : all[0];
  if (!match) throw new Error(`no rich-text editor${label ? ` labelled "${label}"` : ''}`);
  return match;
}

/**
 * Types the way a browser does as far as ProseMirror can tell: the text of the editor's first text block changes
 * in the DOM and its mutation observer reads the change.
 */
export async function typeInEditor(editor: HTMLElement, value: string): Promise<void> {
  const block = editor.querySelector('p, h2, h3, li, blockquote');
  if (!block) throw new Error('the editor has no text block');
  await act(async () => {
    const node = block.firstChild;
    if (node instanceof Text) node.data = value;
    else block.textContent = value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
}

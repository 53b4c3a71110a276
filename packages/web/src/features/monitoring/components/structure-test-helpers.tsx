import { act } from 'react';
import { expect } from 'vitest';
import { click, waitFor } from '../../../test/render';

/** Helpers of the tree structure screen tests (levels, numbering, arranging, the grid, outline import). */

export const LEVELS = {
  max_levels: 8,
  levels: [
    { id: 1, depth: 1, name: 'Domain', icon: 'folder', may_hold_measures: false, page_count: 2 },
    { id: 2, depth: 2, name: 'Programme', icon: 'layers', may_hold_measures: true, page_count: 3 },
    { id: 3, depth: 3, name: 'Indicator', icon: 'chart', may_hold_measures: true, page_count: 0 },
  ],
};

/** The field whose label (visible, a trailing asterisk ignored) or aria-label reads `label`. */
export function field(label: string, root: ParentNode = document.body): HTMLInputElement {
  const match = [...root.querySelectorAll<HTMLInputElement>('input, textarea')].find(
    (element) =>
      element.getAttribute('aria-label') === label ||
      [...(element.labels ?? [])].some((item) => item.textContent?.replace(/\s*\*\s*$/, '').trim() === label),
  );
  if (!match) throw new Error(`no field ${label}`);
  return match;
}

/** The error Mantine shows under the field labelled `label`. */
export function errorOf(label: string): string | null {
  const element = field(label);
  const ids = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  const error = ids.map((id) => document.getElementById(id)).find((node) => node?.id.endsWith('-error'));
  return error?.textContent ?? null;
}

/** Opens a Mantine Select by its label and clicks the option named `option`. */
export async function pick(label: string, option: string) {
  const select = field(label);
  await click(select);
  let choice: HTMLElement | undefined;
  await waitFor(() => {
    const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '');
    choice = [...(listbox?.querySelectorAll<HTMLElement>('[role="option"]') ?? [])].find(
      (element) => element.textContent?.trim() === option,
    );
    expect(choice).toBeDefined();
  });
  await click(choice!);
}

/** Picks `file` in the (hidden) file input, as the browser's file dialog does. */
export async function chooseFile(file: File) {
  const element = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!element) throw new Error('no file input');
  Object.defineProperty(element, 'files', { value: [file], configurable: true });
  await act(async () => {
    element.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** The button whose aria-label reads `label`. */
export function labelled(label: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(`[aria-label="${label}"]`);
  if (!element) throw new Error(`nothing labelled ${label}`);
  return element;
}

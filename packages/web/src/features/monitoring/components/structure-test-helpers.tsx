import { act } from 'react';

export { errorOf, field, pick } from '../../../test/ui';

/** Helpers of the tree structure screen tests (levels, numbering, arranging, the grid, outline import). */

export const LEVELS = {
  max_levels: 8,
  levels: [
    { id: 1, depth: 1, name: 'Domain', icon: 'folder', may_hold_measures: false, page_count: 2 },
    { id: 2, depth: 2, name: 'Programme', icon: 'layers', may_hold_measures: true, page_count: 3 },
    { id: 3, depth: 3, name: 'Indicator', icon: 'chart', may_hold_measures: true, page_count: 0 },
  ],
};

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

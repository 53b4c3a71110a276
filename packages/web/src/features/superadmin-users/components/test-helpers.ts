import { act } from 'react';
import { click, getField, waitFor } from '../../../test/render';

export { dialog, toasts } from '../../../test/ui';

/** Opens the Mantine Select labelled `label` and clicks its option `option`. */
export async function pickOption(label: string, option: string, root: ParentNode = document.body): Promise<void> {
  const input = getField(label, root);
  await click(input);
  let match: HTMLElement | undefined;
  await waitFor(() => {
    // The options of this select only: other selects' dropdowns may still be in the page.
    const listbox = document.getElementById(input.getAttribute('aria-controls') ?? '');
    if (!listbox) throw new Error(`The options of "${label}" are not open`);
    match = [...listbox.querySelectorAll<HTMLElement>('[role="option"]')].find(
      (element) => element.textContent?.trim() === option,
    );
    if (!match) throw new Error(`No option "${option}" in "${label}"`);
  });
  await act(async () => {
    match!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    match!.click();
  });
}

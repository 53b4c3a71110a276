import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { expect } from 'vitest';
import { click, render, waitFor } from '../../../test/render';

export { dialog, toasts } from '../../../test/ui';

function Elsewhere() {
  const location = useLocation();
  return (
    <p data-testid="elsewhere">
      Elsewhere: {location.pathname}
      {location.search}
    </p>
  );
}

/** Renders `element` at `path` (matching `pattern`) in a memory router; any other path shows a stand-in page. */
export async function openPage(pattern: string, element: ReactElement, path = pattern) {
  const router = createMemoryRouter(
    [
      { path: pattern, element },
      { path: '*', element: <Elsewhere /> },
    ],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
  return router;
}

/** The error message Mantine shows under the field labelled `label`. */
export function fieldError(field: HTMLElement): string | null {
  const id = field
    .getAttribute('aria-describedby')
    ?.split(' ')
    .find((part) => part.endsWith('-error'));
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

/** Picks `label` in the Mantine Select `input` (its options render in a portal when it opens). */
export async function choose(input: HTMLInputElement, label: string): Promise<void> {
  await click(input);
  let option: HTMLElement | undefined;
  await waitFor(() => {
    // Only this select's list: other selects may keep theirs in the document.
    const listbox = document.getElementById(input.getAttribute('aria-controls') ?? '');
    option = [...(listbox?.querySelectorAll<HTMLElement>('[role="option"]') ?? [])].find(
      (element) => element.textContent?.trim() === label,
    );
    expect(option, `option "${label}"`).toBeDefined();
  });
  await click(option!);
}

/** The rows of the first table body. */
export function rows(): HTMLTableRowElement[] {
  return [...document.querySelectorAll<HTMLTableRowElement>('tbody tr')];
}

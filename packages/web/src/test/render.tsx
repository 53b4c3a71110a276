import { QueryClient } from '@tanstack/react-query';
import { act, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';
import { appRoutes } from '../app/routes';
import { preloadLazyScreens } from '../lib/lazy-named';
import { mounted } from './mounted';

export interface Rendered {
  container: HTMLElement;
  unmount: () => void;
}

/** Renders inside the app's real providers with a fresh, non-retrying query client. */
export async function render(ui: ReactElement): Promise<Rendered> {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted.add(root);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await act(async () => {
    root.render(<AppProviders queryClient={queryClient}>{ui}</AppProviders>);
  });
  return {
    container,
    unmount: () => {
      act(() => root.unmount());
      mounted.delete(root);
    },
  };
}

/** Renders the app's route table at `path` with a memory router. */
export async function renderRoute(path: string) {
  // The screens are lazy chunks (routes.tsx): loaded first, they render within this act() as the page's first answer.
  await preloadLazyScreens();
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const rendered = await render(<RouterProvider router={router} />);
  return { ...rendered, router };
}

/**
 * Retries `check` until it stops throwing, letting React and pending promises settle between tries. Five seconds:
 * a passing check returns at once, and a loaded CI machine once needed more than two for a Select to open.
 */
export async function waitFor(check: () => void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
      });
    }
  }
}

/** The button or link whose visible text is exactly `name`. */
export function getControl(name: string, root: ParentNode = document.body): HTMLElement {
  const match = [...root.querySelectorAll<HTMLElement>('a, button')].find((el) => el.textContent?.trim() === name);
  if (!match) throw new Error(`No link or button named "${name}"`);
  return match;
}

/** Visible text, whitespace collapsed; leaves out the CSS Mantine writes into <style> elements. */
export function text(root: Node = document.body): string {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let result = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement?.tagName;
    if (parent !== 'STYLE' && parent !== 'SCRIPT') result += node.textContent;
  }
  return result.replace(/\s+/g, ' ');
}

export async function click(element: HTMLElement): Promise<void> {
  await act(async () => {
    element.click();
  });
}

/** The input, textarea or select whose label reads `label` (a trailing required-asterisk is ignored). */
export function getField(label: string, root: ParentNode = document.body): HTMLInputElement {
  const match = [...root.querySelectorAll('label')].find(
    (element) => element.textContent?.replace(/\s*\*\s*$/, '').trim() === label,
  );
  const id = match?.htmlFor;
  const field = id ? document.getElementById(id) : match?.querySelector('input, textarea, select');
  if (!field) throw new Error(`No field labelled "${label}"`);
  return field as HTMLInputElement;
}

/** Sets a field's value the way typing does, so React's onChange runs. */
export async function typeInto(field: HTMLInputElement | HTMLTextAreaElement, value: string): Promise<void> {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const setValue = Object.getOwnPropertyDescriptor(prototype, 'value')!.set!;
  await act(async () => {
    setValue.call(field, value);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Lets pending promises and zero-delay timers run (with fake timers, advance them instead). */
export async function flush(): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

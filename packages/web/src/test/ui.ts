import axe from 'axe-core';
import { act } from 'react';
import { expect } from 'vitest';
import { click, waitFor } from './render';

/** What the screen tests of several features read and click: dialogs, toasts, fields, Mantine selects, tables. */

/** The open dialog (the last one when modals stack). */
export function dialog(): HTMLElement {
  const all = document.querySelectorAll<HTMLElement>('[role="dialog"]');
  const element = all[all.length - 1];
  if (!element) throw new Error('no dialog');
  return element;
}

export function toasts(): string[] {
  return [...document.querySelectorAll('[data-sonner-toast] [data-title]')].map((element) => element.textContent ?? '');
}

/** The section a level-2 heading named `name` opens. */
export function section(name: string): HTMLElement {
  const heading = [...document.querySelectorAll('h2')].find((element) => element.textContent === name);
  const element = heading?.closest('section');
  if (!element) throw new Error(`no section "${name}"`);
  return element;
}

/** A label's own words: a switch's or checkbox's label wraps its description too, which is left out. */
const labelText = (label: HTMLLabelElement) =>
  (label.querySelector('span[class*="-label"]') ?? label).textContent?.replace(/\s*\*\s*$/, '').trim();

/** The field whose label (a trailing asterisk ignored) or aria-label reads `label`, inside `root`. */
export function field(label: string, root: ParentNode = document.body): HTMLInputElement {
  const match = [...root.querySelectorAll<HTMLInputElement>('input, textarea')].find(
    (element) =>
      element.getAttribute('aria-label') === label ||
      [...(element.labels ?? [])].some((item) => labelText(item) === label),
  );
  if (!match) throw new Error(`no field ${label}`);
  return match;
}

/** The error Mantine shows under the field labelled `label`. */
export function errorOf(label: string, root: ParentNode = document.body): string | null {
  const element = field(label, root);
  const ids = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  const error = ids.map((id) => document.getElementById(id)).find((node) => node?.id.endsWith('-error'));
  return error?.textContent ?? null;
}

/** Opens a Mantine Select by its label and clicks the option named `option`. */
export async function pick(label: string, option: string, root: ParentNode = document.body) {
  await choose(field(label, root), option);
}

/** Opens the Mantine Select `select` and clicks the option named `option` (only this select's list is searched). */
export async function choose(select: HTMLInputElement, option: string) {
  await click(select);
  let choice: HTMLElement | undefined;
  await waitFor(() => {
    const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '');
    choice = [...(listbox?.querySelectorAll<HTMLElement>('[role="option"]') ?? [])].find(
      (element) => element.textContent?.trim() === option,
    );
    expect(choice, `option "${option}"`).toBeDefined();
  });
  await click(choice!);
}

/** The options a Mantine Select offers, by their text. */
export async function optionsOf(label: string, root: ParentNode = document.body): Promise<string[]> {
  const select = field(label, root);
  await click(select);
  let options: string[] = [];
  await waitFor(() => {
    const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '');
    options = [...(listbox?.querySelectorAll<HTMLElement>('[role="option"]') ?? [])].map(
      (element) => element.textContent?.trim() ?? '',
    );
    expect(options.length).toBeGreaterThan(0);
  });
  // Closed again, so the next click opens it.
  await act(async () => {
    select.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  });
  return options;
}

/** The element whose aria-label reads `label`. */
export function labelled(label: string, root: ParentNode = document.body): HTMLElement {
  const element = root.querySelector<HTMLElement>(`[aria-label="${label}"]`);
  if (!element) throw new Error(`nothing labelled ${label}`);
  return element;
}

/** Table rows as lists of cell texts. */
export function rows(selector: string): string[][] {
  return [...document.querySelectorAll(`${selector} tbody tr`)].map((row) =>
    [...row.querySelectorAll('td, th')].map((cell) => cell.textContent?.trim() ?? ''),
  );
}

/** Serious or critical axe violations on the page (contrast is left to the browser tests: jsdom has no layout). */
export async function seriousViolations(): Promise<string[]> {
  const result = await act(() =>
    axe.run(document.body, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } }),
  );
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html.slice(0, 160)).join(' | ')}`);
}

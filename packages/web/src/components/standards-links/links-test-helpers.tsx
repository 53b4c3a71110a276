import type { StdElementHit, StdLink } from '@portal/shared';
import axe from 'axe-core';
import { act, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { expect } from 'vitest';
import { signedInCheck } from '../../test/api-stub';
import { jsonResponse } from '../../test/fetch';
import { click, render, waitFor } from '../../test/render';

/** What the standards screen tests (manage and assign users, my standards, add-standards) share. */
export const STD_API = '/api/projects/12/standards';

export const PROJECT = {
  id: 12,
  name: 'North Clinic',
  slug: 'north',
  active_apps: ['standards', 'policy_management', 'monitoring'],
  facility_name: 'North Clinic Inc.',
  is_active: true,
  project_role: 'admin',
};

export function sessionRoutes() {
  return {
    'GET /api/auth/check': jsonResponse(signedInCheck()),
    'GET /api/projects/12': () => jsonResponse(PROJECT),
  };
}

function Where() {
  const location = useLocation();
  return (
    <h1>
      At {location.pathname}
      {location.search}
    </h1>
  );
}

/** Renders `element` at `route` (a pattern such as /app/standards/:projectId/manage-users), a marker page elsewhere. */
export async function openAt(path: string, route: string | string[], element: ReactNode) {
  const routes = (Array.isArray(route) ? route : [route]).map((pattern) => ({ path: pattern, element }));
  const router = createMemoryRouter([...routes, { path: '*', element: <Where /> }], { initialEntries: [path] });
  await render(<RouterProvider router={router} />);
  return router;
}

export function link(overrides: Partial<StdLink> & Pick<StdLink, 'id' | 'node_id' | 'ref_id'>): StdLink {
  return {
    title: 'Element title',
    framework: 'CMS CoP 2025',
    target_type: 'policy',
    target_id: 5,
    note: '',
    created_at: '2026-03-02T10:00:00Z',
    created_by: 'Ada Admin',
    ...overrides,
  };
}

export function hit(overrides: Partial<StdElementHit> & Pick<StdElementHit, 'node_id' | 'ref_id'>): StdElementHit {
  return {
    title: 'Element title',
    wording: '',
    framework: 'CMS CoP 2025',
    path: '§482.23 Nursing services',
    ...overrides,
  };
}

export function dialog(): HTMLElement {
  const element = document.querySelector<HTMLElement>('[role="dialog"]');
  if (!element) throw new Error('no dialog');
  return element;
}

export function toasts(): string[] {
  return [...document.querySelectorAll('[data-sonner-toast] [data-title]')].map((element) => element.textContent ?? '');
}

/** The field whose label (a trailing asterisk ignored) or aria-label reads `label`, inside `root`. */
export function field(label: string, root: ParentNode = document.body): HTMLInputElement {
  const match = [...root.querySelectorAll<HTMLInputElement>('input, textarea')].find(
    (element) =>
      element.getAttribute('aria-label') === label ||
      [...(element.labels ?? [])].some((item) => item.textContent?.replace(/\s*\*\s*$/, '').trim() === label),
  );
  if (!match) throw new Error(`no field ${label}`);
  return match;
}

/** Opens a Mantine Select by its label and clicks the option named `option`. */
export async function pick(label: string, option: string, root: ParentNode = document.body) {
  const select = field(label, root);
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

/** The options a Mantine Select offers, by their text (the dropdown is closed again afterwards). */
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

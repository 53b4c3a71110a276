import type { MonitoringPerson } from '@portal/shared';
import axe from 'axe-core';
import { act, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect } from 'vitest';
import { useCurrentProject } from '../../../lib/project/project-context';
import { signedInCheck } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, render, waitFor } from '../../../test/render';

/** What the monitoring people and permission screen tests share: the project, session routes, people, lookups. */
export const API = '/api/projects/12/monitoring';
export const BASE = '/app/monitoring/12';

const PROJECT = {
  id: 12,
  name: 'North Clinic',
  slug: 'north',
  active_apps: ['monitoring'],
  facility_name: 'North Clinic Inc.',
  is_active: true,
  project_role: 'admin',
};

/** The session, the project and the permission map (`allowed` sections only). */
export function sessionRoutes(allowed: string[] = []) {
  return {
    'GET /api/auth/check': jsonResponse(signedInCheck()),
    'GET /api/projects/12': () => jsonResponse(PROJECT),
    'GET /api/me/permissions': () =>
      jsonResponse({ permissions: Object.fromEntries(allowed.map((s) => [`monitoring:${s}`, true])) }),
  };
}

/** A project member as the monitoring people screens list them. */
export function person(overrides: Partial<MonitoringPerson> & Pick<MonitoringPerson, 'id' | 'name'>): MonitoringPerson {
  const username = overrides.username ?? overrides.name.toLowerCase().replace(/[^a-z]+/g, '.');
  return {
    username,
    email: `${username}@north.example`,
    project_role: 'simple',
    main_role: null,
    monitoring_user: true,
    ...overrides,
  };
}

function ProjectReady({ children }: { children: ReactNode }) {
  const { projectId } = useCurrentProject();
  return projectId ? children : null;
}

/** Renders `element` (behind the project check, as SectionGuard does) at each of `paths`, opened at `path`. */
export async function openScreen(path: string, paths: string[], element: ReactNode) {
  const router = createMemoryRouter(
    paths.map((route) => ({
      path: `/app/monitoring/:projectId/${route}`,
      element: <ProjectReady>{element}</ProjectReady>,
    })),
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
  return router;
}

export function dialog(): HTMLElement {
  const all = document.querySelectorAll<HTMLElement>('[role="dialog"]');
  const element = all[all.length - 1];
  if (!element) throw new Error('no dialog');
  return element;
}

export function toasts(): string[] {
  return [...document.querySelectorAll('[data-sonner-toast] [data-title]')].map((element) => element.textContent ?? '');
}

/** The field whose label (visible, a trailing required-asterisk ignored, or aria-label) reads `label`. */
export function input(label: string, root: ParentNode = document.body): HTMLInputElement {
  const match = [...root.querySelectorAll<HTMLInputElement>('input, textarea')].find(
    (element) =>
      element.getAttribute('aria-label') === label ||
      [...(element.labels ?? [])].some((item) => item.textContent?.replace(/\s*\*\s*$/, '').trim() === label),
  );
  if (!match) throw new Error(`no field ${label}`);
  return match;
}

/** The error text Mantine shows under the field labelled `label`. */
export function fieldError(label: string): string | null {
  const field = input(label);
  const ids = (field.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  const error = ids
    .map((id) => document.getElementById(id))
    .find((element) => element?.className.includes('error') || element?.id.endsWith('-error'));
  return error?.textContent ?? null;
}

/** Opens a Mantine Select by its label and clicks the option named `option`. */
export async function pick(label: string, option: string, root: ParentNode = document.body) {
  const select = input(label, root);
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

/** Serious and critical axe findings (jsdom cannot compute colours; the page regions come from the layout). */
export async function violations(): Promise<string[]> {
  const result = await act(() =>
    axe.run(document.body, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } }),
  );
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html.slice(0, 160)).join(' | ')}`);
}

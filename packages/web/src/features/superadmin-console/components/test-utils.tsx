import type { AuditEvent } from '@portal/shared';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { expect } from 'vitest';
import { render, waitFor } from '../../../test/render';

export { choose, dialog, toasts } from '../../../test/ui';

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

/** The rows of the first table body. */
export function rows(): HTMLTableRowElement[] {
  return [...document.querySelectorAll<HTMLTableRowElement>('tbody tr')];
}

/** An audit event as the server lists it: by no one, in no project, about nothing, unless `fields` say otherwise. */
export function auditEvent(fields: Pick<AuditEvent, 'id' | 'created_at' | 'action'> & Partial<AuditEvent>): AuditEvent {
  return { actor: null, project: null, subject_type: null, subject_id: null, data: {}, ip: null, ...fields };
}

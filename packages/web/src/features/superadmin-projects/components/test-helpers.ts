import type { Member, SuperProjectDetail, SuperProjectRow, SuperUserRow } from '@portal/shared';
import { act } from 'react';
import { click, waitFor } from '../../../test/render';

export { toasts } from '../../../test/ui';

export const NORTH: SuperProjectRow = {
  id: 12,
  name: 'North Clinic',
  slug: 'north-clinic',
  active_apps: ['monitoring', 'policy_management'],
  facility_name: 'North Clinic Inc.',
  is_active: true,
  member_count: 14,
  created_at: '2026-01-15T12:00:00Z',
};

export const SOUTH: SuperProjectRow = {
  id: 13,
  name: 'South Hospital',
  slug: 'south_hospital',
  active_apps: [],
  facility_name: '',
  is_active: false,
  member_count: 0,
  created_at: '2026-02-20T12:00:00Z',
};

export function detailOf(row: SuperProjectRow, extra: Partial<SuperProjectDetail> = {}): SuperProjectDetail {
  return {
    ...row,
    address: '1 Main Street\nSpringfield',
    phone: '+1 555 0100',
    email: 'office@north.example',
    logo_url: null,
    project_role: null,
    updated_at: '2026-03-01T10:00:00Z',
    ...extra,
  };
}

export const ADMIN_MEMBER: Member = {
  user_id: 40,
  username: 'slee',
  email: 'sam@example.org',
  first_name: 'Sam',
  last_name: 'Lee',
  status: 'active',
  project_role: 'admin',
  main_roles: { monitoring: 'page_owner', policy_management: null, chart_review: null },
  last_login_at: '2026-03-04T18:00:00Z',
  two_factor_enabled: true,
  joined_at: '2026-01-20T12:00:00Z',
};

export const SIMPLE_MEMBER: Member = {
  user_id: 41,
  username: 'aruiz',
  email: 'ana@example.org',
  first_name: 'Ana',
  last_name: 'Ruiz',
  status: 'invited',
  project_role: 'simple',
  main_roles: { monitoring: null, policy_management: null, chart_review: null },
  last_login_at: null,
  two_factor_enabled: false,
  joined_at: '2026-02-01T12:00:00Z',
};

export function userRow(id: number, first: string, last: string, email: string): SuperUserRow {
  return {
    id,
    username: email.split('@')[0]!,
    email,
    first_name: first,
    last_name: last,
    role: 'user',
    status: 'active',
    locked: false,
    two_factor_enabled: false,
    last_login_at: null,
    project_count: 1,
    created_at: '2026-01-01T00:00:00Z',
  };
}

/** waitFor with room for a slow, busy test machine. */
export function eventually(check: () => void, timeoutMs = 10_000): Promise<void> {
  return waitFor(check, timeoutMs);
}

/** The open dialog titled `title` (or the only one). */
export function dialog(title?: string): HTMLElement {
  const dialogs = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')];
  const match = title
    ? dialogs.find((element) => element.querySelector('h2')?.textContent === title)
    : dialogs[dialogs.length - 1];
  if (!match) throw new Error(`no dialog ${title ?? ''}`);
  return match;
}

/** Waits for the dialog titled `title` to open. */
export async function findDialog(title?: string): Promise<HTMLElement> {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = dialog(title);
  });
  return found!;
}

/** The options of the listbox a Mantine Select's input controls. */
export function optionsOf(input: HTMLElement): HTMLElement[] {
  const id = input.getAttribute('aria-controls');
  const listbox = id ? document.getElementById(id) : null;
  return listbox ? [...listbox.querySelectorAll<HTMLElement>('[role="option"]')] : [];
}

/** Opens a Mantine Select by its input and picks the option reading `option`. */
export async function pickOption(input: HTMLElement, option: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A click while the modal around it is still opening can be lost: open the list again until it is open.
    if (input.getAttribute('aria-expanded') !== 'true') await click(input);
    const element = optionsOf(input).find((el) => el.textContent?.trim() === option);
    if (element) {
      await click(element);
      return;
    }
    if (Date.now() > deadline) throw new Error(`no option ${option}`);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }
}

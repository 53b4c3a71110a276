import { ACCESS_DENIED, STD_ROLE_HELP, type StdMember } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import {
  dialog,
  field,
  openAt,
  optionsOf,
  pick,
  rows,
  STD_API,
  seriousViolations,
  sessionRoutes,
  toasts,
} from '../../../components/standards-links/links-test-helpers';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { ManageUsersPage, PROJECT_ADMIN_ROLE } from './ManageUsersPage';

const open = () =>
  openAt('/app/standards/12/manage-users', '/app/standards/:projectId/manage-users', <ManageUsersPage />);
const table = 'table[aria-label="Standards roles"]';

function member(overrides: Partial<StdMember> & Pick<StdMember, 'user_id' | 'name'>): StdMember {
  return {
    email: `${overrides.name.split(' ')[0]!.toLowerCase()}@north.example`,
    project_role: 'simple',
    role: null,
    effective_role: overrides.role ?? null,
    ...overrides,
  };
}

const ME = (manage = true) => ({
  role: manage ? 'standards_admin' : 'owner',
  abilities: { create: manage, manage_users: manage, assign: manage, import_frameworks: manage, load_editions: false },
});

/** A small server keeping the members, so a saved role shows on the page. */
function server(initial: StdMember[]) {
  let members = initial;
  return stubApi({
    ...sessionRoutes(),
    [`GET ${STD_API}/me`]: jsonResponse(ME()),
    [`GET ${STD_API}/members`]: () => jsonResponse({ members }),
    ...Object.fromEntries(
      initial.map((item) => [
        `PUT ${STD_API}/members/${item.user_id}`,
        (request: StubRequest) => {
          const { role } = request.body as { role: StdMember['role'] };
          const saved = { ...item, role, effective_role: role };
          members = members.map((other) => (other.user_id === item.user_id ? saved : other));
          return jsonResponse(saved);
        },
      ]),
    ),
  });
}

const MEMBERS = [
  member({ user_id: 21, name: 'Ada Admin', project_role: 'admin', role: null, effective_role: 'standards_admin' }),
  member({ user_id: 22, name: 'Ben Nurse', role: 'owner' }),
  member({ user_id: 23, name: 'Cy Quality', email: 'cy@quality.example' }),
];

describe('ManageUsersPage', () => {
  it('lists the members with their roles, explains each role, and saves a new role at once', async () => {
    const api = server(MEMBERS);
    await open();
    await waitFor(() => expect(rows(table)).toHaveLength(3));
    expect(rows(table).map((row) => row.slice(0, 3))).toEqual([
      ['Ada Admin', 'ada@north.example', 'Project admin'],
      ['Ben Nurse', 'ben@north.example', 'Member'],
      ['Cy Quality', 'cy@quality.example', 'Member'],
    ]);
    // Project admins act as standards admins: read-only.
    expect(rows(table)[0]![3]).toBe(PROJECT_ADMIN_ROLE);
    expect(() => field('Standards role of Ada Admin')).toThrow();
    expect(field('Standards role of Ben Nurse').value).toBe('Owner');
    expect(field('Standards role of Cy Quality').value).toBe('No standards role');
    expect(await seriousViolations()).toEqual([]);
    const legend = text(document.querySelector('[data-testid="role-legend"]')!);
    for (const help of Object.values(STD_ROLE_HELP)) expect(legend).toContain(help);
    expect(await optionsOf('Standards role of Cy Quality')).toEqual([
      'No standards role',
      'Standards admin',
      'Chapter lead',
      'Owner',
      'Contributor',
      'Mock assessor',
      'Viewer',
    ]);

    await pick('Standards role of Cy Quality', 'Chapter lead');
    await waitFor(() => expect(api.calls(`PUT ${STD_API}/members/23`)).toHaveLength(1));
    expect(api.calls(`PUT ${STD_API}/members/23`)[0]!.body).toEqual({ role: 'chapter_lead' });
    // No confirmation for giving a role.
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    await waitFor(() => expect(toasts()).toContain("Cy Quality's standards role is now Chapter lead."));
    await waitFor(() => expect(field('Standards role of Cy Quality').value).toBe('Chapter lead'));
  });

  it('asks before taking a role away, and saves null once confirmed', async () => {
    const api = server(MEMBERS);
    await open();
    await waitFor(() => expect(rows(table)).toHaveLength(3));

    await pick('Standards role of Ben Nurse', 'No standards role');
    await waitFor(() => expect(text(dialog())).toContain('Take the Owner role away from Ben Nurse?'));
    await click(getControl('Cancel', dialog()));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(api.calls(`PUT ${STD_API}/members/22`)).toHaveLength(0);
    expect(field('Standards role of Ben Nurse').value).toBe('Owner');

    await pick('Standards role of Ben Nurse', 'No standards role');
    await waitFor(() => expect(dialog()).toBeTruthy());
    await click(getControl('Remove role', dialog()));
    await waitFor(() => expect(api.calls(`PUT ${STD_API}/members/22`)).toHaveLength(1));
    expect(api.calls(`PUT ${STD_API}/members/22`)[0]!.body).toEqual({ role: null });
    await waitFor(() => expect(toasts()).toContain('Ben Nurse no longer has a standards role.'));
    await waitFor(() => expect(field('Standards role of Ben Nurse').value).toBe('No standards role'));
  });

  it("shows the server's refusal and keeps the saved role", async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${STD_API}/me`]: jsonResponse(ME()),
      [`GET ${STD_API}/members`]: jsonResponse({ members: MEMBERS }),
      [`PUT ${STD_API}/members/23`]: jsonResponse({ message: 'This user is not a member of the project.' }, 404),
    });
    await open();
    await waitFor(() => expect(rows(table)).toHaveLength(3));
    await pick('Standards role of Cy Quality', 'Viewer');
    await waitFor(() => expect(toasts()).toContain('This user is not a member of the project.'));
    expect(field('Standards role of Cy Quality').value).toBe('No standards role');
  });

  it('filters by name or email, and says when nobody matches', async () => {
    server(MEMBERS);
    await open();
    await waitFor(() => expect(rows(table)).toHaveLength(3));
    await typeInto(field('Search members'), 'QUALITY.example');
    await waitFor(() => expect(rows(table).map((row) => row[0])).toEqual(['Cy Quality']));
    await typeInto(field('Search members'), 'ben');
    await waitFor(() => expect(rows(table).map((row) => row[0])).toEqual(['Ben Nurse']));
    await typeInto(field('Search members'), 'zoe');
    await waitFor(() => expect(text()).toContain('Nobody matches “zoe”.'));
    expect(document.querySelector(table)).toBeNull();
  });

  it.each([
    ['without the manage_users ability', ME(false), jsonResponse({ members: MEMBERS })],
    [
      'when the server answers 403',
      { ...ME(false), abilities: { ...ME().abilities } },
      jsonResponse({ message: 'This action is unauthorized.' }, 403),
    ],
  ])('denies access %s', async (_case, me, membersAnswer) => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${STD_API}/me`]: jsonResponse(me),
      [`GET ${STD_API}/members`]: membersAnswer,
    });
    await open();
    await waitFor(() => expect(text()).toContain(ACCESS_DENIED.title));
    expect(document.querySelector('[data-testid="access-denied-reason"]')?.textContent).toBe(ACCESS_DENIED.forbidden);
    expect(text()).toContain('Your role: Owner');
    expect(document.querySelector(table)).toBeNull();
    expect(api.calls(`PUT ${STD_API}/members/22`)).toHaveLength(0);
  });
});

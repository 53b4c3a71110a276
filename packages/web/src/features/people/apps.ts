import type { PeopleApp, PermissionSection } from '@portal/shared';
import type { PeopleList } from '../../lib/people';

/**
 * The people screens of an app (who takes part, main roles, new-user requests; SPEC section 2 and 7) are one module
 * (issue 26): each app's descriptor holds what differs — its code (roles, calls: lib/people.ts), its routes, the
 * words its texts are made of, and the screens it has. The screens read nothing else of the app.
 */

/** One section of a main-roles screen: the users without or with a main role. */
export interface MainRolesSection {
  id: string;
  has: 'without' | 'with';
  /**
   * `roles`: the main roles only (a person without one shows "Choose a role" and may be cleared again);
   * `roles-or-none`: "No role" is a choice too (it takes the role away).
   */
  choices: 'roles' | 'roles-or-none';
}

/** A main-roles screen: the list it reads, its sections, and the link after its introduction. */
export interface MainRolesScreen {
  path: string;
  title: string;
  list: PeopleList;
  sections: readonly MainRolesSection[];
  link: { label: string; to: string };
}

export interface PeopleScreens {
  app: PeopleApp;
  /** The app's screens of a project: `/app/{module}/{projectId}/{path}`. */
  base: string;
  /** Words of the texts: "take part in {app}", "1 {user} has", "{users} could not be loaded", the users screen's title. */
  names: { app: string; user: string; users: string; title: string };
  /** What a user opens once they have a main role ("the pages"). */
  opens: string;
  /** The paths of the users screen (the first is where links to it go). */
  users: readonly string[];
  /** The users screen's search box (monitoring's; policy management lists without one). */
  search: boolean;
  /** What the removal of a user takes away, after "Remove {name} from {app}?". */
  removal: string;
  mainRoles: readonly MainRolesScreen[];
  /** The new-user request screen: its path is also its permission section. */
  createUser: PermissionSection<PeopleApp>;
}

export const POLICY_SCREENS: PeopleScreens = {
  app: 'policy_management',
  base: '/app/policy_management',
  names: { app: 'policy management', user: 'policy user', users: 'policy users', title: 'Policy users' },
  opens: 'the policies',
  users: ['policy-users', 'assign-users', 'manage-users'],
  search: false,
  removal: 'They lose their policy role and see the policies no more.',
  mainRoles: [
    {
      path: 'assign-main-role',
      title: 'Assign main roles',
      list: 'unassigned-main-role',
      sections: [{ id: 'main-roles-heading', has: 'without', choices: 'roles' }],
      link: { label: 'Change the roles already given', to: 'edit-main-role' },
    },
    {
      path: 'edit-main-role',
      title: 'Main roles',
      list: 'assigned-main-role',
      sections: [{ id: 'main-roles-heading', has: 'with', choices: 'roles-or-none' }],
      link: { label: 'Give a role to those without one', to: 'assign-main-role' },
    },
  ],
  createUser: 'create-project-user',
};

export const MONITORING_SCREENS: PeopleScreens = {
  app: 'monitoring',
  base: '/app/monitoring',
  names: { app: 'monitoring', user: 'monitoring user', users: 'monitoring users', title: 'Monitoring users' },
  opens: 'the pages',
  users: ['assign-users', 'manage-users'],
  search: true,
  removal: 'They lose their main role, their monitoring roles and the page permissions given to them.',
  mainRoles: [
    {
      path: 'assign-main-role',
      title: 'Main roles',
      list: 'assigned',
      sections: [
        { id: 'without-role-heading', has: 'without', choices: 'roles-or-none' },
        { id: 'with-role-heading', has: 'with', choices: 'roles-or-none' },
      ],
      link: { label: 'Add or remove monitoring users', to: 'manage-users' },
    },
  ],
  createUser: 'create-user',
};

/** Where one of the app's screens of a project lives. */
export function screenRoute(d: PeopleScreens, projectId: string, path = ''): string {
  return `${d.base}/${projectId}${path ? `/${path}` : ''}`;
}

import { type ReactNode, Suspense } from 'react';
import { Route } from 'react-router';
import { LoadingRows } from '../../components/page-parts';
import { lazyNamed } from '../../lib/lazy-named';
import type { PeopleScreens } from './apps';

// Each screen is a chunk of its own, fetched when its route first renders.
const UsersPage = lazyNamed(() => import('./components/UsersPage'), 'UsersPage');
const MainRolesPage = lazyNamed(() => import('./components/MainRolesPage'), 'MainRolesPage');
const CreateUserPage = lazyNamed(() => import('./components/CreateUserPage'), 'CreateUserPage');

const screen = (element: ReactNode) => <Suspense fallback={<LoadingRows label="Loading" />}>{element}</Suspense>;

/**
 * The people screens of an app at its paths (PeopleScreens), as routes for the app's own `<Routes>` (app/routes.tsx
 * hands them to PolicyApp and MonitoringApp, below their header).
 */
export function peopleRoutes(d: PeopleScreens): ReactNode {
  return (
    <>
      {d.users.map((path) => (
        <Route key={path} path={path} element={screen(<UsersPage d={d} />)} />
      ))}
      {d.mainRoles.map((main) => (
        <Route key={main.path} path={main.path} element={screen(<MainRolesPage d={d} screen={main} />)} />
      ))}
      <Route path={d.createUser} element={screen(<CreateUserPage d={d} />)} />
    </>
  );
}

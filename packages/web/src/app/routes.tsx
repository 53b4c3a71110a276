import type { RouteObject } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { RouteErrorPage } from '../components/RouteErrorPage';
import { LoginPage } from '../features/auth/components/LoginPage';
import { LogoutConfirmPage } from '../features/auth/components/LogoutConfirmPage';
import { LostPasswordPage } from '../features/auth/components/LostPasswordPage';
import { ResetPasswordPage } from '../features/auth/components/ResetPasswordPage';
import { MemberProjectsPage } from '../features/projects/components/MemberProjectsPage';
import { TermsPage } from '../features/terms/components/TermsPage';
import { TwoFactorSettingsPage } from '../features/two-factor/components/TwoFactorSettingsPage';
import { HomeRedirect } from './HomeRedirect';
import { RootLayout } from './RootLayout';
import { SignedInLayout } from './SignedInLayout';

/** All routes, shared by the browser router and by tests (memory router). */
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      // Public (SPEC section 2): no login check except where a screen needs to know (/ and the login page).
      { path: '/', element: <HomeRedirect /> },
      { path: '/member-login', element: <LoginPage /> },
      { path: '/lost-password', element: <LostPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/terms-and-conditions', element: <TermsPage /> },
      // Logged-in group: unauthenticated visitors go to /member-login?redirect=<path>.
      {
        element: <SignedInLayout />,
        children: [
          { path: '/member/projects', element: <MemberProjectsPage /> },
          { path: '/two-factor-settings', element: <TwoFactorSettingsPage /> },
          { path: '/logout-confirm', element: <LogoutConfirmPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

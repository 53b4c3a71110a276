import type { RouteObject } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { RouteErrorPage } from '../components/RouteErrorPage';
import { HomePage } from '../features/home/components/HomePage';
import { TermsPage } from '../features/terms/components/TermsPage';
import { RootLayout } from './RootLayout';

/** All routes, shared by the browser router and by tests (memory router). */
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/terms-and-conditions', element: <TermsPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { appRoutes } from './routes';

export function AppRouter() {
  // Created on first render, not at import, so importing this module has no side effects.
  const [router] = useState(() => createBrowserRouter(appRoutes));
  return <RouterProvider router={router} />;
}

import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { LoadingScreen } from '../components/LoadingScreen';
import { ScrollToTop } from './ScrollToTop';
import { SessionSync } from './SessionSync';

export function RootLayout() {
  return (
    <>
      <ScrollToTop />
      <SessionSync />
      {/* Screens are chunks loaded on first use (routes.tsx): the wait looks like the session check. */}
      <Suspense fallback={<LoadingScreen label="Loading…" />}>
        <Outlet />
      </Suspense>
    </>
  );
}

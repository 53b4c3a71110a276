import { Outlet } from 'react-router';
import { ScrollToTop } from './ScrollToTop';
import { SessionSync } from './SessionSync';

export function RootLayout() {
  return (
    <>
      <ScrollToTop />
      <SessionSync />
      <Outlet />
    </>
  );
}

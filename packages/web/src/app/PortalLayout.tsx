import { Anchor, AppShell, Box, Burger, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useEffect } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { BrandMark } from '../components/BrandMark';
import { PortalNav, useAdminLabel, useOpenSubmenu, visibleSubmenu } from '../components/nav/PortalNav';
import { LoadingRows } from '../components/page-parts';
import '../components/nav/portal-nav.css';
import { InactivityMonitor } from '../features/inactivity/components/InactivityMonitor';
import { NotificationBell } from '../features/notifications/components/NotificationBell';
import {
  TWO_FACTOR_SETTINGS_PATH,
  TwoFactorBanners,
  TwoFactorRequiredPanel,
} from '../features/two-factor/components/TwoFactorBanners';
import { PRODUCT_NAME } from '../lib/product';
import { useIsProjectAdmin } from '../lib/project/check-admin';
import { useMyApps } from '../lib/project/get-my-apps';
import { useCurrentProject } from '../lib/project/project-context';
import { isTwoFactorOverdue, useSession } from '../lib/session';
import { usePhone } from '../lib/use-phone';
import { RequireAuth } from './RequireAuth';

const NAV_WIDTH = '15rem';

/** Frame of every signed-in route: guarded by RequireAuth, watched by the inactivity timer. */
export function PortalLayout() {
  return (
    <RequireAuth>
      <PortalFrame />
      <InactivityMonitor />
    </RequireAuth>
  );
}

/**
 * SPEC section 2 "Layout": left navigation (collapsing behind a menu toggle on phones), a header with the
 * notification bell, the two-factor banners above the page, and a footer with the facility name and logo.
 */
function PortalFrame() {
  const session = useSession();
  const user = session.status === 'signed-in' ? session.user : null;
  const superadmin = user?.role === 'superadmin';
  // Two-factor setup overdue: the server answers only setup and sign-out, so the frame makes no other call (no bell,
  // no project) and every screen but the settings gives way to the setup gate. The outlet keeps its place in the
  // tree, so the settings screen keeps its state (the recovery codes) when setup lifts the gate.
  const gated = isTwoFactorOverdue(session);
  const { projectId, project, loading: projectLoading } = useCurrentProject();
  const projectAdmin = useIsProjectAdmin(projectId, superadmin && !gated);
  // The apps the user can open (shared with the project page): the nav leaves out the others' links. None while it
  // loads; when it fails, the active apps alone filter, as before. A superadmin opens every app: no call.
  const myApps = useMyApps(superadmin || gated ? null : projectId);
  const usableApps =
    superadmin || myApps.isError ? undefined : (myApps.data?.filter((app) => app.usable).map((app) => app.code) ?? []);
  const [adminLabel] = useAdminLabel();
  const submenu = useOpenSubmenu();
  const [mobileOpen, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const phone = usePhone();

  // A link followed on a phone closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every path change on purpose.
  useEffect(() => close(), [pathname, close]);

  const navProject = project ? { id: project.id, slug: project.slug, active_apps: project.active_apps } : null;
  const ctx = { signedIn: user !== null, superadmin, projectAdmin, project: navProject, usableApps };
  const submenuOpen = visibleSubmenu({ ...ctx, adminLabel }, submenu[0]) !== null;

  return (
    <AppShell
      header={{ height: 56 }}
      footer={phone ? undefined : { height: 44 }}
      navbar={{
        width: submenuOpen ? `calc(${NAV_WIDTH} + max(10vw, 160px))` : NAV_WIDTH,
        breakpoint: 'sm',
        collapsed: { mobile: !mobileOpen },
      }}
      padding={{ base: 'sm', sm: 'lg' }}
      bg="gray.0"
    >
      <AppShell.Header>
        <Group h="100%" px="sm" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Burger
              opened={mobileOpen}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={mobileOpen ? 'Close navigation' : 'Open navigation'}
              aria-expanded={mobileOpen}
            />
            <Anchor
              component={Link}
              to={superadmin ? '/superadmin' : '/member/projects'}
              c="gray.9"
              underline="never"
              aria-label={`${PRODUCT_NAME}: home`}
            >
              <Group gap="xs" wrap="nowrap">
                <BrandMark size={28} />
                <Text span fw={700} visibleFrom="xs" truncate>
                  {PRODUCT_NAME}
                </Text>
              </Group>
            </Anchor>
          </Group>
          {!gated && <NotificationBell projectId={projectId} projectLoading={projectLoading} superadmin={superadmin} />}
        </Group>
      </AppShell.Header>
      <AppShell.Navbar aria-label="Navigation">
        <PortalNav {...ctx} projectName={project?.name ?? null} user={user} submenu={submenu} />
      </AppShell.Navbar>
      <AppShell.Main>
        <TwoFactorBanners />
        {/* A screen loading for the first time (routes.tsx) keeps the frame on screen. */}
        <Suspense fallback={<LoadingRows label="Loading" />}>
          {gated && pathname !== TWO_FACTOR_SETTINGS_PATH ? <TwoFactorRequiredPanel /> : <Outlet />}
        </Suspense>
        {/* On a phone the facility line ends the page instead of covering the text from below. */}
        {phone && (
          <Box
            component="footer"
            className="portal-phone-footer"
            mt="xl"
            py="sm"
            style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
          >
            <FacilityLine logoUrl={project?.logo_url ?? null} name={project?.facility_name || PRODUCT_NAME} />
          </Box>
        )}
      </AppShell.Main>
      {phone ? null : (
        <AppShell.Footer>
          <FacilityLine logoUrl={project?.logo_url ?? null} name={project?.facility_name || PRODUCT_NAME} />
        </AppShell.Footer>
      )}
    </AppShell>
  );
}

/** The facility's logo and name: the portal's footer. */
function FacilityLine({ logoUrl, name }: { logoUrl: string | null; name: string }) {
  return (
    <Group h="100%" px="md" gap="xs" wrap="nowrap" justify="center">
      {logoUrl ? (
        <img src={logoUrl} alt="" height={24} style={{ maxWidth: 96, objectFit: 'contain' }} />
      ) : (
        <BrandMark size={20} />
      )}
      <Text size="sm" truncate data-testid="facility-name">
        {name}
      </Text>
    </Group>
  );
}

import { Anchor, Box, Container, Group, Text } from '@mantine/core';
import { Link, NavLink, Outlet } from 'react-router';
import { BrandMark } from '../components/BrandMark';
import { InactivityMonitor } from '../features/inactivity/components/InactivityMonitor';
import { PRODUCT_NAME } from '../lib/product';
import { useSession } from '../lib/session';
import { RequireAuth } from './RequireAuth';

const LINKS = [
  { to: '/member/projects', label: 'Projects' },
  { to: '/two-factor-settings', label: 'Two-factor authentication' },
  { to: '/logout-confirm', label: 'Log out' },
];

/**
 * Frame of the logged-in route group: guarded by RequireAuth, watched by the inactivity timer. A plain header for
 * now; the layout issue brings the full navigation.
 */
export function SignedInLayout() {
  return (
    <RequireAuth>
      <SignedInFrame />
      <InactivityMonitor />
    </RequireAuth>
  );
}

function SignedInFrame() {
  const session = useSession();
  const username = session.status === 'signed-in' ? session.user.username : '';
  return (
    <Box mih="100dvh" bg="gray.0">
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg" py="sm">
          <Group justify="space-between" gap="sm">
            <Anchor
              component={Link}
              to="/member/projects"
              c="gray.9"
              underline="hover"
              fw={700}
              aria-label={`${PRODUCT_NAME}: your projects`}
            >
              <Group gap="xs" wrap="nowrap">
                <BrandMark size={28} />
                <Text span inherit visibleFrom="xs">
                  {PRODUCT_NAME}
                </Text>
              </Group>
            </Anchor>
            <Group gap="md" component="nav" aria-label="Account">
              <Text size="sm" c="dimmed" visibleFrom="sm">
                Signed in as <strong>{username}</strong>
              </Text>
              {LINKS.map((link) => (
                <Anchor
                  key={link.to}
                  component={NavLink}
                  to={link.to}
                  size="sm"
                  fw={500}
                  style={({ isActive }: { isActive: boolean }) => (isActive ? { textDecoration: 'underline' } : {})}
                >
                  {link.label}
                </Anchor>
              ))}
            </Group>
          </Group>
        </Container>
      </Box>
      <Container component="main" size="lg" py="xl">
        <Outlet />
      </Container>
    </Box>
  );
}

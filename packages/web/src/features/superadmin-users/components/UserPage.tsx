import {
  Alert,
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Grid,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { QueryFailure } from '../../../components/page-parts';
import { ApiError } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type SuperUserDetail, useUser } from '../api/get-user';
import { UserActionsCard } from './UserActionsCard';
import { UserMembershipsCard } from './UserMembershipsCard';
import { UserProfileCard } from './UserProfileCard';
import { fullName, RoleBadge, StatusBadges } from './user-display';

/** /superadmin/users/{id}: one account: profile, memberships, and the actions on its access. */
export function UserPage() {
  const { id = '' } = useParams();
  const user = useUser(id);
  usePageTitle(
    user.data
      ? fullName(user.data)
      : user.error instanceof ApiError && user.error.status === 404
        ? 'User not found'
        : 'User',
  );

  if (user.isPending) {
    return (
      <Shell>
        <Stack gap="lg" role="status" aria-label="Loading the user">
          <Skeleton height={32} width="40%" />
          <Skeleton height={18} width="60%" />
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <Skeleton height={320} radius="md" />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <Skeleton height={240} radius="md" />
            </Grid.Col>
          </Grid>
        </Stack>
      </Shell>
    );
  }
  if (user.isError) {
    if (user.error instanceof ApiError && user.error.status === 404) {
      return (
        <Shell>
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
            <Stack gap="sm" align="flex-start">
              <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
                User not found
              </Title>
              <Text>There is no user with ID {id}. The link may be wrong or out of date.</Text>
              <Button component={Link} to="/superadmin/users" variant="default">
                Back to Users
              </Button>
            </Stack>
          </Paper>
        </Shell>
      );
    }
    return (
      <Shell>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          User
        </Title>
        <QueryFailure query={user} fallback="The user could not be loaded. Please try again." retryLabel="Retry" />
      </Shell>
    );
  }
  return (
    <Shell name={fullName(user.data)}>
      <UserDetail key={user.data.id} user={user.data} />
    </Shell>
  );
}

function Shell({ name, children }: { name?: string; children: ReactNode }) {
  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <Breadcrumbs>
        <Anchor component={Link} to="/superadmin/users" size="sm">
          Users
        </Anchor>
        {name && (
          <Text size="sm" aria-current="page">
            {name}
          </Text>
        )}
      </Breadcrumbs>
      {children}
    </Stack>
  );
}

function UserDetail({ user }: { user: SuperUserDetail }) {
  return (
    <>
      <Stack gap="xs">
        <Group gap="sm" align="center">
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }} style={{ overflowWrap: 'anywhere' }}>
            {fullName(user)}
          </Title>
          <Group gap={4}>
            <RoleBadge role={user.role} />
            <StatusBadges status={user.status} locked={user.locked} />
            {user.is_demo && (
              <Badge variant="outline" color="gray.8" size="sm" tt="none">
                Demo account
              </Badge>
            )}
          </Group>
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {user.username} · {user.email} · ID {user.id}
        </Text>
      </Stack>
      {user.locked && (
        <Alert color="orange.9" variant="light" data-testid="locked-notice">
          <Text size="sm" fw={600}>
            {user.locked_until ? `Locked until ${formatDateTime(user.locked_until)}` : 'Locked'}
          </Text>
          <Text size="sm">Too many failed sign-ins. Unlock the account to let them try again now.</Text>
        </Alert>
      )}
      {user.status === 'invited' && (
        <Alert color="blue" variant="light" data-testid="invited-notice">
          <Text size="sm" fw={600}>
            Invitation pending: no password set yet
          </Text>
          <Text size="sm">If the link in the invitation has expired, resend the invitation.</Text>
        </Alert>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="lg">
            <UserProfileCard user={user} />
            <UserMembershipsCard user={user} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <UserActionsCard user={user} />
        </Grid.Col>
      </Grid>
    </>
  );
}

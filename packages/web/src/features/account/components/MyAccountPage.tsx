import { Anchor, Badge, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { CurrentUser } from '@portal/shared';
import { Link } from 'react-router';
import { QueryFailure, SectionCard } from '../../../components/page-parts';
import { formatDateLong } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { useCurrentUser } from '../api/get-current-user';
import { ChangeEmailCard } from './ChangeEmailCard';
import { ChangePasswordCard } from './ChangePasswordCard';
import { ProfileCard } from './ProfileCard';
import { SessionsCard } from './SessionsCard';

/**
 * /member/projects/{slug}/myaccount: profile, password, email, active sessions and the two-factor status. The account
 * is the same in every project; the slug only keeps the member inside the project they came from.
 */
export function MyAccountPage() {
  usePageTitle('My Account');
  const user = useCurrentUser();

  return (
    <Stack gap="lg" maw={880} w="100%">
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        My Account
      </Title>
      {user.isPending ? (
        <AccountSkeleton />
      ) : user.isError ? (
        <QueryFailure query={user} fallback="Your account could not be loaded. Please try again." />
      ) : (
        <>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Signed in as {user.data.username} (user ID {user.data.id})
          </Text>
          <ProfileCard key={user.data.id} user={user.data} />
          <ChangePasswordCard username={user.data.username} />
          <ChangeEmailCard email={user.data.email} />
          <TwoFactorCard user={user.data} />
        </>
      )}
      {/* Sessions load on their own: they do not wait for the account. */}
      <SessionsCard />
    </Stack>
  );
}

function TwoFactorCard({ user }: { user: CurrentUser }) {
  const on = user.two_factor_confirmed_at !== null;
  const since = on ? user.two_factor_confirmed_at : null;
  return (
    <SectionCard title="Two-factor authentication" id="account-two-factor">
      <Group gap="sm">
        <Text fw={600}>Status</Text>
        <Badge color={on ? 'teal.9' : 'gray.7'} variant="filled">
          {on ? 'On' : 'Off'}
        </Badge>
      </Group>
      <Text size="sm">
        {since && !Number.isNaN(Date.parse(since))
          ? `Turned on ${formatDateLong(since)}.`
          : on
            ? 'A code from your authenticator app is asked for when you sign in.'
            : 'Add a code from an app on your phone to your sign-in, so a stolen password alone cannot open your account.'}
      </Text>
      <Anchor component={Link} to="/two-factor-settings" w="fit-content">
        {on ? 'Manage two-factor authentication' : 'Set up two-factor authentication'}
      </Anchor>
    </SectionCard>
  );
}

function AccountSkeleton() {
  return (
    <Stack gap="lg" role="status" aria-label="Loading your account">
      {[0, 1, 2].map((index) => (
        <Stack key={index} gap="sm">
          <Skeleton height={22} width="40%" />
          <Skeleton height={36} />
          <Skeleton height={36} width="30%" />
        </Stack>
      ))}
    </Stack>
  );
}

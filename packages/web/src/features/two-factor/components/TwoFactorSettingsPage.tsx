import { Alert, Badge, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { PasswordConfirmModal } from '../../../components/PasswordConfirmModal';
import { messageFor } from '../../../lib/api';
import { formatDateLong } from '../../../lib/dates';
import { AUTH_CHECK_KEY, MFA_SETUP_FLAG } from '../../../lib/session';
import { usePageTitle } from '../../../lib/use-page-title';
import { usePasswordConfirmation } from '../../../lib/use-password-confirmation';
import { useDisableTwoFactor } from '../api/disable-two-factor';
import { type TwoFactorSetup, useEnableTwoFactor } from '../api/enable-two-factor';
import { TWO_FACTOR_STATUS_KEY, type TwoFactorStatus, useTwoFactorStatus } from '../api/get-two-factor-status';
import { useRegenerateRecoveryCodes } from '../api/regenerate-recovery-codes';
import { RecoveryCodes } from './RecoveryCodes';
import { SetupTwoFactor } from './SetupTwoFactor';

type Pending = 'regenerate' | 'disable' | null;

/** Where to carry on after setup (?continue=, set by the banner and the modal): a path of this portal only. */
export function continuePath(value: string | null): string | null {
  return value && /^\/(?![/\\])/.test(value) && !value.startsWith('/two-factor-settings') ? value : null;
}

/**
 * /two-factor-settings: status, set up (QR, key, confirm), recovery codes, regenerate, disable. Each change asks for
 * the password (or signing in again) in a modal when the server answers 423, then runs again.
 */
export function TwoFactorSettingsPage() {
  usePageTitle('Two-factor authentication');
  const status = useTwoFactorStatus();
  const queryClient = useQueryClient();
  const enable = useEnableTwoFactor();
  const regenerate = useRegenerateRecoveryCodes();
  const disable = useDisableTwoFactor();
  const confirmation = usePasswordConfirmation();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [asking, setAsking] = useState<Pending>(null);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const carryOn = continuePath(params.get('continue'));

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: TWO_FACTOR_STATUS_KEY });
    void queryClient.invalidateQueries({ queryKey: AUTH_CHECK_KEY });
  };

  async function start() {
    try {
      // Starting enrolment needs a recent sign-in or the password too: a stolen session cannot add its own app.
      await confirmation.run(async (password) => setSetup(await enable.mutateAsync(password)));
    } catch (error) {
      toast.error(messageFor(error, 'Two-factor setup could not be started. Please try again.'));
    }
  }

  function onConfirmed(recoveryCodes: string[]) {
    setSetup(null);
    setCodes(recoveryCodes);
    try {
      window.localStorage.removeItem(MFA_SETUP_FLAG);
    } catch {
      // Nothing stored when storage is unavailable.
    }
    refresh();
    toast.success('Two-factor authentication is on.');
  }

  async function runConfirmed(kind: Exclude<Pending, null>) {
    setAsking(null);
    const action =
      kind === 'regenerate'
        ? async (password?: string) => {
            setCodes(await regenerate.mutateAsync(password));
            refresh();
          }
        : async (password?: string) => {
            await disable.mutateAsync(password);
            setCodes(null);
            refresh();
            toast.success('Two-factor authentication is off.');
          };
    try {
      await confirmation.run(action);
    } catch (error) {
      toast.error(messageFor(error, 'The change could not be saved. Please try again.'));
    }
  }

  let body: ReactNode;
  if (status.isPending) {
    body = (
      <Center py="xl" role="status" aria-label="Loading your two-factor settings">
        <Loader />
      </Center>
    );
  } else if (status.isError) {
    body = (
      <Stack gap="sm" align="flex-start">
        <Alert color="red" variant="light" w="100%">
          Your two-factor settings could not be loaded. Please try again.
        </Alert>
        <Button variant="default" loading={status.isFetching} onClick={() => void status.refetch()}>
          Try again
        </Button>
      </Stack>
    );
  } else {
    const current = status.data;
    body = (
      <Stack gap="lg">
        <StatusSummary status={current} />
        {codes && (
          <RecoveryCodes
            codes={codes}
            onDone={() => {
              setCodes(null);
              if (carryOn) void navigate(carryOn);
            }}
          />
        )}
        {carryOn && current.enabled && !codes && (
          <Button component={Link} to={carryOn} w="fit-content">
            Continue where you were
          </Button>
        )}
        {setup ? (
          <SetupTwoFactor
            setup={setup}
            confirmation={confirmation.run}
            onConfirmed={onConfirmed}
            onCancel={() => setSetup(null)}
          />
        ) : current.enabled ? (
          <Group gap="sm">
            <Button variant="default" onClick={() => setAsking('regenerate')} loading={regenerate.isPending}>
              Regenerate recovery codes
            </Button>
            <Button variant="outline" color="red.9" onClick={() => setAsking('disable')} loading={disable.isPending}>
              Disable two-factor authentication
            </Button>
          </Group>
        ) : (
          <Button onClick={start} loading={enable.isPending} w="fit-content">
            {current.pending ? 'Continue setup' : 'Set up two-factor authentication'}
          </Button>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        Two-factor authentication
      </Title>
      <Text c="dimmed" maw="40rem">
        Two-factor authentication asks for a code from an app on your phone when you sign in, so a stolen password alone
        cannot open your account.
      </Text>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        {body}
      </Paper>
      <ConfirmActionModal
        opened={asking === 'regenerate'}
        title="Regenerate recovery codes?"
        message="New recovery codes replace the current ones: the old codes stop working at once."
        confirmLabel="Regenerate"
        onConfirm={() => void runConfirmed('regenerate')}
        onCancel={() => setAsking(null)}
      />
      <ConfirmActionModal
        opened={asking === 'disable'}
        title="Disable two-factor authentication?"
        message="Signing in will then need only your password. Your recovery codes stop working."
        confirmLabel="Disable"
        danger
        onConfirm={() => void runConfirmed('disable')}
        onCancel={() => setAsking(null)}
      />
      <PasswordConfirmModal {...confirmation.modal} />
    </Stack>
  );
}

function StatusSummary({ status }: { status: TwoFactorStatus }) {
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Text fw={600}>Status</Text>
        {status.enabled ? (
          <Badge color="teal.9" variant="filled">
            On
          </Badge>
        ) : (
          <Badge color="gray.7" variant="filled">
            Off
          </Badge>
        )}
      </Group>
      {status.enabled && status.confirmed_at && <Text size="sm">Turned on {formatDateLong(status.confirmed_at)}.</Text>}
      {status.enabled && (
        <Text size="sm" c={status.recovery_codes_remaining <= 2 ? 'red.8' : undefined}>
          Recovery codes left: {status.recovery_codes_remaining}
          {status.recovery_codes_remaining <= 2 ? '. Regenerate them before you run out.' : ''}
        </Text>
      )}
      {!status.enabled && status.pending && <Text size="sm">Setup was started but not finished.</Text>}
      {!status.enabled && status.required && (
        <Alert color="yellow" variant="light">
          Your role requires two-factor authentication.{' '}
          {status.grace_days_remaining !== null && status.grace_days_remaining > 0
            ? `Set it up within ${status.grace_days_remaining} ${status.grace_days_remaining === 1 ? 'day' : 'days'} to keep access.`
            : 'Set it up now to continue.'}
        </Alert>
      )}
    </Stack>
  );
}

import { Button, Divider, Group, Stack, Text } from '@mantine/core';
import { INVITATION_TTL_DAYS } from '@portal/shared';
import { Fragment, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { PasswordConfirmModal } from '../../../components/PasswordConfirmModal';
import { messageFor } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { usePasswordConfirmation } from '../../../lib/use-password-confirmation';
import type { SuperUserDetail } from '../api/get-user';
import { type UserAction, useUserAction } from '../api/user-action';
import { UserCard } from './UserCard';
import { fullName } from './user-display';

interface ActionSpec {
  action: UserAction;
  label: string;
  description: string;
  danger?: boolean;
  confirm?: { title: string; message: string };
  done: string;
}

/** The actions that apply to the account as it is now. */
export function actionsFor(user: SuperUserDetail): ActionSpec[] {
  const name = fullName(user);
  const actions: ActionSpec[] = [];
  if (user.locked) {
    actions.push({
      action: 'unlock',
      label: 'Unlock',
      description: 'Lets them try to sign in again now instead of waiting.',
      done: 'Account unlocked.',
    });
  }
  if (user.status === 'invited') {
    actions.push({
      action: 'resend-invitation',
      label: 'Resend invitation',
      description: `Emails a new set-password link that works for ${INVITATION_TTL_DAYS} days.`,
      done: `Invitation sent again to ${user.email}.`,
    });
  }
  if (user.password_set && user.status === 'active') {
    actions.push({
      action: 'send-password-reset',
      label: 'Send password reset',
      description: 'Emails them a link to choose a new password.',
      done: `Password reset email sent to ${user.email}.`,
    });
  }
  if (user.two_factor_enabled) {
    actions.push({
      action: 'reset-two-factor',
      label: 'Reset two-factor',
      description: 'Turns off their two-factor authentication, for example after a lost phone.',
      danger: true,
      confirm: {
        title: 'Reset two-factor authentication?',
        message: `${name}'s authenticator app and recovery codes stop working at once. They must set up two-factor authentication again.`,
      },
      done: 'Two-factor authentication reset.',
    });
  }
  if (user.status === 'disabled') {
    actions.push({
      action: 'enable',
      label: 'Enable account',
      description: 'Lets them sign in again. Sessions that ended stay ended.',
      done: 'Account enabled.',
    });
  } else {
    actions.push({
      action: 'disable',
      label: 'Disable account',
      description: 'Blocks sign-in and ends all of their sessions at once.',
      danger: true,
      confirm: {
        title: 'Disable this account?',
        message: `${name} can no longer sign in, and all of their sessions end at once. You can enable the account again later.`,
      },
      done: 'Account disabled.',
    });
  }
  return actions;
}

/** Sign-in facts and the actions on the account: POST /super/users/{id}/{action}, each answering the detail. */
export function UserActionsCard({ user }: { user: SuperUserDetail }) {
  const run = useUserAction(user.id);
  const confirmation = usePasswordConfirmation();
  const [confirming, setConfirming] = useState<ActionSpec | null>(null);
  const actions = actionsFor(user);

  async function perform(spec: ActionSpec) {
    try {
      // reset-two-factor may answer 423 (the superadmin's own confirmation is stale): asked, then sent again.
      const done = await confirmation.run(async (password) => {
        await run.mutateAsync({ action: spec.action, ...(password === undefined ? {} : { password }) });
      });
      if (done) toast.success(spec.done);
    } catch (error) {
      // e.g. 409: a superadmin cannot disable their own account.
      toast.error(messageFor(error, `${spec.label} failed. Please try again.`));
    }
  }

  return (
    <UserCard title="Security and access" id="user-security">
      <Stack gap={6}>
        <Fact label="Two-factor authentication" value={user.two_factor_enabled ? 'On' : 'Off'} />
        <Fact label="Password" value={user.password_set ? 'Set' : 'Not set yet'} />
        <Fact label="Last sign-in" value={user.last_login_at ? formatDateTime(user.last_login_at) : 'Never'} />
        <Fact label="Created" value={formatDateTime(user.created_at)} />
      </Stack>
      <Divider />
      <Stack gap="md">
        {actions.map((spec, index) => (
          <Fragment key={spec.action}>
            {index > 0 && <Divider variant="dashed" />}
            <Stack gap={6} align="flex-start">
              <Text size="sm">{spec.description}</Text>
              <Button
                variant={spec.danger ? 'outline' : 'default'}
                color={spec.danger ? 'red.8' : undefined}
                loading={run.isPending && run.variables?.action === spec.action}
                disabled={run.isPending && run.variables?.action !== spec.action}
                onClick={() => (spec.confirm ? setConfirming(spec) : void perform(spec))}
              >
                {spec.label}
              </Button>
            </Stack>
          </Fragment>
        ))}
      </Stack>
      <ConfirmActionModal
        opened={confirming !== null}
        title={confirming?.confirm?.title ?? ''}
        message={confirming?.confirm?.message ?? ''}
        confirmLabel={confirming?.label ?? ''}
        danger
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const spec = confirming;
          setConfirming(null);
          if (spec) void perform(spec);
        }}
      />
      <PasswordConfirmModal {...confirmation.modal} />
    </UserCard>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right">
        {value}
      </Text>
    </Group>
  );
}

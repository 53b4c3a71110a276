import { Alert, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { MESSAGES } from '@portal/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { type MfaWarningDetail, mfaWarningMessage } from '../../../lib/api';
import { AUTH_CHECK_KEY, MFA_SETUP_FLAG, useSession, useSignOut } from '../../../lib/session';
import { useStoredChoice } from '../../../lib/stored-choice';

export const TWO_FACTOR_SETTINGS_PATH = '/two-factor-settings';
export const MFA_REQUIRED_TITLE = 'Two-Factor Authentication Required';
/** After Cancel, a burst of mfa-required events from requests already in flight does not reopen the modal. */
const REQUIRED_QUIET_MS = 3000;

/** /two-factor-settings, bringing the user back to `from` once two-factor is on. */
export function twoFactorSetupPath(from: string): string {
  return from.startsWith(TWO_FACTOR_SETTINGS_PATH) || from === '/'
    ? TWO_FACTOR_SETTINGS_PATH
    : `${TWO_FACTOR_SETTINGS_PATH}?${new URLSearchParams({ continue: from })}`;
}

/** YYYY-MM-DD of the person's own day. */
function localDay(moment: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`;
}

function readSetupFlag(): boolean {
  try {
    return window.localStorage.getItem(MFA_SETUP_FLAG) === 'true';
  } catch {
    return false;
  }
}

function isWarning(detail: unknown): detail is MfaWarningDetail {
  if (typeof detail !== 'object' || detail === null) return false;
  const { message, days_remaining } = detail as Partial<MfaWarningDetail>;
  return typeof message === 'string' && typeof days_remaining === 'number';
}

/**
 * The two-factor banners of SPEC section 2: a yellow warning with the days remaining (from the session check, the
 * `mfa-warning` event every answer raises while the grace period runs, or the 'mfa_setup_required' flag the login
 * stores) and the blocking 'Two-Factor Authentication Required' modal, open while the grace period is over (the
 * session check says so, or an `mfa-required` answer arrives). Neither shows on /two-factor-settings. Repeated
 * events change nothing once shown or dismissed; the warning stays dismissed until the next day.
 */
export function TwoFactorBanners() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const mfa = session.status === 'signed-in' ? session.user.mfa : undefined;
  const [eventWarning, setEventWarning] = useState<MfaWarningDetail | null>(() =>
    readSetupFlag() ? { message: MESSAGES.mfaRequired, days_remaining: -1 } : null,
  );
  // Dismissed for the rest of the day (per person and browser): a nurse on a shared screen is not asked on every page.
  const today = localDay(new Date());
  const userId = session.status === 'signed-in' ? session.user.id : 0;
  const [dismissedOn, setDismissedOn] = useStoredChoice(`mfa_warning_dismissed:${userId}`, [today], '');
  const warningDismissed = dismissedOn === today;
  const [requiredByAnswer, setRequiredByAnswer] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  const quietUntil = useRef(0);

  useEffect(() => {
    const onWarning = (event: Event) => {
      const detail = (event as CustomEvent<unknown>).detail;
      // 0 days: the grace period is over, which the modal says.
      if (!isWarning(detail) || detail.days_remaining === 0) return;
      setEventWarning((current) =>
        current && current.message === detail.message && current.days_remaining === detail.days_remaining
          ? current
          : detail,
      );
    };
    const onRequired = () => {
      // The grace period ended while the portal was open: the session check now says so, and the gate follows.
      void queryClient.invalidateQueries({ queryKey: AUTH_CHECK_KEY });
      if (Date.now() < quietUntil.current) return;
      setRequiredByAnswer(true);
      setCancelled(false);
    };
    window.addEventListener('mfa-warning', onWarning);
    window.addEventListener('mfa-required', onRequired);
    return () => {
      window.removeEventListener('mfa-warning', onWarning);
      window.removeEventListener('mfa-required', onRequired);
    };
  }, [queryClient]);

  const enabled = session.status === 'signed-in' && session.user.two_factor_confirmed_at !== null;
  if (pathname === TWO_FACTOR_SETTINGS_PATH || enabled) return null;

  const overdue = mfa?.overdue === true;
  const sessionWarning =
    mfa?.required && !overdue && mfa.days_remaining !== null
      ? { message: mfaWarningMessage(mfa.days_remaining), days_remaining: mfa.days_remaining }
      : null;
  const warning = overdue
    ? null
    : (eventWarning?.days_remaining ?? -1) >= 0
      ? eventWarning
      : (sessionWarning ?? eventWarning);
  const setupPath = twoFactorSetupPath(pathname + search);

  const cancel = () => {
    quietUntil.current = Date.now() + REQUIRED_QUIET_MS;
    setRequiredByAnswer(false);
    setCancelled(true);
  };
  const setUp = () => {
    setRequiredByAnswer(false);
    void navigate(setupPath);
  };

  return (
    <>
      {warning && !warningDismissed && (
        <Alert
          // SPEC: yellow. The theme's shade 8 of yellow is orange; shade 3 is yellow, and dark text reads on it.
          color="yellow.3"
          variant="filled"
          c="dark.9"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setDismissedOn(today)}
          role="status"
          mb="md"
          styles={{
            message: { color: 'var(--mantine-color-dark-9)' },
            closeButton: { color: 'var(--mantine-color-dark-9)' },
          }}
        >
          <Group justify="space-between" gap="sm">
            <div>
              <Text size="sm" fw={600}>
                {warning.message}
              </Text>
              {warning.days_remaining >= 0 && (
                <Text size="sm">
                  Days remaining: <strong>{warning.days_remaining}</strong>
                </Text>
              )}
            </div>
            <Button component={Link} to={setupPath} size="xs" color="dark.9">
              Set Up Now
            </Button>
          </Group>
        </Alert>
      )}
      <Modal
        opened={(overdue || requiredByAnswer) && !cancelled}
        onClose={cancel}
        title={MFA_REQUIRED_TITLE}
        centered
        closeOnClickOutside={false}
        closeOnEscape={false}
        withCloseButton={false}
      >
        <Text mb="lg">{MESSAGES.mfaRequired}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={cancel}>
            Cancel
          </Button>
          <Button onClick={setUp} data-autofocus>
            Set Up Now
          </Button>
        </Group>
      </Modal>
    </>
  );
}

/**
 * What an overdue account sees in place of any screen but /two-factor-settings (behind the modal, and after
 * Cancel): why, and the two ways on.
 */
export function TwoFactorRequiredPanel() {
  const { pathname, search } = useLocation();
  const signOut = useSignOut();
  const [signingOut, setSigningOut] = useState(false);
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw="40rem">
      <Stack gap="md" align="flex-start">
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          Set up two-factor authentication to continue
        </Title>
        <Text>{MESSAGES.mfaRequired}</Text>
        <Text c="dimmed" size="sm">
          It takes a minute with an authenticator app on your phone. You come back here afterwards, still signed in.
        </Text>
        <Group gap="sm">
          <Button component={Link} to={twoFactorSetupPath(pathname + search)}>
            Set Up Now
          </Button>
          <Button
            variant="default"
            loading={signingOut}
            onClick={() => {
              setSigningOut(true);
              void signOut().finally(() => setSigningOut(false));
            }}
          >
            Log out
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

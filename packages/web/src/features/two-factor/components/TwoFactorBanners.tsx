import { Alert, Button, Group, Modal, Text } from '@mantine/core';
import { MESSAGES } from '@portal/shared';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { MfaWarningDetail } from '../../../lib/api';
import { MFA_SETUP_FLAG } from '../../../lib/session';

export const TWO_FACTOR_SETTINGS_PATH = '/two-factor-settings';
export const MFA_REQUIRED_TITLE = 'Two-Factor Authentication Required';
/** After Cancel, a burst of mfa-required events from requests already in flight does not reopen the modal. */
const REQUIRED_QUIET_MS = 3000;

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
 * The two-factor banners of SPEC section 2: a yellow warning (on `mfa-warning`, or the 'mfa_setup_required' flag
 * the login stores) and the blocking 'Two-Factor Authentication Required' modal (on `mfa-required`). Neither shows
 * on /two-factor-settings. Repeated events (every API response carries the grace header) change nothing once shown
 * or dismissed.
 */
export function TwoFactorBanners() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [warning, setWarning] = useState<MfaWarningDetail | null>(() =>
    readSetupFlag() ? { message: MESSAGES.mfaRequired, days_remaining: -1 } : null,
  );
  const [warningDismissed, setWarningDismissed] = useState(false);
  const [required, setRequired] = useState(false);
  const quietUntil = useRef(0);

  useEffect(() => {
    const onWarning = (event: Event) => {
      const detail = (event as CustomEvent<unknown>).detail;
      if (!isWarning(detail)) return;
      setWarning((current) =>
        current && current.message === detail.message && current.days_remaining === detail.days_remaining
          ? current
          : detail,
      );
    };
    const onRequired = () => {
      if (Date.now() < quietUntil.current) return;
      setRequired(true);
    };
    window.addEventListener('mfa-warning', onWarning);
    window.addEventListener('mfa-required', onRequired);
    return () => {
      window.removeEventListener('mfa-warning', onWarning);
      window.removeEventListener('mfa-required', onRequired);
    };
  }, []);

  if (pathname === TWO_FACTOR_SETTINGS_PATH) return null;

  const cancel = () => {
    quietUntil.current = Date.now() + REQUIRED_QUIET_MS;
    setRequired(false);
  };
  const setUp = () => {
    setRequired(false);
    void navigate(TWO_FACTOR_SETTINGS_PATH);
  };

  return (
    <>
      {warning && !warningDismissed && (
        <Alert
          color="yellow"
          variant="filled"
          c="dark.9"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setWarningDismissed(true)}
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
            <Button component={Link} to={TWO_FACTOR_SETTINGS_PATH} size="xs" color="dark.9">
              Set Up Now
            </Button>
          </Group>
        </Alert>
      )}
      <Modal
        opened={required}
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

import { Button, Group, Modal, Text } from '@mantine/core';
import { useCallback, useRef } from 'react';
import { usePublicConfig } from '../../../lib/public-config';
import { useSignOut } from '../../../lib/session';
import { type InactivityClock, systemClock, useInactivityTimer } from '../hooks/use-inactivity-timer';

export function countdownText(seconds: number): string {
  return `You will be signed out in ${seconds} ${seconds === 1 ? 'second' : 'seconds'} due to inactivity.`;
}

/**
 * Signs the user out after the configured inactivity (GET /api/public/config), with a warning a minute before.
 * Mounted once by the signed-in layout, so public pages never run it.
 */
export function InactivityMonitor({ clock = systemClock }: { clock?: InactivityClock }) {
  const { config } = usePublicConfig();
  const signOut = useSignOut();
  const signingOut = useRef(false);

  const onExpire = useCallback(() => {
    if (signingOut.current) return;
    signingOut.current = true;
    void signOut('inactivity').finally(() => {
      signingOut.current = false;
    });
  }, [signOut]);

  const timeoutMs = config ? config.inactivityTimeoutMinutes * 60_000 : null;
  const { secondsLeft, stayActive } = useInactivityTimer({ timeoutMs, onExpire, clock });

  return (
    <Modal
      opened={secondsLeft !== null}
      onClose={stayActive}
      title="Are you still there?"
      centered
      closeOnClickOutside={false}
      withCloseButton={false}
    >
      <Text mb="lg">{countdownText(secondsLeft ?? 0)}</Text>
      <Group justify="flex-end">
        <Button onClick={stayActive} data-autofocus>
          Stay signed in
        </Button>
      </Group>
    </Modal>
  );
}

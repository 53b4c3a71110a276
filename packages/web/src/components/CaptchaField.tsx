import { Skeleton } from '@mantine/core';
import type { PublicConfig } from '@portal/shared';
import { useCallback, useRef, useState } from 'react';
import { Captcha, type CaptchaHandle } from './Captcha';

/**
 * The captcha of a form (login, lost password, reset): its state, what to send, and the field to render. While the
 * public config loads it shows a placeholder of the widget's height; with CAPTCHA_PROVIDER=off it renders nothing
 * and sends nothing.
 */
export function useCaptchaField(
  captcha: PublicConfig['captcha'] | undefined,
  options: { id: string; onVerified?: () => void },
) {
  const [solution, setSolution] = useState<string | null>(null);
  const ref = useRef<CaptchaHandle>(null);
  const onVerifiedOption = useRef(options.onVerified);
  onVerifiedOption.current = options.onVerified;
  const enabled = captcha?.provider !== 'off';

  const onVerified = useCallback((payload: string) => {
    setSolution(payload);
    onVerifiedOption.current?.();
  }, []);
  const onCleared = useCallback(() => setSolution(null), []);

  return {
    /** The payload to send, or undefined when the captcha is off or not solved. */
    payload: enabled ? (solution ?? undefined) : undefined,
    /** On, and not solved yet: the form shows 'Please complete the captcha.' */
    missing: enabled && !solution,
    /** A solution is accepted once: after every attempt the user solves a new challenge. */
    reset: () => ref.current?.reset(),
    field: (error?: string) => {
      if (!captcha) return <Skeleton h={74} aria-label="Loading the captcha" role="status" />;
      if (!enabled) return null;
      return (
        <Captcha
          ref={ref}
          challengeUrl={captcha.challengeUrl}
          onVerified={onVerified}
          onCleared={onCleared}
          error={error ?? null}
          id={options.id}
        />
      );
    },
  };
}
